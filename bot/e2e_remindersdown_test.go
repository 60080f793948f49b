package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// TestRemindersAfterDowntime: the bot is down from before Alice's half-time
// reminder of her day until some time later in her turn. On its return she
// is reminded once of what is still to come, with her deadline: two
// reminders due while it was down are one (they would come together and say
// the same), a later one still comes at its time, and none says that a
// deadline gone is still to come: once it has passed, she is told only that
// she lost on time.
func TestRemindersAfterDowntime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		back        time.Duration // when the bot is back, into her day
		then, total int           // the reminders she has had once it is back, and by the end
		lost        bool          // she lost on time as it came back
	}{
		{"back after half time", 13 * time.Hour, 1, 2, false},
		{"back in the last hour", 23*time.Hour + 30*time.Minute, 1, 1, false},
		{"back after the deadline", 24*time.Hour + 30*time.Minute, 0, 0, true},
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
			if got := countDMs(h.alice, txtMoveReminder); got != tc.then {
				t.Errorf("Alice got %d reminders as the bot came back, want %d", got, tc.then)
			}
			if tc.then > 0 {
				h.alice.WaitDM(t, contains(txtMoveReminder+" "+relMark(due)))
			}
			if ended := h.match(1).Phase == storage.PhaseFinished; ended != tc.lost {
				t.Fatalf("the match ended on time as the bot came back: %v, want %v", ended, tc.lost)
			}
			if !tc.lost {
				w.until(due, "the loss on time", func() bool { return h.match(1).Phase == storage.PhasePlaying })
			}
			h.alice.WaitDM(t, contains("You lost: you ran out of time."))
			h.outboxEmpty()
			if got := countDMs(h.alice, txtMoveReminder); got != tc.total {
				t.Errorf("Alice got %d reminders in all, want %d", got, tc.total)
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
