package published

import (
	"math/rand/v2"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestDistance: squares are counted until the bound.
func TestDistance(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	s := gametest.Setup(rules, rand.New(rand.NewPCG(1, 1)))
	tests := []struct {
		name       string
		other      game.Setup
		most, want int
	}{
		{"the same", s, 40, 0},
		{"one swap", gametest.Swapped(s, 1), 40, 2},
		{"three swaps", gametest.Swapped(s, 3), 40, 6},
		{"three swaps, given up at 4", gametest.Swapped(s, 3), 4, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Distance(&s, &tc.other, tc.most); got != tc.want {
				t.Errorf("Distance = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestNearest: a published set-up and its mirror image are 0 squares from
// one, a copy with a swap 2 at most; a variant with no published set-ups
// has no distance.
func TestNearest(t *testing.T) {
	list, err := game.PublishedSetups(game.VariantClassic)
	if err != nil || len(list) == 0 {
		t.Fatalf("published Classic set-ups: %d, %v", len(list), err)
	}
	first := list[0]
	tests := []struct {
		name    string
		variant game.Variant
		setup   game.Setup
		want    int
		listed  bool
	}{
		{"published", game.VariantClassic, first, 0, true},
		{"its mirror image", game.VariantClassic, first.Mirror(), 0, true},
		{"one swap", game.VariantClassic, gametest.Swapped(first, 1), 2, true},
		{"Duel has none", game.VariantDuel, first, 0, false},
	}
	idx := NewIndex()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, listed, err := idx.Nearest(tc.variant, tc.setup)
			if err != nil {
				t.Fatal(err)
			}
			if listed != tc.listed || (listed && d > tc.want) || (tc.want == 0 && d != 0) {
				t.Errorf("Nearest = %d, %v; want %d or fewer, %v", d, listed, tc.want, tc.listed)
			}
		})
	}
}
