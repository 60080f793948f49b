package storage

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
)

// TestStoredClockMatchBeginsWithItsTime: a match on a game clock stored in
// set-up with no time on its clocks (a tournament's game made before
// CreateMatch gave it its clock's time) begins with the clock's time on
// both sides: nobody has played yet, and Red must not lose on time as it
// is told it is its move.
func TestStoredClockMatchBeginsWithItsTime(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c := Changes{}
	m := setupMatch(base)
	m.Clock, m.MoveTime = TimeControl{Base: 10 * time.Minute, Increment: 5 * time.Second}, 15*time.Minute
	for side := game.Red; side <= game.Blue; side++ {
		if _, err := c.SetSetup(m, side, game.RandomSetup(m.Rules, uint64(side+1)), SetupConfirmed, base.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if want := [2]time.Duration{10 * time.Minute, 10 * time.Minute}; m.Phase != PhasePlaying || m.Left != want {
		t.Fatalf("the game begins %v with %v on the clocks, want playing with %v", m.Phase, m.Left, want)
	}
	if want := base.Add(11 * time.Minute); !m.Deadline.Equal(want) {
		t.Errorf("Red's deadline %v, want %v", m.Deadline, want)
	}
}
