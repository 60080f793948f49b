package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestCalledOffMatchLooksOver: a match a moderator called off in play
// reads as called off wherever its player looks back at it, not as a game
// waiting for their move: /stratego history ends with why it was called
// off, as the channel was told; /stratego board, its text diagram, its
// picture's alt text and the board shown for a click on the menus of an old
// board DM say it is called off, none of them "your move", and offer no
// menus.
func TestCalledOffMatchLooksOver(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	oldBoard := h.bob.WaitDM(t, contains("alice moved"))
	if len(oldBoard.SelectMenus()) == 0 {
		t.Fatalf("bob's board DM has no menus: %q", oldBoard.Content)
	}
	moderator(h)
	h.carol.SlashCommand(t, h.channel, "stratego cancel", discordtest.Opt(optMatch, "1"), discordtest.Opt(optReason, "test")).Reply(t)
	h.bot.deliverDue(context.Background())
	const calledOff = "The match is called off: a moderator decided so (carol: test). No result is recorded."

	history := h.bob.SlashCommand(t, h.channel, "stratego history", discordtest.Opt(optMatch, "1")).Reply(t)
	if want := "**Match #1** · alice (Red) vs bob (Blue)\n1. Red A4-A5\n" + calledOff; history.Content != want {
		t.Errorf("bob's history of the called-off match:\n%q, want\n%q", history.Content, want)
	}

	menu := oldBoard.SelectMenus()[0]
	click := h.bob.SelectMenu(t, oldBoard, menu.CustomID, menu.Options[0].Value)
	click.Wait(t)
	var shown *discordtest.Message
	h.srv.WaitFor(t, "the board shown for the click on an old board", func() bool {
		if f := click.Response().Followups; len(f) > 0 {
			shown = f[0]
			return true
		}
		return false
	})
	board := h.bob.SlashCommand(t, h.channel, "stratego board", discordtest.Opt(optMatch, "1")).Reply(t)
	for _, msg := range []struct {
		name string
		msg  *discordtest.Message
	}{{"/stratego board", board}, {"the board for a click on an old board's menu", shown}} {
		if !strings.Contains(msg.msg.Content, calledOff) || strings.Contains(strings.ToLower(msg.msg.Content), "your move") || len(msg.msg.SelectMenus()) != 0 {
			t.Errorf("%s of the called-off match: %q with %d menus", msg.name, msg.msg.Content, len(msg.msg.SelectMenus()))
		}
		if len(msg.msg.Files) != 1 {
			t.Errorf("%s of the called-off match has %d pictures", msg.name, len(msg.msg.Files))
			continue
		}
		if alt := msg.msg.Files[0].Description; !strings.Contains(alt, "The match is called off.") || strings.Contains(alt, "Your move") {
			t.Errorf("%s's picture of the called-off match reads %q", msg.name, alt)
		}
	}
	text := h.bob.SlashCommand(t, h.channel, "stratego board", discordtest.Opt(optMatch, "1"), discordtest.Opt("text", true)).Reply(t)
	if first := strings.SplitN(strings.TrimPrefix(text.Content, "```\n"), "\n", 2)[0]; first != "Classic, after move 1. The match is called off." {
		t.Errorf("bob's text board of the called-off match begins %q", first)
	}
}
