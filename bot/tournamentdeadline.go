package bot

import (
	"context"

	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
	"github.com/strategobot/strategobot/web"
)

// closeRound scores the games of round still on at its deadline and calls
// their matches off; it returns the tournament after. Round 0 is the one
// deadline of a round robin played all at once, which closes every round.
// A game still in set-up is a forfeit win for the side that confirmed its
// set-up, and not begun when neither did; a game in play is scored as the
// rules say. A game whose match ended without its result recorded (the
// database was away when it ended, or the process stopped) is scored first
// by how it ended: a result on the board is never lost; so is one whose
// time ran out before the round's deadline, which the timers had not yet
// recorded (a loss on time, a set-up that did not come). A game that would
// have ended at or after the deadline did not: storage refuses what would
// end it then (storage.ErrRoundOver), and it is scored as still on.
func (b *Bot) closeRound(ctx context.Context, t *storage.Tournament, round int) *storage.Tournament {
	setups, ended := b.setupsAtDeadline(ctx, t, round)
	closed, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		s, err := x.State()
		if err != nil {
			return err
		}
		complete := func() bool {
			r := s.Rounds()
			return round == 0 && s.AllPairedComplete() || round > 0 && (len(r) != round || r[round-1].Complete())
		}
		if complete() {
			return nil
		}
		for _, at := range pendingBoards(s.Rounds(), round) {
			if res, ok := ended[at]; ok {
				x.Log = append(x.Log, tournament.Record(at.round, at.board, res))
			}
		}
		if s, err = x.State(); err != nil {
			return err
		}
		if complete() {
			return nil // every game left had ended: nothing for the deadline to score
		}
		r := s.Rounds()
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
	why := web.TournamentNote(web.OffRoundDeadline, mdEscape(closed.Name))
	if round == 0 {
		why = web.TournamentNote(web.OffDeadline, mdEscape(closed.Name))
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
// deadlineResult), and the result of each whose match ended without it
// being recorded.
func (b *Bot) setupsAtDeadline(ctx context.Context, t *storage.Tournament, round int) (notBegun, ended map[boardRef]tournament.Result) {
	out, ended := map[boardRef]tournament.Result{}, map[boardRef]tournament.Result{}
	state, err := t.State()
	if err != nil {
		return out, ended
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
		if m.Phase.Active() && m.ClockRunning() && m.Deadline.Before(t.RoundDeadline) {
			// Its time ran out before the round's deadline, and the timers
			// came late: that ends it first, as it would have on time.
			m, _ = b.matchTimeUp(ctx, m, b.now())
		}
		if !m.Phase.Active() {
			ended[boardRef{g.Round, g.Board}] = tournamentResult(m)
			continue
		}
		if res, ok := deadlineResult(m); ok {
			out[boardRef{g.Round, g.Board}] = res
		}
	}
	return out, ended
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
		if err != nil {
			// Not called off now: the timers' pass (callOffScored) or the
			// match's own timer (roundOver) does it later.
			b.log.Warn("reading a tournament match to call off failed", "tournament", t.ID, "match", g.Match, "error", err)
			continue
		}
		if !m.Phase.Active() {
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

// callOffScored calls off the matches of t still on whose boards were
// scored, when their call-off was lost: the process stopped, or the
// database was away, right after the round's deadline or a withdrawal
// scored them. The announcement of that change waits for them
// (storage.Notice.Until). The tournament's pass does this each time it
// runs, before it pairs the next round or ends the event; a match whose
// timer comes meanwhile, the round over, is called off then too
// (roundOver), and one whose reminder is due (withdrawAwaited).
//
// It reads only what may still be on: the matches of rounds after
// t.OffThrough whose boards a deadline or a withdrawal scored. A board
// with a result recorded was recorded from its match's end. It returns
// how many rounds, from the first, are now known to be over, which the
// pass that pairs the next round stores (Tournament.OffThrough), so that
// the work of each pass does not grow with the rounds played.
func (b *Bot) callOffScored(ctx context.Context, t *storage.Tournament, state *tournament.Tournament) (offThrough int) {
	rounds := state.Rounds()
	recorded := map[boardRef]bool{}
	for _, e := range t.Log {
		if e.Kind == tournament.Recorded {
			recorded[boardRef{e.Round, e.Board}] = true
		}
	}
	on := make([]bool, len(rounds)) // by round: a match may still be on
	for _, g := range t.Games {
		if g.Round <= t.OffThrough || g.Round > len(rounds) || g.Board < 1 || g.Board > len(rounds[g.Round-1].Games) ||
			!rounds[g.Round-1].Games[g.Board-1].Result.Done() || recorded[boardRef{g.Round, g.Board}] {
			continue
		}
		m, err := b.store.Match(ctx, g.Match)
		if err != nil {
			b.log.Warn("reading a tournament match failed", "tournament", t.ID, "match", g.Match, "error", err)
			on[g.Round-1] = true
			continue
		}
		if !m.Phase.Active() {
			continue
		}
		why, off := b.notToPlay(t, g)
		if !off {
			on[g.Round-1] = true
			continue
		}
		if err := b.callOff(ctx, m, why); err != nil {
			b.log.Warn("calling off a tournament match no longer to be played failed", "match", m.ID, "error", err)
			on[g.Round-1] = true
		}
	}
	offThrough = t.OffThrough
	for offThrough < len(rounds) && !t.Starting && rounds[offThrough].Complete() && !on[offThrough] {
		offThrough++
	}
	return offThrough
}

// callOff ends tournament match m as called off, with the note why for
// its players and the channel.
func (b *Bot) callOff(ctx context.Context, m *storage.Match, why string) error {
	noted, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		if !x.Phase.Active() {
			// Ended since it was read (a moderator's award): its note
			// says why, and is not ours to change.
			return storage.ErrGameOver
		}
		x.ModeratorNote = why
		return nil
	})
	if err == nil {
		// At any version: a change that lands between the note and the
		// call-off (a move, a set-up, a reminder) keeps the note, and the
		// match is no longer to be played whatever it was.
		noted, err = b.store.Abandon(ctx, m.ID, 0, b.now(), storage.CallOffTournament)
	}
	if err != nil {
		return err
	}
	b.afterChange(ctx, noted, nil)
	return nil
}
