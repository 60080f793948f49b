package storage

import (
	"fmt"
	"slices"
	"time"

	"github.com/strategobot/strategobot/game"
)

// Time nobody ran the timers: the bot's process was down (a crash, a
// deploy, a reboot), or no process of several sharing a database held the
// lease. A player could not move then (Discord does not hand a bot the
// messages sent to it while it was away), so it must not cost them: the
// process that runs the timers records when it was alive (Store.Alive),
// and on its return, before any timer runs, each active match whose clock
// ran meanwhile gets an ActAway, which moves its deadline and its next
// reminder on by the part of that time its clock ran: not the part a
// pause or a vacation already stopped it, nothing while its clock waited
// for its board. The time left on a game clock is the deadline's, so it
// stands still too.

// AwayGrace is the shortest time nobody ran the timers that is given back:
// more than a hand-over of the lease takes, and than the time between two
// records of being alive, so that a process that runs on, or a successor
// that takes over at once, gives nothing back.
const AwayGrace = time.Minute

// awayCredit is how much of the time from to to, when nobody ran the
// timers, the clock of whoever must act ran: the part of it its clock was
// not stopped, as the log tells it (clockStoppedAt), and that no ActAway of
// the log gave back already (a process that crashed while it gave the time
// back gives it again when it is back: each match gets it once), nor before
// the board it waited for arrived (ClockStarted). Nothing when the clock
// does not run (it waits for its board, or nobody must act), or its time
// had run out by from: that was lost while the timers ran.
func (m *Match) awayCredit(from, to time.Time) time.Duration {
	if !m.ClockRunning() || !m.Deadline.After(from) || !to.After(from) {
		return 0
	}
	// A board that arrived meanwhile (the outbox runs while the gateway
	// is lost) started its clock then.
	from = later(from, m.ClockStarted)
	if !to.After(from) {
		return 0
	}
	return m.clockRan(from, to)
}

// clockRan is how long the clock of whoever must act ran from from to to,
// as the log tells it: not while it was stopped (clockStoppedAt) nor in
// time an ActAway gave back already.
func (m *Match) clockRan(from, to time.Time) time.Duration {
	// The clock's stops begin and end at the log's actions and at the
	// planned ends of its pauses and vacations: between two of those times
	// it runs or stands still throughout.
	points := []time.Time{from, to}
	for _, a := range m.Log {
		for _, t := range []time.Time{a.At, a.Until(), a.AwayFrom()} {
			if t.After(from) && t.Before(to) {
				points = append(points, t)
			}
		}
	}
	slices.SortFunc(points, func(a, b time.Time) int { return a.Compare(b) })
	var ran time.Duration
	for i := 0; i+1 < len(points); i++ {
		if !m.clockStoppedAt(points[i]) && !m.givenBackAt(points[i]) {
			ran += points[i+1].Sub(points[i])
		}
	}
	return ran
}

// clockStoppedAt reports whether the clock of whoever must act was stopped
// at time at: in play the side to move's (StoppedAt); in set-up, where
// both share one deadline, by a vacation of either.
func (m *Match) clockStoppedAt(at time.Time) bool {
	if m.Phase == PhaseSetup {
		return m.StoppedAt(game.Red, at) || m.StoppedAt(game.Blue, at)
	}
	return m.StoppedAt(m.ToMove(), at)
}

// givenBackAt reports whether an ActAway of the log gave back the time
// around at already.
func (m *Match) givenBackAt(at time.Time) bool {
	for _, a := range m.Log {
		if a.Kind == ActAway && !at.Before(a.AwayFrom()) && at.Before(a.At) {
			return true
		}
	}
	return false
}

// away records an ActAway: nobody ran the timers for a.Away until a.At. The
// deadline and the next reminder move on by what of that time the clock
// ran (ErrNotDue when it ran none of it); the reminders already sent stay
// sent, as for a pause (moveStop). Side is the side whose clock ran (in
// set-up, the first that owes its set-up).
func (c Changes) away(m *Match, a Action) (*game.Game, error) {
	a.At, a.Move, a.Days = second(a.At), game.Move{}, 0
	a.Away = a.Away.Truncate(time.Second)
	if a.Away <= 0 {
		return nil, fmt.Errorf("a time away of %v: %w", a.Away, ErrInvalid)
	}
	if !m.Phase.Active() {
		return nil, ErrGameOver
	}
	if err := m.roundOver(a.Kind, a.At); err != nil {
		return nil, err
	}
	credit := m.awayCredit(a.AwayFrom(), a.At)
	if credit <= 0 {
		return nil, fmt.Errorf("match %d: no clock ran from %s to %s: %w", m.ID, a.AwayFrom().Format(time.RFC3339), a.At.Format(time.RFC3339), ErrNotDue)
	}
	var g *game.Game
	switch m.Phase {
	case PhasePlaying:
		var err error
		if g, err = m.Game(); err != nil {
			return nil, err
		}
		a.Side = g.ToMove()
	default:
		a.Side = game.Red
		if !m.Owes(game.Red) {
			a.Side = game.Blue
		}
	}
	m.Log = append(m.Log, a)
	m.Deadline = second(m.Deadline.Add(credit))
	if !m.RemindAt.IsZero() {
		m.RemindAt = second(m.RemindAt.Add(credit))
	}
	return g, nil
}

// GiveAway gives tournament t back the time nobody ran the timers from
// from to to (what of it no earlier GiveAway gave: AwayUntil), on the
// timers its players race against. The deadline of a round under way, with
// a game still on, moves on by all of it: the games' clocks stood still
// (ActAway), and the round's deadline is theirs to play in. Before the
// start, while members could still join, the join deadline moves on by
// it, since nobody could join meanwhile, and the start with it, so that
// the time between them stays as announced. The rest are the bot's own
// timers, not the players': the pairing of a round whose games all ended
// (its deadline then marks the next round due), a start once joining had
// closed, the checks of membership; they are only done late. A deadline
// that passed before from passed while the timers ran. GiveAway reports
// whether the round's deadline moved; ErrNotDue when nothing moved. It is
// meant for UpdateTournament, whose change then owes the announcement of
// the round's new deadline (TournamentNotices); the caller moves each
// match's own (Match.RoundEnds) with it.
func (t *Tournament) GiveAway(from, to time.Time) (roundMoved bool, err error) {
	from, to = second(from), second(to)
	if t.AwayUntil.After(from) {
		from = t.AwayUntil
	}
	away := to.Sub(from)
	if t.Done || away <= 0 {
		return false, fmt.Errorf("tournament %d: no time away to give back from %s to %s: %w", t.ID, from.Format(time.RFC3339), to.Format(time.RFC3339), ErrNotDue)
	}
	moved := false
	if !t.started() && t.JoinBy.After(from) {
		t.JoinBy, t.StartAt = t.JoinBy.Add(away), t.StartAt.Add(away)
		moved = true
	}
	if state, err := t.State(); err == nil && len(state.Rounds()) > 0 && !state.AllPairedComplete() && t.RoundDeadline.After(from) {
		t.RoundDeadline = t.RoundDeadline.Add(away)
		moved, roundMoved = true, true
	}
	if !moved {
		return false, fmt.Errorf("tournament %d: no timer of its players ran from %s to %s: %w", t.ID, from.Format(time.RFC3339), to.Format(time.RFC3339), ErrNotDue)
	}
	t.AwayFrom, t.AwayUntil = from, to
	return roundMoved, nil
}
