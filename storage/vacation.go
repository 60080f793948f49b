package storage

import (
	"fmt"
	"time"

	"github.com/strategobot/strategobot/game"
)

// Vacations: a player stops their own clocks in all their correspondence
// matches for some days, within a yearly allowance a server may set. The
// player's settings keep the allowance used (Vacations); each match keeps,
// as actions of its log, when the vacation began there and when it ended,
// so that deadlines move with it on every backend and across restarts. In
// set-up, where both players share one deadline, a vacation of either
// moves it (and its reminders) on: the only actions a match's log may hold
// before the game begins are vacations and their ends.

// DefaultVacationDays is the yearly vacation allowance of a server that did
// not choose one; MaxVacationDays the most a server may allow.
const (
	DefaultVacationDays = 30
	MaxVacationDays     = 90
)

// Vacation is one vacation of a player: from Start until End (the planned
// end, or the day it was ended early).
type Vacation struct {
	Start, End time.Time
}

// OnVacation returns the player's vacation under way at time at, if any.
func (p *PlayerSettings) OnVacation(at time.Time) (Vacation, bool) {
	for _, v := range p.Vacations {
		if !at.Before(v.Start) && at.Before(v.End) {
			return v, true
		}
	}
	return Vacation{}, false
}

// VacationEnds is when the player's last vacation ends (or ended), zero
// when they took none: a vacation under way ends last, since one begins only
// when none is under way. Stores index players by it (PlayersOnVacation).
func (p *PlayerSettings) VacationEnds() time.Time {
	var end time.Time
	for _, v := range p.Vacations {
		if v.End.After(end) {
			end = v.End
		}
	}
	return end
}

// VacationDaysUsed counts the days of vacation the player took, or planned,
// in at's calendar year (UTC). Each started day of a vacation counts once,
// in the year it starts in: a day taken from noon on 31 December is the old
// year's, and does not cost the new year a day as well.
func (p *PlayerSettings) VacationDaysUsed(at time.Time) int {
	return p.vacationDaysIn(at.UTC().Year())
}

// vacationDaysIn counts the started days of the player's vacations that
// start in year (UTC).
func (p *PlayerSettings) vacationDaysIn(year int) int {
	n := 0
	for _, v := range p.Vacations {
		for d := v.Start; d.Before(v.End); d = d.Add(24 * time.Hour) {
			if d.UTC().Year() == year {
				n++
			}
		}
	}
	return n
}

// VacationDaysLeft is the longest vacation the player may start at time at
// within a yearly allowance of days: its days in this year fit what is left
// of this year's allowance, and its days from 1 January on what is left of
// the next year's.
func (p *PlayerSettings) VacationDaysLeft(at time.Time, allowance int) int {
	year := at.UTC().Year()
	left := [2]int{allowance - p.vacationDaysIn(year), allowance - p.vacationDaysIn(year+1)}
	n := 0
	for d := second(at); ; d = d.Add(24 * time.Hour) {
		k := d.UTC().Year() - year
		if k > 1 || left[k] <= 0 {
			return n
		}
		left[k]--
		n++
	}
}

// VacationFits reports whether the player's vacation v fits a yearly
// allowance of days: in each year v has days in, the days of vacation
// counted there (v's among them) are no more than allowance. It is what
// VacationDaysLeft checks of a vacation before it begins, asked of one
// under way: whether a server whose allowance that check did not know
// (a match there begun since) would have let it be taken.
func (p *PlayerSettings) VacationFits(v Vacation, allowance int) bool {
	for d := v.Start; d.Before(v.End); d = d.Add(24 * time.Hour) {
		if p.vacationDaysIn(d.UTC().Year()) > allowance {
			return false
		}
	}
	return true
}

// VacationSince returns the player's vacation under way at time at, or
// begun since: one whose end is after at. A request that read its time
// before another's vacation began, in the same second or the one before,
// and records after it, finds that one so, not under way at its own time
// (a vacation begins at a whole second: StartVacation).
func (p *PlayerSettings) VacationSince(at time.Time) (Vacation, bool) {
	for _, v := range p.Vacations {
		if v.End.After(at) {
			return v, true
		}
	}
	return Vacation{}, false
}

// StartVacation records a vacation of days from at, keeping this year's and
// last year's (ErrInvalid: one is under way already, or began since at:
// VacationSince).
func (p *PlayerSettings) StartVacation(at time.Time, days int) error {
	if _, on := p.VacationSince(at); on {
		return fmt.Errorf("a vacation is under way: %w", ErrInvalid)
	}
	at = second(at)
	var keep []Vacation
	for _, v := range p.Vacations {
		if v.End.Year() >= at.Year()-1 {
			keep = append(keep, v)
		}
	}
	p.Vacations = append(keep, Vacation{Start: at, End: at.Add(time.Duration(days) * 24 * time.Hour)})
	return nil
}

// EndVacation ends the vacation under way at at, early; false when there is none.
func (p *PlayerSettings) EndVacation(at time.Time) bool {
	for i, v := range p.Vacations {
		if !at.Before(v.Start) && at.Before(v.End) {
			p.Vacations[i].End = second(at)
			return true
		}
	}
	return false
}

// CancelVacation takes back the vacation that began at start, as if it had
// never been asked for: one that stopped no clock, so that it costs no
// days. It reports whether there was one.
func (p *PlayerSettings) CancelVacation(start time.Time) bool {
	start = second(start)
	for i, v := range p.Vacations {
		if v.Start.Equal(start) {
			p.Vacations = append(p.Vacations[:i:i], p.Vacations[i+1:]...)
			return true
		}
	}
	return false
}

// VacationUntil is when side's vacation in this match ends, or zero when
// side is not on vacation here: its end (ActVacationEnd) or a move of its
// own ends it. A vacation taken while the set-ups are made is in the log
// already, so it goes on when the game begins.
func (m *Match) VacationUntil(side game.Side) time.Time {
	if !m.Phase.Active() {
		return time.Time{}
	}
	return m.vacationLeftOpen(side)
}

// VacationOpenAtEnd reports whether the match ended while side's vacation
// held their clock in it: the match is over, and its log neither ended
// side's last vacation nor saw side move after it, nor had that vacation
// run out before the match ended.
func (m *Match) VacationOpenAtEnd(side game.Side) bool {
	if m.Phase.Active() {
		return false
	}
	until := m.vacationLeftOpen(side)
	return !until.IsZero() && m.Ended.Before(until)
}

// VacationHeldUntil is when the last vacation of side's that began in this
// match at or after since stopped holding side's clock: when the log ended
// it (ActVacationEnd, or a move of side's own), or the match ended, or it
// ran out, whichever came first (one still holding the clock: when it runs
// out). Zero when none began here since then.
func (m *Match) VacationHeldUntil(side game.Side, since time.Time) time.Time {
	var last, until time.Time // until: the planned end of the vacation the log holds open
	for _, a := range m.Log {
		if a.Side != side {
			continue
		}
		switch {
		case a.Kind == ActVacation && !a.At.Before(since):
			until = a.Until()
		case (a.Kind == ActMove || a.Kind == ActVacationEnd) && !until.IsZero():
			last, until = later(last, minTime(a.At, until)), time.Time{}
		}
	}
	if !until.IsZero() {
		if !m.Phase.Active() {
			until = minTime(until, m.Ended)
		}
		last = later(last, until)
	}
	return last
}

// VacationEndedByMove reports when a move of side's first ended, in this
// match, a vacation of side's that began here at or after since: made
// before that vacation's end, it ended it, and a player who moves is back
// from vacation everywhere. False when no move of side's did.
func (m *Match) VacationEndedByMove(side game.Side, since time.Time) (time.Time, bool) {
	var until time.Time // the planned end of the vacation the log holds open
	for _, a := range m.Log {
		if a.Side != side {
			continue
		}
		switch {
		case a.Kind == ActVacation && !a.At.Before(since):
			until = a.Until()
		case a.Kind == ActMove && a.At.Before(until):
			return a.At, true
		case a.Kind == ActMove || a.Kind == ActVacationEnd:
			until = time.Time{}
		}
	}
	return time.Time{}, false
}

// MovedOnVacation reports whether the log's last action is a move of
// side's made while the match held a vacation of side's open: the move
// that ended it there, and that ends it everywhere (a player who moves is
// back). It reads the log as stored, not a match read before the move,
// which a vacation begun meanwhile may have passed by.
func (m *Match) MovedOnVacation(side game.Side) bool {
	n := len(m.Log)
	if n == 0 || m.Log[n-1].Kind != ActMove || m.Log[n-1].Side != side {
		return false
	}
	before := Match{Log: m.Log[:n-1]}
	return !before.vacationLeftOpen(side).IsZero()
}

// vacationLeftOpen is when side's last vacation in the log ends, or zero
// when the log ended it, by ActVacationEnd or a move of side's own.
func (m *Match) vacationLeftOpen(side game.Side) time.Time {
	for i := len(m.Log) - 1; i >= 0; i-- {
		a := m.Log[i]
		if a.Side != side {
			continue
		}
		switch a.Kind {
		case ActMove, ActVacationEnd:
			return time.Time{}
		case ActVacation:
			return a.Until()
		}
	}
	return time.Time{}
}

// vacationAction reports whether k begins or ends a vacation.
func vacationAction(k ActionKind) bool { return k == ActVacation || k == ActVacationEnd }

// checkVacation refuses a vacation action that does not fit the match.
func (m *Match) checkVacation(a Action) error {
	switch a.Kind {
	case ActVacation:
		if !m.Phase.Active() {
			return ErrGameOver
		}
		if !m.Correspondence() {
			return fmt.Errorf("match %d: %w", m.ID, ErrNotCorrespondence)
		}
		if !m.VacationUntil(a.Side).IsZero() {
			return fmt.Errorf("match %d: %s is on vacation already: %w", m.ID, a.Side, ErrInvalid)
		}
		if a.Days < 1 || a.Days > MaxVacationDays {
			return fmt.Errorf("a vacation of %d days: %w", a.Days, ErrInvalid)
		}
	case ActVacationEnd:
		if m.VacationUntil(a.Side).IsZero() {
			return fmt.Errorf("match %d: %s is not on vacation: %w", m.ID, a.Side, ErrNotDue)
		}
	}
	return nil
}
