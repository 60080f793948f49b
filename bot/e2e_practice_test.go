package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestPracticeAgainstTheComputer: the computer sets up at once, answers each
// move through the same path as a person, and is never rated.
func TestPracticeAgainstTheComputer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	start := h.alice.SlashCommand(t, h.channel, "stratego practice", discordtest.Opt("level", "easy"),
		discordtest.Opt("variant", "Duel"), discordtest.Opt("side", "red")).Reply(t)
	if !strings.Contains(start.Content, "Practice match #1") {
		t.Fatalf("practice answer %q", start.Content)
	}
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	preview := h.alice.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	h.alice.WaitDM(t, contains("the match begins"))
	for ply := 0; ply < 6; ply += 2 {
		m := h.waitMoves(1, ply)
		if !m.Phase.Active() {
			break
		}
		g, err := m.Game()
		if err != nil {
			t.Fatal(err)
		}
		h.alice.SendDM(t, g.LegalMoves()[0].String())
		m = h.waitMoves(1, ply+2) // the computer answers by itself
		if m.Phase.Active() && m.Moves() != ply+2 {
			t.Fatalf("after alice's move %d the match has %d moves", ply/2+1, m.Moves())
		}
	}
	h.alice.WaitDM(t, contains("Computer (easy) moved"))
	m, _ := h.db.Match(context.Background(), 1)
	if !m.Casual {
		t.Fatal("a practice match is rated")
	}
	if m.Phase == storage.PhaseSetup {
		t.Fatal("the match never started")
	}
}
