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

// answersAhead puts, ahead of the store's own timers, match timers long
// due whose computer's answer is under way: practice matches whose answers
// wait for their turn in the thinkers' schedule, a minute and more after a
// long outage.
type answersAhead struct {
	storage.Store
	ahead []storage.Deadline
}

func (s *answersAhead) NextDeadline(ctx context.Context) (storage.Deadline, bool, error) {
	return s.ahead[0], true, nil
}

func (s *answersAhead) DueDeadlines(ctx context.Context, now time.Time, limit int) ([]storage.Deadline, error) {
	own, err := s.Store.DueDeadlines(ctx, now, 0)
	if err != nil {
		return nil, err
	}
	all := append(append([]storage.Deadline{}, s.ahead...), own...)
	if limit > 0 && len(all) > limit {
		all = all[:limit]
	}
	return all, nil
}

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
			store := &answersAhead{Store: h.bot.store}
			for i := range n {
				id := storage.MatchID(1000 + i)
				store.ahead = append(store.ahead, storage.Deadline{At: T0.Add(-time.Hour), Kind: storage.DeadlineMatch, ID: uint64(id)})
				h.bot.answering.Store(answerKey{id, 7}, true)
			}
			h.bot.timerPass.Lock() // the store changes while no pass runs
			h.bot.store = store
			h.bot.timerPass.Unlock()
			t.Cleanup(func() {
				h.bot.timerPass.Lock()
				h.bot.store = store.Store
				h.bot.timerPass.Unlock()
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
