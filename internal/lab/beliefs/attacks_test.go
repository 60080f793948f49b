package beliefs

import (
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
			c := &cal[i]
			n, b := 0, 0
			for bin := range c.Attacks {
				n += c.Attacks[bin]
				b += c.Bombs[bin]
				lo, hi := float64(bin)/10, float64(bin+1)/10
				if x := float64(c.Attacks[bin]); c.Chance[bin] < lo*x-1e-9 || c.Chance[bin] > hi*x+1e-9 {
					t.Errorf("%s, %s: %d attacks in tenth %d hold chances summing to %.3f", path, m.Name, c.Attacks[bin], bin, c.Chance[bin])
				}
			}
			if n != attacks || b != bombs {
				t.Errorf("%s, %s: %d attacks on still hidden pieces tallied, %d of them Bombs; the record holds %d and %d", path, m.Name, n, b, attacks, bombs)
			}
		}
	}
}
