package ai

import (
	"math"
	"testing"
)

// TestCopyOdds: the numbers of changed squares of a copy of a published
// set-up share all the chance, and one changed square is no copy (a swap
// changes two).
func TestCopyOdds(t *testing.T) {
	total := 0.0
	for _, p := range copyOdds {
		total += p
	}
	if math.Abs(total-1) > 1e-9 {
		t.Errorf("the copies' chances add up to %.6f, want 1", total)
	}
	if copyOdds[1] != 0 {
		t.Errorf("a copy with one changed square has the chance %.4f, want 0", copyOdds[1])
	}
}

// TestCopySlip: the chance that a square which has shown nothing is one of
// a copy's changes. Where every shown square agrees, the more have shown,
// the likelier the set-up is as published; where one disagrees, another
// change hides among the squares left, the likelier each the fewer they
// are.
func TestCopySlip(t *testing.T) {
	tests := []struct {
		name                     string
		k                        int   // squares that disagree
		free                     []int // squares that have shown nothing, fewer and fewer
		growing                  bool  // whether the slip grows as they get fewer
		firstAtLeast, lastAtMost float64
	}{
		{"every shown square agrees", 0, []int{40, 30, 20, 10, 5, 2}, false, 0.1, 0.01},
		{"one square disagrees, few left", 1, []int{10, 5, 2}, true, 0.1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prev := -1.0
			for i, free := range tc.free {
				slip := copyFits.slip[free][tc.k]
				if i > 0 && (slip > prev) != tc.growing {
					t.Errorf("%d free squares: slip %.3f after %.3f with %d", free, slip, prev, tc.free[i-1])
				}
				prev = slip
			}
			if first := copyFits.slip[tc.free[0]][tc.k]; first < tc.firstAtLeast {
				t.Errorf("%d free squares: slip %.3f, want at least %.2f", tc.free[0], first, tc.firstAtLeast)
			}
			if prev > tc.lastAtMost {
				t.Errorf("%d free squares: slip %.3f, want at most %.2f", tc.free[len(tc.free)-1], prev, tc.lastAtMost)
			}
		})
	}
}
