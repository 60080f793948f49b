package beliefs

import (
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lab/records"
)

// TestCalibrateBeside: the turns counted are the hidden moved pieces beside
// a known officer of the side to move, those that came there with the last
// move apart; the chances are chances, and the pieces that beat the officer
// are those whose rank does.
func TestCalibrateBeside(t *testing.T) {
	recs, _, err := records.Read(classicFiles, game.VariantClassic)
	if err != nil {
		t.Fatal(err)
	}
	models, err := pickModels("prior+fitted")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		got, err := calibrateBeside(r.Record, models, selection{})
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		// Count them again from the enemy's pieces' side, with the truth.
		var want, beat [besideKinds]int
		err = records.Positions(r.Record, everyPly(len(r.Record.Moves)), func(ply int, g *game.Game) error {
			lastTo := game.NoSquare
			if ply > 0 {
				lastTo = r.Record.Moves[ply-1].To
			}
			side := g.ToMove()
			v := g.View(game.ViewerOf(side))
			for sq := game.Square(0); sq < game.NumSquares; sq++ {
				e := v.Board[sq]
				if !e.Occupied || e.Side == side || e.Rank != game.NoRank || !e.Moved {
					continue
				}
				strongest := game.NoRank
				for _, n := range sq.Neighbours() {
					if n == game.NoSquare {
						continue
					}
					if c := v.Board[n]; c.Occupied && c.Side == side && c.Revealed &&
						c.Rank >= game.Major && c.Rank <= game.Marshal && c.Rank > strongest {
						strongest = c.Rank
					}
				}
				if strongest == game.NoRank {
					continue
				}
				kind := besideStayed
				if sq == lastTo {
					kind = besideCame
				}
				want[kind]++
				if _, truth, _ := g.PieceAt(sq); game.Fight(truth, strongest) == game.AttackerWon {
					beat[kind]++
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for kind := range besideKinds {
			c := got[kind]
			turns, events, chance := 0, 0, 0.0
			for b := range c.Attacks {
				turns += c.Attacks[b]
				events += c.Events[b]
				chance += c.Chance[b]
				if c.Chance[b] < float64(c.Attacks[b])*float64(b)/10-1e-9 || c.Chance[b] > float64(c.Attacks[b])*float64(b+1)/10+1e-9 {
					t.Errorf("%s, kind %d: tenth %d holds chances summing to %.3f over %d turns", r.Name, kind, b, c.Chance[b], c.Attacks[b])
				}
			}
			if turns != want[kind] || events != beat[kind] {
				t.Errorf("%s, kind %d: %d turns, %d beat the officer; counted %d and %d", r.Name, kind, turns, events, want[kind], beat[kind])
			}
		}
	}
}

// everyPly lists the plies 0 to n-1: the turns of a game of n moves.
func everyPly(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
