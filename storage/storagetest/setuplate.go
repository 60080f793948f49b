package storagetest

import (
	"context"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// testNothingAfterTheSetupDeadline: once the set-up time ran out, a
// set-up confirmed or a vacation of either player is refused
// (ErrSetupTimeUp, an ErrTimeUp), as a player's action in play is once the
// time to move ran out, until the timers call the match off, which they
// still do: the set-up deadline is the rules', not the timers' pass, which
// may come late. A draft is kept: it decides nothing. Before the deadline,
// even a second before, a vacation moves it on by its days, and a set-up
// confirmed starts the game. TestFairTimeModel found the vacation: Blue,
// set up already, went on vacation in the second Red's set-up time ran
// out, and Red had two days more; a late set-up started the game that a
// tournament scores as the late player's forfeit.
func testNothingAfterTheSetupDeadline(t *testing.T, s storage.Store) {
	ctx := context.Background()
	day := 24 * time.Hour
	vacation := func(side game.Side) func(m *storage.Match, at time.Time) (*storage.Match, error) {
		return func(m *storage.Match, at time.Time) (*storage.Match, error) {
			return s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacation, Side: side, Days: 2, At: at})
		}
	}
	setUp := func(status storage.SetupStatus) func(m *storage.Match, at time.Time) (*storage.Match, error) {
		return func(m *storage.Match, at time.Time) (*storage.Match, error) {
			return s.SetSetup(ctx, m.ID, 0, game.Red, game.RandomSetup(m.Rules, 8), status, at)
		}
	}
	for _, tc := range []struct {
		name  string
		do    func(m *storage.Match, at time.Time) (*storage.Match, error)
		after time.Duration // from the set-up deadline
		want  func(t *testing.T, m *storage.Match, due time.Time)
	}{
		{"Red's vacation a second before", vacation(game.Red), -time.Second, movedOn},
		{"Blue's vacation a second before", vacation(game.Blue), -time.Second, movedOn},
		{"Red's set-up a second before", setUp(storage.SetupConfirmed), -time.Second, begun},
		{"Red's vacation at the deadline", vacation(game.Red), 0, nil},
		{"Blue's vacation at the deadline", vacation(game.Blue), 0, nil},
		{"Red's set-up at the deadline", setUp(storage.SetupConfirmed), 0, nil},
		{"Red's vacation a minute after", vacation(game.Red), time.Minute, nil},
		{"Blue's vacation an hour after", vacation(game.Blue), time.Hour, nil},
		{"Red's set-up an hour after", setUp(storage.SetupConfirmed), time.Hour, nil},
		{"Red's draft an hour after", setUp(storage.SetupDraft), time.Hour, func(t *testing.T, m *storage.Match, due time.Time) {
			if m.Phase != storage.PhaseSetup || m.Setups[game.Red].Status != storage.SetupDraft || !m.Deadline.Equal(due) {
				t.Errorf("after a draft: %s, Red's set-up %v, deadline %v", m.Phase, m.Setups[game.Red].Status, m.Deadline.Sub(T0))
			}
		}},
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
			got, err := tc.do(m, at)
			if tc.want != nil {
				if err != nil {
					t.Fatalf("%v", err)
				}
				tc.want(t, got, due)
				if tc.after < 0 {
					return
				}
			} else {
				wantErr(t, "once the set-up time ran out", err, storage.ErrSetupTimeUp)
				wantErr(t, "once the set-up time ran out", err, storage.ErrTimeUp)
				got := must(s.Match(ctx, m.ID)).in(t)
				if got.Version != m.Version || !got.Deadline.Equal(due) || len(got.Log) != 0 || got.Setups[game.Red].Status != storage.SetupNone {
					t.Errorf("the refusal changed the match: version %d (was %d), deadline %v, %d actions, Red's set-up %v", got.Version, m.Version, got.Deadline.Sub(T0), len(got.Log), got.Setups[game.Red].Status)
				}
			}
			off := must(s.Abandon(ctx, m.ID, 0, at, storage.CallOffLateSetup)).in(t)
			if off.Phase != storage.PhaseAbandoned || off.CalledOff != storage.CallOffLateSetup {
				t.Errorf("the call-off: %s, %v", off.Phase, off.CalledOff)
			}
		})
	}
}

// movedOn checks that a vacation of two days moved the set-up deadline
// due on by them.
func movedOn(t *testing.T, m *storage.Match, due time.Time) {
	t.Helper()
	if want := due.Add(2 * 24 * time.Hour); m.Phase != storage.PhaseSetup || !m.Deadline.Equal(want) {
		t.Errorf("after the vacation: %s, set-up deadline %v, want %v", m.Phase, m.Deadline.Sub(T0), want.Sub(T0))
	}
}

// begun checks that the game began.
func begun(t *testing.T, m *storage.Match, _ time.Time) {
	t.Helper()
	if m.Phase != storage.PhasePlaying {
		t.Errorf("after both set-ups: %s, want playing", m.Phase)
	}
}
