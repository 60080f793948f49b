package storage

import (
	"fmt"
	"github.com/strategobot/strategobot/game"
	"strconv"
	"strings"
	"time"
)

// TimeControl is a game clock: each side has Base for all its moves, and
// gains Increment with each move it makes; a side whose time runs out loses
// on time. The zero value means a deadline per move (Match.MoveTime)
// instead. Written "10+5": minutes, then seconds, as chess and Stratego
// sites write it.
type TimeControl struct {
	Base, Increment time.Duration
}

// Bounds of a game clock.
const (
	MinClockBase      = time.Minute
	MaxClockBase      = 3 * time.Hour
	MaxClockIncrement = 5 * time.Minute
)

// On reports whether the match is played with a clock.
func (t TimeControl) On() bool { return t.Base > 0 }

func (t TimeControl) String() string {
	if !t.On() {
		return ""
	}
	return fmt.Sprintf("%d+%d", t.Base/time.Minute, t.Increment/time.Second)
}

// ParseTimeControl reads "10+5" (10 minutes, 5 seconds a move) or "15"
// (no increment).
func ParseTimeControl(s string) (TimeControl, error) {
	base, inc, _ := strings.Cut(strings.TrimSpace(s), "+")
	m, err := strconv.Atoi(strings.TrimSpace(base))
	if err != nil {
		return TimeControl{}, fmt.Errorf("a clock is written minutes+seconds, like 10+5: %w", ErrInvalid)
	}
	sec := 0
	if inc != "" {
		if sec, err = strconv.Atoi(strings.TrimSpace(inc)); err != nil {
			return TimeControl{}, fmt.Errorf("a clock is written minutes+seconds, like 10+5: %w", ErrInvalid)
		}
	}
	t := TimeControl{Base: time.Duration(m) * time.Minute, Increment: time.Duration(sec) * time.Second}
	return t, t.validate()
}

func (t TimeControl) validate() error {
	if !t.On() && t.Increment == 0 {
		return nil
	}
	if t.Base < MinClockBase || t.Base > MaxClockBase || t.Increment < 0 || t.Increment > MaxClockIncrement {
		return fmt.Errorf("a clock has %v to %v, and at most %v more a move: %w", MinClockBase, MaxClockBase, MaxClockIncrement, ErrInvalid)
	}
	return nil
}

// TurnTime is how long side has for the turn it begins: what is left on its
// clock, or the move time with the time its opponent gave it since its last
// move.
func (m *Match) TurnTime(side int) time.Duration {
	if m.Clock.On() {
		return m.Left[side]
	}
	return m.MoveTime + time.Duration(m.giftsSinceMove(game.Side(side)))*m.GiftTime()
}

// MaxGifts is how many times each player may give its opponent more time in
// a match.
const MaxGifts = 3

// GiftTime is what one gift adds to the opponent's time: on a game clock 15
// seconds, as in fast chess; with a time per move that move time, at most a
// day (so a day in correspondence games) in whole minutes: worth giving
// whether a move has 5 minutes or 12 hours.
func (m *Match) GiftTime() time.Duration {
	if m.Clock.On() {
		return 15 * time.Second
	}
	return min(m.MoveTime.Truncate(time.Minute), 24*time.Hour)
}

// GiftsBy counts the times side gave its opponent more time.
func (m *Match) GiftsBy(side game.Side) int { return m.actionsBy(ActGiveTime, side) }

// actionsBy counts the actions of kind that side took in the match.
func (m *Match) actionsBy(kind ActionKind, side game.Side) int {
	n := 0
	for _, a := range m.Log {
		if a.Kind == kind && a.Side == side {
			n++
		}
	}
	return n
}

// giftsSinceMove counts the gifts side received since its last move: in a
// game without a clock they are added to its next turn.
func (m *Match) giftsSinceMove(side game.Side) int {
	n := 0
	for i := len(m.Log) - 1; i >= 0; i-- {
		a := m.Log[i]
		if a.Kind == ActMove && a.Side == side {
			break
		}
		if a.Kind == ActGiveTime && a.Side == side.Opponent() {
			n++
		}
	}
	return n
}

// giveTime adds a gift from giver, made at time at, to its opponent's time:
// to the deadline when the opponent's clock runs, else to its clock, or
// (without a clock) to its next turn, which TurnTime reads from the log.
func (m *Match) giveTime(giver game.Side, toMove game.Side, at time.Time, reminders func(time.Duration) []time.Duration) {
	to := giver.Opponent()
	switch {
	case toMove == to && !m.ClockPending:
		m.Deadline = second(m.Deadline.Add(m.GiftTime()))
		m.giftReminders(at, reminders)
	case m.Clock.On():
		m.Left[to] += m.GiftTime()
	}
}

// giftReminders plans the reminders of a turn whose deadline a gift made at
// time at moved on. The turn is the same, so the reminders are not started
// over; what a player expects of each:
//   - the first of the schedule, at half time, says that half the time the
//     turn had when its board arrived is gone: a gift does not move it, and
//     once it was sent it is not sent again (it would come a second time,
//     half a move time before the new deadline, and say nothing new);
//   - the later ones (an hour before) warn that the deadline is near: they
//     follow it, and one already sent comes again before the new deadline
//     when that moment is still to come, since the warning it gave no
//     longer holds and the player would otherwise lose on time unwarned.
func (m *Match) giftReminders(at time.Time, reminders func(time.Duration) []time.Duration) {
	if m.Deadline.IsZero() || !m.Phase.Active() || (m.Clock.On() && m.Phase == PhasePlaying) {
		return // a game on the clock is played at the board: no reminders
	}
	if m.RemindersSent == 0 && !m.RemindAt.IsZero() {
		return // half time is still to come, where it was
	}
	leads, turn := m.reminderLeads(reminders)
	for i := 1; i < len(leads); i++ {
		if leads[i] <= 0 || leads[i] >= turn {
			continue
		}
		if remind := second(m.Deadline.Add(-leads[i])); remind.After(at) {
			m.RemindAt, m.RemindersSent = remind, i
			return
		}
	}
	// Nothing is still to come: the turn keeps the reminders it had.
}

// chargeClock takes the time side used for the move it made at time at off
// its clock, and adds the increment. Time counts from when it was told it
// was its turn: while that notice was still undelivered, the move is free.
func (m *Match) chargeClock(side int, at time.Time) {
	if !m.Clock.On() {
		return
	}
	if !m.ClockPending {
		m.Left[side] = max(0, m.Deadline.Sub(second(at)))
	}
	m.Left[side] += m.Clock.Increment
}

// encodeClock writes a clock as "600+5" (seconds) for records.
func encodeClock(t TimeControl) string {
	if !t.On() {
		return ""
	}
	return fmt.Sprintf("%d+%d", t.Base/time.Second, t.Increment/time.Second)
}

func decodeClock(s string) (TimeControl, error) {
	if s == "" {
		return TimeControl{}, nil
	}
	base, inc, ok := strings.Cut(s, "+")
	b, err1 := strconv.ParseInt(base, 10, 64)
	i, err2 := strconv.ParseInt(inc, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return TimeControl{}, fmt.Errorf("clock %q is not SECONDS+SECONDS", s)
	}
	return TimeControl{Base: time.Duration(b) * time.Second, Increment: time.Duration(i) * time.Second}, nil
}
