package gametest

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/strategobot/strategobot/game"
)

func TestSetupIsValid(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, v := range game.Variants {
		rules := game.DefaultRules(v)
		if v == game.VariantCustom {
			rules.Army = game.Army{game.Marshal: 1, game.Scout: 3, game.Bomb: 2, game.Flag: 1}
		}
		for range 20 {
			s := Setup(rules, r)
			if err := s.Validate(rules); err != nil {
				t.Fatalf("%s: %v", v, err)
			}
		}
	}
}

// TestSwapped: n swaps of unlike pieces change 2n squares and keep the army.
func TestSwapped(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	s := Setup(rules, rand.New(rand.NewPCG(3, 4)))
	for _, n := range []int{0, 1, 3, 6} {
		c := Swapped(s, n)
		differ := 0
		for row := range s {
			for col := range s[row] {
				if s[row][col] != c[row][col] {
					differ++
				}
			}
		}
		if differ != 2*n {
			t.Errorf("%d swaps changed %d squares, want %d", n, differ, 2*n)
		}
		if err := c.Validate(rules); err != nil {
			t.Errorf("%d swaps: %v", n, err)
		}
	}
}

// TestShuffleHidden: the copy keeps what the opponent and the public see and
// how the game went, and does shuffle: the owner's own view changes in some
// positions.
func TestShuffleHidden(t *testing.T) {
	changed := 0
	for _, v := range []game.Variant{game.VariantClassic, game.VariantBarrage, game.VariantInfiltrator} {
		for seed := uint64(1); seed <= 8; seed++ {
			g := Game(t, game.DefaultRules(v), seed, int(seed*25), nil)
			for _, side := range []game.Side{game.Red, game.Blue} {
				c := ShuffleHidden(t, g, side, seed)
				for _, viewer := range []game.Viewer{game.ViewerOf(side.Opponent()), game.PublicViewer} {
					if !reflect.DeepEqual(g.View(viewer), c.View(viewer)) {
						t.Fatalf("%s seed %d: shuffling %s's pieces changed the %s view", v, seed, side, viewer)
					}
				}
				if c.Result() != g.Result() || c.Ply() != g.Ply() {
					t.Fatalf("%s seed %d: the copy went otherwise: %v after %d moves", v, seed, c.Result(), c.Ply())
				}
				if !reflect.DeepEqual(g.View(game.ViewerOf(side)), c.View(game.ViewerOf(side))) {
					changed++
				}
			}
		}
	}
	if changed == 0 {
		t.Error("no shuffle changed its owner's view: ShuffleHidden shuffles nothing")
	}
}
