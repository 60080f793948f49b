package beliefs

import (
	"fmt"
	"io"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/lab/records"
)

// Calibration is how the chance of a Bomb a model gave the hidden pieces
// that never moved, at the moments a player attacked one, compares with
// what the pieces were: the attacks by tenths of that chance. Were the model
// calibrated, the Bombs in each tenth would be about the chances summed.
type Calibration struct {
	Attacks, Bombs, Flags [10]int
	Chance                [10]float64 // the chances of a Bomb summed
}

func (c *Calibration) add(o Calibration) {
	for i := range c.Attacks {
		c.Attacks[i] += o.Attacks[i]
		c.Bombs[i] += o.Bombs[i]
		c.Flags[i] += o.Flags[i]
		c.Chance[i] += o.Chance[i]
	}
}

// calibrateRecord replays rec and, at every attack on a hidden piece that
// never moved of a side whose pieces sel keeps, tallies the chance of a Bomb
// each model gave it from the attacker's view against what the piece was.
func calibrateRecord(rec *game.Record, models []Model, sel selection) ([]Calibration, error) {
	out := make([]Calibration, len(models))
	g, err := game.NewGame(records.ReplayRules(rec), rec.Setups[game.Red], rec.Setups[game.Blue])
	if err != nil {
		return out, fmt.Errorf("setting up: %w", err)
	}
	for ply, m := range rec.Moves {
		side := g.ToMove()
		_, target, occupied := g.PieceAt(m.To)
		if occupied && sel.wanted(rec, side.Opponent()) {
			for i, model := range models {
				bs, err := ai.Beliefs(g.View(game.ViewerOf(side)), model.Opt)
				if err != nil {
					return out, fmt.Errorf("ply %d: %w", ply+1, err)
				}
				for _, b := range bs {
					if b.Square != m.To || b.Moved {
						continue
					}
					bin := min(int(b.P[game.Bomb]*10), 9)
					out[i].Attacks[bin]++
					out[i].Chance[bin] += b.P[game.Bomb]
					switch target {
					case game.Bomb:
						out[i].Bombs[bin]++
					case game.Flag:
						out[i].Flags[bin]++
					}
				}
			}
		}
		if _, err := g.Apply(m); err != nil {
			return out, fmt.Errorf("ply %d: %w", ply+1, err)
		}
	}
	return out, nil
}

// printCalibration writes each model's calibration as a table.
func printCalibration(w io.Writer, models []Model, total []Calibration) {
	for i, m := range models {
		c := &total[i]
		attacks, bombs, flags, chance := 0, 0, 0, 0.0
		for b := range c.Attacks {
			attacks += c.Attacks[b]
			bombs += c.Bombs[b]
			flags += c.Flags[b]
			chance += c.Chance[b]
		}
		fmt.Fprintf(w, "%s: %d attacks, Bombs expected %.1f, were %d (and %d Flags)\n", m.Name, attacks, chance, bombs, flags)
		fmt.Fprintf(w, "  %-11s %8s %9s %6s\n", "P(Bomb)", "attacks", "expected", "Bombs")
		for b := range c.Attacks {
			if c.Attacks[b] == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-11s %8d %9.1f %6d\n", fmt.Sprintf("%.1f-%.1f", float64(b)/10, float64(b+1)/10), c.Attacks[b], c.Chance[b], c.Bombs[b])
		}
	}
}
