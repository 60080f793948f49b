package ai

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
)

// truthWorld is the world of the side to move in g with every hidden rank
// filled in truly, with its knowledge and view.
func truthWorld(t *testing.T, g *game.Game) (*knowledge, *game.View, *world) {
	t.Helper()
	side := g.ToMove()
	v := g.View(game.ViewerOf(side))
	k, err := newKnowledge(&v, countsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var truth [numIDs]game.Rank
	for _, id := range k.unknown {
		_, truth[id], _ = g.PieceAt(k.tracks[id].Square)
	}
	return k, &v, k.world(&truth, side)
}

// referenceMoves is genMoves written plainly: every piece walks each of its
// four lines, stopping at a lake, a piece or the edge, one square unless it
// is a Scout. genMoves must give the same moves in the same order, since
// the order decides which move a search tries first.
func referenceMoves(w *world, known *[numIDs]bool, blindAttacks, capturesOnly bool) []move {
	var dst []move
	side := w.toMove
	lo := int8(int(side) * game.MaxPieces)
	for id := lo; id < lo+game.MaxPieces; id++ {
		from := w.sq[id]
		if from == noSq || !w.rank[id].Movable() {
			continue
		}
		for d := 0; d < 4; d++ {
			first := true
			for to := neighbours[from][d]; to != noSq; to = neighbours[to][d] {
				c := w.board[to]
				if c == lake {
					break
				}
				if c >= 0 {
					if sideOf(c) != side && (first || w.scoutRange) && (blindAttacks || known[c] || w.revealed[c]) {
						dst = append(dst, move{from: from, to: to})
					}
					break
				}
				if !capturesOnly {
					dst = append(dst, move{from: from, to: to})
				}
				if w.rank[id] != game.Scout {
					break
				}
				first = false
			}
		}
	}
	return dst
}

// TestGenMovesMatchesReference plays random games of every variant and, in
// every position, asks for the moves of the side to move in each mode: with
// and without blind attacks, all moves or battles only, Scouts striking at
// range or not.
func TestGenMovesMatchesReference(t *testing.T) {
	for name, rules := range variantRules(t) {
		t.Run(name, func(t *testing.T) {
			for seed := uint64(0); seed < 3; seed++ {
				g := newGame(t, rules, seed)
				r := rand.New(rand.NewPCG(seed, 5))
				for !g.Result().Over() && g.Ply() < 300 {
					_, _, w := truthWorld(t, g)
					var known [numIDs]bool
					for id := range known {
						known[id] = r.IntN(3) == 0
					}
					for _, scoutRange := range []bool{false, true} {
						w.scoutRange = scoutRange
						for _, blind := range []bool{false, true} {
							for _, captures := range []bool{false, true} {
								got := w.genMoves(nil, &known, blind, captures)
								want := referenceMoves(w, &known, blind, captures)
								if !slices.Equal(got, want) {
									t.Fatalf("ply %d, scout range %v, blind %v, battles only %v:\ngot  %v\nwant %v",
										g.Ply(), scoutRange, blind, captures, got, want)
								}
							}
						}
					}
					legal := g.LegalMoves()
					if _, err := g.Apply(legal[r.IntN(len(legal))]); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// TestMoveOrder: the search tries winning battles first, the most valuable
// loser first; then the quiet moves, the killer first and the rest by their
// history; the losing battles last.
func TestMoveOrder(t *testing.T) {
	// The first position of a game between random movers in which the side
	// to move has battles to win and to lose.
	g := newGame(t, game.DefaultRules(game.VariantClassic), 3)
	rg := rand.New(rand.NewPCG(3, 4))
	var w *world
	var s *searcher
	for w == nil {
		if g.Result().Over() {
			t.Fatal("the game ended before a position with every kind of move")
		}
		k, v, cand := truthWorld(t, g)
		s = newSearcher(configs[Hard], k, newEvaluator(k, v, configs[Hard]), time.Time{})
		for id := range s.known {
			s.known[id] = true // every battle counts
		}
		var win, lose bool
		for _, m := range cand.genMoves(nil, &s.known, true, true) {
			o := fightTable[cand.rank[cand.board[m.from]]][cand.rank[cand.board[m.to]]]
			win = win || o != defenderWins
			lose = lose || o == defenderWins
		}
		if win && lose {
			w = cand
			break
		}
		legal := g.LegalMoves()
		if _, err := g.Apply(legal[rg.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	all := w.genMoves(nil, &s.known, true, false)
	r := rand.New(rand.NewPCG(1, 2))
	h := &s.history[w.toMove]
	for _, m := range all {
		h[m.from][m.to] = int32(r.IntN(4)) // few values, so that ties are many
	}
	for _, m := range all[len(all)/2:] {
		if w.board[m.to] == empty {
			s.killers[w.ply&63] = m // a quiet move from the middle of the list
			break
		}
	}
	got := slices.Clone(s.moves(w, false))

	// Each move's group (0 winning battle, 1 quiet, 2 losing battle) and key
	// (higher first within its group).
	groupOf := func(m move) (int, int32) {
		if d := w.board[m.to]; d >= 0 {
			if fightTable[w.rank[w.board[m.from]]][w.rank[d]] == defenderWins {
				return 2, 0
			}
			return 0, s.gain(w, m)
		}
		if m == s.killers[w.ply&63] {
			return 1, 1 << 30
		}
		return 1, h[m.from][m.to]
	}
	if !sameMoves(got, all) {
		t.Fatalf("ordered %v, generated %v", got, all)
	}
	var count [3]int
	for i, m := range got {
		g, key := groupOf(m)
		count[g]++
		if i == 0 {
			continue
		}
		pg, pkey := groupOf(got[i-1])
		if g < pg || (g == pg && key > pkey) {
			t.Errorf("move %d: %v (group %d, key %d) after %v (group %d, key %d)", i, m, g, key, got[i-1], pg, pkey)
		}
	}
	if count[0] == 0 || count[1] == 0 || count[2] == 0 || got[count[0]] != s.killers[w.ply&63] {
		t.Fatalf("%v winning battles, quiet moves and losing battles, the killer %v first of the quiet ones: %v",
			count, s.killers[w.ply&63], got)
	}
}

// sameMoves reports whether a and b hold the same moves in any order.
func sameMoves(a, b []move) bool {
	key := func(m move) int { return int(m.from)<<16 | int(m.to)<<8 | int(m.guess) }
	x, y := make([]int, len(a)), make([]int, len(b))
	for i, m := range a {
		x[i] = key(m)
	}
	for i, m := range b {
		y[i] = key(m)
	}
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}
