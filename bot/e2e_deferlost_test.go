package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestMoveThoughItsDeferralWasLost: Discord takes the deferral of a move
// (the player sees "thinking…"), but its answer to the bot is lost (a 503;
// or a 502, after which the bot sends it again and is told the
// interaction was answered already). The move is played all the same, and the player's answer
// says so: the bot gave the move up, and left the player waiting, their
// move not played and their clock running.
func TestMoveThoughItsDeferralWasLost(t *testing.T) {
	t.Parallel()
	for _, status := range []int{503, 502} {
		// 502: the bot sends the deferral again, which Discord answers
		// that the interaction was answered already.
		t.Run(fmt.Sprintf("slash command, %d", status), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.startClassic()
			h.bob.WaitDM(t, contains("the match begins"))
			h.channelSays("the match begins")
			h.srv.LoseAnswerNext(t, callbackRoute, 1, status)
			got := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			if !strings.Contains(got.Content, "A4-A5") {
				t.Errorf("alice's answer says %q; want her move", got.Content)
			}
			h.waitMoves(1, 1)
			h.bob.WaitDM(t, contains("alice moved A4-A5"))
			h.channelSays("alice moved A4-A5")
			h.outboxEmpty()
			h.seenOnce(t, "A4-A5")
		})
	}
	t.Run("menus", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		h.startClassic()
		board := h.alice.WaitDM(t, contains("the match begins"))
		h.channelSays("the match begins")
		picked, _ := h.pick(h.alice, board, 0, "A4")
		h.srv.LoseAnswerNext(t, callbackRoute, 1, 503)
		h.pick(h.alice, picked, 0, "A5")
		h.waitMoves(1, 1)
		h.bob.WaitDM(t, contains("alice moved A4-A5"))
		h.channelSays("alice moved A4-A5")
		h.outboxEmpty()
		h.seenOnce(t, "A4-A5")
		if menus := h.srv.Message(board.ID).SelectMenus(); len(menus) != 0 {
			t.Errorf("the board played from keeps its menus: %+v", menus)
		}
	})
}

// TestMoveThoughItsDeferralFailed: Discord fails the deferral of a move (a
// 503: it may or may not have taken it). The move is played; the player,
// shown that the command failed, learns it stood from their board.
func TestMoveThoughItsDeferralFailed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.alice.WaitDM(t, contains("the match begins"))
	h.bob.WaitDM(t, contains("the match begins"))
	h.channelSays("the match begins")
	h.srv.FailNext(t, callbackRoute, 1, 503)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5"))
	h.waitMoves(1, 1)
	h.alice.WaitDM(t, contains("You moved"))
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	h.channelSays("alice moved A4-A5")
	h.outboxEmpty()
	h.seenOnce(t, "A4-A5")
}
