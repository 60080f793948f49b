package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// TestRemindersAfterDowntime: the bot is down from before Alice's half-time
// reminder of her day until some time later in her turn, or after its end.
// Her clock stood still meanwhile (storage.ActAway): on its return no
// reminder is due yet, each comes at its time moved on by the time the bot
// was away, with her deadline moved as much, and she loses on time only
// then.
func TestRemindersAfterDowntime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		back time.Duration // when the bot is back, into her day
	}{
		{"back after half time", 13 * time.Hour},
		{"back in the last hour", 23*time.Hour + 30*time.Minute},
		{"back after the deadline", 24*time.Hour + 30*time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, w, due := aliceToMove(t)
			turn := h.clock.Now()
			h.advance(11 * time.Hour)
			h.outboxEmpty()
			h.shutdown()
			h.clock.Advance(turn.Add(tc.back).Sub(h.clock.Now()))
			h.start()
			h.bot.handleDue(t.Context())
			h.bot.deliverDue(t.Context())
			h.outboxEmpty()
			if got := countDMs(h.alice, txtMoveReminder); got != 0 {
				t.Errorf("Alice got %d reminders as the bot came back, want none", got)
			}
			due = due.Add(tc.back - 11*time.Hour)
			if m := h.match(1); m.Phase != storage.PhasePlaying || !m.Deadline.Equal(due) {
				t.Fatalf("as the bot came back: %v, deadline %v; want playing, %v", m.Phase, m.Deadline, due)
			}
			w.reminded(h.alice, h.bob, due, 12*time.Hour)
			w.reminded(h.alice, h.bob, due, time.Hour)
			w.until(due, "the loss on time", func() bool { return h.match(1).Phase == storage.PhasePlaying })
			h.alice.WaitDM(t, contains("You lost: you ran out of time."))
			h.outboxEmpty()
			if got := countDMs(h.alice, txtMoveReminder); got != 2 {
				t.Errorf("Alice got %d reminders in all, want 2", got)
			}
			w.noRepeats()
		})
	}
}

// TestNoReminderOfADeadlineGone: Discord fails Alice's half-time reminder,
// and the outbox tries it again only once her deadline has passed (Discord,
// or the bot, was away until then): it is not sent, for it would say that a
// deadline gone is still to come, just before she is told she lost on time.
func TestNoReminderOfADeadlineGone(t *testing.T) {
	t.Parallel()
	h, _, due := aliceToMove(t)
	h.advance(11 * time.Hour)
	h.srv.FailNextIn(t, createMessageRoute, h.alice.DM(), 1, 503)
	h.advance(time.Hour)
	h.srv.WaitFor(t, "the reminder to fail", func() bool {
		for _, r := range h.srv.Requests(createMessageRoute) {
			if r.Status == 503 {
				return true
			}
		}
		return false
	})
	if m := h.match(1); m.RemindersSent == 0 || m.Phase != storage.PhasePlaying {
		t.Fatalf("at half time: %d reminders recorded, phase %v", m.RemindersSent, m.Phase)
	}
	h.clock.Advance(due.Sub(h.clock.Now()) + time.Hour)
	h.bot.deliverDue(t.Context())
	h.advance(0)
	h.alice.WaitDM(t, contains("You lost: you ran out of time."))
	h.outboxEmpty()
	if got := countDMs(h.alice, txtMoveReminder); got != 0 {
		t.Errorf("Alice got %d reminders of a deadline gone: %q", got, lastDM(h.alice).Content)
	}
}
