package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestTimeUpSaidOnce: bob lets his day run out. The board that ends the
// match says so once, in each reader's language: its result ("bob ran out
// of time") under the match's title, with no line before it saying the
// same ("Time is up."), as a resignation's or a draw's board says its
// result alone.
func TestTimeUpSaidOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.bob.SetLocale("nl")
	h.bob.SlashCommand(t, h.channel, "stratego games").Reply(t) // the bot learns his language
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	for range 25 { // past his reminders and his deadline
		h.advance(time.Hour)
	}
	h.outboxEmpty()
	for _, c := range []struct {
		who  string
		msgs []*discordtest.Message
		want string
	}{
		{"alice", h.alice.DMs(), "**Match #1** · alice (Red) vs bob (Blue)\n**You won: bob ran out of time.**"},
		{"bob", h.bob.DMs(), "**Partij #1** · alice (Rood) tegen bob (Blauw)\n**Je hebt verloren: je tijd is op.**"},
		{"the channel", h.srv.ChannelMessages(h.channel), "**Match #1** · alice (Red) vs bob (Blue)\n**bob won: bob ran out of time.**"},
	} {
		var end *discordtest.Message // the last message that tells the result
		for _, msg := range c.msgs {
			if msg.FromBot() && (strings.Contains(msg.Content, "ran out of time") || strings.Contains(msg.Content, "tijd is op")) {
				end = msg
			}
		}
		if c.who == "the channel" {
			c.want = strings.Replace(c.want, "**bob won", "**alice won", 1)
		}
		if end == nil || end.Content != c.want {
			t.Errorf("%s's message of the end says %q, want %q", c.who, contentOf(end), c.want)
		}
	}
}

func contentOf(m *discordtest.Message) string {
	if m == nil {
		return "<none>"
	}
	return m.Content
}
