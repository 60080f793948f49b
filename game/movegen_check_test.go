package game_test

import (
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestMoveGenerationAgreesWithCheck compares the generated moves with Check
// on every pair of squares in many random positions, with each option on and off.
func TestMoveGenerationAgreesWithCheck(t *testing.T) {
	variants := []game.Rules{game.DefaultRules(game.VariantClassic), game.DefaultRules(game.VariantBarrage), game.DefaultRules(game.VariantInfiltrator), game.DefaultRules(game.VariantDuel)}
	loose := game.DefaultRules(game.VariantClassic)
	loose.ScoutStrikesAtRange, loose.TwoSquares, loose.MoreSquares = false, 0, false
	five := game.DefaultRules(game.VariantClassic)
	five.TwoSquares = 5
	// A Custom army with an Infiltrator and without most ranks: a guess of
	// any piece type is legal, of a missing rank too.
	variants = append(variants, loose, five, gametest.CustomRules(t, "10 3 2 2 S I B B F"))
	for vi, rules := range variants {
		for seed := uint64(0); seed < 12; seed++ {
			g := gametest.Game(t, rules, seed*31+uint64(vi), int(seed*37), nil)
			legal := map[game.Move]bool{}
			for _, m := range g.LegalMoves() {
				if legal[m] {
					t.Fatalf("%v seed %d: %v generated twice", rules.Variant, seed, m)
				}
				legal[m] = true
			}
			for a := game.Square(0); a < game.NumSquares; a++ {
				for b := game.Square(0); b < game.NumSquares; b++ {
					m := game.Move{From: a, To: b}
					if err := g.Check(m); (err == nil) != legal[m] {
						t.Fatalf("%v seed %d ply %d: %v: Check says %v, generated %v", rules.Variant, seed, g.Ply(), m, err, legal[m])
					}
					if rules.Army[game.Infiltrator] == 0 {
						continue
					}
					for _, guess := range game.Ranks {
						m.Guess = guess
						if err := g.Check(m); (err == nil) != legal[m] {
							t.Fatalf("%v seed %d: %v: Check says %v, generated %v", rules.Variant, seed, m, err, legal[m])
						}
					}
				}
			}
			var from []game.Move
			for s := game.Square(0); s < game.NumSquares; s++ {
				from = g.AppendLegalMovesFrom(from, s)
			}
			if len(from) != len(legal) {
				t.Fatalf("per-square generation found %d moves, full generation %d", len(from), len(legal))
			}
		}
	}
}
