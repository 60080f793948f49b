package ai

import (
	"math"

	"github.com/strategobot/strategobot/game"
)

// A player who takes a published set-up may change a few of its squares.
// Which squares they changed is what the beliefs must not be sure of: the
// published set-ups that explain what was shown best are those that agree
// with every shown square, so the squares changed hide among those not shown
// yet. Weighing each square apart, as if any square changed with the same
// chance whatever was shown, made the beliefs sure of pieces that were not
// what the set-up said (of people's set-ups that are not published, one in
// ten pieces believed at 0.95 or more was something else).
//
// So a published set-up explains what was shown with some number d of
// changed squares: every shown square that disagrees is one of them, and the
// others lie among the squares whose pieces have shown nothing that tells a
// change (not shown, or only moved), each alike. A changed square holds what
// the per-square prior puts there. A square that has shown nothing is then
// changed with the chance (d less the disagreeing ones) over those squares:
// for a given d, the fewer are left, the likelier each is one of the
// changes, while the more squares agree, the likelier a small d is.

// maxChanged is the most squares a player is taken to change in a published
// set-up; a set-up farther from every published one is their own.
const maxChanged = 12

// copyOdds[d] is the chance, before anything is shown, that an opponent who
// took a published set-up changed d of its squares (0: as published). Among
// people's Classic set-ups on Gravon that were not as published, the nearest
// published set-up was 2 to 12 squares away for 40% (a swap changes two):
// 172, 76, 98, 66, 70, 44, 62, 43, 35, 31 and 37 of 6,772 sides at 2 to 12
// squares, in the months the behaviour model is fitted on (the others were
// 13 to 27 squares away: their own). Of the copies, copyExact are taken as
// published: a member of a Discord server sets up by hand or with the Random
// button, and one who copies a set-up has seldom the collection at hand.
var copyOdds = func() [maxChanged + 1]float64 {
	changed := [maxChanged + 1]float64{2: 172, 3: 76, 4: 98, 5: 66, 6: 70, 7: 44, 8: 62, 9: 43, 10: 35, 11: 31, 12: 37}
	total := 0.0
	for _, n := range changed {
		total += n
	}
	var odds [maxChanged + 1]float64
	odds[0] = copyExact
	for d, n := range changed {
		odds[d] += (1 - copyExact) * n / total
	}
	return odds
}()

// copyExact is the share of the copies of a published set-up taken as
// published. With it the beliefs were sure (0.95 or more) of 3,281 pieces of
// people's unpublished set-ups in the held-out months and right about 94%
// of them; weighing each square apart they were sure of 10,743 and right
// about 90% (docs/COMPUTER.md, beliefs).
const copyExact = 0.05

// copyFit is, for every number of free squares (those that may hide a
// change: setupSpace less the squares that showed a rank and agree, less the
// disagreeing squares that only moved) and of disagreeing squares k, the log
// of the chance that a published set-up with that many changed squares
// explains what was shown (without the per-square prior's chance of what the
// disagreeing squares showed), and the chance that a free square is one of
// the changes.
type copyFit struct {
	logF  [setupSpace + 1][maxChanged + 1]float64
	slip  [setupSpace + 1][maxChanged + 1]float64
	bound [setupSpace + 1][maxChanged + 1]float64 // the most logF of this many free squares or fewer, k or more
}

// copyFits is worked out once.
var copyFits = func() *copyFit {
	f := new(copyFit)
	for free := 0; free <= setupSpace; free++ {
		for k := 0; k <= maxChanged; k++ {
			var p, slip float64
			for d := k; d <= maxChanged; d++ {
				// The d−k other changes among the free squares, of all
				// the ways to choose d squares of the set-up.
				x := copyOdds[d] * binomial(free, d-k) / binomial(setupSpace, d)
				p += x
				if free > 0 {
					slip += x * float64(d-k) / float64(free)
				}
			}
			f.logF[free][k] = math.Log(p)
			if p > 0 {
				f.slip[free][k] = slip / p
			}
		}
	}
	for free := 0; free <= setupSpace; free++ {
		for k := maxChanged; k >= 0; k-- {
			b := f.logF[free][k]
			if k < maxChanged {
				b = max(b, f.bound[free][k+1])
			}
			if free > 0 {
				b = max(b, f.bound[free-1][k])
			}
			f.bound[free][k] = b
		}
	}
	return f
}()

// binomial is n choose k, 0 outside 0 ≤ k ≤ n.
func binomial(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	x := 1.0
	for i := range k {
		x = x * float64(n-i) / float64(i+1)
	}
	return x
}

// copyCandidate is a published set-up (by its index) that explains what was
// shown: its log-likelihood and the chance that a free square was changed.
type copyCandidate struct {
	i    int
	l    float64
	slip float64
}

// matchCopies weighs the set-ups of idx as copies with changed squares (see
// copyOdds) by how well each explains shown, and the two explanations (a
// copy of a set-up of idx, or one of the opponent's own, drawn from the
// per-square prior) by how well each explains it. It reports false when
// nothing was shown.
func (idx *setupIndex) matchCopies(shown []shownSquare) (*setupMatch, bool) {
	if len(shown) == 0 {
		return nil, false
	}
	f := copyFits
	strong := 0 // squares that showed a rank
	for j := range shown {
		if shown[j].strong {
			strong++
		}
	}
	var kept []copyCandidate
	best := math.Inf(-1)
	for i := range idx.cells {
		c := &idx.cells[i]
		l := idx.weight[i]
		k, free := 0, setupSpace-strong
		out := false
		for j := range shown {
			s := &shown[j]
			if s.fits&(1<<c[s.cell]) != 0 {
				continue
			}
			// It disagrees: one of the changed squares.
			k++
			if !s.strong {
				free--
			}
			l += s.novel
			if k > maxChanged || l+f.bound[free][k] < best-setupCutoff {
				out = true
				break
			}
		}
		if out {
			continue
		}
		if x := l + f.logF[free][k]; x >= best-setupCutoff {
			kept = append(kept, copyCandidate{i: i, l: x, slip: f.slip[free][k]})
			best = max(best, x)
		}
	}
	m := new(setupMatch)
	var total, taken, slips float64
	for _, c := range kept {
		if c.l < best-setupCutoff {
			continue
		}
		w := math.Exp(c.l - best)
		total += w
		slips += w * c.slip
		keep := w * (1 - c.slip) // the share of the set-up's own ranks
		taken += keep
		for cell, r := range idx.cells[c.i] {
			m.agree[cell][r] += keep
		}
	}
	if taken > 0 {
		for cell := range m.agree {
			for r := range m.agree[cell] {
				m.agree[cell][r] /= taken
			}
		}
	}
	if total == 0 {
		return m, true // no published set-up explains it: share 0
	}
	novel := 0.0
	for _, s := range shown {
		novel += s.novel
	}
	// copyOdds are in the candidates' likelihoods: listed is the chance of
	// what was shown if the opponent took a published set-up.
	listed := best + math.Log(total/idx.chosen)
	m.share = 1 / (1 + idx.own/(1-idx.own)*math.Exp(novel-listed))
	m.slip = slips / total
	return m, true
}

// rankBits is the set of ranks for which fits holds, one bit a rank.
func rankBits(fits func(game.Rank) bool) uint16 {
	var b uint16
	for r := range game.NumRanks {
		if fits(game.Rank(r)) {
			b |= 1 << r
		}
	}
	return b
}
