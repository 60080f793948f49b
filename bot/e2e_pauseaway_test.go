package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestPauseEndsWhileAway: Bob proposes a pause of two days an hour into
// Alice's turn and she accepts; an hour later she leaves for three days.
// Her clock stops once, not twice, for the time both hold it. When the
// pause ends she is still away: the notices of its end, to both players
// and the channel, say until when she is, rather than only that the match
// goes on; her deadline is the one she was told.
func TestPauseEndsWhileAway(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h, w, due := aliceToMove(t)
	now := h.clock.Now
	h.advance(time.Hour)
	h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
	h.bot.deliverDue(t.Context())
	ask := h.alice.WaitDM(t, contains("bob proposes to pause the match for 2 days"))
	resume := now().Add(2 * day)
	h.alice.ClickButton(t, ask, button(t, ask, "Pause")).Reply(t)
	h.advance(time.Hour)
	back := now().Add(3 * day)
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t)
	h.bot.deliverDue(t.Context())
	// Stopped from the pause's start, an hour in, to her return.
	due = due.Add(back.Sub(resume.Add(-2 * day)))
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Fatalf("her deadline after the pause and the vacation: %v, want %v", m.Deadline, due)
	}

	h.outboxEmpty()
	w.until(resume, "the pause's end", func() bool { return countDMs(h.bob, "The pause is over") == 0 })
	away := "\nalice is on vacation until " + fullMark(back)
	awayYou := "\nYou are on vacation until " + fullMark(back) // to alice herself
	for _, c := range []struct {
		who  string
		msgs func() []*discordtest.Message
		want string
	}{
		{"alice", h.alice.DMs, "The pause is over: your move is due " + relMark(due) + " (" + fullMark(due) + ")." + awayYou},
		{"bob", h.bob.DMs, "The pause is over: the match goes on." + away},
		{"the channel", func() []*discordtest.Message { return h.srv.ChannelMessages(h.channel) }, "The pause is over: the match goes on." + away},
	} {
		h.srv.WaitFor(t, c.who+" to be told the pause is over", func() bool {
			for _, m := range c.msgs() {
				if strings.Contains(m.Content, "The pause is over") {
					if !strings.HasSuffix(m.Content, c.want) {
						t.Errorf("%s is told %q, want it to end %q", c.who, m.Content, c.want)
					}
					return true
				}
			}
			return false
		})
	}
	if n := countDMs(h.alice, txtMoveReminder); n != 0 {
		t.Errorf("alice got %d reminders in the pause and her vacation", n)
	}
}
