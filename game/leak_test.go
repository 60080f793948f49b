package game_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestViewHidesUnknownRanks is the leak property: shuffling the still-hidden
// pieces of one side among themselves (keeping what the opponent has seen of
// each: moved, known Scout) leaves the opponent's view, the public view, the
// opponent's legal moves and every refusal reason unchanged.
func TestViewHidesUnknownRanks(t *testing.T) {
	variants := []game.Rules{game.DefaultRules(game.VariantClassic), game.DefaultRules(game.VariantBarrage), game.DefaultRules(game.VariantDuel), game.DefaultRules(game.VariantInfiltrator)}
	for vi, rules := range variants {
		for seed := uint64(1); seed <= 25; seed++ {
			g := gametest.Game(t, rules, seed*7+uint64(vi), int(seed*13), nil)
			r := rand.New(rand.NewPCG(seed, 99))
			for _, hidden := range []game.Side{game.Red, game.Blue} {
				shuffled := gametest.ShuffleHidden(t, g, hidden, r.Uint64())
				observer := game.ViewerOf(hidden.Opponent())
				for _, viewer := range []game.Viewer{observer, game.PublicViewer} {
					if a, b := g.View(viewer), shuffled.View(viewer); !reflect.DeepEqual(a, b) {
						t.Fatalf("%v seed %d: shuffling %v's hidden pieces changed the %v view", rules.Variant, seed, hidden, viewer)
					}
				}
				if g.ToMove() == hidden.Opponent() && !g.Result().Over() {
					if a, b := g.LegalMoves(), shuffled.LegalMoves(); !reflect.DeepEqual(a, b) {
						t.Fatalf("%v seed %d: the legal moves of %v depend on %v's hidden ranks", rules.Variant, seed, hidden.Opponent(), hidden)
					}
					for a := game.Square(0); a < game.NumSquares; a += 3 {
						for b := game.Square(0); b < game.NumSquares; b++ {
							m := game.Move{From: a, To: b}
							// The whole refusal, its Text too: its translations are made of it.
							if e1, e2 := g.Check(m), shuffled.Check(m); !reflect.DeepEqual(e1, e2) {
								t.Fatalf("%v: the reason %q (%#v) became %q (%#v) after a shuffle", m, errText(e1), e1, errText(e2), e2)
							}
						}
					}
				}
			}
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestInfiltrationRefusalsHideRanks: wherever an Infiltrator of the side to
// move stands in the enemy's set-up zone, every infiltration it may attempt
// (any target square, any guess) is accepted or refused with the same reason
// whatever the ranks of the opponent's hidden pieces: a refusal speaks of the
// squares, never of the piece on the target or in the way.
func TestInfiltrationRefusalsHideRanks(t *testing.T) {
	rules := game.DefaultRules(game.VariantInfiltrator)
	positions, beside := 0, 0
	for seed := uint64(1); seed <= 150; seed++ {
		r := rand.New(rand.NewPCG(seed, 3))
		gametest.Game(t, rules, seed, 1500, func(g *game.Game) bool {
			side := g.ToMove()
			var infiltrators []game.Square
			for s := game.Square(0); s < game.NumSquares; s++ {
				if who, rank, ok := g.PieceAt(s); ok && who == side && rank == game.Infiltrator && game.InZone(side.Opponent(), s) {
					infiltrators = append(infiltrators, s)
				}
			}
			if len(infiltrators) == 0 || g.Result().Over() {
				return true
			}
			shuffled := gametest.ShuffleHidden(t, g, side.Opponent(), r.Uint64())
			positions++
			for _, from := range infiltrators {
				for to := game.Square(0); to < game.NumSquares; to++ {
					if _, a, ok := g.PieceAt(to); ok {
						if _, b, _ := shuffled.PieceAt(to); a != b && near(from, to) {
							beside++ // a target whose rank the shuffle changed
						}
					}
					for _, guess := range game.Ranks {
						m := game.Move{From: from, To: to, Guess: guess}
						if e1, e2 := g.Check(m), shuffled.Check(m); !reflect.DeepEqual(e1, e2) {
							t.Fatalf("seed %d ply %d: the infiltration %v was answered %q, and %q after a shuffle of %v's hidden pieces", seed, g.Ply(), m, errText(e1), errText(e2), side.Opponent())
						}
					}
				}
			}
			return true
		})
	}
	t.Logf("%d positions with an Infiltrator in the enemy zone; %d targets within two squares whose rank the shuffle changed", positions, beside)
	if positions < 100 || beside < 50 {
		t.Fatalf("only %d positions and %d changed targets near an Infiltrator: the test proves little", positions, beside)
	}
}

// near reports whether b is one or two squares from a in a straight line.
func near(a, b game.Square) bool {
	dc, dr := a.Col()-b.Col(), a.Row()-b.Row()
	return (dc == 0 && dr != 0 && dr >= -2 && dr <= 2) || (dr == 0 && dc != 0 && dc >= -2 && dc <= 2)
}
