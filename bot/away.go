package bot

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// Time nobody ran the timers (storage/away.go): the bot's process was down
// (a crash, a deploy, a reboot), or no process held the lease, or the one
// that ran them lost its gateway connection (gatewayaway.go: it holds its
// timers until it is connected again, and then gives the time back here).
// Discord does not hand the bot the DMs sent to it meanwhile, so a player
// could not move:
// the process that runs the timers records every aliveEvery that it is
// alive (and once more as it stops), and when it starts (once connected
// to the gateway, the DMs and commands held until then), or takes the
// lease over,
// before any timer of its own runs, it gives each active match the part of
// the time since that its clock ran (creditAway). Its player who must act
// is told, and asked to send again a move sent meanwhile. Each tournament is
// given it first, on the deadlines its players race against
// (creditTournaments), and its channel told of a round's new deadline.

// aliveEvery is how often the process that runs the timers records that it
// is alive: a crash gives back at most this much more than the time it was
// really down.
const aliveEvery = 30 * time.Second

// The texts of time given back: to the player who must act, and in the
// history.
const (
	txtAwayMove         = "I was away from <t:%[1]s:f> to <t:%[2]s:f>, and your clock stood still. Your move is now due <t:%[3]s:R>. If you sent me a move in that time, send it again."
	txtAwaySetup        = "I was away from <t:%[1]s:f> to <t:%[2]s:f>, and your clock stood still. Your set-up is now due <t:%[3]s:R>. If you sent me your set-up in that time, send it again."
	txtHistoryAway      = "I was away from <t:%[1]s:f> to <t:%[2]s:f>; %[3]s's clock stood still."
	txtHistoryAwaySetup = "I was away from <t:%[1]s:f> to <t:%[2]s:f>; the set-up clock stood still."
)

// creditAway records that this process, about to run the timers, is alive,
// and gives each active match the part of the time since the last record
// (when it is longer than storage.AwayGrace) that its clock ran; it
// returns the matches given time. It runs before any timer of this process
// does: on bbolt as the bot starts, once connected to the gateway (a start
// that cannot connect records nothing), the DMs and commands that came
// meanwhile held until it is done (holdUntilHeard), so that none meets a
// deadline the time away has not moved yet; on a shared
// database as this process takes the lease (a process that does not lead
// runs no timer: it times nobody out); and as the gateway connection comes
// back after it was lost (gatewayBack).
func (b *Bot) creditAway(ctx context.Context) []*storage.Match {
	defer b.awayGivenBack() // or it failed: the requests held wait no longer
	now := b.now()
	last, err := b.store.Alive(ctx, now)
	if err != nil {
		b.log.Warn("recording that the timers run failed", "error", err)
		return nil
	}
	if !last.IsZero() {
		// A vacation ended in its player's settings as this process, or
		// the one before, stopped may hold clocks still: the next look
		// for vacations, at once, reaches back that far (endedVacation).
		b.vacationsReachBack(last.Add(-vacationSettle))
	}
	away := now.Sub(last).Truncate(time.Second)
	if last.IsZero() || away <= storage.AwayGrace {
		return nil
	}
	b.log.Info("nobody ran the timers for a while; the clocks that ran meanwhile are given that time back", "since", last, "away", away)
	// The record goes back to last until every match has its time: a
	// process that dies on the way gives it again when it is back, and
	// the matches that had it already get none twice (storage.ActAway).
	if _, err := b.store.Alive(ctx, last); err != nil {
		b.log.Warn("recording that the timers run failed", "error", err)
		return nil
	}
	b.creditTournaments(ctx, last, now) // before their matches: see there
	timers, err := b.store.DueDeadlines(ctx, farFuture, 0)
	if err != nil {
		b.log.Error("reading the matches to give time back failed", "error", err)
		return nil
	}
	seen := map[storage.MatchID]bool{}
	var credited []*storage.Match
	for _, d := range timers {
		id := storage.MatchID(d.ID)
		if d.Kind == storage.DeadlineChallenge || seen[id] {
			continue
		}
		seen[id] = true
		m, err := b.store.Act(ctx, id, 0, storage.Action{Kind: storage.ActAway, Away: away, At: now})
		if err != nil {
			quiet := errors.Is(err, storage.ErrNotDue) || errors.Is(err, storage.ErrGameOver) || errors.Is(err, storage.ErrRoundOver) || errors.Is(err, storage.ErrNotFound)
			if !quiet {
				b.log.Warn("giving a match the time away back failed", "match", id, "error", err)
			}
			continue
		}
		b.afterChange(ctx, m, nil)
		credited = append(credited, m)
	}
	if _, err := b.store.Alive(ctx, now); err != nil {
		b.log.Warn("recording that the timers run failed", "error", err)
	}
	b.nudgeOutbox()
	return credited
}

// computerAfterAway lets the computer move in each of credited, the matches
// given back the time away before the bot connected, that it is to move
// in: its turn, cut by the stop, would otherwise wait for its timer. Before
// the bot is connected it does not know its own user, so afterChange could
// not tell that the computer was to move (isComputer).
func (b *Bot) computerAfterAway(ctx context.Context, credited []*storage.Match) {
	for _, m := range credited {
		if b.computerToMove(m) {
			b.goComputer(func() { b.computerTurn(ctx, m) })
		}
	}
}

// awayGivenBack lets the requests afterAway holds through.
func (b *Bot) awayGivenBack() { b.awayOnce.Do(func() { close(b.awayGiven) }) }

// afterAway holds each request to h, the board in the browser, until the
// time away has been given back: the web server listens before the bot
// runs, and a page must neither have a move refused against a deadline the
// time away has not yet moved nor show that deadline. Alone on its
// database the bot gives it back as Run starts (creditAway). On a shared
// database nothing is held: a process that does not lead times nobody
// out, and the one that takes the lease gives the time back before its
// timers run.
func (b *Bot) afterAway(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-b.awayGiven:
		default:
			select {
			case <-b.awayGiven:
			case <-r.Context().Done():
				return // given up while held
			}
		}
		h.ServeHTTP(w, r)
	})
}

// farFuture is later than any timer: DueDeadlines and DueTournaments up to
// it list every timer.
var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// creditTournaments gives each tournament not yet over the time nobody ran
// the timers, from from to to, on the timers its players race against
// (storage.Tournament.GiveAway): a round's deadline, a join deadline and
// the start with it. It runs before the matches are given theirs: each
// match of the round keeps its deadline (storage.Match.RoundEnds), which
// moves with the tournament's, so that neither the time its clock is given
// back nor what its players do then is refused as after it. The matches'
// deadlines are brought up to the tournament's even when it had the time
// already, for a process that died between the two.
func (b *Bot) creditTournaments(ctx context.Context, from, to time.Time) {
	due, unreadable, err := b.dueTournaments(ctx, farFuture)
	if err != nil {
		b.log.Error("reading the tournaments to give time back failed", "error", err)
		return
	}
	if unreadable != nil {
		// The others are given their time all the same.
		b.log.Error("tournaments that cannot be read are given no time back", "tournaments", unreadable.IDs, "error", unreadable)
	}
	for _, t := range due {
		if t.Done {
			continue
		}
		moved := false
		after, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
			var err error
			moved, err = x.GiveAway(from, to)
			return err
		})
		switch {
		case errors.Is(err, storage.ErrNotDue):
			after = t
		case err != nil:
			b.log.Warn("giving a tournament the time away back failed", "tournament", t.ID, "error", err)
			continue
		case moved:
			b.log.Info("a tournament round's deadline moved on by the time away", "tournament", t.ID, "deadline", after.RoundDeadline)
		}
		b.keepRoundEnds(ctx, after)
	}
}

// keepRoundEnds gives each match still on of t's round under way the
// round's deadline, when it has an earlier one: the deadline moved on by
// time away (creditTournaments).
func (b *Bot) keepRoundEnds(ctx context.Context, t *storage.Tournament) {
	state, err := t.State()
	if err != nil || len(state.Rounds()) == 0 || state.AllPairedComplete() || t.RoundDeadline.IsZero() {
		return
	}
	round := len(state.Rounds())
	if t.Rules.AllAtOnce {
		round = 0 // the one deadline is every round's
	}
	pending := map[boardRef]bool{}
	for _, at := range pendingBoards(state.Rounds(), round) {
		pending[at] = true
	}
	deadline := t.RoundDeadline
	for _, g := range t.Games {
		if !pending[boardRef{g.Round, g.Board}] {
			continue
		}
		_, err := b.store.UpdateMatch(ctx, g.Match, 0, func(x *storage.Match) error {
			if !x.Phase.Active() || x.RoundEnds.IsZero() || !x.RoundEnds.Before(deadline) {
				return errNothingToRecord
			}
			x.RoundEnds = deadline
			return nil
		})
		if err != nil && !errors.Is(err, errNothingToRecord) && !errors.Is(err, storage.ErrNotFound) {
			b.log.Warn("moving a tournament match's round deadline on failed", "tournament", t.ID, "match", g.Match, "error", err)
		}
	}
}

// recordAlive records that this process, which runs the timers, is alive.
func (b *Bot) recordAlive(ctx context.Context) {
	if !b.runsTimers() {
		return
	}
	if _, err := b.store.Alive(ctx, b.now()); err != nil && ctx.Err() == nil {
		b.log.Warn("recording that the timers run failed", "error", err)
	}
}

// runAlive records every aliveEvery that this process is alive, while it
// runs the timers, until ctx ends.
func (b *Bot) runAlive(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(aliveEvery):
		}
		b.recordAlive(ctx)
	}
}

// away tells a player who must act that their clock was given back the
// time nobody ran the timers, while the turn (or the set-ups) it was given
// to is still on.
func (c *matchNotice) away() []outgoing {
	n, m, p, side := c.n, c.m, c.p, c.side
	if n.Log > len(m.Log) || n.Log < 1 || !m.Owes(side) || !m.ClockRunning() {
		return nil
	}
	if m.Phase == storage.PhasePlaying && !m.SameTurn(n.Log) {
		return nil // moved since: the time it was given is spent
	}
	a := m.Log[n.Log-1]
	format := txtAwayMove
	if m.Phase == storage.PhaseSetup {
		format = txtAwaySetup
	}
	return c.text(p.Sprintf(format, unix(a.AwayFrom()), unix(a.At), unix(m.Deadline)))
}
