package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestHistoryBeforeTheFirstMove: the history of a match with no move yet
// says so on a line of its own ("yet" while it goes on), then the pause
// agreed before the first move, then the result of a resignation, each on
// its own line.
func TestHistoryBeforeTheFirstMove(t *testing.T) {
	t.Parallel()
	const title = "**Match #1** · alice (Red) vs bob (Blue)\n"
	for _, tc := range []struct {
		name          string
		pause, resign bool
		want          string
	}{
		{"resigned", false, true, title + "No move was made.\nYou won: bob resigned."},
		{"paused", true, false, title + "No moves yet.\n   alice and bob paused the match for 3 days."},
		{"paused and resigned", true, true, title + "No move was made.\n   alice and bob paused the match for 3 days.\nYou won: bob resigned."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, _, _ := aliceToMove(t)
			h.advance(time.Hour)
			if tc.pause {
				h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t)
				h.bot.deliverDue(t.Context())
				h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t)
			}
			if tc.resign {
				ask := h.bob.SlashCommand(t, h.channel, "stratego resign").Reply(t)
				h.bob.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
				h.alice.WaitDM(t, contains("You won: bob resigned."))
			}
			if got := h.alice.SlashCommand(t, h.channel, "stratego history", discordtest.Opt("match", "1")).Reply(t).Content; got != tc.want {
				t.Errorf("the history:\n%q, want\n%q", got, tc.want)
			}
		})
	}
}
