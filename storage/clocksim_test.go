package storage

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
)

// simMatch drives one match of a day a move through random actions, as a
// backend (a Changes method, then PrepareSave), the outbox (StartClock, as
// each board or invite arrives) and the timers would, and checks its clock
// after each step.
type simMatch struct {
	t       *testing.T
	c       Changes
	m       *Match
	now     time.Time
	pending []Notice  // notices that start a clock, not yet done
	start   time.Time // when the clock of the current turn (or set-up) started
	gifts   int       // on a game clock, gifts received since start, which moved the deadline
	trace   []string
}

// save does what a backend does after a change: PrepareSave, and the
// notices that start a clock go into the outbox.
func (s *simMatch) save(old *Match, g *game.Game) {
	saved, err := PrepareSave(old, s.m, g, s.now)
	if err != nil {
		s.t.Fatalf("PrepareSave: %v\n%v", err, s.trace)
	}
	if (old == nil || old.ClockPending) && !s.m.ClockPending {
		s.start, s.gifts = s.now, 0
	}
	for _, n := range saved.Notices {
		if n.StartsClock {
			s.pending = append(s.pending, n)
		}
	}
}

// act records a at now, as Store.Act does.
func (s *simMatch) act(a Action) error {
	old := s.m
	m := old.Clone()
	a.At = s.now
	g, err := s.c.Act(m, a)
	if err != nil {
		return err
	}
	s.m = m
	if a.Kind == ActGiveTime && !old.ClockPending && m.Phase == PhasePlaying && a.Side != m.ToMove() {
		s.gifts++
	}
	s.save(old, g)
	s.trace = append(s.trace, s.now.Format("01-02T15:04:05")+" "+a.String())
	return nil
}

// deliver has the outbox's oldest notice that starts a clock arrive now.
func (s *simMatch) deliver() {
	if len(s.pending) == 0 {
		return
	}
	n := s.pending[0]
	s.pending = s.pending[1:]
	m, ok := s.c.StartClock(s.m, &n, s.now)
	if ok {
		s.m = m
		if !m.ClockPending {
			s.start, s.gifts = s.now, 0
		}
		s.trace = append(s.trace, s.now.Format("01-02T15:04")+" delivered")
	}
}

// timers runs what is due at now, as the bot's timers would.
func (s *simMatch) timers() {
	for range 10 {
		at, kind, ok := s.m.wake()
		if !ok || at.After(s.now) {
			return
		}
		switch kind {
		case DeadlineResume:
			_ = s.act(Action{Kind: ActResume})
		case DeadlineVacation:
			for side := game.Red; side <= game.Blue; side++ {
				if back := s.m.VacationUntil(side); !back.IsZero() && !s.now.Before(back) {
					_ = s.act(Action{Kind: ActVacationEnd, Side: side})
				}
			}
		case DeadlineReminder:
			old := s.m
			m := old.Clone()
			if err := s.c.MarkReminded(m, s.now); err != nil {
				s.t.Fatalf("MarkReminded: %v", err)
			}
			s.m = m
			s.save(old, nil)
		case DeadlineMatch:
			return // time is up: the check below stops there
		}
	}
}

// check compares the deadline with the time the clock of whoever must act
// may run: the turn's time from its start, outside its stops.
func (s *simMatch) check() {
	m := s.m
	if !m.ClockRunning() || !m.Phase.Active() {
		return
	}
	budget := m.MoveTime
	if m.Phase == PhasePlaying {
		budget = m.TurnTime(int(m.ToMove()))
		if m.Clock.On() {
			budget += time.Duration(s.gifts) * m.GiftTime()
		}
	}
	if ran := s.ran(s.start, m.Deadline); ran != budget {
		s.t.Fatalf("the clock may run %v from %s to the deadline %s, want %v\n%v", ran, s.start.Format("01-02T15:04"), m.Deadline.Format("01-02T15:04"), budget, s.trace)
	}
	if m.RemindAt.IsZero() {
		return
	}
	gifts := 0
	for _, a := range m.Log {
		if a.Kind == ActGiveTime && a.At.After(s.start) && m.Phase == PhasePlaying && a.Side != m.ToMove() {
			gifts++
		}
	}
	want := time.Hour
	if m.RemindersSent == 0 {
		// Half the time the turn had as it began, the time given it before
		// included; the gifts since move the deadline, not the reminder.
		since := time.Duration(gifts) * m.GiftTime()
		want = (budget-since)/2 + since
	}
	if ran := s.ran(m.RemindAt, m.Deadline); ran != want {
		s.t.Fatalf("reminder %d at %s: the clock may run %v from it to the deadline %s, want %v\n%v", m.RemindersSent, m.RemindAt.Format("01-02T15:04"), ran, m.Deadline.Format("01-02T15:04"), want, s.trace)
	}
}

// ran is how long the clock of whoever must act runs from from to to.
func (s *simMatch) ran(from, to time.Time) time.Duration { return s.m.clockRan(from, to) }

// TestClockSimulation plays matches of a day a move through random
// sequences of what a correspondence game meets (boards and invites that
// arrive late, set-ups, moves, vacations of either player begun and ended,
// pauses proposed and agreed, gifts of time, the timers' ends of pauses and
// vacations and their reminders, time nobody ran the timers) and checks
// after each step that the deadline of whoever must act leaves their clock
// exactly their time to run from when it started (the move time, with the
// gifts they received), outside the pauses and vacations that stop it and
// the time given back; and that a reminder planned leaves it half the time
// its turn had as it began (with the gifts since), or an hour.
func TestClockSimulation(t *testing.T) {
	t.Run("game clock", testGameClockSimulation)
	for seed := range uint64(400) {
		r := rand.New(rand.NewPCG(seed, 7))
		base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		c := Changes{Reminders: func(mt time.Duration) []time.Duration { return []time.Duration{mt / 2, time.Hour} }}
		m := setupMatch(base)
		m.Deadline = time.Time{}
		m, err := c.NewMatch(m)
		if err != nil {
			t.Fatal(err)
		}
		m.ID = 3
		s := &simMatch{t: t, c: c, m: m, now: base}
		s.save(nil, nil)
		for step := 0; step < 120 && s.m.Phase.Active(); step++ {
			s.now = s.now.Add(time.Duration(r.IntN(int(8*time.Hour/time.Minute))) * time.Minute)
			if r.IntN(8) == 0 { // nobody ran the timers for a while
				away := time.Duration(2+r.IntN(600)) * time.Minute
				s.now = s.now.Add(away)
				_ = s.act(Action{Kind: ActAway, Away: away})
			}
			if s.m.ClockRunning() && !s.now.Before(s.m.Deadline) {
				break // lost on time
			}
			s.timers()
			if s.m.ClockRunning() && !s.now.Before(s.m.Deadline) {
				break
			}
			side := game.Side(r.IntN(2))
			switch k := r.IntN(11); {
			case k == 0 || k >= 9:
				s.deliver()
			case k == 1:
				_ = s.act(Action{Kind: ActVacation, Side: side, Days: 1 + r.IntN(5)})
			case k == 2:
				_ = s.act(Action{Kind: ActVacationEnd, Side: side})
			case k == 3:
				_ = s.act(Action{Kind: ActOfferPause, Side: side, Days: 1 + r.IntN(5)})
			case k == 4:
				_ = s.act(Action{Kind: ActAcceptPause, Side: side})
			case k == 5:
				_ = s.act(Action{Kind: ActGiveTime, Side: side})
			case k == 6 && s.m.Phase == PhaseSetup:
				old := s.m
				m := old.Clone()
				g, err := c.SetSetup(m, side, game.RandomSetup(m.Rules, seed*2+uint64(side)), SetupConfirmed, s.now)
				if err == nil {
					s.m = m
					s.save(old, g)
					s.trace = append(s.trace, s.now.Format("01-02T15:04")+" setup "+side.String())
				} else if !errors.Is(err, ErrSetupConfirmed) {
					t.Fatalf("SetSetup: %v", err)
				}
			case k >= 6 && s.m.Phase == PhasePlaying:
				g, _ := s.m.Game()
				moves := g.LegalMoves()
				if len(moves) == 0 {
					continue
				}
				old := s.m
				m := old.Clone()
				g2, err := c.ApplyMove(m, g.ToMove(), moves[r.IntN(len(moves))], s.now)
				if err != nil {
					continue
				}
				s.m = m
				s.save(old, g2)
				s.trace = append(s.trace, s.now.Format("01-02T15:04")+" move "+g.ToMove().String())
			}
			s.check()
		}
	}
}

func testGameClockSimulation(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 11))
		base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		c := Changes{Reminders: func(mt time.Duration) []time.Duration { return []time.Duration{mt / 2, time.Hour} }}
		m := setupMatch(base)
		m.MoveTime, m.Clock = 10*time.Minute, TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}
		m.Left = [2]time.Duration{m.Clock.Base, m.Clock.Base}
		m.Deadline = time.Time{}
		m, err := c.NewMatch(m)
		if err != nil {
			t.Fatal(err)
		}
		m.ID = 3
		s := &simMatch{t: t, c: c, m: m, now: base}
		s.save(nil, nil)
		var used [2]time.Duration // each side's clock time spent
		var moves [2]int
		var gifts [2]int // received
		for step := 0; step < 200 && s.m.Phase.Active(); step++ {
			s.now = s.now.Add(time.Duration(r.IntN(40)) * time.Second)
			if r.IntN(15) == 0 {
				away := time.Duration(61+r.IntN(300)) * time.Second
				s.now = s.now.Add(away)
				_ = s.act(Action{Kind: ActAway, Away: away})
			}
			if s.m.ClockRunning() && !s.now.Before(s.m.Deadline) {
				break
			}
			s.timers()
			side := game.Side(r.IntN(2))
			switch k := r.IntN(6); {
			case k <= 1:
				s.deliver()
			case k == 2:
				if s.act(Action{Kind: ActGiveTime, Side: side}) == nil {
					gifts[side.Opponent()]++
				}
			case s.m.Phase == PhaseSetup:
				old := s.m
				m := old.Clone()
				if g, err := c.SetSetup(m, side, game.RandomSetup(m.Rules, seed*2+uint64(side)), SetupConfirmed, s.now); err == nil {
					s.m = m
					s.save(old, g)
				}
			default:
				g, _ := s.m.Game()
				moves := g.LegalMoves()
				if len(moves) == 0 {
					continue
				}
				old := s.m
				m := old.Clone()
				mover := g.ToMove()
				g2, err := c.ApplyMove(m, mover, moves[r.IntN(len(moves))], s.now)
				if err != nil {
					continue
				}
				if !old.ClockPending {
					used[mover] += s.ran(s.start, s.now)
				}
				s.m = m
				s.save(old, g2)
				s.trace = append(s.trace, s.now.Format("01-02T15:04:05")+" move "+mover.String())
			}
			s.check()
			if s.m.Phase == PhasePlaying {
				for side := game.Red; side <= game.Blue; side++ {
					moves[side] = 0
					for _, a := range s.m.Log {
						if a.Kind == ActMove && a.Side == side {
							moves[side]++
						}
					}
					if side == s.m.ToMove() && s.m.ClockRunning() {
						continue
					}
					want := s.m.Clock.Base + time.Duration(moves[side])*s.m.Clock.Increment + time.Duration(gifts[side])*s.m.GiftTime() - used[side]
					if s.m.Left[side] != want {
						t.Fatalf("seed %d: %s has %v left, want %v\n%v", seed, side, s.m.Left[side], want, s.trace)
					}
				}
			}
		}
	}
}
