package bot

import (
	"context"
	"errors"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// Tournaments a server runs for weeks (/stratego tournament). A tournament
// lives in storage as its log of events (package tournament); the bot adds
// the clock and Discord:
//   - members create, join, leave, withdraw from and cancel tournaments:
//     /stratego tournament and its routing (tournamentcmd.go), what
//     organisers do — create, cancel, take a player out
//     (tournamentorganise.go) —, what players do — join, leave, withdraw
//     (tournamentplayers.go) —, and the standings and list anyone may ask
//     for (tournamentstandings.go);
//   - the timers' pass (timers.go, run by the one process that holds the
//     lease of the timers) pairs each round when it is due — at the start,
//     when the last game of the round ends, or at the round's deadline,
//     which first scores the games still on as the rules say (the
//     deadline is the rules', not the pass's: each match keeps its
//     round's deadline, storage.Match.RoundEnds, and storage refuses what
//     would end it at or after it, however late the pass comes) — and starts
//     its matches as an accepted challenge starts one: the players get
//     their set-up DMs from the outbox; a round robin created since they
//     exist is played all at once (Rules.AllAtOnce): the pass pairs every
//     round at the start, in one change, starts every match, and comes
//     back at the one deadline (allAtOnceDeadline) or when the last game
//     ends. Pairing a round or ending the event: tournamentrounds.go;
//     scoring and calling off the games still on at a deadline:
//     tournamentdeadline.go; starting a round's matches:
//     tournamentstart.go; while a round is under way, the pass also asks
//     Discord, at most hourly, whether the players are still members of
//     the server, and withdraws those who left (tournamentleavers.go, which
//     says when else they are looked for); a tournament whose timer keeps
//     failing is held back (timerholds.go), and after an hour its channel
//     is told, once a stall, that it is held up (markHeldUp); one whose
//     record cannot be read is held back by its id and logged, and holds
//     up no other (dueTournaments);
//   - the end of a tournament match, however it ended (afterChange), records
//     its result (here, with updateTournament, the one way a stored tournament
//     changes);
//   - every change the channel must hear of (a pairing, a result with the
//     standings, a withdrawal, the end) owes its announcement, recorded by
//     storage with the change and posted by the outbox (tournamentnotices.go);
//     the words of pairings and results they share: tournamenttext.go.
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
// called off in play). A moderator's call-off is a forfeit of both, in
// set-up too: it decides nothing between the players, so it gives no win
// to whoever confirmed a set-up first (/stratego award gives a result).
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
	if m.CalledOff == storage.CallOffModerator {
		return tournament.DoubleForfeit
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
// round or ends it. A player of the match who left the server is withdrawn
// now (tournamentleavers.go).
func (b *Bot) tournamentGameOver(ctx context.Context, m *storage.Match) {
	if m.Phase.Active() {
		return
	}
	link, ok := b.tournamentGameOf(ctx, m)
	if !ok {
		return
	}
	t, ok := b.recordResult(ctx, m, link)
	if !ok {
		return
	}
	for _, p := range m.Players {
		b.withdrawLeaver(ctx, t, p.UserID)
	}
	b.nudgeTimers()
}

// recordResult records on board link the result of m, a match that
// ended, once (tournamentGameOver); it returns the tournament after, and
// false when it recorded nothing.
func (b *Bot) recordResult(ctx context.Context, m *storage.Match, link storage.TournamentGame) (*storage.Tournament, bool) {
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
		return nil, false
	}
	if err != nil {
		b.log.Warn("recording a tournament result failed", "tournament", link.Tournament, "match", m.ID, "error", err)
		return nil, false
	}
	b.log.Info("tournament result recorded", "tournament", t.ID, "round", link.Round, "board", link.Board, "result", result)
	return t, true
}

// beforeWithdrawal settles, as player is about to be withdrawn from t,
// what a withdrawal must not decide: the round whose deadline passed
// before the timers' pass closed it (closeDueRound), and the games of
// theirs that ended unrecorded (recordEndedGamesOf). A withdrawal forfeits
// only the games still to play.
func (b *Bot) beforeWithdrawal(ctx context.Context, t *storage.Tournament, player string) {
	b.closeDueRound(ctx, t)
	b.recordEndedGamesOf(ctx, t, player)
}

// closeDueRound closes the round of t under way (every round, played all
// at once) when its deadline has passed and the timers' pass has not yet
// closed it (it comes late: the bot was busy, or another process leads):
// the deadline is the rules', and the games still on then are scored as it
// scores them, not as a withdrawal after it would.
func (b *Bot) closeDueRound(ctx context.Context, t *storage.Tournament) {
	state, err := t.State()
	if err != nil || t.Done || t.Starting || t.RoundDeadline.IsZero() || b.now().Before(t.RoundDeadline) ||
		state.Status() != tournament.Running || state.AllPairedComplete() {
		return
	}
	round := len(state.Rounds())
	if t.Rules.AllAtOnce {
		round = 0 // the one deadline closes every round
	}
	if b.closeRound(ctx, t, round) != nil {
		b.nudgeTimers() // the next round, or the end, is due
	}
}

// recordEndedGamesOf records, as player is about to be withdrawn from t
// (as t is about to be cancelled, when player is ""), the result of each
// of their games (of every game) whose match ended without it being
// recorded (the database was away, or the process stopped, as it ended):
// a withdrawal forfeits the games still to play, not one the board has
// decided, and a cancelled tournament's standings count it. Only the
// matches of games still without a result are read.
func (b *Bot) recordEndedGamesOf(ctx context.Context, t *storage.Tournament, player string) {
	state, err := t.State()
	if err != nil {
		return
	}
	rounds := state.Rounds()
	for _, link := range t.Games {
		if link.Round > len(rounds) || link.Board > len(rounds[link.Round-1].Games) {
			continue
		}
		if g := rounds[link.Round-1].Games[link.Board-1]; g.Result.Done() || player != "" && !g.Has(player) {
			continue
		}
		m, err := b.store.Match(ctx, link.Match)
		if err != nil {
			b.log.Warn("reading a tournament match failed", "tournament", t.ID, "match", link.Match, "error", err)
			continue
		}
		if !m.Phase.Active() {
			b.recordResult(ctx, m, link)
		}
	}
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
			b.tournaments.put(t)
			b.nudgeOutbox()
		} else {
			b.tournaments.forget(id) // changed or not: the next reader loads it
		}
		if !errors.Is(err, storage.ErrStale) || attempt == 5 {
			return t, err
		}
	}
}

// inTournament reports whether m is a tournament's game.
func (b *Bot) inTournament(ctx context.Context, m *storage.Match) bool {
	if m.ForTournament() {
		return true // no read: the match says so
	}
	_, ok := b.tournamentGameOf(ctx, m)
	return ok
}

// tournamentGameOf returns the tournament game m is, if it is one; a
// failed read counts as none, and is logged.
func (b *Bot) tournamentGameOf(ctx context.Context, m *storage.Match) (storage.TournamentGame, bool) {
	if m.GuildID == "" || m.Practice() {
		return storage.TournamentGame{}, false
	}
	link, err := b.store.MatchTournament(ctx, m.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		b.log.Warn("reading a match's tournament failed", "match", m.ID, "error", err)
	}
	return link, err == nil
}
