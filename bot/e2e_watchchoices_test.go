package bot

import (
	"fmt"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestMatchChoicesOnceInThread: a match played in its own thread, on a
// server that plays each match in one, is suggested once for the match
// option of /stratego watch: it was suggested twice, found by its channel
// and by its thread, as each of the channel's matches is (ChannelMatches).
func TestMatchChoicesOnceInThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.playInThreads(t)
	dave := h.guild.AddMember("dave")
	h.startClassic()
	h.srv.WaitFor(t, "the match's thread", func() bool { return h.match(1).ThreadID != "" })
	h.srv.WaitFor(t, "the bot's state to hold the thread", func() bool {
		return len(h.bot.guildThreadIDs(h.guild.ID)) == 1
	})
	choices := dave.Autocomplete(t, h.channel, "stratego watch", discordtest.Focused(optMatch, ""))
	var names []string
	for _, c := range choices {
		names = append(names, fmt.Sprintf("%s=%v", c.Name, c.Value))
	}
	if len(choices) != 1 || fmt.Sprint(choices[0].Value) != "1" {
		t.Fatalf("suggested %q, want match #1 once", names)
	}
}
