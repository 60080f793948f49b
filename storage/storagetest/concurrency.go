package storagetest

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// testConcurrentMatches runs two goroutines per match, one per player, in
// many matches at once. Each player loads the match, plays a random legal
// move when it is theirs, and retries on ErrStale or ErrNotYourTurn. Every
// match must end with a log that replays and one version per change.
func testConcurrentMatches(t *testing.T, s storage.Store) {
	ctx := context.Background()
	const matches, plies = 12, 30
	ids := make([]storage.MatchID, matches)
	for i := range ids {
		ids[i] = Started(t, s, NewMatch(game.VariantClassic), uint64(100+i)).ID
	}
	var wg sync.WaitGroup
	errc := make(chan error, 2*matches)
	for i, id := range ids {
		for side := game.Red; side <= game.Blue; side++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(i), uint64(side)))
				for {
					m, err := s.Match(ctx, id)
					if err != nil {
						errc <- err
						return
					}
					if m.Phase != storage.PhasePlaying || m.Moves() >= plies {
						return
					}
					g, err := m.Game()
					if err != nil {
						errc <- err
						return
					}
					if g.ToMove() != side {
						time.Sleep(50 * time.Microsecond)
						continue
					}
					moves := g.LegalMoves()
					at := T0.Add(time.Duration(m.Moves()+1) * time.Minute)
					_, _, err = s.ApplyMove(ctx, id, m.Version, side, moves[r.IntN(len(moves))], at)
					if err != nil && !errors.Is(err, storage.ErrStale) && !errors.Is(err, storage.ErrNotYourTurn) {
						errc <- err
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	for _, id := range ids {
		m := must(s.Match(ctx, id)).in(t)
		CheckReplay(t, m)
		// Version 1 at creation, one per set-up, one per logged action.
		if want := uint64(3 + len(m.Log)); m.Version != want {
			t.Errorf("match %d: version %d after %d actions, want %d", id, m.Version, len(m.Log), want)
		}
		if m.Phase == storage.PhasePlaying && m.Moves() != plies {
			t.Errorf("match %d stopped at %d moves", id, m.Moves())
		}
	}
}

// testSameMoveRaced submits the same move many times at once, as two buttons
// pressed together or a click and a typed move: exactly one is applied.
func testSameMoveRaced(t *testing.T, s storage.Store) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 5))
	m := Started(t, s, NewMatch(game.VariantClassic), 55)
	const racers = 8
	for round := range 20 {
		side, mv := RandomMove(t, m, r)
		at := T0.Add(time.Duration(round+1) * time.Minute)
		var wg sync.WaitGroup
		errs := make([]error, racers)
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				version := m.Version
				if i%2 == 1 {
					version = 0 // a typed move names no version
				}
				_, _, errs[i] = s.ApplyMove(ctx, m.ID, version, side, mv, at)
			}()
		}
		wg.Wait()
		applied := 0
		for _, err := range errs {
			switch {
			case err == nil:
				applied++
			case errors.Is(err, storage.ErrStale), errors.Is(err, storage.ErrNotYourTurn), errors.Is(err, storage.ErrGameOver):
				noSetupIn(t, m, err)
			default:
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if applied != 1 {
			t.Fatalf("round %d: the move was applied %d times", round, applied)
		}
		m = must(s.Match(ctx, m.ID)).in(t)
		if m.Moves() != round+1 {
			t.Fatalf("round %d: %d moves logged", round, m.Moves())
		}
		if m.Phase != storage.PhasePlaying {
			break
		}
	}
	CheckReplay(t, m)
}
