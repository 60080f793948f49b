package ai

import (
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/strategobot/strategobot/game"
)

// Recognising where the Bombs and the Flag stand. A player who makes a
// set-up of their own still tends to place the Bombs and the Flag as others
// did: about half of the people's Classic set-ups of Gravon's held-out
// months that are not published put their Bombs and Flag exactly as a
// published set-up does (or its mirror image), and most of the rest differ
// from one by a single Bomb. The pieces that stay put are what the beliefs
// know least about, and the squares whose pieces moved (no Bomb or Flag
// there) or were shown rule layouts out as surely as they rule out whole
// set-ups. So the beliefs weigh the layouts of the published set-ups (Bomb,
// Flag, or a piece that moves on every square) as recognisedPrior weighs
// whole set-ups, and let the layouts that agree decide the odds of Bomb and
// Flag on each square of a set-up of the opponent's own, the per-square
// prior still sharing the rest among the pieces that move. The beliefs gain
// a little on people's games from it, hard did not win more with it, and so
// it is the lab's model layouts+fitted, not hard's (docs/COMPUTER.md).

// ownLayoutOdds is the chance, before anything is shown, that an opponent's
// Bombs and Flag stand as in none of the published set-ups, nor nearly so
// (the slips cover a Bomb or two placed otherwise).
const ownLayoutOdds = 0.3

// layoutIndex holds the distinct layouts of the published set-ups of one
// army and their mirror images, each as the cells (bits, cell = row*10 +
// column) of its Bombs and of its Flag, with the log of how many players
// chose a set-up with that layout, and how many choices there were in all.
type layoutIndex struct {
	bombs, flag []uint64
	weight      []float64
	chosen      float64
}

// classicLayouts are the layouts of the published Classic set-ups, built on
// first use from classicIndex (nil if that is).
var classicLayouts = sync.OnceValue(func() *layoutIndex {
	idx := classicIndex()
	if idx == nil {
		return nil
	}
	return newLayoutIndex(idx)
})

// newLayoutIndex returns the distinct layouts of the set-ups of idx.
func newLayoutIndex(idx *setupIndex) *layoutIndex {
	type layout struct{ bombs, flag uint64 }
	count := make(map[layout]float64)
	var order []layout
	for i, c := range idx.cells {
		var l layout
		for cell, r := range c {
			switch r {
			case game.Bomb:
				l.bombs |= 1 << cell
			case game.Flag:
				l.flag |= 1 << cell
			}
		}
		if count[l] == 0 {
			order = append(order, l)
		}
		count[l] += math.Exp(idx.weight[i])
	}
	out := &layoutIndex{chosen: idx.chosen}
	for _, l := range order {
		out.bombs = append(out.bombs, l.bombs)
		out.flag = append(out.flag, l.flag)
		out.weight = append(out.weight, math.Log(count[l]))
	}
	return out
}

// match weighs the layouts of idx by how well each explains shown, each
// square by the slips of setupSlips, and the two explanations (a layout of
// idx, or one of the opponent's own, drawn from the per-square prior) by how
// well each explains it, ownOdds being the chance of the second before
// anything was shown. It reports false when nothing was shown. A layout's
// fit is what it would be
// if every shown square held a piece that moves, corrected on the few
// shown squares where it has a Bomb or the Flag, which makes weighing the
// layouts a matter of bits.
func (idx *layoutIndex) match(shown []shownSquare, ownOdds float64) (*setupMatch, bool) {
	if len(shown) == 0 {
		return nil, false
	}
	var moves fit // the fit if every shown square held a piece that moves
	var shownCells uint64
	var bombFix, flagFix [setupSpace]fit // the corrections where it holds a Bomb, the Flag
	for j := range shown {
		p, cell := &shown[j].logP, shown[j].cell
		shownCells |= 1 << cell
		for s := range moves {
			moves[s] += p[s][game.NoRank]
			bombFix[cell][s] = p[s][game.Bomb] - p[s][game.NoRank]
			flagFix[cell][s] = p[s][game.Flag] - p[s][game.NoRank]
		}
	}
	kept := make([]candidate, 0, len(idx.bombs))
	best := math.Inf(-1)
	for i := range idx.bombs {
		var l fit
		for s := range l {
			l[s] = idx.weight[i] + slipOdds[s] + moves[s]
		}
		for b := idx.bombs[i] & shownCells; b != 0; b &= b - 1 {
			f := &bombFix[bits.TrailingZeros64(b)]
			for s := range l {
				l[s] += f[s]
			}
		}
		if b := idx.flag[i] & shownCells; b != 0 {
			f := &flagFix[bits.TrailingZeros64(b)]
			for s := range l {
				l[s] += f[s]
			}
		}
		top := slices.Max(l[:])
		if top >= best-setupCutoff {
			kept = append(kept, candidate{i, l})
			best = max(best, top)
		}
	}
	// The pieces that move take the rest of each cell: only Bomb and Flag
	// are added up.
	return explain(kept, best, idx.chosen, shown, ownOdds, func(i int, w float64, agree *[setupSpace][game.NumRanks]float64) {
		for b := idx.bombs[i]; b != 0; b &= b - 1 {
			agree[bits.TrailingZeros64(b)][game.Bomb] += w
		}
		agree[bits.TrailingZeros64(idx.flag[i])][game.Flag] += w
	}), true
}

// layoutsFor returns the layouts of the rules' army, or nil: only Classic's
// are used, as Barrage's published set-ups are the per-square prior itself.
func layoutsFor(rules game.Rules) *layoutIndex {
	if rules.Army == game.VariantClassic.Army() {
		return classicLayouts()
	}
	return nil
}

// layoutPrior returns base with the odds of Bomb and Flag on every square
// replaced by those of the layouts of idx that agree with what the
// opponent's pieces showed (mixed with base's by how well each explains
// it), the pieces that move sharing the rest as in base. It returns base
// when nothing was shown.
func (k *knowledge) layoutPrior(base *setupPrior, idx *layoutIndex) *setupPrior {
	m, ok := idx.match(k.shownSquares(base, bombsAndFlag), ownLayoutOdds)
	if !ok {
		return base
	}
	out := new(setupPrior)
	for row := range out {
		for col := range out[row] {
			cell, p := row*10+col, &base[row][col]
			mix := func(listed, own float64) float64 {
				return m.share*((1-m.slip)*listed+m.slip*own) + (1-m.share)*own
			}
			bomb := mix(m.agree[cell][game.Bomb], p[game.Bomb])
			flag := mix(m.agree[cell][game.Flag], p[game.Flag])
			moves := 1 - p[game.Bomb] - p[game.Flag]
			scale := 0.0
			if moves > 0 {
				scale = max(1-bomb-flag, 0) / moves
			}
			for r := range out[row][col] {
				out[row][col][r] = p[r] * scale
			}
			out[row][col][game.Bomb], out[row][col][game.Flag] = bomb, flag
		}
	}
	return out
}

// setupSlips are how often a square of a taken published layout may hold
// something else after all (the player placed a Bomb otherwise), such a
// square then holding what the per-square prior says; and how likely each is
// before anything is shown. Squares that disagree with the layout that
// explains the rest best make the larger slips likelier, and the beliefs
// less sure. (Whole set-ups are weighed as copies with changed squares
// instead: see matchCopies.)
var setupSlips = [...]struct{ slip, odds float64 }{{0.02, 0.5}, {0.1, 0.3}, {0.3, 0.2}}

// fit is a set-up's log-likelihood of what was shown, at each slip.
type fit [len(setupSlips)]float64

// candidate is a set-up (by its index) and its fit.
type candidate struct {
	i int
	l fit
}

// slipOdds are the logs of the slips' odds before anything is shown.
var slipOdds = func() fit {
	var f fit
	for s := range f {
		f[s] = math.Log(setupSlips[s].odds)
	}
	return f
}()

// explain sums up the kept candidates of an index whose set-ups were chosen
// chosen times in all, best being the highest log-likelihood among them:
// add adds set-up i's ranks, by weight w, to agree.
func explain(kept []candidate, best, chosen float64, shown []shownSquare, ownOdds float64, add func(i int, w float64, agree *[setupSpace][game.NumRanks]float64)) *setupMatch {
	m := new(setupMatch)
	var total float64
	var bySlip fit
	for _, c := range kept {
		w := 0.0
		for s, l := range c.l {
			if l >= best-setupCutoff {
				x := math.Exp(l - best)
				w += x
				bySlip[s] += x
			}
		}
		if w == 0 {
			continue
		}
		total += w
		add(c.i, w, &m.agree)
	}
	for cell := range m.agree {
		for r := range m.agree[cell] {
			m.agree[cell][r] /= total
		}
	}
	// How well each explanation explains what was shown: the listed one as
	// the average over the set-ups by how often they were chosen.
	novel := 0.0
	for _, s := range shown {
		novel += s.novel
	}
	listed := best + math.Log(total/chosen)
	m.share = 1 / (1 + ownOdds/(1-ownOdds)*math.Exp(novel-listed))
	for s, x := range bySlip {
		m.slip += setupSlips[s].slip * x / total
	}
	return m
}
