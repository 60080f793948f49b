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
// players chose it.
type setupIndex struct {
	cells  [][setupSpace]game.Rank
	weight []float64
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
	}
	return idx
}

// classicIndex is the published Classic set-ups, indexed on first use
// (about 0.3 s; nil if the embedded collection cannot be read, which
// TestRecognition rules out).
var classicIndex = sync.OnceValue(func() *setupIndex {
	setups, err := game.PublishedSetups(game.VariantClassic)
	if err != nil || len(setups) == 0 {
		return nil
	}
	return newSetupIndex(setups)
})

// indexFor returns the published set-ups of the rules' army, or nil when none
// are published (only Classic's are more than the per-square prior holds).
func indexFor(rules game.Rules) *setupIndex {
	if rules.Army == game.VariantClassic.Army() {
		return classicIndex()
	}
	return nil
}

const (
	// ownSetupOdds is the chance, before anything is shown, that the
	// opponent made a set-up of their own rather than took a published one.
	ownSetupOdds = 0.5
	// setupSlip is the chance that a square of a taken published set-up
	// holds something else after all (the player changed a few pieces):
	// such a square then holds what the per-square prior says.
	setupSlip = 0.05
	// setupCutoff is how far (in log-likelihood) below the best a published
	// set-up may fall before it no longer counts.
	setupCutoff = 16
)

// shownSquare is what one of the opponent's start squares has shown: for
// each rank the log-likelihood of what was shown if a set-up put that rank
// there.
type shownSquare struct {
	cell  int
	logP  [game.NumRanks]float64
	miss  float64 // the log-likelihood if the set-up disagrees
	novel float64 // the log-likelihood under the per-square prior
}

// recognisedPrior returns the prior for the opponent's set-up given what its
// pieces showed about their start squares: base mixed with the published
// set-ups of idx that agree with it. It returns base when nothing was shown.
func (k *knowledge) recognisedPrior(base *setupPrior, idx *setupIndex) *setupPrior {
	shown := k.shownSquares(base)
	if len(shown) == 0 {
		return base
	}
	// The set-ups' log-likelihoods, giving up on one once it falls far below
	// the best so far: most fail on their first few squares.
	logL := make([]float64, len(idx.cells))
	best := math.Inf(-1)
	for i := range idx.cells {
		c := &idx.cells[i]
		l := idx.weight[i]
		for j := range shown {
			l += shown[j].logP[c[shown[j].cell]]
			if l < best-setupCutoff {
				break
			}
		}
		logL[i] = l
		best = max(best, l)
	}
	var total, count float64
	var agree [setupSpace][game.NumRanks]float64
	for i, l := range logL {
		count += math.Exp(idx.weight[i])
		if l < best-setupCutoff {
			continue
		}
		w := math.Exp(l - best)
		total += w
		for cell, r := range idx.cells[i] {
			agree[cell][r] += w
		}
	}
	// How well each explanation explains what was shown: the published one
	// as the average over the set-ups by how often they were chosen.
	novel := 0.0
	for _, s := range shown {
		novel += s.novel
	}
	published := best + math.Log(total/count)
	share := 1 / (1 + ownSetupOdds/(1-ownSetupOdds)*math.Exp(novel-published))
	out := new(setupPrior)
	for row := range out {
		for col := range out[row] {
			cell := row*10 + col
			for r := range out[row][col] {
				out[row][col][r] = share*agree[cell][r]/total + (1-share)*base[row][col][r]
			}
		}
	}
	return out
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
		s := shownSquare{cell: row*10 + col}
		if r != game.NoRank {
			s.novel = math.Log(max(p[r], 1e-6))
			s.miss = math.Log(max(setupSlip*p[r], 1e-9))
			for x := range s.logP {
				s.logP[x] = s.miss
			}
			s.logP[r] = math.Log(setupSlip*p[r] + 1 - setupSlip)
		} else {
			movable := max(1-p[game.Bomb]-p[game.Flag], 1e-6)
			s.novel = math.Log(movable)
			s.miss = math.Log(setupSlip * movable)
			for x := range s.logP {
				s.logP[x] = s.miss
				if game.Rank(x).Movable() {
					s.logP[x] = math.Log(setupSlip*movable + 1 - setupSlip)
				}
			}
		}
		shown = append(shown, s)
	}
	slices.SortStableFunc(shown, func(a, b shownSquare) int { return cmp.Compare(a.miss, b.miss) })
	return shown
}
