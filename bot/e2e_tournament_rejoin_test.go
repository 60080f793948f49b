package bot

import (
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestTournamentRemovedStaysOut: a member a moderator took out before the
// start, as the channel was told, cannot join the tournament again, and
// is told why, the moderator that it is for good; one who left it by
// themselves may join again, and the others join as before.
func TestTournamentRemovedStaysOut(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.roundRobin("Weekly", h.bob, h.carol)
	// Nothing undoes the removal: the moderator is told so, and the member
	// is not sent to ask for what no command does.
	exactly := func(msg *discordtest.Message, want string) {
		t.Helper()
		if msg.Content != want {
			t.Fatalf("answer %q; want %q", msg.Content, want)
		}
	}
	exactly(h.run(h.alice, "remove", discordtest.Opt("player", h.bob)), "You took bob out of **Weekly**; they cannot join it again, and no command lets them back in.")
	h.channelSays("**Weekly**: a moderator removed bob before the start.")
	exactly(h.run(h.bob, "join"), "A moderator took you out of **Weekly**, so you cannot join it again.")
	h.expect(h.run(h.carol, "leave"), "You left **Weekly**")
	h.expect(h.run(h.carol, "join"), "You joined **Weekly** (players so far: 1)")
	h.expect(h.run(h.alice, "join"), "You joined **Weekly** (players so far: 2)")
	if _, s := h.stored(); len(s.Players()) != 2 {
		t.Fatalf("players %+v; want carol and alice", s.Players())
	}
}
