package bot

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// computerTurnMissed plays alice's first move in her practice match
// against the computer, which cannot think (its one thinker is busy), sends
// the computer's reminders, and restarts the bot: its answer, given up at
// the stop, waits for its timer, the computer's time up, and no answer of
// the new process is under way.
func computerTurnMissed(t *testing.T, h *harness) {
	t.Helper()
	g := practiceDuelBegun(t, h, "easy")
	h.bot.thinkers.slots <- struct{}{}
	h.alice.SendDM(t, g.LegalMoves()[0].String())
	h.waitStored(1, 1)
	h.advance(23 * time.Hour) // the reminders, the last an hour before its time is up
	h.outboxEmpty()
	h.shutdown()
	h.start()
	if d, ok, err := h.db.NextDeadline(context.Background()); err != nil || !ok || d.Kind != storage.DeadlineMatch || d.ID != 1 {
		t.Fatalf("the first timer: %+v (%v, %v), want the practice match's time up", d, ok, err)
	}
}

// TestTimersPassLeavesTheComputerItsTurn: a pass of the timers that finds
// the computer to move in a practice match whose time ran out (its turn
// missed, by a restart) hands it the turn and goes on: the computer's
// answer waits for its turn in the thinkers' schedule, a pace or more, and
// the timers due after it (here a challenge's expiry) are not held up. The
// computer cannot think here (its one slot is taken), so a pass that waited
// for its move would never end.
func TestTimersPassLeavesTheComputerItsTurn(t *testing.T) {
	t.Parallel()
	var logs logLines
	h := newHarness(t, logs.capture, func(c *Config) { c.Limits.ComputerThinkers = 1 })
	ctx := context.Background()
	computerTurnMissed(t, h)
	h.bot.thinkers.slots <- struct{}{} // the computer cannot think
	// Bob's challenge expires after the computer's time is up.
	h.bob.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.carol), discordtest.Opt("variant", "Classic")).Reply(t)
	h.clock.Advance(25 * time.Hour)
	var passed atomic.Bool
	go func() {
		h.bot.handleDue(ctx)
		passed.Store(true)
	}()
	h.srv.WaitFor(t, "the timers' pass to end", passed.Load)
	// Claimed by the pass itself, not later by the answer's goroutine:
	// until then the loop would find the timer due again and again.
	if !h.bot.answeringMatch(1) {
		t.Errorf("the computer's answer is not claimed when the pass that handed it over ends")
	}
	if _, err := h.db.Challenge(ctx, 1); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("bob's challenge, due after the computer's time, after the pass: %v, want it expired", err)
	}
	if m := h.match(1); m.Moves() != 1 || !m.Phase.Active() {
		t.Fatalf("the practice match after the pass: %v, %d moves; want the computer still to move", m.Phase, m.Moves())
	}
	<-h.bot.thinkers.slots // it may think now
	if m := h.waitStored(1, 2); m.Moves() != 2 {
		t.Fatalf("the computer did not move: %v, %d moves", m.Phase, m.Moves())
	}
	h.shutdown() // the answers under way end (Run waits for them)
	if n := h.bot.thinkers.answers(); n != 1 {
		t.Errorf("%d answers booked for the computer's one move, want 1", n)
	}
	if strings.Contains(logs.String(), "level=WARN") || strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("the log warns:\n%s", logs.String())
	}
}

// TestOneAnswerAMove: the computer's turn may be found by several at once,
// the move before it, a reminder (which changes the match, not the
// position) and its timer once its time is up: the first books its
// answer, the others leave it to that one. The computer moves once, with
// the match as it is then, and nothing is refused as stale: before, each
// booked an answer, doubling the wait of every answer after them, and the
// second move was refused with a warning (or, the match changed by the
// reminder, the first, and the second was the one played).
func TestOneAnswerAMove(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		advance time.Duration // the clock moved on while the computer waits to think
	}{
		{"a reminder", 13 * time.Hour},
		{"a reminder and the time up", 25 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var logs logLines
			h := newHarness(t, logs.capture, func(c *Config) { c.Limits.ComputerThinkers = 1 })
			ctx := context.Background()
			g := practiceDuelBegun(t, h, "easy")
			h.bot.thinkers.slots <- struct{}{} // the computer waits to think
			h.alice.SendDM(t, g.LegalMoves()[0].String())
			h.waitStored(1, 1)
			h.srv.WaitFor(t, "the computer's answer booked", func() bool { return h.bot.thinkers.answers() == 1 })
			h.outboxEmpty() // the computer's clock runs
			version := h.match(1).Version
			h.clock.Advance(tc.advance)
			for range 2 { // the reminder, then the time up
				var passed atomic.Bool
				go func() {
					h.bot.handleDue(ctx)
					passed.Store(true)
				}()
				h.srv.WaitFor(t, "the timers' pass to end", passed.Load)
			}
			if h.match(1).Version == version {
				t.Fatal("no reminder changed the match")
			}
			<-h.bot.thinkers.slots // it may think now
			if m := h.waitStored(1, 2); m.Moves() != 2 {
				t.Fatalf("the computer did not move: %v, %d moves", m.Phase, m.Moves())
			}
			h.shutdown() // the answers under way end (Run waits for them)
			if n := h.bot.thinkers.answers(); n != 1 {
				t.Errorf("%d answers booked for the computer's one move, want 1", n)
			}
			if strings.Contains(logs.String(), "level=WARN") || strings.Contains(logs.String(), "level=ERROR") {
				t.Errorf("the log warns:\n%s", logs.String())
			}
		})
	}
}

// TestTimersWaitPastTheComputersTurn: while the computer's answer in a
// match is under way, the timers' loop waits for the next timer of another
// match, not for that match's own time up, due already: it would find it
// due again at once, pass after pass, until the move was played.
func TestTimersWaitPastTheComputersTurn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config) { c.Limits.ComputerThinkers = 1 })
	ctx := context.Background()
	computerTurnMissed(t, h)
	h.bob.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.carol), discordtest.Opt("variant", "Classic")).Reply(t)
	first, _, _ := h.db.NextDeadline(ctx)
	key := answerKey{1, 1}
	h.bot.answering.Store(key, true) // the computer's answer under way
	next, ok, err := h.bot.nextDeadline(ctx)
	if err != nil || !ok || next.Kind != storage.DeadlineChallenge || next.ID != 1 {
		t.Errorf("the timers wait for %+v (%v, %v), want bob's challenge's expiry", next, ok, err)
	}
	h.bot.answering.Delete(key)
	if next, _, _ := h.bot.nextDeadline(ctx); next != first {
		t.Errorf("with no answer under way the timers wait for %+v, want %+v", next, first)
	}
}

// TestComputerAnswerPanicKeepsTheBot: a panic in a computer's answer (a
// record that does not replay, say) is logged and ends the answer, not the
// process, whose restart would run the same answer again.
func TestComputerAnswerPanicKeepsTheBot(t *testing.T) {
	t.Parallel()
	var logs logLines
	h := newHarness(t, logs.capture)
	if !h.bot.goComputer(func() { panic("the record does not replay") }) {
		t.Fatal("goComputer ran nothing while the bot runs")
	}
	logs.waitFor(h, "the computer's answer panicked")
	h.shutdown()
	if h.bot.goComputer(func() { t.Error("an answer ran after the bot stopped") }) {
		t.Error("goComputer reports an answer started after the bot stopped")
	}
}
