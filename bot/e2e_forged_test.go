package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestForgedComponents: a modified client sends a custom id that is not on
// the message it clicks, which Discord forwards as it comes. Each such click
// is refused, privately, as not on its message (another refusal, the
// handler's own, would say the click got that far), and changes nothing:
// neither the match it would make, nor the challenge it names, nor the
// message it was sent on.
func TestForgedComponents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// forge sends the crafted click on alice's challenge to bob (side
		// red), whose Accept button's custom id is accept.
		forge func(t *testing.T, h *harness, msg *discordtest.Message, accept string) *discordtest.Interaction
		// check asserts that storage is as it was.
		check func(t *testing.T, h *harness)
	}{
		{name: "the challenged accepts on the colours of their choosing",
			forge: func(t *testing.T, h *harness, msg *discordtest.Message, accept string) *discordtest.Interaction {
				return h.bob.ForgeClick(t, msg, strings.TrimSuffix(accept, ":red")+":blue")
			},
			check: func(t *testing.T, h *harness) {
				if _, err := h.db.Match(t.Context(), 1); err == nil {
					t.Error("the forged Accept made a match")
				}
			}},
		{name: "a bystander leaves the queue on another's challenge",
			forge: func(t *testing.T, h *harness, msg *discordtest.Message, _ string) *discordtest.Interaction {
				return h.carol.ForgeClick(t, msg, customID{kind: kindSeek, action: actLeave}.String())
			}},
		{name: "a bystander withdraws her own challenge on another's",
			forge: func(t *testing.T, h *harness, msg *discordtest.Message, _ string) *discordtest.Interaction {
				own := h.carol.SlashCommand(t, h.channel, "stratego challenge").Reply(t) // #2, open
				cancel := button(t, own, "Cancel")
				return h.carol.ForgeClick(t, msg, cancel)
			},
			check: func(t *testing.T, h *harness) {
				if _, err := h.db.Challenge(t.Context(), 2); err != nil {
					t.Errorf("carol's challenge #2: %v; want it still open", err)
				}
			}},
		{name: "a bystander picks a saved set-up on another's challenge",
			forge: func(t *testing.T, h *harness, msg *discordtest.Message, _ string) *discordtest.Interaction {
				return h.carol.ForgeSelect(t, msg, customID{kind: kindSetup, action: actSaved, id: 1}.String(), "mine")
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			msg := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob), discordtest.Opt("side", "red")).Reply(t)
			accept := button(t, msg, "Accept")
			if !strings.HasSuffix(accept, ":red") {
				t.Fatalf("the Accept button's id %q does not carry the challenger's colour", accept)
			}
			in := tc.forge(t, h, msg, accept)
			r := in.Wait(t)
			if r.Original == nil || !r.Original.Ephemeral || r.Original.ID == msg.ID || r.Original.Content != txtNotOnMessage {
				t.Fatalf("the forged click is answered with %s; want the private refusal %q", answered(r.Original), txtNotOnMessage)
			}
			if now := h.srv.Message(msg.ID); now == nil || now.Content != msg.Content || !slices.Equal(buttonIDs(now), buttonIDs(msg)) {
				t.Fatalf("the challenge message changed to %s; want it as it was: %q", answered(now), msg.Content)
			}
			if _, err := h.db.Challenge(t.Context(), 1); err != nil {
				t.Fatalf("alice's challenge: %v; want it still open", err)
			}
			if tc.check != nil {
				tc.check(t, h)
			}
			// The real Accept still works, on the challenger's colours.
			h.bob.ClickButton(t, msg, accept).Reply(t)
			if m := h.match(1); m.Players[game.Red].UserID != h.alice.ID {
				t.Errorf("alice plays %v; she challenged as Red", map[bool]string{true: "Red", false: "Blue"}[m.Players[game.Red].UserID == h.alice.ID])
			}
		})
	}
}

// TestForgedMoveMenu: the move menus of a player's board name their own
// pieces; a player's client that sends them on the channel's public board
// must not put them there (nor take its buttons away).
func TestForgedMoveMenu(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch() // #1: alice (Red, to move) against bob
	h.alice.WaitDM(t, contains("the match begins"))
	h.outboxEmpty()
	board := lastPublicBoard(t, h)
	m := h.match(1)
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	from := g.LegalMoves()[0].From
	id := customID{kind: kindMoveAt, action: actPiece, id: uint64(m.ID), version: uint64(m.Moves())}.String()
	r := h.alice.ForgeSelect(t, board, id, from.String()).Wait(t)
	if r.Original == nil || r.Original.ID == board.ID || !r.Original.Ephemeral || r.Original.Content != txtNotOnMessage {
		t.Fatalf("the forged menu is answered with %s; want the private refusal %q", answered(r.Original), txtNotOnMessage)
	}
	now := h.srv.Message(board.ID)
	if now == nil || len(now.SelectMenus()) != 0 || now.Content != board.Content || !slices.Equal(buttonIDs(now), buttonIDs(board)) {
		t.Fatalf("the channel's board changed to %s", answered(now))
	}
	if h.match(1).Moves() != 0 {
		t.Error("a move was played")
	}
}

// buttonIDs are the custom ids and links of a message's buttons.
func buttonIDs(msg *discordtest.Message) []string {
	var out []string
	for _, b := range msg.Buttons() {
		out = append(out, b.CustomID+b.URL)
	}
	return out
}

// answered words a message for a failure: its content, whether it is
// private, and its controls.
func answered(msg *discordtest.Message) string {
	if msg == nil {
		return "nothing"
	}
	var menus []string
	for _, m := range msg.SelectMenus() {
		for _, o := range m.Options {
			menus = append(menus, o.Label)
		}
	}
	return fmt.Sprintf("%q (message %s, private %v, buttons %q, menu options %q)", msg.Content, msg.ID, msg.Ephemeral, buttonIDs(msg), menus)
}
