package bot

import (
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestDraftsLeaveNoTrace: how often bob drew a set-up before confirming
// one is his secret. Every button alice is shown afterwards (her resign
// confirmation, bob's draw offer, bob's proposal to pause) has the same id
// whether bob pressed Random no time or five times: a member's client reads
// the ids of every button it shows, and the match's version counts drafts.
func TestDraftsLeaveNoTrace(t *testing.T) {
	t.Parallel()
	var seen [2][]string
	for k, draws := range []int{0, 5} {
		h := newHarness(t)
		h.challenge("Classic", discordtest.Opt("move_time", "24h"))
		invite := h.bob.WaitDM(t, contains("Send me your secret set-up"))
		for range draws {
			h.bob.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
		}
		sergeant := placed(t, nil)
		h.sendSetups(sergeant, sergeant)

		resign := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
		h.bob.SlashCommand(t, h.channel, "stratego draw").Reply(t)
		h.bot.deliverDue(t.Context())
		draw := h.alice.WaitDM(t, contains("offers a draw"))
		h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
		h.bot.deliverDue(t.Context())
		pause := h.alice.WaitDM(t, contains("proposes to pause"))
		for _, msg := range []*discordtest.Message{resign, draw, pause} {
			for _, b := range msg.Buttons() {
				seen[k] = append(seen[k], b.CustomID)
			}
		}
	}
	if len(seen[0]) != 6 {
		t.Fatalf("alice was shown %d buttons, want 6: %q", len(seen[0]), seen[0])
	}
	for i := range seen[0] {
		if seen[0][i] != seen[1][i] {
			t.Errorf("a button's id tells bob's drafts: %q with none, %q with five", seen[0][i], seen[1][i])
		}
	}
}
