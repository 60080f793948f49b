package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// Tournaments a server runs for weeks (/stratego tournament). A tournament
// lives in storage as its log of events (package tournament); the bot adds
// the clock and Discord:
//   - members create, join, leave, withdraw from and cancel tournaments
//     (tournamentcmd.go);
//   - the timers' pass (timers.go, run by the one process that holds the
//     lease of the timers) pairs each round when it is due — at the start,
//     when the last game of the round ends, or at the round's deadline,
//     which first scores the games still on as the rules say — and starts
//     its matches as an accepted challenge starts one: the players get
//     their set-up DMs from the outbox; a round robin created since they
//     exist is played all at once (Rules.AllAtOnce): the pass pairs every
//     round at the start, in one change, starts every match, and comes
//     back at the one deadline (allAtOnceDeadline) or when the last game
//     ends;
//   - the end of a tournament match, however it ended (afterChange), records
//     its result;
//   - every change the channel must hear of (a pairing, a result with the
//     standings, a withdrawal, the end) owes its announcement, recorded by
//     storage with the change and posted by the outbox (tournamentnotices.go).
//
// Round robins stored before Rules.AllAtOnce existed keep being played a
// round of their Berger schedule at a time, as Swiss events are.

// Limits of tournaments.
const (
	maxOpenPerCreator   = 2  // tournaments not yet over that one member created
	maxOpenPerServer    = 5  // tournaments not yet over on one server
	maxTournamentPlayer = 64 // the highest player limit a tournament may have
	// maxRoundRobinPlayers bounds a round robin, whose games all start at
	// once: 20 players have 19 games each going (38 in a double one), and
	// the event 190 (380) matches.
	maxRoundRobinPlayers = 20
)

// tournamentResult is how a tournament scores a match that ended: its
// result on the board; or, called off with no result, a forfeit of the side
// whose set-up never came (of both when neither, or when the match was
// called off in play).
func tournamentResult(m *storage.Match) tournament.Result {
	if m.Phase == storage.PhaseFinished {
		switch m.Result.Outcome {
		case game.RedWon:
			return tournament.RedWon
		case game.BlueWon:
			return tournament.BlueWon
		case game.Drawn:
			return tournament.Drawn
		}
	}
	red := m.Setups[game.Red].Status == storage.SetupConfirmed
	blue := m.Setups[game.Blue].Status == storage.SetupConfirmed
	switch {
	case red && !blue:
		return tournament.BlueForfeited
	case blue && !red:
		return tournament.RedForfeited
	}
	return tournament.DoubleForfeit
}

// tournamentGameOver records the result of a tournament match that ended,
// once: a result already recorded (a round closed, a withdrawal) stays. When
// it completes the round (or, all at once, the event), the tournament's
// timer is set to now, and the process that runs the timers pairs the next
// round or ends it. In a round robin played all at once, no pairing comes
// to find those who left the server: a player of the match who left is
// withdrawn now.
func (b *Bot) tournamentGameOver(ctx context.Context, m *storage.Match) {
	if m.Phase.Active() || m.GuildID == "" || m.Practice() {
		return
	}
	link, err := b.store.MatchTournament(ctx, m.ID)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			b.log.Warn("reading a match's tournament failed", "match", m.ID, "error", err)
		}
		return
	}
	result := tournamentResult(m)
	t, err := b.updateTournament(ctx, link.Tournament, func(x *storage.Tournament) error {
		state, err := x.State()
		if err != nil {
			return err
		}
		if state.Status() == tournament.CancelledStatus {
			return errNothingToRecord // a cancelled tournament records nothing more: its matches were called off
		}
		rounds := state.Rounds()
		if link.Round > len(rounds) || rounds[link.Round-1].Games[link.Board-1].Result.Done() {
			return errNothingToRecord // scored already
		}
		x.Log = append(x.Log, tournament.Record(link.Round, link.Board, result))
		if after, err := x.State(); err == nil && after.AllPairedComplete() {
			x.RoundDeadline = b.now() // the next round, or the end, is due
		}
		return nil
	})
	if errors.Is(err, errNothingToRecord) {
		return
	}
	if err != nil {
		b.log.Warn("recording a tournament result failed", "tournament", link.Tournament, "match", m.ID, "error", err)
		return
	}
	b.log.Info("tournament result recorded", "tournament", t.ID, "round", link.Round, "board", link.Board, "result", result)
	if t.Rules.AllAtOnce {
		for _, p := range m.Players {
			b.withdrawLeaver(ctx, t, p.UserID)
		}
	}
	b.nudgeTimers()
}

// errNothingToRecord: the match's result is not for the tournament to
// record (scored already, or the tournament was cancelled); nothing is
// written.
var errNothingToRecord = errors.New("nothing to record")

// updateTournament changes a tournament at the version it reads, and reads
// it again when another change came first. The announcements the change
// owes are recorded with it, at this time, and the outbox is woken.
func (b *Bot) updateTournament(ctx context.Context, id storage.TournamentID, fn func(t *storage.Tournament) error) (*storage.Tournament, error) {
	stamped := func(t *storage.Tournament) error {
		t.Changed = b.now()
		return fn(t)
	}
	for attempt := 0; ; attempt++ {
		t, err := b.store.Tournament(ctx, id)
		if err != nil {
			return nil, err
		}
		t, err = b.store.UpdateTournament(ctx, id, t.Version, stamped)
		if err == nil {
			b.nudgeOutbox()
		}
		if !errors.Is(err, storage.ErrStale) || attempt == 5 {
			return t, err
		}
	}
}

// tournamentTimers runs the tournaments whose timer is due: called by the
// timers' pass, in the process that holds the lease.
func (b *Bot) tournamentTimers(ctx context.Context) {
	due, err := b.store.DueTournaments(ctx, b.now())
	if err != nil {
		b.log.Error("reading due tournaments failed", "error", err)
		return
	}
	for _, t := range due {
		b.guard(ctx, "tournament", func(ctx context.Context) { b.advanceTournament(ctx, t) })
	}
}

// nextTournamentWake is when the next tournament timer is due.
func (b *Bot) nextTournamentWake(ctx context.Context) (time.Time, bool) {
	at, ok, err := b.store.NextTournamentWake(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("reading the next tournament timer failed", "error", err)
		}
		return time.Time{}, false
	}
	return at, ok
}

// advanceTournament does what is due: closes a round whose deadline passed,
// pairs the next round or ends the tournament, and starts the matches of
// the round.
func (b *Bot) advanceTournament(ctx context.Context, t *storage.Tournament) {
	now := b.now()
	state, err := t.State()
	if err != nil {
		b.log.Error("a stored tournament does not replay", "tournament", t.ID, "error", err)
		return
	}
	if t.Starting {
		// The round was paired but its matches not all started (a crash).
		if t = b.startRound(ctx, t); t == nil || t.Starting {
			return
		}
	}
	rounds := state.Rounds()
	if n := len(rounds); n > 0 && !state.AllPairedComplete() {
		if now.Before(t.RoundDeadline) {
			return
		}
		if t.Rules.AllAtOnce {
			n = 0 // the one deadline closes every round
		}
		t = b.closeRound(ctx, t, n)
		if t == nil {
			return
		}
		if state, err = t.State(); err != nil {
			return
		}
	}
	if state.Status() == tournament.Finished || state.Status() == tournament.CancelledStatus {
		b.finishTournament(ctx, t)
		return
	}
	b.withdrawLeavers(ctx, t, state)
	var paired []tournament.Event
	before := t
	t, err = b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		s, err := x.State()
		if err != nil {
			return err
		}
		if x.Done || len(s.Rounds()) != len(rounds) || s.Status() == tournament.CancelledStatus {
			return errPairedAlready // another process moved it on meanwhile
		}
		if len(s.Rounds()) == 0 && len(s.Active()) < 2 {
			x.Log = append(x.Log, tournament.Cancel())
			x.Done = true
			return nil
		}
		if paired, err = roundsDue(s, x.Rules); err != nil {
			return fmt.Errorf("%w: %v", errNoRound, err)
		}
		x.Log = append(x.Log, paired...)
		x.RoundDeadline = now.Add(x.RoundTime)
		if x.Rules.AllAtOnce {
			x.RoundDeadline = allAtOnceDeadline(x.Changed, x.RoundTime, len(paired)) // x.Changed: the time its announcement tells
		}
		x.Starting = true
		if after, err := x.State(); err == nil && after.AllPairedComplete() {
			x.RoundDeadline = now // only forfeits and a bye: the next round is due
		}
		return nil
	})
	switch {
	case errors.Is(err, errPairedAlready):
		return
	case errors.Is(err, errNoRound):
		// Fewer than two players left in a Swiss event, or no legal
		// pairing: the tournament ends here.
		b.log.Info("no next round; the tournament ends", "tournament", before.ID, "error", err)
		b.finishTournament(ctx, before)
		return
	case err != nil:
		b.log.Warn("pairing a tournament round failed", "error", err)
		return
	case t.Done:
		return // cancelled: fewer than two players joined by its start
	}
	for _, e := range paired {
		b.log.Info("tournament round paired", "tournament", t.ID, "round", e.Round, "games", len(e.Games))
	}
	b.startRound(ctx, t)
}

// roundsDue returns the Paired events due: the next round's, or, for a
// round robin played all at once, every round's.
func roundsDue(s *tournament.Tournament, rules tournament.Rules) ([]tournament.Event, error) {
	if rules.AllAtOnce {
		return s.PairAll()
	}
	e, err := s.NextRound()
	if err != nil {
		return nil, err
	}
	return []tournament.Event{e}, nil
}

// allAtOnceDeadline is the one deadline of a round robin played all at
// once that starts at start with rounds rounds: a round's length for each,
// so that the event lasts no longer than played round by round.
func allAtOnceDeadline(start time.Time, roundTime time.Duration, rounds int) time.Time {
	return start.Add(roundTime * time.Duration(rounds))
}

// errNoRound: the next round cannot be paired; errPairedAlready: another
// process paired it or ended the tournament first.
var (
	errNoRound       = errors.New("no next round")
	errPairedAlready = errors.New("paired already")
)

// finishTournament marks a tournament done: the change owes its final
// standings (or, cancelled, nothing more).
func (b *Bot) finishTournament(ctx context.Context, t *storage.Tournament) {
	_, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		if x.Done {
			return errPairedAlready // another process ended it
		}
		x.Done = true
		x.RoundDeadline = time.Time{}
		return nil
	})
	if err != nil && !errors.Is(err, errPairedAlready) {
		b.log.Warn("finishing a tournament failed", "tournament", t.ID, "error", err)
	}
}

// closeRound scores the games of round still on at its deadline and calls
// their matches off; it returns the tournament after. Round 0 is the one
// deadline of a round robin played all at once, which closes every round.
// A game still in set-up is a forfeit win for the side that confirmed its
// set-up, and not begun when neither did; a game in play is scored as the
// rules say.
func (b *Bot) closeRound(ctx context.Context, t *storage.Tournament, round int) *storage.Tournament {
	setups := b.setupsAtDeadline(ctx, t, round)
	closed, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		s, err := x.State()
		if err != nil {
			return err
		}
		r := s.Rounds()
		if round == 0 && s.AllPairedComplete() || round > 0 && (len(r) != round || r[round-1].Complete()) {
			return nil
		}
		var notBegun []tournament.Pairing
		for _, at := range pendingBoards(r, round) {
			if res, ok := setups[at]; ok {
				g := r[at.round-1].Games[at.board-1]
				notBegun = append(notBegun, tournament.Pairing{Red: g.Red, Blue: g.Blue, Result: res})
			}
		}
		if round == 0 {
			x.Log = append(x.Log, tournament.CloseAll(notBegun...))
		} else {
			x.Log = append(x.Log, tournament.CloseRound(round, notBegun...))
		}
		return nil
	})
	if err != nil {
		b.log.Warn("closing a tournament round failed", "tournament", t.ID, "error", err)
		return nil
	}
	p := b.publicPrinter(t.GuildID)
	why := p.Sprintf("%[1]s: the round's deadline passed", closed.Name)
	if round == 0 {
		why = p.Sprintf("%[1]s: the tournament's deadline passed", closed.Name)
	}
	b.callOffRound(ctx, closed, round, why)
	return closed
}

// boardRef names a board of a tournament: board (from 1) of round.
type boardRef struct{ round, board int }

// pendingBoards lists the boards without a result of round, or of every
// round when round is 0.
func pendingBoards(rounds []tournament.Round, round int) []boardRef {
	var out []boardRef
	for _, r := range rounds {
		if round != 0 && r.Number != round {
			continue
		}
		for _, k := range r.Pending() {
			out = append(out, boardRef{r.Number, k + 1})
		}
	}
	return out
}

// setupsAtDeadline returns, by board, the result each game of round (of
// every round when 0) that has not begun takes at the deadline (see
// deadlineResult).
func (b *Bot) setupsAtDeadline(ctx context.Context, t *storage.Tournament, round int) map[boardRef]tournament.Result {
	out := map[boardRef]tournament.Result{}
	state, err := t.State()
	if err != nil {
		return out
	}
	pending := map[boardRef]bool{}
	for _, at := range pendingBoards(state.Rounds(), round) {
		pending[at] = true
	}
	for _, g := range t.Games {
		if !pending[boardRef{g.Round, g.Board}] {
			continue // scored already, or of another round: no need to read it
		}
		m, err := b.store.Match(ctx, g.Match)
		if err != nil {
			b.log.Warn("reading a tournament match at its deadline failed", "tournament", t.ID, "match", g.Match, "error", err)
			continue // scored as unfinished, as before
		}
		if res, ok := deadlineResult(m); ok {
			out[boardRef{g.Round, g.Board}] = res
		}
	}
	return out
}

// deadlineResult is how a match still in set-up at its round's deadline is
// scored, as tournamentResult would score it called off: a forfeit win for
// the side that confirmed its set-up; NotBegun, which the unfinished rule
// scores, when neither did. false for a match in play or over.
func deadlineResult(m *storage.Match) (tournament.Result, bool) {
	if m.Phase != storage.PhaseSetup {
		return tournament.Pending, false
	}
	if res := tournamentResult(m); res != tournament.DoubleForfeit {
		return res, true
	}
	return tournament.NotBegun, true
}

// callOffRound calls off the matches of round (of every round when 0)
// still on, with why; only those of player when player is not "".
func (b *Bot) callOffRound(ctx context.Context, t *storage.Tournament, round int, why string, player ...string) {
	for _, g := range t.Games {
		if round != 0 && g.Round != round {
			continue
		}
		m, err := b.store.Match(ctx, g.Match)
		if err != nil || !m.Phase.Active() {
			continue
		}
		if len(player) > 0 {
			if _, plays := m.SideOf(player[0]); !plays {
				continue
			}
		}
		if err := b.callOff(ctx, m, why); err != nil {
			b.log.Warn("calling off a tournament match failed", "match", m.ID, "error", err)
		}
	}
}

// callOff ends tournament match m as called off, with the note why for
// its players and the channel.
func (b *Bot) callOff(ctx context.Context, m *storage.Match, why string) error {
	noted, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		x.ModeratorNote = why
		return nil
	})
	if err == nil {
		noted, err = b.store.Abandon(ctx, m.ID, noted.Version, b.now(), storage.CallOffTournament)
	}
	if err != nil {
		return err
	}
	b.afterChange(ctx, noted, nil)
	return nil
}

// withdrawLeavers withdraws, before a round is paired, the players who are
// no longer members of the server (the change owes its announcement).
func (b *Bot) withdrawLeavers(ctx context.Context, t *storage.Tournament, state *tournament.Tournament) {
	for _, id := range state.Active() {
		if !b.hasLeft(t.GuildID, id) {
			continue
		}
		if _, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
			x.Log = append(x.Log, tournament.Withdraw(id, tournament.LeftServer))
			return nil
		}); err != nil {
			b.log.Warn("withdrawing a player who left failed", "tournament", t.ID, "error", err)
		}
	}
}

// withdrawLeaver withdraws player, in a round robin played all at once,
// if they are still in it and no longer a member of the server: their
// games still on are forfeited and called off, and the change owes its
// announcement.
func (b *Bot) withdrawLeaver(ctx context.Context, t *storage.Tournament, player string) {
	if !b.hasLeft(t.GuildID, player) {
		return
	}
	left, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		s, err := x.State()
		if err != nil {
			return err
		}
		if p, in := s.Player(player); !in || p.Withdrawn || x.Done || s.Status() != tournament.Running {
			return errRefused // not in it, or nothing left to withdraw from
		}
		x.Log = append(x.Log, tournament.Withdraw(player, tournament.LeftServer))
		if after, err := x.State(); err == nil && after.AllPairedComplete() {
			x.RoundDeadline = b.now() // the end is due
		}
		return nil
	})
	switch {
	case errors.Is(err, errRefused):
		return
	case err != nil:
		b.log.Warn("withdrawing a player who left failed", "tournament", t.ID, "error", err)
		return
	}
	p := b.publicPrinter(t.GuildID)
	b.callOffRound(ctx, left, 0, p.Sprintf("%[1]s: %[2]s left the server", left.Name, playerLabel(left, player)), player)
}

// startRound starts the match of every board that has none and no result
// yet — those of the latest round, or of every round of a round robin
// played all at once — links it to its board, and then clears Starting;
// it returns the tournament after, nil when it could not.
func (b *Bot) startRound(ctx context.Context, t *storage.Tournament) *storage.Tournament {
	state, err := t.State()
	if err != nil {
		return nil
	}
	threads := b.threadsFor(b.serverOf(ctx, t.GuildID))
	orphans := b.orphanMatches(ctx, t, state)
	for _, at := range unstartedBoards(t, state) {
		r, k := state.Rounds()[at.round-1], at.board-1
		g := r.Games[k]
		if _, ok := t.GameOf(at.round, at.board); ok {
			continue // another process started it meanwhile
		}
		m := &storage.Match{
			GuildID: t.GuildID, ChannelID: t.ChannelID, Rules: t.Game, MoveTime: t.MoveTime, Clock: t.Clock,
			Phase: storage.PhaseSetup, Created: b.now(),
		}
		m.Players[game.Red] = storage.Player{UserID: g.Red, Name: playerLabel(t, g.Red)}
		m.Players[game.Blue] = storage.Player{UserID: g.Blue, Name: playerLabel(t, g.Blue)}
		var err error
		if orphan := takeOrphan(&orphans, m); orphan != nil {
			m = orphan // made before a crash, never linked: linked now
		} else {
			m, err = b.store.CreateMatch(ctx, m)
		}
		if err != nil {
			b.log.Error("starting a tournament match failed", "tournament", t.ID, "round", r.Number, "board", k+1, "error", err)
			return t // Starting stays: the next pass tries again
		}
		board := k + 1
		var taken storage.TournamentGame
		linked, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
			var ok bool
			if taken, ok = x.GameOf(r.Number, board); ok {
				return errPairedAlready
			}
			x.Games = append(x.Games, storage.TournamentGame{Round: r.Number, Board: board, Match: m.ID})
			return nil
		})
		if errors.Is(err, errPairedAlready) {
			// Another process started this board meanwhile: this match goes.
			if taken.Match != m.ID {
				b.dropDuplicate(ctx, m)
			}
			if t, err = b.store.Tournament(ctx, t.ID); err != nil {
				return nil
			}
			continue
		}
		if err != nil {
			b.log.Error("linking a tournament match failed", "tournament", t.ID, "match", m.ID, "error", err)
			return t
		}
		t = linked
		b.afterChange(ctx, m, nil) // the set-up invites are in the outbox, recorded with the match
		if threads {
			// A thread of the tournament's channel for each match, as a
			// challenge's match gets one from its challenge message.
			b.playInThread(ctx, m, func(start *discordgo.ThreadStart) (*discordgo.Channel, error) {
				start.Type = discordgo.ChannelTypeGuildPublicThread
				return b.s.ThreadStartComplex(t.ChannelID, start)
			})
		}
	}
	if !t.Starting {
		return t
	}
	started, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		x.Starting = false
		return nil
	})
	if err != nil {
		b.log.Warn("recording a round's matches started failed", "tournament", t.ID, "error", err)
		return t
	}
	return started
}

// dropDuplicate calls off a match made for a board another process had
// just started.
func (b *Bot) dropDuplicate(ctx context.Context, m *storage.Match) {
	why := b.publicPrinter(m.GuildID).Sprintf("made twice by mistake; the other match of this pairing counts")
	if err := b.callOff(ctx, m, why); err != nil {
		b.log.Warn("calling off a duplicate tournament match failed", "match", m.ID, "error", err)
	}
}

// unstartedBoards lists the boards to start: without a match or a result,
// of the latest round, or of every round of a round robin played all at
// once (round by round, the earlier rounds are complete anyway).
func unstartedBoards(t *storage.Tournament, state *tournament.Tournament) []boardRef {
	var out []boardRef
	for _, r := range state.Rounds() {
		for k, g := range r.Games {
			if g.IsBye() || g.Result.Done() {
				continue
			}
			if _, ok := t.GameOf(r.Number, k+1); !ok {
				out = append(out, boardRef{r.Number, k + 1})
			}
		}
	}
	return out
}

// orphanMatches finds the matches a process made for boards and stopped
// before linking: in the tournament's channel, made since the rounds
// were paired, and no tournament's. They are read once for all the boards
// to start: a round robin played all at once starts every game at once.
func (b *Bot) orphanMatches(ctx context.Context, t *storage.Tournament, state *tournament.Tournament) []*storage.Match {
	if len(unstartedBoards(t, state)) == 0 {
		return nil
	}
	paired := t.RoundDeadline.Add(-t.RoundTime)
	if t.Rules.AllAtOnce {
		paired = t.RoundDeadline.Add(-t.RoundTime * time.Duration(state.TotalRounds()))
	}
	list, err := b.store.ChannelMatches(ctx, t.ChannelID, true, 0)
	if err != nil {
		return nil
	}
	var out []*storage.Match
	for _, m := range list {
		if m.Practice() || m.Created.Before(paired) {
			continue
		}
		if _, err := b.store.MatchTournament(ctx, m.ID); errors.Is(err, storage.ErrNotFound) {
			out = append(out, m)
		}
	}
	return out
}

// takeOrphan takes from orphans the match made for want's board: between
// the same players with the same colours (a pair meets with the same
// colours once only), on the same terms. nil when there is none.
func takeOrphan(orphans *[]*storage.Match, want *storage.Match) *storage.Match {
	for i, m := range *orphans {
		if m.Players[game.Red].UserID == want.Players[game.Red].UserID && m.Players[game.Blue].UserID == want.Players[game.Blue].UserID &&
			m.Rules == want.Rules && m.MoveTime == want.MoveTime && m.Clock == want.Clock {
			*orphans = slices.Delete(*orphans, i, i+1)
			return m
		}
	}
	return nil
}

// pairingMention writes a pairing with its players mentioned.
func pairingMention(p lang.Printer, g tournament.Pairing) string {
	if g.IsBye() {
		return p.Sprintf("<@%[1]s> has a bye.", g.Red)
	}
	if g.Result.Done() {
		return p.Sprintf("<@%[1]s> (Red) – <@%[2]s> (Blue): %[3]s", g.Red, g.Blue, resultText(p, g.Result))
	}
	return p.Sprintf("<@%[1]s> (Red) – <@%[2]s> (Blue)", g.Red, g.Blue)
}

// pairingText writes a pairing with its players' names and result.
func pairingText(p lang.Printer, t *storage.Tournament, g tournament.Pairing) string {
	if g.IsBye() {
		return p.Sprintf("%[1]s has a bye.", playerLabel(t, g.Red))
	}
	return p.Sprintf("%[1]s (Red) – %[2]s (Blue): %[3]s", playerLabel(t, g.Red), playerLabel(t, g.Blue), resultText(p, g.Result))
}

// resultText words a tournament result: only what the channel's boards show.
func resultText(p lang.Printer, r tournament.Result) string {
	switch r {
	case tournament.RedWon:
		return p.Sprintf("Red won")
	case tournament.BlueWon:
		return p.Sprintf("Blue won")
	case tournament.Drawn:
		return p.Sprintf("draw")
	case tournament.RedForfeited:
		return p.Sprintf("Blue wins by forfeit")
	case tournament.BlueForfeited:
		return p.Sprintf("Red wins by forfeit")
	case tournament.DoubleForfeit:
		return p.Sprintf("double forfeit")
	case tournament.Adjudicated:
		return p.Sprintf("unfinished at the deadline")
	case tournament.ByeResult:
		return p.Sprintf("bye")
	case tournament.NotBegun:
		return p.Sprintf("not begun by the deadline")
	}
	return p.Sprintf("still being played")
}

// adjudicationText words Rules.Unfinished.
func adjudicationText(p lang.Printer, a tournament.Adjudication) string {
	if a == tournament.ScoredAsDraw {
		return p.Sprintf("a draw")
	}
	return p.Sprintf("a loss for both")
}

// playerLabel is a player's name as they joined.
func playerLabel(t *storage.Tournament, id string) string {
	if name := t.Names[id]; name != "" {
		return name
	}
	return id
}
