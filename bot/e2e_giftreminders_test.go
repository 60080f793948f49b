package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
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

// TestReminderOutlivesAGift: Alice's half-time reminder is due while the
// outbox is behind (Discord failing her DMs, a crowd of notices); before it
// goes out, Bob gives her a day. The turn is the same, so the reminder
// still comes, once, with her new deadline, and the gift's note after it;
// the half-time one is not planned again.
func TestReminderOutlivesAGift(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h, w, due := aliceToMove(t)
	h.outboxEmpty()

	halfTimeBehind(t, h)
	got := h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t).Content
	// The bot has taken in the gift (afterChange) before the outbox catches up.
	h.srv.WaitFor(t, "the bot to keep the match after the gift", func() bool {
		_, ok := h.bot.snapshots.get(1, h.match(1).Version)
		return ok
	})
	h.bot.outboxPass.Unlock()
	if !strings.Contains(got, "You gave alice 1 day more") {
		t.Fatalf("Bob's gift answered %q", got)
	}
	due = due.Add(day)
	h.bot.deliverDue(t.Context())
	h.alice.WaitDM(t, contains("bob gave you 1 day more: your move is now due "+relMark(due)))
	if got := countDMs(h.alice, txtMoveReminder+" "+relMark(due)); got != 1 {
		t.Fatalf("Alice got %d half-time reminders with her new deadline %s, want 1", got, relMark(due))
	}
	w.reminded(h.alice, h.bob, due, time.Hour)
	if got := countDMs(h.alice, txtMoveReminder); got != 2 {
		t.Errorf("Alice got %d reminders in her turn, want 2", got)
	}
}

// TestGiftsInARowSayEachDeadline: Bob gives Alice three days in a row
// while the outbox is behind. Each of her three notes says the deadline
// that gift made, a day apart: not three times the last one, which would
// read as one message sent three times.
func TestGiftsInARowSayEachDeadline(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h, _, due := aliceToMove(t)
	h.outboxEmpty()
	h.advance(time.Hour)

	h.bot.outboxPass.Lock() // the outbox is behind
	for range storage.MaxGifts {
		h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
	}
	h.srv.WaitFor(t, "the bot to keep the match after the gifts", func() bool {
		_, ok := h.bot.snapshots.get(1, h.match(1).Version)
		return ok
	})
	h.bot.outboxPass.Unlock()
	h.bot.deliverDue(t.Context())
	h.outboxEmpty()
	for k := 1; k <= storage.MaxGifts; k++ {
		at := due.Add(time.Duration(k) * day)
		if n := countDMs(h.alice, "bob gave you 1 day more: your move is now due "+relMark(at)); n != 1 {
			t.Errorf("Alice was told %d times that her move is due %v after her first deadline, want once", n, at.Sub(due))
		}
	}
}

// TestNoReminderOnceAway: Alice's half-time reminder is due while the
// outbox is behind; before it goes out she leaves on vacation. Her clock
// stops, so the reminder is not sent: she hears nothing while away.
func TestNoReminderOnceAway(t *testing.T) {
	t.Parallel()
	h, _, _ := aliceToMove(t)
	h.outboxEmpty()

	halfTimeBehind(t, h)
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t)
	h.srv.WaitFor(t, "the bot to keep the match after the vacation", func() bool {
		_, ok := h.bot.snapshots.get(1, h.match(1).Version)
		return ok
	})
	h.bot.outboxPass.Unlock()
	h.bot.deliverDue(t.Context())
	h.outboxEmpty()
	if n := countDMs(h.alice, txtMoveReminder); n != 0 {
		t.Errorf("Alice, away, got %d reminders", n)
	}
}

// halfTimeBehind brings Alice's turn, begun with the outbox empty, to half
// time while the outbox is behind: the reminder is recorded, not sent. The
// caller unlocks h.bot.outboxPass to let the outbox catch up.
func halfTimeBehind(t *testing.T, h *harness) {
	t.Helper()
	h.advance(12*time.Hour - time.Second)
	h.bot.outboxPass.Lock() // the outbox is behind
	h.clock.Advance(time.Second)
	h.bot.handleDue(t.Context())
	if m := h.match(1); m.RemindersSent != 1 {
		h.bot.outboxPass.Unlock()
		t.Fatalf("at half time: %d reminders recorded, want 1", m.RemindersSent)
	}
}
