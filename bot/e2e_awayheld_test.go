package bot

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestVacationWhileTheBoardIsHeld: Alice moves; Discord holds Bob's board
// for three hours, and meanwhile Bob leaves for two days. His turn's day
// counts from his return, not from the move nor from when the board came;
// he is reminded at half time after his return and an hour before, once
// each, and the board he got arrived once.
func TestVacationWhileTheBoardIsHeld(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h := newHarness(t)
	w := weeks{t, h}
	h.dayMatch()
	h.waitMoves(1, 0)
	h.outboxEmpty()
	h.advance(time.Hour)

	hold := h.aliceMovesBobsBoardHeld()
	h.clock.Advance(time.Hour)
	back := h.clock.Now().Add(2 * day)
	h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
	if m := h.match(1); !m.ClockPending || !m.VacationUntil(game.Blue).Equal(back) {
		t.Fatalf("Bob away with his board held: pending %v, back %v (want %v)", m.ClockPending, m.VacationUntil(game.Blue), back)
	}
	h.clock.Advance(2 * time.Hour)
	h.bot.handleDue(t.Context())
	hold.Release()
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	h.bot.deliverDue(t.Context())
	due := back.Add(day)
	if m := h.match(1); m.ClockPending || !m.Deadline.Equal(due) {
		t.Fatalf("Bob's board came during his vacation: pending %v, deadline %v after his return, want a day", m.ClockPending, m.Deadline.Sub(back))
	}
	w.reminded(h.bob, h.alice, due, 12*time.Hour)
	w.reminded(h.bob, h.alice, due, time.Hour)
	w.until(due, "the loss on time", func() bool { return h.match(1).Phase == storage.PhasePlaying })
	h.bob.WaitDM(t, contains("You lost: you ran out of time."))
	h.outboxEmpty()
	if n := countDMs(h.bob, "alice moved A4-A5"); n != 1 {
		t.Errorf("Bob got the board of A4-A5 %d times, want once", n)
	}
	if n := countDMs(h.bob, txtMoveReminder); n != 2 {
		t.Errorf("Bob got %d reminders, want 2", n)
	}
	if n := countDMs(h.alice, "bob is on vacation until"); n != 1 {
		t.Errorf("Alice was told %d times of Bob's vacation, want once", n)
	}
}

// TestPauseAtTheLastSecond: Alice, reminded at half time and an hour
// before, accepts Bob's proposal of a two-day pause a second before her
// deadline; during the pause Bob gives her a day. She does not lose at
// her old deadline; the pause's end tells her the new one, a day and a
// second after it; the reminder an hour before comes again before it,
// and the half-time one does not.
func TestPauseAtTheLastSecond(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h, w, due := aliceToMove(t)
	w.reminded(h.alice, h.bob, due, 12*time.Hour)
	h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
	w.reminded(h.alice, h.bob, due, time.Hour)
	h.advance(time.Hour - time.Second)
	resume := h.clock.Now().Add(2 * day)
	if got := h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t).Content; !strings.Contains(got, "You agreed to pause the match.") {
		t.Fatalf("Alice's acceptance a second before her deadline answered %q", got)
	}
	h.advance(time.Second)
	if m := h.match(1); m.Phase != storage.PhasePlaying || !m.PausedUntil().Equal(resume) {
		t.Fatalf("at her old deadline: %s, paused until %v", m.Phase, m.PausedUntil())
	}
	h.advance(day)
	h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
	due = resume.Add(time.Second + day)
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Fatalf("after the pause and the gift: deadline %v after the pause's end, want %v", m.Deadline.Sub(resume), due.Sub(resume))
	}
	w.until(resume, "the pause's end", func() bool { return countDMs(h.alice, "The pause is over") == 0 })
	h.alice.WaitDM(t, contains("The pause is over: your move is due "+relMark(due)))
	w.reminded(h.alice, h.bob, due, time.Hour)
	w.until(due, "the loss on time", func() bool { return h.match(1).Phase == storage.PhasePlaying })
	h.alice.WaitDM(t, contains("You lost: you ran out of time."))
	h.outboxEmpty()
	if n := countDMs(h.alice, txtMoveReminder); n != 3 {
		t.Errorf("Alice got %d reminders, want 3: at half time, and an hour before each deadline", n)
	}
}

// TestSeekExpiresAcrossARestart: a seek made before a restart still waits
// its hour after it, and not a second more: a seek made after the hour
// pairs with nobody, and the queue is empty. The time the bot was down is
// not given back to a seek (see storage's package documentation).
func TestSeekExpiresAcrossARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t)
	h.shutdown()
	h.clock.Advance(30 * time.Minute)
	h.start()
	h.advance(30*time.Minute - time.Second)
	if got := h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t).Content; !strings.Contains(got, "alice") {
		t.Fatalf("the queue a second before the hour, after a restart: %q", got)
	}
	h.advance(time.Second)
	if got := h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t).Content; strings.Contains(got, "the queue paired you") {
		t.Fatalf("a seek paired with one expired across a restart: %q", got)
	}
	if got := h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t).Content; strings.Contains(got, "alice") {
		t.Errorf("the expired seek is still listed: %q", got)
	}
}

// TestChallengeExpiresAcrossAnOutage: a challenge whose day ran out while
// the bot was down expires as the bot is back: the time away is not given
// back to an offer (see storage's package documentation). Its message
// says so, without buttons.
func TestChallengeExpiresAcrossAnOutage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	msg := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob)).Reply(t)
	h.srv.WaitFor(t, "the challenge message to be recorded", func() bool {
		c, err := h.db.Challenge(context.Background(), 1)
		return err == nil && c.MessageID == msg.ID
	})
	h.advance(20 * time.Hour)
	h.shutdown()
	h.clock.Advance(10 * time.Hour)
	h.start()
	h.bot.handleDue(t.Context())
	h.srv.WaitFor(t, "the challenge to expire", func() bool {
		m := h.srv.Message(msg.ID)
		return strings.Contains(m.Content, "expired") && len(m.Buttons()) == 0
	})
	if _, err := h.db.Challenge(context.Background(), 1); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("the challenge that expired while the bot was down is still stored: %v", err)
	}
}

// TestTimeActionsWhileTheBoardIsHeld: Alice moves and Discord holds Bob's
// board; meanwhile a change of the same turn is made (a gift of time to
// Bob, or a pause both agree to). Once the board has arrived, Bob's clock
// runs, and what he is told of that change says so, with the deadline that
// holds: the change was kept, pending, before his clock started, and must
// not be told as it stood then.
func TestTimeActionsWhileTheBoardIsHeld(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		act  func(t *testing.T, h *harness)
		told func(due time.Time) string
	}{
		{"a gift of time", func(t *testing.T, h *harness) {
			h.alice.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
		}, func(due time.Time) string { return "alice gave you 1 day more: your move is now due " + relMark(due) }},
		{"a pause", func(t *testing.T, h *harness) {
			h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
			// Asked by DM first, which the bot records (to take its
			// buttons away once she has answered): then she accepts.
			h.alice.WaitDM(t, contains("bob proposes to pause"))
			h.srv.WaitFor(t, "the DM that asks her to be recorded", func() bool { return len(h.match(1).OfferDMs) == 1 })
			h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t)
		}, func(due time.Time) string { return "Your move is then due " + relMark(due) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			h.outboxEmpty()
			h.advance(time.Hour)
			hold := h.aliceMovesBobsBoardHeld()
			h.clock.Advance(time.Minute)
			tc.act(t, h)
			changed := h.match(1)
			if !changed.ClockPending {
				t.Fatal("Bob's clock runs while his board is held")
			}
			h.srv.WaitFor(t, "the change to be kept for the outbox", func() bool {
				_, ok := h.bot.snapshots.get(1, changed.Version)
				return ok
			})
			h.clock.Advance(time.Minute)
			arrived := h.clock.Now()
			hold.Release()
			h.bob.WaitDM(t, contains("alice moved A4-A5"))
			h.bot.deliverDue(t.Context())
			h.outboxEmpty()
			m := h.match(1)
			if m.ClockPending || m.Deadline.Before(arrived.Add(24*time.Hour)) {
				t.Fatalf("after Bob's board arrived: pending %v, deadline %v after it", m.ClockPending, m.Deadline.Sub(arrived))
			}
			if want := tc.told(m.Deadline); countDMs(h.bob, want) != 1 {
				t.Errorf("Bob was not told %q; his last DM: %q", want, lastDM(h.bob).Content)
			}
		})
	}
}

// TestLateBoardWhileStopped: Bob's clock is stopped, by a pause agreed or
// by his vacation, when Alice moves, and Discord holds his board for two
// minutes. It arrives while his clock is stopped still: the note that it
// came late says that his time starts when his clock runs again, not that
// it started when the board arrived, and gives the deadline that holds.
func TestLateBoardWhileStopped(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		stop func(t *testing.T, h *harness)
	}{
		{"a pause", func(t *testing.T, h *harness) {
			h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
			h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t)
		}},
		{"his vacation", func(t *testing.T, h *harness) {
			h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			tc.stop(t, h)
			h.outboxEmpty()
			h.advance(time.Hour)
			hold := h.aliceMovesBobsBoardHeld()
			h.clock.Advance(2 * time.Minute)
			hold.Release()
			h.bob.WaitDM(t, contains("alice moved A4-A5"))
			h.bot.deliverDue(t.Context())
			h.outboxEmpty()
			due := h.match(1).Deadline
			note := h.bob.WaitDM(t, contains("Your board arrived late"))
			if want := "while your clock was stopped: your time starts when it runs again. Your move is due " + relMark(due); !strings.Contains(note.Content, want) {
				t.Errorf("Bob's note of his late board: %q; want it to say %q", note.Content, want)
			}
		})
	}
}
