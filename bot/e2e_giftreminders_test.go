package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// TestGiftKeepsReminders: in a match of a day a move, Alice is reminded at
// half time (twelve hours after her board arrived) and an hour before her
// deadline. Bob gives her a day at three moments of her turn. A gift moves
// her deadline, and so the reminder an hour before it; the half-time one
// stays where it was, twelve hours after her board arrived, and comes once.
// An hour-before reminder already sent comes again an hour before the new
// deadline: that one still warns her in time.
func TestGiftKeepsReminders(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	cases := []struct {
		name      string
		giftAfter time.Duration // into Alice's turn
		reminders int           // Alice's reminders in the turn
	}{
		{"before half time", time.Hour, 2},
		{"after half time", 13 * time.Hour, 2},
		{"after the hour before", 23*time.Hour + 30*time.Minute, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			w := weeks{t, h}
			h.dayMatch()
			h.waitMoves(1, 0)
			start := h.clock.Now()
			due := w.turn(h.alice, nil, day)

			gift := func() {
				h.advance(start.Add(tc.giftAfter).Sub(h.clock.Now()))
				h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
				h.bot.deliverDue(t.Context())
				due = due.Add(day)
				h.alice.WaitDM(t, contains("bob gave you 1 day more: your move is now due "+relMark(due)))
				if m := h.match(1); !m.Deadline.Equal(due) {
					t.Fatalf("the gift moved Alice's deadline to %v after her board, want %v", m.Deadline.Sub(start), due.Sub(start))
				}
			}
			halfTime := start.Add(12 * time.Hour)
			if tc.giftAfter < 12*time.Hour {
				gift()
				// Still twelve hours after her board arrived.
				w.reminded(h.alice, h.bob, due, due.Sub(halfTime))
			} else {
				w.reminded(h.alice, h.bob, due, 12*time.Hour)
				if tc.giftAfter > 23*time.Hour {
					w.reminded(h.alice, h.bob, due, time.Hour)
				}
				gift()
			}
			w.reminded(h.alice, h.bob, due, time.Hour)
			w.until(due, "the loss on time", func() bool { return h.match(1).Phase == storage.PhasePlaying })
			h.alice.WaitDM(t, contains("You lost: you ran out of time."))
			h.outboxEmpty()
			if got := countDMs(h.alice, txtMoveReminder); got != tc.reminders {
				t.Errorf("Alice got %d reminders in her turn, want %d", got, tc.reminders)
			}
		})
	}
}
