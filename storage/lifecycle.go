package storage

import (
	"time"

	"github.com/strategobot/strategobot/game"
)

// What changes a match's phase and clock. These helpers are shared by every
// backend's update path, so that all of them keep the same rules.

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
	leads := reminders(m.MoveTime)
	for i := m.RemindersSent; i < len(leads); i++ {
		if leads[i] > 0 && leads[i] < m.MoveTime {
			m.RemindAt = second(m.Deadline.Add(-leads[i]))
			m.RemindersSent = i
			return
		}
	}
	m.RemindersSent = len(leads)
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
	if until := m.PausedUntil(); !until.IsZero() {
		return until, DeadlineResume, true // nothing else is due while paused
	}
	at, kind, ok := m.clockWake()
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
	if !m.Phase.Active() || m.Deadline.IsZero() || (m.ClockPending && m.Phase == PhasePlaying) {
		return time.Time{}, 0, false
	}
	if !m.RemindAt.IsZero() && m.RemindAt.Before(m.Deadline) {
		return m.RemindAt, DeadlineReminder, true
	}
	return m.Deadline, DeadlineMatch, true
}

// rated reports whether the match's result counts in the standings.
func (m *Match) rated() bool {
	return m.Phase == PhaseFinished && m.Result.Over() && m.GuildID != "" && !m.Casual
}
