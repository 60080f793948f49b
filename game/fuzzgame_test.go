package game_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// FuzzGame plays moves chosen by the fuzzer, legal and illegal, and checks
// after each that the game's bookkeeping is consistent. The byte variant
// picks the rules: its low three bits a variant (Custom with a small army
// that has an Infiltrator), the next ones the options (Two-Squares 3, 5 or
// off, More-Squares off, Scouts striking only next to them); 0 to 4 are the
// variants with their default options.
func FuzzGame(f *testing.F) {
	f.Add(uint64(1), uint8(0), []byte{0, 1, 2, 3, 200, 17, 99})
	f.Add(uint64(2), uint8(3), []byte("infiltrate the flag"))
	f.Add(uint64(3), uint8(4|2<<3|1<<5|1<<6), []byte("a custom army, every option off"))
	f.Fuzz(func(t *testing.T, seed uint64, variant uint8, script []byte) {
		rules := game.DefaultRules(game.Variants[int(variant&7)%len(game.Variants)])
		if rules.Variant == game.VariantCustom {
			rules = gametest.CustomRules(t, "10 9 3 2 2 S I B B F")
		}
		rules.TwoSquares = [4]int{3, 5, 0, 3}[variant>>3&3]
		rules.MoreSquares = variant&(1<<5) == 0
		rules.ScoutStrikesAtRange = variant&(1<<6) == 0
		r := rand.New(rand.NewPCG(seed, 1))
		g, err := game.NewGame(rules, gametest.Setup(rules, r), gametest.Setup(rules, r))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(script) && !g.Result().Over(); i += 2 {
			legal := g.LegalMoves()
			var m game.Move
			if script[i]%4 == 0 {
				// An arbitrary, probably illegal, attempt.
				m = game.Move{From: game.Square(script[i+1] % game.NumSquares), To: game.Square((int(script[i]) + int(script[i+1])*7) % game.NumSquares)}
				if script[i+1]%5 == 0 {
					m.Guess = game.Rank(script[i] % uint8(game.NumRanks))
				}
			} else {
				m = legal[int(script[i+1])%len(legal)]
			}
			_, err := g.Apply(m)
			isLegal := false
			for _, l := range legal {
				isLegal = isLegal || l == m
			}
			if (err == nil) != isLegal {
				t.Fatalf("%v: Apply says %v, legal list says %v", m, err, isLegal)
			}
			if err != nil && !errors.Is(err, game.ErrIllegalMove) {
				t.Fatalf("%v: unexpected error %v", m, err)
			}
			if err != nil && strings.TrimSpace(err.Error()) == "" {
				t.Fatal("empty reason")
			}
			game.CheckConsistent(t, g)
		}
	})
}
