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
