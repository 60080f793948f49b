package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestRematch: the finale's Rematch button lets either player challenge the
// other to the same terms with the colours swapped; others cannot use it.
func TestRematch(t *testing.T) {
	t.Parallel()
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag})
	h, _, _ := playClassic(t, red)
	var finale = lastPublicBoard(t, h)
	for _, m := range h.srv.ChannelMessages(h.channel) {
		if hasButton(m, "Rematch") {
			finale = m
		}
	}
	if !hasButton(finale, "Rematch") {
		t.Fatalf("no Rematch button under the finale %q", finale.Content)
	}
	if got := h.carol.ClickButton(t, finale, button(t, finale, "Rematch")).Reply(t); !got.Ephemeral || !strings.Contains(got.Content, "Only the players of match #1") {
		t.Fatalf("carol's rematch: %q", got.Content)
	}
	offer := h.bob.ClickButton(t, finale, button(t, finale, "Rematch")).Reply(t)
	if offer.Ephemeral || !strings.Contains(offer.Content, "<@"+h.alice.ID+">, bob challenges you") || !strings.Contains(offer.Content, "bob plays Red") {
		t.Fatalf("the rematch offer: %q", offer.Content)
	}
	if got := h.bob.ClickButton(t, finale, button(t, finale, "Rematch")).Reply(t); !strings.Contains(got.Content, "already a challenge between you") {
		t.Errorf("a second click: %q", got.Content)
	}
	accepted := h.alice.ClickButton(t, offer, button(t, offer, "Accept")).Reply(t)
	if !strings.Contains(accepted.Content, "Match #2") {
		t.Fatalf("accepting the rematch: %q", accepted.Content)
	}
	m1, m2 := h.match(1), h.match(2)
	if m2.Players[game.Red].UserID != h.bob.ID || m2.Players[game.Blue].UserID != h.alice.ID || m2.Rules != m1.Rules || m2.MoveTime != m1.MoveTime {
		t.Errorf("the rematch: %+v, rules %+v; want bob Red, alice Blue, the same terms", m2.Players, m2.Rules)
	}
	// Pressed again while the rematch is on, the old finale's button points at it.
	for _, who := range []*discordtest.Member{h.alice, h.bob} {
		if got := who.ClickButton(t, finale, button(t, finale, "Rematch")).Reply(t); !got.Ephemeral || !strings.Contains(got.Content, "Your rematch is under way already: match #2.") {
			t.Errorf("%s pressed Rematch again during the rematch: %q", who.Name, got.Content)
		}
	}
	if _, err := h.db.Match(context.Background(), 3); err == nil {
		t.Error("pressing Rematch during the rematch made match #3")
	}
}

// TestNoBoardAfterOwnMoves: a player who turns off the boards after their
// own moves gets none, whichever way they move, and is answered instead;
// the opponent and the channel see every move as before.
func TestNoBoardAfterOwnMoves(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	set := h.alice.SlashCommand(t, h.channel, "stratego settings", discordtest.Opt("own_moves", false)).Reply(t)
	if !strings.Contains(set.Content, "boards after your own moves: off") {
		t.Fatalf("settings answered %q", set.Content)
	}
	h.startClassic()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	typed := h.alice.SendDM(t, "A5-A6")
	h.alice.WaitDM(t, answers(typed, "Played A5-A6 in match #1."))
	h.waitMoves(1, 3)
	for _, dm := range h.alice.DMs() {
		if strings.Contains(dm.Content, "You moved") {
			t.Errorf("alice got a board after her own move: %q", dm.Content)
		}
	}
	boards := 0
	for _, dm := range h.bob.DMs() {
		if strings.Contains(dm.Content, "alice moved") && len(dm.Files) == 1 {
			boards++
		}
	}
	if boards != 2 {
		t.Errorf("bob got %d boards of alice's two moves", boards)
	}
	h.bob.WaitDM(t, contains("You moved")) // bob keeps his
}

// TestRematchKeepsServerRules: a rematch is a new match like any other, so
// the server's rules on starting matches apply to it as they stand when
// Rematch is pressed: a member without the starter role, or a channel taken
// off the list since the match began, gets the refusal a challenge would.
func TestRematchKeepsServerRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		set     func(h *harness) []discordtest.Arg
		refusal string
	}{
		{"a starter role bob lacks", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{discordtest.Opt(optStarterRole, h.guild.AddRole("players", 0).ID)}
		}, "starting a match needs the <@&"},
		{"matches only in another channel", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{discordtest.Opt(optAllowChannel, h.guild.AddChannel("stratego"))}
		}, "Matches on this server are played in <#"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.startClassic()
			h.waitMoves(1, 0)
			ask := h.alice.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", "1")).Reply(t)
			h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Reply(t)
			h.bot.deliverDue(context.Background())
			var finale *discordtest.Message
			h.srv.WaitFor(t, "the finale", func() bool {
				for _, m := range h.srv.ChannelMessages(h.channel) {
					if hasButton(m, "Rematch") {
						finale = m
					}
				}
				return finale != nil
			})
			moderator(h)
			if got := h.carol.SlashCommand(t, h.channel, "stratego server", tc.set(h)...).Reply(t); !strings.Contains(got.Content, "Changed: ") {
				t.Fatalf("the moderator's change answered %q", got.Content)
			}
			got := h.bob.ClickButton(t, finale, button(t, finale, "Rematch")).Reply(t)
			if !got.Ephemeral || !strings.Contains(got.Content, tc.refusal) {
				t.Fatalf("bob's rematch: %q; want a private refusal with %q", got.Content, tc.refusal)
			}
			if n := len(h.srv.ChannelMessages(h.channel)); hasButton(h.srv.ChannelMessages(h.channel)[n-1], "Accept") {
				t.Error("the rematch was offered in the channel")
			}
		})
	}
}
