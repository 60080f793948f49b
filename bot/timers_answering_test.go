package bot

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestTimersPassOverAnswersUnderWay: a pass reads past the timers of
// matches whose computer answers, however many come first, so that they
// hold up no other timer, and the loop does not wake at once for them or
// for the timer they hid.
func TestTimersPassOverAnswersUnderWay(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, timerBatch, 2 * timerBatch} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			ctx := context.Background()
			h.bob.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.carol),
				discordtest.Opt("variant", "Classic")).Reply(t)
			// Practice matches whose answers wait for their turn in the
			// thinkers' schedule, a minute and more after a long outage,
			// their timers long due ahead of the store's own.
			var ahead []storage.Deadline
			for i := range n {
				id := storage.MatchID(1000 + i)
				ahead = append(ahead, storage.Deadline{At: T0.Add(-time.Hour), Kind: storage.DeadlineMatch, ID: uint64(id)})
				h.bot.answering.Store(answerKey{id, 7}, true)
			}
			h.reads.dueAhead.Store(&ahead)
			t.Cleanup(func() {
				h.reads.dueAhead.Store(nil)
				h.bot.answering.Clear()
			})

			h.clock.Advance(25 * time.Hour) // the challenge expires
			h.bot.handleDue(ctx)
			if _, err := h.db.Challenge(ctx, 1); !errors.Is(err, storage.ErrNotFound) {
				t.Fatalf("the challenge after a pass: %v; want it expired, not held up behind %d answers", err, n)
			}
			if next, ok, err := h.bot.nextDeadline(ctx); err != nil || ok && !next.At.After(h.clock.Now()) {
				t.Errorf("the loop's next deadline %+v (%v, %v) is due now: it would wake again at once", next, ok, err)
			}
		})
	}
}
