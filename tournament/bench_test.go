package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// swissAfter returns the players of an n-player Swiss event after the given
// number of random rounds.
func swissAfter(tb testing.TB, n, rounds int) []SwissPlayer {
	tb.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), uint64(rounds)))
	tour, err := New(DefaultRules(Swiss, rounds+1))
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		if err := tour.Apply(Join(fmt.Sprintf("p%03d", i), rng.IntN(2000))); err != nil {
			tb.Fatal(err)
		}
	}
	for r := 1; r <= rounds; r++ {
		e, err := tour.NextRound()
		if err != nil {
			tb.Fatal(err)
		}
		if err := tour.Apply(e); err != nil {
			tb.Fatal(err)
		}
		for b, g := range e.Games {
			if !g.IsBye() {
				res := []Result{RedWon, BlueWon, Drawn}[rng.IntN(3)]
				if err := tour.Apply(Record(r, b+1, res)); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
	return tour.SwissPlayers()
}

func BenchmarkPairSwiss(b *testing.B) {
	for _, c := range []struct{ players, played int }{{40, 4}, {200, 0}, {200, 6}, {201, 8}, {400, 8}} {
		b.Run(fmt.Sprintf("%dplayers-round%d", c.players, c.played+1), func(b *testing.B) {
			ps := swissAfter(b, c.players, c.played)
			b.ResetTimer()
			for b.Loop() {
				if _, err := pairSwiss(ps); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The weights fit in 64 bits for the largest events allowed: MaxPlayers
// spread over every score MaxSwissRounds can give.
func TestPairSwissLargestEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	ps := make([]SwissPlayer, MaxPlayers+1-MaxPlayers%2) // odd: a bye too
	for i := range ps {
		ps[i] = SwissPlayer{ID: fmt.Sprintf("p%03d", i), Seed: i + 1, Score: Points(rng.IntN(2*MaxSwissRounds + 1))}
		for range 2 * MaxSwissRounds / 3 {
			ps[i].Colours = append(ps[i].Colours, Colour(len(ps[i].Colours)%2))
		}
		ps[i].HadBye = rng.IntN(2) == 0
	}
	if _, err := pairSwiss(ps); err != nil {
		t.Fatal(err)
	}
}
