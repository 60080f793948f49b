package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestClockGame: a 10+5 game. The challenge and every board show the
// clocks; a move a minute after the turn began leaves the mover 9:05; the
// side that does not move within its time loses on time, by the bot's
// clock, with nobody online.
func TestClockGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob),
		discordtest.Opt("clock", "10+5"), discordtest.Opt("move_time", "1h")).Reply(t); !strings.Contains(got.Content, "not both") {
		t.Fatalf("a clock and a move time answered %q", got.Content)
	}
	h.challenge("Classic", discordtest.Opt("clock", "10+5"))
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.sendSetups(red, blue)
	h.waitMoves(1, 0)
	start := h.alice.WaitDM(t, contains("the match begins"))
	if !strings.Contains(start.Content, "Clocks: alice 10:00 · bob 10:00 (10+5)") {
		t.Errorf("the first board says %q", start.Content)
	}
	h.clock.Advance(time.Minute)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	board := h.bob.WaitDM(t, contains("Clocks: alice 9:05 · bob 10:00"))
	if len(board.Files) != 1 || !strings.Contains(board.Files[0].Description, "Time left: alice (Red) 9:05, bob (Blue) 10:00.") {
		t.Errorf("bob's picture does not show the clocks: %q", board.Files[0].Description)
	}
	h.channelSays("Clocks: alice 9:05 · bob 10:00")
	if m := h.match(1); m.RemindAt != (time.Time{}) {
		t.Errorf("a reminder is planned in a game on the clock: %v", m.RemindAt)
	}
	// Bob never moves: his flag falls ten minutes after he was told.
	h.advance(10*time.Minute - time.Second)
	if m := h.match(1); m.Phase != storage.PhasePlaying {
		t.Fatalf("bob lost with a second left: %v", m.Result)
	}
	h.advance(time.Second)
	h.srv.WaitFor(t, "bob's flag to fall", func() bool { return h.match(1).Phase == storage.PhaseFinished })
	if m := h.match(1); m.Result != (game.Result{Outcome: game.RedWon, Method: game.TimeForfeit}) {
		t.Errorf("after the flag fell: %+v", m.Result)
	}
	h.bot.deliverDue(t.Context())
	h.bob.WaitDM(t, contains("You lost: you ran out of time"))
}
