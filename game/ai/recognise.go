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
// evidence: the opponent took a published set-up, perhaps changing a few of
// its squares (see copies.go), or made one of their own, drawn from the
// per-square prior. Its prior for the hidden pieces is then the mixture of
// the agreeing set-ups and the per-square prior, each by how well it
// explains what was shown. A set-up of one's own that happens to share a few
// squares with a published one soon tells itself apart, as every square that
// disagrees costs the published explanation dearly.

// setupSpace is the number of squares of a set-up, front row first.
const setupSpace = game.SetupRows * 10

// setupIndex holds the published set-ups of one army, each distinct set-up
// and its mirror image once (players use both), with the log of how many
// players chose it, and how many choices there were in all, and how the
// player weighs them against a set-up of the opponent's own.
type setupIndex struct {
	cells  [][setupSpace]game.Rank
	weight []float64
	chosen float64
	recognitionSettings
}

// recognitionSettings are how the player weighs an army's published set-ups
// against a set-up of the opponent's own.
type recognitionSettings struct {
	// own is the chance, before anything is shown, that the opponent made
	// a set-up of their own rather than took a published one.
	own float64
	// keepFloor keeps the per-square prior's whole floor (see believe)
	// however much of the prior the recognised set-ups make.
	keepFloor bool
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
func publishedIndex(v game.Variant, settings recognitionSettings) func() *setupIndex {
	return sync.OnceValue(func() *setupIndex {
		setups, err := game.PublishedSetups(v)
		if err != nil || len(setups) == 0 {
			return nil
		}
		idx := newSetupIndex(setups)
		idx.recognitionSettings = settings
		return idx
	})
}

// classicIndex and barrageIndex are the published set-ups of the two
// variants people played on Gravon: 64,920 Classic ones and 3,944 Barrage
// ones. Duel and Infiltrator have none.
//
// Classic takes a set-up of one's own and a published one at even odds.
// Barrage takes a published one at 9 to 1, and keeps the per-square prior's
// whole floor: scored on all the Gravon archive's Barrage games at plies
// 20, 50 and 100 (docs/COMPUTER.md, beliefs), the beliefs then read
// people's unpublished set-ups within 0.01 of the per-square prior and
// behaviour model at each ply, and keep three quarters of recognition's
// gain over all set-ups. Even odds read unpublished set-ups as well but
// keep only a third of the gain; 19 to 1 reads them 0.013 worse at ply 50,
// and a floor that shrinks as in Classic 0.021 worse.
var (
	classicIndex = publishedIndex(game.VariantClassic, recognitionSettings{own: 0.5})
	barrageIndex = publishedIndex(game.VariantBarrage, recognitionSettings{own: 0.1, keepFloor: true})
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
	// setupCutoff is how far (in log-likelihood) below the best a published
	// set-up may fall before it no longer counts.
	setupCutoff = 16
)

// shownSquare is what one of the opponent's start squares has shown: the
// ranks a set-up may have put there to show it, and (read for the layouts of
// Bombs and Flag only, see layouts.go) for each slip and rank the
// log-likelihood of what was shown if a layout put that rank there.
type shownSquare struct {
	cell  int
	logP  [len(setupSlips)][game.NumRanks]float64
	novel float64 // the log-likelihood under the per-square prior
	// fits has a bit for each rank a set-up may have put there to show
	// it; strong: it showed a rank, not only that it moved (see
	// matchCopies).
	fits   uint16
	strong bool
}

// recognisedPrior returns the prior for the opponent's set-up given what its
// pieces showed about their start squares: own (the prior of a set-up of the
// opponent's own) mixed with the published set-ups of idx that agree with
// what was shown, and the share of the mixture those make. What was shown is
// weighed against base, the per-square prior. It returns own and 0 when
// nothing was shown.
func (k *knowledge) recognisedPrior(base, own *setupPrior, idx *setupIndex) (*setupPrior, float64) {
	m, ok := idx.matchCopies(k.shownSquares(base, exactRank))
	if !ok {
		return own, 0
	}
	out := new(setupPrior)
	for row := range out {
		for col := range out[row] {
			cell := row*10 + col
			for r := range out[row][col] {
				listed := (1-m.slip)*m.agree[cell][r] + m.slip*own[row][col][r]
				out[row][col][r] = m.share*listed + (1-m.share)*own[row][col][r]
			}
		}
	}
	return out, m.share
}

// setupMatch is how the set-ups of an index explain what was shown.
type setupMatch struct {
	// agree is, for every cell, how often the set-ups put each rank there,
	// each weighed by how well it explains what was shown (summing to 1).
	agree [setupSpace][game.NumRanks]float64
	// share is the chance that the opponent took one of the set-ups rather
	// than made one of their own; slip the chance that a square of a taken
	// set-up holds something else after all.
	share, slip float64
}

// grain is how finely shownSquares reads what was shown.
type grain uint8

const (
	// exactRank reads ranks, as a set-up holds them.
	exactRank grain = iota
	// bombsAndFlag reads only Bomb, Flag, or a piece that moves (NoRank),
	// as a layout holds them (see layouts.go).
	bombsAndFlag
)

// shownSquares lists the opponent's start squares whose pieces showed a rank
// or moved, read at grain g, the most telling first: the rarer under the
// per-square prior what a square showed, the sooner a set-up that disagrees
// there is given up.
func (k *knowledge) shownSquares(base *setupPrior, g grain) []shownSquare {
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
		// odds is the per-square prior's chance of what was shown, given
		// that a piece stood there, as the board shows from the start
		// (Barrage's zone is mostly empty, Classic's full): a published
		// set-up that agrees has a piece there too. Without the given,
		// every shown square counted the chance of a piece there against
		// a set-up of one's own, and Barrage's beliefs took people's own
		// set-ups for published ones. fits says which ranks a set-up may
		// have put there to show it. A piece that moved was no Bomb or
		// Flag.
		occupied := max(1-p[game.NoRank], 1e-6)
		odds := max((1-p[game.Bomb]-p[game.Flag]-p[game.NoRank])/occupied, 1e-6)
		fits := game.Rank.Movable
		switch {
		case g == bombsAndFlag && (r == game.NoRank || r.Movable()):
			fits = func(x game.Rank) bool { return x == game.NoRank }
		case r != game.NoRank:
			odds = max(p[r]/occupied, 1e-6)
			fits = func(x game.Rank) bool { return x == r }
		}
		sq := shownSquare{cell: row*10 + col, novel: math.Log(odds), fits: rankBits(fits)}
		if g == bombsAndFlag {
			sq.slipLogP(odds, fits)
		} else {
			sq.strong = r != game.NoRank
		}
		shown = append(shown, sq)
	}
	slices.SortStableFunc(shown, func(a, b shownSquare) int { return cmp.Compare(a.novel, b.novel) })
	return shown
}

// slipLogP fills in sq.logP, odds being the per-square prior's chance of
// what was shown and fits the ranks a layout may have put there to show it.
func (sq *shownSquare) slipLogP(odds float64, fits func(game.Rank) bool) {
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
}
