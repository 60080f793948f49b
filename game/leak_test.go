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
							if e1, e2 := errText(g.Check(m)), errText(shuffled.Check(m)); e1 != e2 {
								t.Fatalf("%v: the reason %q became %q after a shuffle", m, e1, e2)
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
