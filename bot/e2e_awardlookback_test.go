package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestAwardedMatchSaysWhoAndWhy: a match a moderator awarded says, where
// its players look back at it (/stratego history and board), which
// moderator ended it and why, before its result, as the final boards and
// the web board say it: both said only that a moderator awarded it.
func TestAwardedMatchSaysWhoAndWhy(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	moderator(h)
	h.carol.SlashCommand(t, h.channel, "stratego award", discordtest.Opt(optMatch, "1"), discordtest.Opt(optWinner, h.bob), discordtest.Opt(optReason, "alice left for good")).Reply(t)
	h.bot.deliverDue(context.Background())
	const why = "A moderator ended the match (carol: alice left for good)."
	for _, tc := range []struct {
		command, want string
	}{
		{"stratego history", "**Match #1** · alice (Red) vs bob (Blue)\n1. Red A4-A5\n" + why + " You lost: a moderator awarded the match."},
		{"stratego board", "**Match #1** · alice (Red) vs bob (Blue)\n**" + why + " You lost: a moderator awarded the match.**"},
	} {
		got := h.alice.SlashCommand(t, h.channel, tc.command, discordtest.Opt(optMatch, "1")).Reply(t)
		if !strings.HasPrefix(got.Content, tc.want) {
			t.Errorf("alice's %s of the awarded match:\n%q, want it to begin\n%q", tc.command, got.Content, tc.want)
		}
	}
}
