package storage

import (
	"fmt"
	"time"

	"github.com/strategobot/strategobot/game"
)

// DeadlineKind says what a timer is for.
type DeadlineKind byte

// The kinds of timers.
const (
	// DeadlineMatch: the match's Deadline passed. In play the side to move
	// loses on time (Act with ActTimeOut); in set-up the match is abandoned.
	DeadlineMatch DeadlineKind = 'm'
	// DeadlineReminder: a reminder is due (send it, then MarkReminded).
	DeadlineReminder DeadlineKind = 'r'
	// DeadlineChallenge: a challenge expired (DeleteChallenge it).
	DeadlineChallenge DeadlineKind = 'c'
	// DeadlineResume: a pause agreed ran out (Act with ActResume).
	DeadlineResume DeadlineKind = 'p'
	// DeadlineVacation: a player's vacation ran out (Act with ActVacationEnd).
	DeadlineVacation DeadlineKind = 'v'
)

// String returns "match", "reminder", "challenge", "resume" or "vacation".
func (k DeadlineKind) String() string {
	switch k {
	case DeadlineMatch:
		return "match"
	case DeadlineReminder:
		return "reminder"
	case DeadlineChallenge:
		return "challenge"
	case DeadlineResume:
		return "resume"
	case DeadlineVacation:
		return "vacation"
	}
	return fmt.Sprintf("DeadlineKind(%d)", byte(k))
}

// Deadline is one timer: at At, something is due for a match or a challenge.
type Deadline struct {
	At   time.Time
	Kind DeadlineKind
	// ID is a MatchID for DeadlineMatch and DeadlineReminder, a ChallengeID for DeadlineChallenge.
	ID uint64
}

// What sets a match's deadline, its reminders and its next timer. These
// helpers are shared by every backend's update path, so that all of them keep
// the same rules.

// setDeadline starts a new deadline (zero: none) and plans its first reminder.
func (m *Match) setDeadline(d time.Time, reminders func(time.Duration) []time.Duration) {
	m.Deadline = second(d)
	m.RemindersSent = 0
	m.planReminder(reminders)
}

// planReminder sets RemindAt to the next reminder not yet sent, if any is
// still before the deadline.
func (m *Match) planReminder(reminders func(time.Duration) []time.Duration) {
	m.RemindAt = time.Time{}
	if m.Deadline.IsZero() || !m.Phase.Active() {
		return
	}
	if m.Clock.On() && m.Phase == PhasePlaying {
		m.RemindersSent = 0 // a game on the clock is played at the board: no reminders
		return
	}
	leads, turn := m.reminderLeads(reminders)
	for i := m.RemindersSent; i < len(leads); i++ {
		if leads[i] > 0 && leads[i] < turn {
			m.RemindAt = second(m.Deadline.Add(-leads[i]))
			m.RemindersSent = i
			return
		}
	}
	m.RemindersSent = len(leads)
}

// reminderLeads is the reminder schedule of the turn under way (how long
// before its deadline each reminder comes), and the time that turn has:
// the schedule of that time, so that the first reminder, at half time,
// comes when half of it is gone. In play that is the move time and the
// time given the side to move since its last move (TurnTime), given on the
// opponent's turn as well as its own (a gift of its own turn does not move
// the half time once planned: giftReminders); in set-up, the move time.
func (m *Match) reminderLeads(reminders func(time.Duration) []time.Duration) ([]time.Duration, time.Duration) {
	turn := m.MoveTime
	if m.Phase == PhasePlaying {
		turn = m.TurnTime(int(m.ToMove()))
	}
	return reminders(turn), turn
}

// afterAction brings phase, result and deadline in line with the game after
// an action taken at time at.
func (m *Match) afterAction(g *game.Game, at time.Time, reminders func(time.Duration) []time.Duration) {
	m.Result = g.Result()
	if m.Result.Over() {
		m.Phase = PhaseFinished
		m.Ended = second(at)
		m.setDeadline(time.Time{}, reminders)
		return
	}
	m.Phase = PhasePlaying
}

// wake returns when the bot must next look at the match, and why.
func (m *Match) wake() (time.Time, DeadlineKind, bool) {
	at, kind, ok := m.clockWake()
	if until := m.PausedUntil(); !until.IsZero() {
		// No reminder or time-out is due while paused; a vacation that
		// runs out in the pause still ends then, and its player's
		// opponent is told then.
		at, kind, ok = until, DeadlineResume, true
	}
	for side := game.Red; side <= game.Blue; side++ {
		if back := m.VacationUntil(side); !back.IsZero() && (!ok || back.Before(at)) {
			at, kind, ok = back, DeadlineVacation, true
		}
	}
	return at, kind, ok
}

// clockWake is when the clock of whoever must act next needs the bot: a
// reminder or the deadline.
func (m *Match) clockWake() (time.Time, DeadlineKind, bool) {
	if !m.Phase.Active() || m.Deadline.IsZero() || m.ClockPending {
		return time.Time{}, 0, false
	}
	if !m.RemindAt.IsZero() && m.RemindAt.Before(m.Deadline) {
		return m.RemindAt, DeadlineReminder, true
	}
	return m.Deadline, DeadlineMatch, true
}
