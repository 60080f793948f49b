package ai

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestLayoutIndex: the layouts are the published set-ups' Bombs and Flag,
// each distinct one once, weighed by how many players chose it.
func TestLayoutIndex(t *testing.T) {
	idx, layouts := classicIndex(), classicLayouts()
	if idx == nil || layouts == nil {
		t.Fatal("the published Classic set-ups are not indexed")
	}
	if got, want := len(layouts.bombs), 53_738; got != want {
		t.Errorf("%d distinct layouts, want %d", got, want)
	}
	chosen := 0.0
	for i, bombs := range layouts.bombs {
		chosen += math.Exp(layouts.weight[i])
		flag := layouts.flag[i]
		if bits.OnesCount64(bombs) != 6 || bits.OnesCount64(flag) != 1 || bombs&flag != 0 || (bombs|flag)>>setupSpace != 0 {
			t.Fatalf("layout %d: Bombs on %040b, the Flag on %040b, want 6 Bombs and the Flag on 7 of the 40 cells", i, bombs, flag)
		}
	}
	if math.Abs(chosen-idx.chosen) > 1e-6*idx.chosen || layouts.chosen != idx.chosen {
		t.Errorf("the layouts were chosen %.0f times (recorded %.0f), the set-ups %.0f", chosen, layouts.chosen, idx.chosen)
	}
}

// TestLayouts: against a set-up of someone's own whose Bombs and Flag stand
// as in a published one (the rest shuffled, so the set-up is no published
// one), the beliefs with layouts tell Bomb, Flag and the pieces that move
// apart on the pieces that never moved better than without; against the
// generator's set-ups, whose layouts are mostly not published, they lose
// nothing that matters.
func TestLayouts(t *testing.T) {
	published, err := game.PublishedSetups(game.VariantClassic)
	if err != nil {
		t.Fatal(err)
	}
	rules := game.DefaultRules(game.VariantClassic)
	// shuffled keeps the Bombs and Flag of s and shuffles its other pieces.
	shuffled := func(s game.Setup, seed uint64) game.Setup {
		rng := rand.New(rand.NewPCG(seed, 5))
		var cells []int
		for c := range 40 {
			if s[c/10][c%10].Movable() {
				cells = append(cells, c)
			}
		}
		for i := len(cells) - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			a, b := cells[i], cells[j]
			s[a/10][a%10], s[b/10][b%10] = s[b/10][b%10], s[a/10][a%10]
		}
		return s
	}
	tests := []struct {
		name  string
		setup func(seed uint64) game.Setup
		// the least gain in the mean log chance of the true class (Bomb,
		// Flag, a piece that moves) of the pieces that never moved
		// (negative: the most it may lose)
		gain float64
	}{
		{"a published layout", func(seed uint64) game.Setup { return shuffled(published[seed*977%uint64(len(published))], seed) }, 0.05},
		{"the generator's", func(seed uint64) game.Setup { return game.RandomSetup(rules, seed+2000) }, -0.02},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var with, without, pieces float64
			for seed := range uint64(8) {
				g, err := game.NewGame(rules, game.RandomSetup(rules, seed), tc.setup(seed))
				if err != nil {
					t.Fatal(err)
				}
				gametest.Play(t, g, rand.New(rand.NewPCG(seed, 13)), 160, nil)
				v := g.View(game.ViewerOf(game.Red))
				kw, err := newKnowledge(&v, layouts)
				if err != nil {
					t.Fatal(err)
				}
				ko, err := newKnowledge(&v, recognition)
				if err != nil {
					t.Fatal(err)
				}
				for i, id := range kw.unknown {
					if kw.tracks[id].Moved {
						continue
					}
					_, r, _ := g.PieceAt(kw.tracks[id].Square)
					with += math.Log(classChance(&kw.belief[i], r))
					without += math.Log(classChance(&ko.belief[i], r))
					pieces++
				}
			}
			gain := (with - without) / pieces
			t.Logf("mean log chance of the true class of %.0f pieces that never moved: %.3f with layouts, %.3f without", pieces, with/pieces, without/pieces)
			if gain < tc.gain {
				t.Errorf("layouts change the mean log chance of the true class by %+.3f, want at least %+.2f", gain, tc.gain)
			}
		})
	}
}

// classChance is the chance p gives to the class of rank r: Bomb, Flag, or a
// piece that moves.
func classChance(p *[game.NumRanks]float64, r game.Rank) float64 {
	if !r.Movable() {
		return max(p[r], 1e-4)
	}
	return max(1-p[game.Bomb]-p[game.Flag], 1e-4)
}

// BenchmarkLayoutPrior measures the layout prior of a mid-game Classic view
// against a set-up of the player's own.
func BenchmarkLayoutPrior(b *testing.B) {
	rules := game.DefaultRules(game.VariantClassic)
	k := midGameKnowledge(b, game.RandomSetup(rules, 2))
	idx, base := classicLayouts(), priorFor(rules)
	b.ResetTimer()
	for b.Loop() {
		k.layoutPrior(base, idx)
	}
}

// TestLayoutMatch: weighing the layouts by bits gives what weighing them
// square by square, as whole set-ups are weighed, gives.
func TestLayoutMatch(t *testing.T) {
	layouts := classicLayouts()
	// The same layouts as set-ups: Bomb, Flag, or NoRank for a piece that moves.
	plain := &setupIndex{weight: layouts.weight, chosen: layouts.chosen}
	for i := range layouts.bombs {
		var c [setupSpace]game.Rank
		for cell := range c {
			switch {
			case layouts.bombs[i]>>cell&1 == 1:
				c[cell] = game.Bomb
			case layouts.flag[i]>>cell&1 == 1:
				c[cell] = game.Flag
			}
		}
		plain.cells = append(plain.cells, c)
	}
	rules := game.DefaultRules(game.VariantClassic)
	for seed := range uint64(4) {
		g, err := game.NewGame(rules, game.RandomSetup(rules, seed), game.RandomSetup(rules, seed+100))
		if err != nil {
			t.Fatal(err)
		}
		gametest.Play(t, g, rand.New(rand.NewPCG(seed, 17)), 40+60*int(seed), nil)
		v := g.View(game.ViewerOf(game.Blue))
		k, err := newKnowledge(&v, setupsAndBehaviour)
		if err != nil {
			t.Fatal(err)
		}
		shown := k.shownSquares(priorFor(rules), bombsAndFlag)
		fast, ok := layouts.match(shown, ownLayoutOdds)
		slow, ok2 := plain.match(shown, ownLayoutOdds)
		if !ok || !ok2 {
			t.Fatalf("seed %d: nothing shown after %d plies", seed, g.Ply())
		}
		if math.Abs(fast.share-slow.share) > 1e-9 || math.Abs(fast.slip-slow.slip) > 1e-9 {
			t.Errorf("seed %d: share %.6f, slip %.6f by bits; %.6f, %.6f square by square", seed, fast.share, fast.slip, slow.share, slow.slip)
		}
		for cell := range fast.agree {
			for _, r := range []game.Rank{game.Bomb, game.Flag} {
				if d := math.Abs(fast.agree[cell][r] - slow.agree[cell][r]); d > 1e-9 {
					t.Errorf("seed %d, cell %d: %v %.6f by bits, %.6f square by square", seed, cell, r, fast.agree[cell][r], slow.agree[cell][r])
				}
			}
		}
	}
}

// match is what layoutIndex.match computes with bits, square by square:
// it weighs the set-ups of idx, each square by the slips of setupSlips, and
// the two explanations (a set-up of idx, or one of the opponent's own,
// drawn from the per-square prior) by how well each explains shown, ownOdds
// being the chance of the second before anything was shown. It reports
// false when nothing was shown.
func (idx *setupIndex) match(shown []shownSquare, ownOdds float64) (*setupMatch, bool) {
	if len(shown) == 0 {
		return nil, false
	}
	// The set-ups' log-likelihoods at each slip, giving up on one once it
	// falls far below the best so far: most fail on their first few squares.
	var kept []candidate // those not given up on the way
	best := math.Inf(-1)
	for i := range idx.cells {
		c := &idx.cells[i]
		var l fit
		for s := range l {
			l[s] = idx.weight[i] + slipOdds[s]
		}
		for j := range shown {
			p := &shown[j].logP
			r := c[shown[j].cell]
			top := math.Inf(-1)
			for s := range l {
				l[s] += p[s][r]
				top = max(top, l[s])
			}
			if top < best-setupCutoff {
				break
			}
		}
		if top := slices.Max(l[:]); top >= best-setupCutoff {
			kept = append(kept, candidate{i, l})
			best = max(best, top)
		}
	}
	return explain(kept, best, idx.chosen, shown, ownOdds, func(i int, w float64, agree *[setupSpace][game.NumRanks]float64) {
		for cell, r := range idx.cells[i] {
			agree[cell][r] += w
		}
	}), true
}
