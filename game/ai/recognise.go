package ai

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/strategobot/strategobot/game"
)

// Recognising a published set-up. Many players set up as someone did before
// them, and the set-ups people chose on Gravon are published (see
// game.PublishedSetups). Whatever an opponent's pieces have shown about
// their start squares (a rank in a battle, a move that rules out a Bomb or
// the Flag) is evidence for the published set-ups that agree with it and
// against those that do not. The player weighs two explanations of that
// evidence: the opponent took a published set-up, or made one of their own,
// drawn from the per-square prior. Its prior for the hidden pieces is then
// the mixture of the agreeing set-ups and the per-square prior, each by how
// well it explains what was shown. A set-up of one's own that happens to
// share a few squares with a published one soon tells itself apart, as every
// square that disagrees costs the published explanation dearly.

// setupSpace is the number of squares of a set-up, front row first.
const setupSpace = game.SetupRows * 10

// setupIndex holds the published set-ups of one army, each distinct set-up
// and its mirror image once (players use both), with the log of how many
// players chose it, and how many choices there were in all.
type setupIndex struct {
	cells  [][setupSpace]game.Rank
	weight []float64
	chosen float64
}

// newSetupIndex indexes the set-ups.
func newSetupIndex(setups []game.Setup) *setupIndex {
	count := make(map[[setupSpace]game.Rank]int, 2*len(setups))
	var order [][setupSpace]game.Rank
	add := func(s game.Setup) {
		var c [setupSpace]game.Rank
		for row := range s {
			copy(c[row*10:], s[row][:])
		}
		if count[c] == 0 {
			order = append(order, c)
		}
		count[c]++
	}
	for _, s := range setups {
		add(s)
		if m := s.Mirror(); m != s {
			add(m)
		}
	}
	idx := &setupIndex{cells: order, weight: make([]float64, len(order))}
	for i, c := range order {
		idx.weight[i] = math.Log(float64(count[c]))
		idx.chosen += float64(count[c])
	}
	return idx
}

// publishedIndex indexes the published set-ups of v on first use (Classic's
// take about 0.3 s; nil if the embedded collection cannot be read, which
// TestRecognition rules out).
func publishedIndex(v game.Variant) func() *setupIndex {
	return sync.OnceValue(func() *setupIndex {
		setups, err := game.PublishedSetups(v)
		if err != nil || len(setups) == 0 {
			return nil
		}
		return newSetupIndex(setups)
	})
}

// classicIndex and barrageIndex are the published set-ups of the two
// variants people played on Gravon: 64,920 Classic ones and 3,944 Barrage
// ones. Duel and Infiltrator have none.
var (
	classicIndex = publishedIndex(game.VariantClassic)
	barrageIndex = publishedIndex(game.VariantBarrage)
)

// indexFor returns the published set-ups of the rules' army, or nil. The
// squares a Barrage set-up leaves empty, which the board shows from the
// start, are not used as evidence: weighed square by square against the
// per-square prior they made the beliefs about set-ups of one's own worse
// (TestRecognition's "the player's own").
func indexFor(rules game.Rules) *setupIndex {
	switch rules.Army {
	case game.VariantClassic.Army():
		return classicIndex()
	case game.VariantBarrage.Army():
		return barrageIndex()
	}
	return nil
}

const (
	// ownSetupOdds is the chance, before anything is shown, that the
	// opponent made a set-up of their own rather than took a published one.
	ownSetupOdds = 0.5
	// setupCutoff is how far (in log-likelihood) below the best a published
	// set-up may fall before it no longer counts.
	setupCutoff = 16
)

// setupSlips are how often a square of a taken published set-up may hold
// something else after all (the player changed a few pieces), such a square
// then holding what the per-square prior says; and how likely each is
// before anything is shown. Squares that disagree with the set-up that
// explains the rest best make the larger slips likelier, and the beliefs
// less sure.
var setupSlips = [...]struct{ slip, odds float64 }{{0.02, 0.5}, {0.1, 0.3}, {0.3, 0.2}}

// shownSquare is what one of the opponent's start squares has shown: for
// each slip and rank, the log-likelihood of what was shown if a set-up put
// that rank there.
type shownSquare struct {
	cell  int
	logP  [len(setupSlips)][game.NumRanks]float64
	miss  float64 // the log-likelihood, at the smallest slip, if the set-up disagrees
	novel float64 // the log-likelihood under the per-square prior
}

// recognisedPrior returns the prior for the opponent's set-up given what its
// pieces showed about their start squares: base mixed with the published
// set-ups of idx that agree with it, and the share of the mixture those make.
// It returns base and 0 when nothing was shown.
func (k *knowledge) recognisedPrior(base *setupPrior, idx *setupIndex) (*setupPrior, float64) {
	shown := k.shownSquares(base)
	if len(shown) == 0 {
		return base, 0
	}
	// The set-ups' log-likelihoods at each slip, giving up on one once it
	// falls far below the best so far: most fail on their first few squares.
	type fit [len(setupSlips)]float64
	var odds fit
	for s := range odds {
		odds[s] = math.Log(setupSlips[s].odds)
	}
	type candidate struct {
		i int
		l fit
	}
	var kept []candidate // those not given up on the way
	best := math.Inf(-1)
	for i := range idx.cells {
		c := &idx.cells[i]
		var l fit
		for s := range l {
			l[s] = idx.weight[i] + odds[s]
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
	var total float64
	var bySlip fit
	var agree [setupSpace][game.NumRanks]float64
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
		for cell, r := range idx.cells[c.i] {
			agree[cell][r] += w
		}
	}
	// How well each explanation explains what was shown: the published one
	// as the average over the set-ups by how often they were chosen.
	novel := 0.0
	for _, s := range shown {
		novel += s.novel
	}
	published := best + math.Log(total/idx.chosen)
	share := 1 / (1 + ownSetupOdds/(1-ownSetupOdds)*math.Exp(novel-published))
	slip := 0.0 // the slip, as what was shown makes each likely
	for s, x := range bySlip {
		slip += setupSlips[s].slip * x / total
	}
	out := new(setupPrior)
	for row := range out {
		for col := range out[row] {
			cell := row*10 + col
			for r := range out[row][col] {
				listed := (1-slip)*agree[cell][r]/total + slip*base[row][col][r]
				out[row][col][r] = share*listed + (1-share)*base[row][col][r]
			}
		}
	}
	return out, share
}

// shownSquares lists the opponent's start squares whose pieces showed a rank
// or moved, the most telling first (the rarer the rank shown there, the
// sooner a set-up that disagrees is given up).
func (k *knowledge) shownSquares(base *setupPrior) []shownSquare {
	var shown []shownSquare
	for id := int(k.opp) * game.MaxPieces; id < int(k.opp+1)*game.MaxPieces; id++ {
		t := &k.tracks[id]
		if !k.present[id] {
			continue
		}
		row, col, ok := game.SetupCell(k.opp, t.Start)
		if !ok {
			continue
		}
		r := t.Rank
		if r == game.NoRank && t.KnownScout {
			r = game.Scout
		}
		if r == game.NoRank && !t.Moved {
			continue
		}
		p := &base[row][col]
		// odds is the per-square prior's chance of what was shown; fits
		// says which ranks a set-up may have put there to show it. A piece
		// that moved was no Bomb, Flag or empty square (Barrage's zone is
		// mostly empty).
		odds := max(1-p[game.Bomb]-p[game.Flag]-p[game.NoRank], 1e-6)
		fits := game.Rank.Movable
		if r != game.NoRank {
			odds = max(p[r], 1e-6)
			fits = func(x game.Rank) bool { return x == r }
		}
		shown = append(shown, newShownSquare(row*10+col, odds, fits))
	}
	slices.SortStableFunc(shown, func(a, b shownSquare) int { return cmp.Compare(a.miss, b.miss) })
	return shown
}

// newShownSquare is what cell showed, odds being the per-square prior's
// chance of it and fits the ranks a set-up may have put there to show it.
func newShownSquare(cell int, odds float64, fits func(game.Rank) bool) shownSquare {
	sq := shownSquare{cell: cell, novel: math.Log(odds)}
	for s, sl := range setupSlips {
		miss := math.Log(sl.slip * odds)
		hit := math.Log(sl.slip*odds + 1 - sl.slip)
		for x := range sq.logP[s] {
			sq.logP[s][x] = miss
			if fits(game.Rank(x)) {
				sq.logP[s][x] = hit
			}
		}
	}
	sq.miss = math.Log(setupSlips[0].slip * odds)
	return sq
}
