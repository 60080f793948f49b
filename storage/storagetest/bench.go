package storagetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// BenchmarkApplyMove measures committed moves per second on the stores open
// returns (a new, empty one for each sub-benchmark, closed at its end): one
// match played move after move, and 16 and 64 matches played at once. Every
// backend runs this same code, so that their figures compare.
func BenchmarkApplyMove(b *testing.B, open func(b *testing.B) storage.Store) {
	b.Run("one-match", func(b *testing.B) {
		s := open(b)
		defer s.Close()
		benchPlay(b, s, 0, func(play func()) {
			for b.Loop() {
				play()
			}
		})
	})
	for _, n := range []int{16, 64} {
		b.Run(fmt.Sprintf("parallel-%d-matches", n), func(b *testing.B) {
			s := open(b)
			defer s.Close()
			b.SetParallelism((n + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.ResetTimer()
			var seed atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				benchPlay(b, s, seed.Add(1), func(play func()) {
					for pb.Next() {
						play()
					}
				})
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

// started is Started without delivering the notices: the parallel runs
// would race each other's deliveries. The notices stay in the outbox (moves
// may be played while the clock waits for them), so each move pays for
// recording its notices, as it does in the bot.
func started(b *testing.B, s storage.Store, m *storage.Match, seed uint64) *storage.Match {
	ctx := context.Background()
	m, err := s.CreateMatch(ctx, m)
	if err != nil {
		b.Fatalf("CreateMatch: %v", err)
	}
	for side := game.Red; side <= game.Blue; side++ {
		setup := game.RandomSetup(m.Rules, seed*2+uint64(side))
		if m, err = s.SetSetup(ctx, m.ID, m.Version, side, setup, storage.SetupConfirmed, T0); err != nil {
			b.Fatalf("SetSetup %s: %v", side, err)
		}
	}
	return m
}

// benchPlay gives loop a function that plays one random move in a match of
// its own, resigning it at 300 moves and starting another. The one-match
// case reports moves/s itself; in parallel the caller does.
func benchPlay(b *testing.B, s storage.Store, seed uint64, loop func(play func())) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(seed, 5))
	var m *storage.Match
	var played int64
	start := time.Now()
	loop(func() {
		var err error
		if m == nil || m.Phase != storage.PhasePlaying {
			m = started(b, s, NewMatch(game.VariantClassic), r.Uint64())
		}
		if m.Moves() >= 300 {
			m, err = s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Red, At: time.Now()})
		} else {
			side, mv := RandomMove(b, m, r)
			m, _, err = s.ApplyMove(ctx, m.ID, m.Version, side, mv, time.Now())
			played++
		}
		if err != nil {
			b.Fatal(err)
		}
	})
	if seed == 0 {
		b.ReportMetric(float64(played)/time.Since(start).Seconds(), "moves/s")
	}
}

// OutboxBacklog returns size notices as an outbox holds them when Discord
// has stalled its delivery, ids from 1, recorded a second apart before now:
// matches' queues four notices long, and every 100th a tournament's
// announcement that waits for a match's channel (Notice.After). Without
// retried, none was tried, and they are due in the order of their ids;
// with it, every queue's oldest failed and waits an hour (Discord down),
// the notices behind them due long ago.
func OutboxBacklog(size int, retried bool, now time.Time) []storage.Notice {
	out := make([]storage.Notice, 0, size)
	for i := range size {
		n := storage.Notice{ID: uint64(i + 1), Match: storage.MatchID(i/4 + 1), Event: storage.EventMove, To: storage.AudienceRed,
			Log: i%4 + 1, At: now.Add(time.Duration(i-size) * time.Second)}
		if i%100 == 99 {
			n = storage.Notice{ID: uint64(i + 1), Tournament: storage.TournamentID(i/1000 + 1), Event: storage.EventRoundPaired,
				To: storage.AudiencePublic, Log: i / 100, At: n.At, After: n.Match}
		}
		n.NextTry = n.At
		if retried && (i%4 == 0 || i%1000 == 99) { // the oldest of a match's or tournament's queue
			n.NextTry, n.Attempts = now.Add(time.Hour), 1
		}
		out = append(out, n)
	}
	return out
}

// BenchmarkOutboxDepth measures what the bot's gauge of the outbox's depth
// costs a scrape on s, which holds size notices: CountNotices, which it
// reads, and DueNotices of every queue's head (a time far ahead, no limit),
// which it read before and which decodes each head's record.
func BenchmarkOutboxDepth(b *testing.B, s storage.Store, size int) {
	ctx := context.Background()
	b.Run("CountNotices", func(b *testing.B) {
		for b.Loop() {
			if n, err := s.CountNotices(ctx); err != nil || n != size {
				b.Fatalf("CountNotices %d, %v; want %d", n, err, size)
			}
		}
	})
	b.Run("DueNotices-all", func(b *testing.B) {
		for b.Loop() {
			if due, err := s.DueNotices(ctx, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 0); err != nil || len(due) == 0 {
				b.Fatal(len(due), err)
			}
		}
	})
}
