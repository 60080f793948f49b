package bot

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestAnswerEditedThroughTrouble: Discord fails the edit that replaces
// the "thinking…" of alice's move with its answer (a 503). The edit is
// made again, and alice reads what her move did: it was made once, and
// she was left on "thinking…" until the token expired, though her move was
// played.
func TestAnswerEditedThroughTrouble(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.bob.WaitDM(t, contains("the match begins"))
	h.channelSays("the match begins")
	edits := len(h.srv.Requests(originalEditRoute))
	h.srv.FailNext(t, originalEditRoute, 1, 503)
	got := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	if !strings.Contains(got.Content, "A4-A5") {
		t.Errorf("alice's answer says %q; want her move", got.Content)
	}
	if n := len(h.srv.Requests(originalEditRoute)) - edits; n != 2 {
		t.Errorf("alice's answer was asked to be edited %d times; want twice, the failed edit and the one after it", n)
	}
	h.waitMoves(1, 1)
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	h.outboxEmpty()
	h.seenOnce(t, "A4-A5")
}
