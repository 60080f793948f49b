package storage

import (
	"fmt"
	"time"

	"github.com/strategobot/strategobot/game"
)

// A pause by agreement: one player proposes to stop the clocks of a
// correspondence match for some days, the other accepts or declines. Every
// step is an action of the match's log, so the pause replays, survives
// restarts and is the same on every backend; what it does to the clock is
// worked out from the log here.

// MaxPauseDays is the longest pause players may agree on.
const MaxPauseDays = 14

// MaxPauseOffers is how many times a player may propose a pause in one
// match, a proposal made again for other days included: each one DMs the
// opponent, who must not be asked without end.
const MaxPauseOffers = 3

// PauseOffersBy counts the proposals to pause side made in the match.
func (m *Match) PauseOffersBy(side game.Side) int { return m.actionsBy(ActOfferPause, side) }

// Correspondence reports whether m is played over days (a day or more a
// move, no game clock): the matches that may pause and give a day.
func (m *Match) Correspondence() bool {
	return !m.Clock.On() && m.MoveTime >= 24*time.Hour
}

// PausedUntil is when the pause the players agreed on ends, or zero when
// the match is not paused. Only its end (ActResume) ends it: a player may
// still move during a pause, and the turn that move starts waits for it.
func (m *Match) PausedUntil() time.Time {
	if m.Phase != PhasePlaying {
		return time.Time{}
	}
	for i := len(m.Log) - 1; i >= 0; i-- {
		switch a := m.Log[i]; a.Kind {
		case ActResume:
			return time.Time{}
		case ActAcceptPause:
			return a.Until()
		}
	}
	return time.Time{}
}

// PauseOffer returns the standing proposal to pause, if any: who made it and
// for how many days. An answer or a pause ends it, and so does a move of the
// player asked, who declines it by playing on; the proposer's own move does
// not, since a correspondence player sends a proposal with their move.
func (m *Match) PauseOffer() (by game.Side, days int, ok bool) {
	at := m.pauseOfferAt()
	if at == 0 {
		return 0, 0, false
	}
	a := m.Log[at-1]
	return a.Side, a.Days, true
}

// pauseOfferAt is PauseOffer's proposal as its place in the log: the count
// of actions up to it, 0 for none.
func (m *Match) pauseOfferAt() int {
	moved := [2]bool{} // the sides that moved since
	for i := len(m.Log) - 1; i >= 0; i-- {
		switch a := m.Log[i]; a.Kind {
		case ActMove:
			moved[a.Side] = true
		case ActAcceptPause, ActDeclinePause, ActResume:
			return 0
		case ActOfferPause:
			if moved[a.Side.Opponent()] {
				return 0
			}
			return i + 1
		}
	}
	return 0
}

// StoppedUntil is when the clock of the side to move may run again: the end
// of the agreed pause or of its vacation, whichever is later (zero, or a
// time past: it is not stopped). In set-up the one deadline waits for the
// later end of the two players' vacations. The deadline holds the stop
// already: until then, the time left stands still at Deadline minus it.
func (m *Match) StoppedUntil() time.Time {
	if m.Phase == PhaseSetup {
		return later(m.VacationUntil(game.Red), m.VacationUntil(game.Blue))
	}
	until := m.PausedUntil()
	if back := m.VacationUntil(m.ToMove()); back.After(until) {
		until = back
	}
	return until
}

// StoppedAt reports whether the clock of side was stopped at time at, as
// the log tells it: a pause agreed was under way, or a vacation of side's
// own that neither its end nor a move of side's had ended yet.
func (m *Match) StoppedAt(side game.Side, at time.Time) bool {
	var away time.Time // the planned end of side's vacation under way
	for _, a := range m.Log {
		if a.At.After(at) {
			break
		}
		switch {
		case a.Kind == ActAcceptPause && a.Until().After(at):
			return true
		case a.Kind == ActVacation && a.Side == side:
			away = a.Until()
		case (a.Kind == ActVacationEnd || a.Kind == ActMove) && a.Side == side:
			away = time.Time{}
		}
	}
	return away.After(at)
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// stoppedLeft is how much of the stop of the side to move's clock is still
// to come at time at.
func (m *Match) stoppedLeft(at time.Time) time.Duration {
	return max(0, m.StoppedUntil().Sub(at))
}

// checkPause refuses a pause action that does not fit the match, before it
// is applied; it fills in an acceptance's days from the proposal. An
// answer that names days (those its buttons or page showed) answers only a
// proposal of those days, checked in the transaction that records it: one
// withdrawn and made again for other days is refused (ErrPauseOfferChanged),
// however close the two presses. A proposal the same as the proposer's
// own standing one is refused too (ErrPauseOffered): made once, asked once.
// A proposal made while the opponent's stands never replaces it: for the
// same days it accepts it (a becomes its acceptance: both asked for that
// pause), for other days it is refused (ErrPauseOfferStands), and the
// player answers the standing one first. A draw is not so: an offer made
// while the opponent's stands is refused whatever it is
// (game.ErrDrawOfferedToYou).
func (m *Match) checkPause(a *Action) error {
	switch a.Kind {
	case ActOfferPause, ActAcceptPause, ActDeclinePause:
	case ActResume:
		if until := m.PausedUntil(); until.IsZero() || a.At.Before(until) {
			return fmt.Errorf("match %d is not due to resume at %s: %w", m.ID, a.At.Format(time.RFC3339), ErrNotDue)
		}
		return nil
	default:
		return nil
	}
	if m.Phase != PhasePlaying {
		return ErrGameOver
	}
	by, days, offered := m.PauseOffer()
	switch a.Kind {
	case ActOfferPause:
		if !m.Correspondence() {
			return fmt.Errorf("match %d: %w", m.ID, ErrNotCorrespondence)
		}
		if !m.PausedUntil().IsZero() {
			return fmt.Errorf("match %d: %w", m.ID, ErrPaused)
		}
		if a.Days < 1 || a.Days > MaxPauseDays {
			return fmt.Errorf("a pause of %d days: from 1 to %d: %w", a.Days, MaxPauseDays, ErrInvalid)
		}
		if offered && by != a.Side {
			if days != a.Days {
				return fmt.Errorf("match %d: %s's proposal of %d days stands, %d proposed: %w", m.ID, by, days, a.Days, ErrPauseOfferStands)
			}
			a.Kind = ActAcceptPause // both want the same pause: agreed
			return nil
		}
		if offered && by == a.Side && days == a.Days {
			// Proposed twice at once (a double press, two processes): made
			// once, its opponent asked once, counted once.
			return fmt.Errorf("match %d: %s proposed %d days already: %w", m.ID, a.Side, days, ErrPauseOffered)
		}
		if m.PauseOffersBy(a.Side) >= MaxPauseOffers {
			return fmt.Errorf("match %d: %w", m.ID, ErrNoPauseOffersLeft)
		}
	case ActAcceptPause:
		if !offered || by == a.Side {
			return fmt.Errorf("match %d: %w", m.ID, ErrNoPauseOffer)
		}
		if a.Days != 0 && a.Days != days {
			return fmt.Errorf("match %d: the proposal answered was for %d days, the one standing for %d: %w", m.ID, a.Days, days, ErrPauseOfferChanged)
		}
		a.Days = days
	case ActDeclinePause:
		if !offered {
			return fmt.Errorf("match %d: %w", m.ID, ErrNoPauseOffer)
		}
		// The proposer's own withdrawal is checked too: an old page's, or
		// an old button's, must not take back a proposal made since for
		// other days, which the opponent was asked about.
		if a.Days != 0 && a.Days != days {
			return fmt.Errorf("match %d: the proposal answered was for %d days, the one standing for %d: %w", m.ID, a.Days, days, ErrPauseOfferChanged)
		}
		a.Days = 0
	}
	return nil
}

// moveStop moves a running deadline by what an action taken at time at
// changed of the stop of the side to move's clock, which was until before:
// a pause or vacation that begins adds what it does not share with one
// under way, and a vacation that ends early gives back what no longer
// stops it. A clock that waits for its notice adds what is left of the stop
// when it starts (StartClock). The reminders already sent stay sent: the
// stop moves the one to come by as much, since the time left on the clock
// is the same (a new deadline would remind again at half time, on vacation
// too; and a half-time reminder that a gift of time left where it was must
// not move with the gift now).
func (m *Match) moveStop(before, at time.Time) {
	if m.ClockPending || m.Deadline.IsZero() {
		return
	}
	if shift := m.stoppedLeft(at) - max(0, before.Sub(at)); shift != 0 {
		m.Deadline = second(m.Deadline.Add(shift))
		if !m.RemindAt.IsZero() {
			m.RemindAt = second(m.RemindAt.Add(shift))
		}
	}
}
