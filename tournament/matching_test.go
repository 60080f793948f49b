package tournament

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching returns the number of edges and the weight of the best
// matching with the most edges, trying every matching.
func bruteMatching(n int, edges []wedge) (int, int64) {
	w := make(map[[2]int]int64)
	for _, e := range edges {
		w[[2]int{e.u, e.v}] = e.w
		w[[2]int{e.v, e.u}] = e.w
	}
	used := make([]bool, n)
	bestCard, bestW := 0, int64(0)
	var rec func(v, card int, sum int64)
	rec = func(v, card int, sum int64) {
		for v < n && used[v] {
			v++
		}
		if v >= n {
			if card > bestCard || card == bestCard && sum > bestW {
				bestCard, bestW = card, sum
			}
			return
		}
		used[v] = true
		rec(v+1, card, sum) // v stays single
		for u := v + 1; u < n; u++ {
			if ew, ok := w[[2]int{v, u}]; ok && !used[u] {
				used[u] = true
				rec(v+1, card+1, sum+ew)
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0, 0, 0)
	return bestCard, bestW
}

func TestMaxWeightMatchingAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		n := 1 + rng.IntN(10)
		density := rng.Float64()
		maxw := int64(1 + rng.IntN(30))
		var edges []wedge
		for u := range n {
			for v := u + 1; v < n; v++ {
				if rng.Float64() < density {
					edges = append(edges, wedge{u, v, rng.Int64N(maxw + 1)})
				}
			}
		}
		mate := maxWeightMatching(n, edges)
		w := make(map[[2]int]int64)
		for _, e := range edges {
			w[[2]int{e.u, e.v}] = e.w
		}
		card, sum := 0, int64(0)
		for v, u := range mate {
			if u < 0 {
				continue
			}
			if mate[u] != v {
				t.Fatalf("trial %d: mate is not symmetric: %v", trial, mate)
			}
			if v < u {
				ew, ok := w[[2]int{v, u}]
				if !ok {
					t.Fatalf("trial %d: matched %d-%d, which is no edge", trial, v, u)
				}
				card++
				sum += ew
			}
		}
		wantCard, wantW := bruteMatching(n, edges)
		if card != wantCard || sum != wantW {
			t.Fatalf("trial %d (n=%d, %v): got %d edges weighing %d, want %d weighing %d", trial, n, edges, card, sum, wantCard, wantW)
		}
	}
}
