package bot

import (
	"strconv"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestBoardAfterSameTurnAction: alice moves and, while Discord refuses
// bob's board, acts within the same turn (a gift of time, a proposal to
// pause, a vacation, a draw offer). The board, sent again, tells bob his
// deadline, as the one that holds once it arrived, and carries the move
// menus: the action changed nothing of his turn.
func TestBoardAfterSameTurnAction(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		act  func(h *harness)
	}{
		{"a gift of time", func(h *harness) { h.alice.SlashCommand(h.t, h.channel, "stratego give_time").Reply(h.t) }},
		{"a proposal to pause", func(h *harness) {
			h.alice.SlashCommand(h.t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(h.t)
		}},
		{"a vacation", func(h *harness) {
			h.alice.SlashCommand(h.t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(h.t)
		}},
		{"a draw offer", func(h *harness) { h.alice.SlashCommand(h.t, h.channel, "stratego draw").Reply(h.t) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			h.outboxEmpty()
			h.srv.FailNextIn(t, createMessageRoute, h.bob.DM(), 1, 500)
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			h.waitStored(1, 1)
			h.bot.deliverDue(t.Context())
			if n := countDMs(h.bob, "alice moved A4-A5"); n != 0 {
				t.Fatalf("the refused board arrived %d times", n)
			}
			tc.act(h)
			// The action's answer comes before the bot keeps the match
			// it left for the outbox (afterChange): as a player's next
			// look would, the board is composed once it has.
			h.srv.WaitFor(t, "the bot to keep the match as the action left it", func() bool {
				_, kept := h.bot.snapshots.get(1, h.match(1).Version)
				return kept
			})
			h.advance(backoff(1, 0))
			h.outboxEmpty()
			board := h.bob.WaitDM(t, contains("alice moved A4-A5"))
			m := h.match(1)
			if m.ClockPending {
				t.Fatal("bob's clock waits still, his board arrived")
			}
			if due := "(deadline <t:" + strconv.FormatInt(m.Deadline.Unix(), 10) + ":R>)"; !strings.Contains(board.Content, due) {
				t.Errorf("bob's board, sent after alice's action, does not say his deadline %s:\n%s", due, board.Content)
			}
			if len(board.Components) == 0 {
				t.Errorf("bob's board, sent after alice's action, has no move menus:\n%s", board.Content)
			}
		})
	}
}
