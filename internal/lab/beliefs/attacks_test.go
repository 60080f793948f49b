package beliefs

import (
	"math"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lab/records"
)

// TestCalibrateRecord: every attack on a hidden piece that never moved is
// tallied once per model, in the tenth its chance of a Bomb falls in, and
// every Bomb first struck is counted a Bomb.
func TestCalibrateRecord(t *testing.T) {
	models, err := pickModels("prior,layouts+fitted")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range classicFiles {
		rec := readTestRecord(t, path)
		// What the record holds, worked out without beliefs: attacks on
		// pieces that had neither moved nor fought, and of them Bombs.
		g, err := game.NewGame(records.ReplayRules(rec), rec.Setups[game.Red], rec.Setups[game.Blue])
		if err != nil {
			t.Fatal(err)
		}
		moved := map[game.Square]bool{} // squares a piece came to or fought on
		attacks, bombs := 0, 0
		for _, m := range rec.Moves {
			if _, r, ok := g.PieceAt(m.To); ok && !moved[m.To] {
				attacks++
				if r == game.Bomb {
					bombs++
				}
			}
			if _, err := g.Apply(m); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			moved[m.To] = true
		}
		cal, err := calibrateRecord(rec, models, selection{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i, m := range models {
			if n, b := checkBins(t, path+", "+m.Name, &cal[i]); n != attacks || b != bombs {
				t.Errorf("%s, %s: %d attacks on still hidden pieces tallied, %d of them Bombs; the record holds %d and %d", path, m.Name, n, b, attacks, bombs)
			}
		}
	}
}

// TestCalibrateMovedAttacks: with -pieces moved, every attack on a hidden
// piece that moved is tallied once per model, in the tenth the attacker's
// chance of winning falls in, and every attack it won is counted won.
func TestCalibrateMovedAttacks(t *testing.T) {
	models, err := pickModels("prior,recog+fitted")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, path := range classicFiles {
		rec := readTestRecord(t, path)
		// What the record holds, read from the attacker's view of the board:
		// attacks on hidden pieces that moved, but not on Scouts shown by a
		// move of more than one square.
		g, err := game.NewGame(records.ReplayRules(rec), rec.Setups[game.Red], rec.Setups[game.Blue])
		if err != nil {
			t.Fatal(err)
		}
		attacks, won := 0, 0
		for _, m := range rec.Moves {
			v := g.View(game.ViewerOf(g.ToMove()))
			if c := v.Board[m.To]; c.Occupied && c.Rank == game.NoRank && c.Moved && !knownScout(t, &v, m.To) {
				attacks++
				_, a, _ := g.PieceAt(m.From)
				_, d, _ := g.PieceAt(m.To)
				if game.Fight(a, d) == game.AttackerWon {
					won++
				}
			}
			if _, err := g.Apply(m); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		total += attacks
		cal, err := calibrateRecord(rec, models, selection{pieces: movedPieces})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i, m := range models {
			if n, w := checkBins(t, path+", "+m.Name, &cal[i]); n != attacks || w != won {
				t.Errorf("%s, %s: %d attacks on moved hidden pieces tallied, %d of them won; the record holds %d and %d", path, m.Name, n, w, attacks, won)
			}
		}
	}
	if total == 0 {
		t.Fatal("the test records hold no attack on a hidden piece that moved")
	}
}

func TestWinChance(t *testing.T) {
	var p [game.NumRanks]float64
	p[game.Scout], p[game.Marshal], p[game.General] = 0.5, 0.3, 0.2
	tests := []struct {
		attacker game.Rank
		want     float64
	}{
		{game.General, 0.5}, // beats the Scout, ties the General
		{game.Spy, 0.3},     // takes only the Marshal
		{game.Marshal, 0.7}, // ties the Marshal
		{game.Scout, 0},     // ties the Scout
	}
	for _, tc := range tests {
		if got := winChance(tc.attacker, &p); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%v attacking: %.3f, want %.3f", tc.attacker, got, tc.want)
		}
	}
}

// knownScout reports whether the hidden piece on sq showed itself a Scout in
// v by a move of more than one square.
func knownScout(t *testing.T, v *game.View, sq game.Square) bool {
	t.Helper()
	tracks, err := v.Tracks()
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range tracks {
		if tr.Square == sq {
			return tr.KnownScout
		}
	}
	return false
}

// checkBins checks that the chances in each tenth of c lie in that tenth,
// and returns the attacks and events tallied.
func checkBins(t *testing.T, what string, c *Calibration) (attacks, events int) {
	t.Helper()
	for bin := range c.Attacks {
		attacks += c.Attacks[bin]
		events += c.Events[bin]
		lo, hi := float64(bin)/10, float64(bin+1)/10
		if x := float64(c.Attacks[bin]); c.Chance[bin] < lo*x-1e-9 || c.Chance[bin] > hi*x+1e-9 {
			t.Errorf("%s: %d attacks in tenth %d hold chances summing to %.3f", what, c.Attacks[bin], bin, c.Chance[bin])
		}
	}
	return attacks, events
}
