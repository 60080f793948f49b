package game

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzParseMove: any text gives a move or a clear error, never a panic; a
// parsed move formats to text that parses back to the same move.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"B4-B5", "b4xb5", "b4 b5", "B4 x B5", "E8~E10=F", "a10a9", "j1 to j2", "E8~E9=Marshal", "", "~=", "B10~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, n := range []Numbering{NumberingModern, NumberingClassic} {
			m, err := ParseMove(text, n)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error")
				}
				continue
			}
			if !m.From.Valid() || !m.To.Valid() {
				t.Fatalf("%q parsed to off-board squares %v", text, m)
			}
			back, err := ParseMove(m.String(), NumberingModern)
			if err != nil || back != m {
				t.Fatalf("%q -> %v -> %q -> %v, %v", text, m, m.String(), back, err)
			}
		}
	})
}

// FuzzGame plays moves chosen by the fuzzer, legal and illegal, and checks
// after each that the game's bookkeeping is consistent.
func FuzzGame(f *testing.F) {
	f.Add(uint64(1), uint8(0), []byte{0, 1, 2, 3, 200, 17, 99})
	f.Add(uint64(2), uint8(3), []byte("infiltrate the flag"))
	f.Fuzz(func(t *testing.T, seed uint64, variant uint8, script []byte) {
		rules := DefaultRules(Variants[int(variant)%4])
		r := rand.New(rand.NewPCG(seed, 1))
		g, err := NewGame(rules, shuffledSetup(rules, r), shuffledSetup(rules, r))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(script) && !g.Result().Over(); i += 2 {
			legal := g.LegalMoves()
			var m Move
			if script[i]%4 == 0 {
				// An arbitrary, probably illegal, attempt.
				m = Move{From: Square(script[i+1] % NumSquares), To: Square((int(script[i]) + int(script[i+1])*7) % NumSquares)}
				if script[i+1]%5 == 0 {
					m.Guess = Rank(script[i] % uint8(NumRanks))
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
			if err != nil && !errors.Is(err, ErrIllegalMove) {
				t.Fatalf("%v: unexpected error %v", m, err)
			}
			if err != nil && strings.TrimSpace(err.Error()) == "" {
				t.Fatal("empty reason")
			}
			checkConsistent(t, g)
		}
	})
}

// checkConsistent recomputes the derived state of a game from its pieces.
func checkConsistent(t *testing.T, g *Game) {
	t.Helper()
	var movable [2]int
	var hash uint64
	for id, p := range g.pieces {
		if p.sq == NoSquare {
			continue
		}
		if int(g.board[p.sq]) != id+1 {
			t.Fatalf("piece %d thinks it is on %v, the board disagrees", id, p.sq)
		}
		hash ^= zobrist(id, p.sq)
		if p.rank.Movable() {
			movable[pieceSide(id)]++
		}
	}
	for s, c := range g.board {
		if c != 0 && c != cellLake && g.pieces[c-1].sq != Square(s) {
			t.Fatalf("square %v holds piece %d, which is elsewhere", Square(s), c-1)
		}
	}
	if movable != g.movable || hash != g.hash {
		t.Fatalf("derived state drifted: movable %v vs %v, hash %x vs %x", movable, g.movable, hash, g.hash)
	}
}
