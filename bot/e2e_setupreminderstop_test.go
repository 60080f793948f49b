package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestSetupReminderNotSentWhileStopped: the set-up reminders of a match of
// a day a move fall due, and Discord refuses alice's; before it is sent
// again, bob goes on vacation for three days, which stops the one set-up
// clock of both. Alice is not told her time runs short while it stands
// still, as a player in play is not once a pause or their vacation has
// stopped their clock: in set-up a vacation of either player stops it.
func TestSetupReminderNotSentWhileStopped(t *testing.T) {
	t.Parallel()
	const reminder = "Reminder: your set-up is due"
	h := newHarness(t)
	h.challengeIn(h.channel)
	h.bot.deliverDue(t.Context())
	h.outboxEmpty()
	h.srv.FailNextIn(t, createMessageRoute, h.alice.DM(), 1, 500)
	h.advance(12 * time.Hour)
	h.bob.WaitDM(t, contains(reminder))
	if n := countDMs(h.alice, reminder); n != 0 {
		t.Fatalf("alice's refused reminder arrived %d times", n)
	}
	h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t)
	h.advance(time.Hour)
	h.outboxEmpty()
	if n := countDMs(h.alice, reminder); n != 0 {
		t.Errorf("alice was reminded of her set-up %d times while bob's vacation stopped its clock", n)
	}
}
