package storagetest

import (
	"context"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// testNoVacationAfterTheSetupDeadline: once the set-up time ran out, a
// vacation of either player is refused (ErrTimeUp), as a player's action
// in play is once the time to move ran out, until the timers call the
// match off, which they still do: the set-up deadline is the rules', not
// the timers' pass, which may come late. Taken before it, even a second
// before, a vacation moves it on by its days. TestFairTimeModel found it:
// Blue, set up already, went on vacation in the second Red's set-up time
// ran out, and Red had two days more.
func testNoVacationAfterTheSetupDeadline(t *testing.T, s storage.Store) {
	ctx := context.Background()
	day := 24 * time.Hour
	for _, tc := range []struct {
		name   string
		side   game.Side // who leaves; Blue's set-up is in
		after  time.Duration
		refuse bool
	}{
		{"Red, who owes the set-up, a second before", game.Red, -time.Second, false},
		{"Blue, set up already, a second before", game.Blue, -time.Second, false},
		{"Red at the deadline", game.Red, 0, true},
		{"Blue at the deadline", game.Blue, 0, true},
		{"Red a minute after", game.Red, time.Minute, true},
		{"Blue an hour after", game.Blue, time.Hour, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
			Deliver(t, s, T0)
			m = must(s.SetSetup(ctx, m.ID, 0, game.Blue, game.RandomSetup(m.Rules, 7), storage.SetupConfirmed, T0.Add(time.Hour))).in(t)
			due := m.Deadline
			if !m.ClockRunning() || !due.Equal(T0.Add(day)) {
				t.Fatalf("the set-up deadline %v (running %v), want a day", due.Sub(T0), m.ClockRunning())
			}
			at := due.Add(tc.after)
			left, err := s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacation, Side: tc.side, Days: 2, At: at})
			if !tc.refuse {
				if err != nil {
					t.Fatalf("a vacation before the set-up deadline: %v", err)
				}
				if want := due.Add(2 * day); !left.Deadline.Equal(want) {
					t.Errorf("the set-up deadline after the vacation: %v, want %v", left.Deadline.Sub(T0), want.Sub(T0))
				}
				return
			}
			wantErr(t, "a vacation once the set-up time ran out", err, storage.ErrTimeUp)
			got := must(s.Match(ctx, m.ID)).in(t)
			if got.Version != m.Version || !got.Deadline.Equal(due) || len(got.Log) != 0 {
				t.Errorf("the refusal changed the match: version %d (was %d), deadline %v, %d actions", got.Version, m.Version, got.Deadline.Sub(T0), len(got.Log))
			}
			off := must(s.Abandon(ctx, m.ID, 0, at, storage.CallOffLateSetup)).in(t)
			if off.Phase != storage.PhaseAbandoned || off.CalledOff != storage.CallOffLateSetup {
				t.Errorf("the call-off after the refusal: %s, %v", off.Phase, off.CalledOff)
			}
		})
	}
}
