package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestTournamentOnAClock: a tournament played on a 10+5 clock starts each
// game with ten minutes on both clocks, as a challenge's does: its first
// board shows them, and Red, to move, has them to play.
func TestTournamentOnAClock(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	m := h.bobMeetsCarol(discordtest.Opt("clock", "10+5"))
	if want := [2]time.Duration{10 * time.Minute, 10 * time.Minute}; m.Left != want {
		t.Errorf("the game's clocks as it is made: %v, want %v", m.Left, want)
	}
	h.setUp(m, game.Red, game.Blue)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase != storage.PhaseSetup })
	h.bot.deliverDue(t.Context())
	red := h.members[m.Players[game.Red].UserID]
	board := red.WaitDM(t, contains("the match begins"))
	if !strings.Contains(board.Content, "10:00 ·") || !strings.Contains(board.Content, "10:00 (10+5)") {
		t.Errorf("Red's first board does not show ten minutes on each clock:\n%s", board.Content)
	}
	h.advance(time.Minute)
	if got := h.match(m.ID); got.Phase != storage.PhasePlaying || got.Deadline.Sub(h.clock.Now()) != 9*time.Minute {
		t.Errorf("a minute into Red's first turn: %v, %v, %v left, want the game on with 9m", got.Phase, got.Result, got.Deadline.Sub(h.clock.Now()))
	}
}
