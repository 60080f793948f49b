package game

import (
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
