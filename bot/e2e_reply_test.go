package bot

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestReplyPicksTheMatch: with two matches waiting for alice, a plain DM is
// ambiguous and refused; a reply to the bot's DM about a match goes to that
// match only, for set-ups and for moves alike.
func TestReplyPicksTheMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Classic") // match #1
	h.challenge("Classic") // match #2
	invite1 := h.alice.WaitDM(t, contains("**Match #1** against bob"))
	invite2 := h.alice.WaitDM(t, contains("**Match #2** against bob"))
	first := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {3, 0}: game.Flag})
	second := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {3, 9}: game.Flag})
	text := func(s game.Setup) string { return game.FormatSetup(s, game.NumberingModern) }

	// A plain set-up: which match? Refused, and neither match gets it.
	plain := h.alice.SendDM(t, text(first))
	refusal := h.alice.WaitDM(t, answers(plain, "several matches waiting for a set-up"))
	if !strings.Contains(refusal.Content, "reply to the message of the match you mean") {
		t.Fatalf("refusal %q", refusal.Content)
	}
	for _, id := range []storage.MatchID{1, 2} {
		if st := h.match(id).Setups[game.Red].Status; st != storage.SetupNone {
			t.Fatalf("match #%d got a set-up (%v) from an ambiguous DM", id, st)
		}
	}

	// The same set-up as a reply to the invite of match #2: a preview of #2.
	reply := h.alice.Reply(t, invite2, text(first))
	preview := h.alice.WaitDM(t, answers(reply, "Your set-up for match #2"))
	if preview.ReferencedMessage == nil || preview.ReferencedMessage.ID != reply.ID {
		t.Fatalf("the preview does not reply to alice's message: %+v", preview.ReferencedMessage)
	}
	m1, m2 := h.match(1), h.match(2)
	if m2.Setups[game.Red].Status != storage.SetupDraft || m2.Setups[game.Red].Setup != first {
		t.Fatalf("match #2: set-up %v, %v", m2.Setups[game.Red].Status, m2.Setups[game.Red].Setup)
	}
	if m1.Setups[game.Red].Status != storage.SetupNone {
		t.Fatalf("match #1 got a set-up too: %v", m1.Setups[game.Red].Status)
	}

	// A corrected set-up as a reply to that preview replaces #2's draft.
	reply = h.alice.Reply(t, preview, text(second))
	preview = h.alice.WaitDM(t, answers(reply, "Your set-up for match #2"))
	if m2 = h.match(2); m2.Setups[game.Red].Setup != second {
		t.Fatalf("match #2 kept %v", m2.Setups[game.Red].Setup)
	}
	if h.match(1).Setups[game.Red].Status != storage.SetupNone {
		t.Fatal("match #1 got the corrected set-up")
	}
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)

	// Match #1 by reply too; bob takes random set-ups in both.
	reply = h.alice.Reply(t, invite1, text(first))
	preview = h.alice.WaitDM(t, answers(reply, "Your set-up for match #1"))
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	for _, title := range []string{"**Match #1** against alice", "**Match #2** against alice"} {
		invite := h.bob.WaitDM(t, contains(title))
		preview := h.bob.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
		h.bob.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	}
	h.alice.WaitDM(t, func(m *discordtest.Message) bool {
		return strings.Contains(m.Content, "**Match #1** ·") && strings.Contains(m.Content, "the match begins")
	})
	board2 := h.alice.WaitDM(t, func(m *discordtest.Message) bool {
		return strings.Contains(m.Content, "**Match #2** ·") && strings.Contains(m.Content, "the match begins")
	})
	if m1, m2 := h.match(1), h.match(2); m1.Phase != storage.PhasePlaying || m2.Phase != storage.PhasePlaying || m1.Setups[game.Red].Setup != first || m2.Setups[game.Red].Setup != second {
		t.Fatalf("phases %v and %v; alice's set-ups swapped or lost", m1.Phase, m2.Phase)
	}

	// alice (Red) is to move in both: a plain move is ambiguous too.
	plain = h.alice.SendDM(t, "A4-A5")
	h.alice.WaitDM(t, answers(plain, "It is your move in several matches: reply to the board message"))
	if h.match(1).Moves() != 0 || h.match(2).Moves() != 0 {
		t.Fatal("an ambiguous move was played")
	}
	// As a reply to the board of match #2, it is played there only.
	h.alice.Reply(t, board2, "A4-A5")
	h.bob.WaitDM(t, func(m *discordtest.Message) bool {
		return strings.Contains(m.Content, "**Match #2** ·") && strings.Contains(m.Content, "alice moved A4-A5")
	})
	if m2 := h.waitMoves(2, 1); m2.Moves() != 1 {
		t.Fatalf("match #2 has %d moves", m2.Moves())
	}
	if m1 := h.match(1); m1.Moves() != 0 {
		t.Fatalf("match #1 has %d moves", m1.Moves())
	}
	// Replying to #2's board again, while it is bob's turn there.
	reply = h.alice.Reply(t, board2, "A5-A6")
	h.alice.WaitDM(t, answers(reply, "It is not your turn in that match"))
	// Now only match #1 waits for alice: a plain move goes there.
	h.alice.SendDM(t, "A4-A5")
	if m1 := h.waitMoves(1, 1); m1.Moves() != 1 {
		t.Fatalf("match #1 has %d moves", m1.Moves())
	}
	if m2 := h.match(2); m2.Moves() != 1 {
		t.Fatalf("match #2 has %d moves", m2.Moves())
	}
}
