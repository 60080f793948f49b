package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestClockShownAsItRuns: in a 10+5 game, alice looks at her board four
// minutes into her turn, and again once bob gave her 15 seconds: the clocks
// it shows (text and picture) give her the time she has now, as its
// deadline and the web board do, not the ten minutes her turn began with.
func TestClockShownAsItRuns(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("clock", "10+5"))
	sergeant := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.sendSetups(sergeant, sergeant)
	h.waitMoves(1, 0)
	h.alice.WaitDM(t, contains("the match begins"))
	h.advance(4 * time.Minute)
	look := func(want string) {
		t.Helper()
		board := h.alice.SlashCommand(t, h.channel, "stratego board").Reply(t)
		if !strings.Contains(board.Content, "Clocks: alice "+want+" · bob 10:00 (10+5)") {
			t.Errorf("alice's board, with %s left, says:\n%s", want, board.Content)
		}
		if len(board.Files) != 1 || !strings.Contains(board.Files[0].Description, "Time left: alice (Red) "+want+", bob (Blue) 10:00.") {
			t.Errorf("alice's picture, with %s left, is described %q", want, board.Files[0].Description)
		}
	}
	look("6:00")
	h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
	look("6:15")
}
