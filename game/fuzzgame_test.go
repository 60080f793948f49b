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
// after each that the game's bookkeeping is consistent.
func FuzzGame(f *testing.F) {
	f.Add(uint64(1), uint8(0), []byte{0, 1, 2, 3, 200, 17, 99})
	f.Add(uint64(2), uint8(3), []byte("infiltrate the flag"))
	f.Fuzz(func(t *testing.T, seed uint64, variant uint8, script []byte) {
		rules := game.DefaultRules(game.Variants[int(variant)%4])
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
