package beliefs

import (
	"fmt"
	"io"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/lab/records"
)

// Calibration is how the chance a model gave a hidden piece, at the moments
// a player attacked one, compares with what the piece was: the attacks by
// tenths of that chance. On pieces that never moved the chance is of a Bomb
// and Events counts the Bombs; on pieces that moved it is of the attacker
// winning, and Events counts the attacks won. Were the model calibrated, the
// events in each tenth would be about the chances summed. Beside a known
// officer (-beside), Attacks counts the turns and Events the pieces that
// beat the officer.
type Calibration struct {
	Attacks, Events, Flags [10]int
	Chance                 [10]float64 // the chances summed
}

func (c *Calibration) add(o Calibration) {
	for i := range c.Attacks {
		c.Attacks[i] += o.Attacks[i]
		c.Events[i] += o.Events[i]
		c.Flags[i] += o.Flags[i]
		c.Chance[i] += o.Chance[i]
	}
}

// calibrateRecord replays rec and, at every attack on a hidden piece of a
// side whose pieces sel keeps, tallies the chance each model gave from the
// attacker's view against what came of it: for a piece that never moved the
// chance of a Bomb, for one that moved (with sel's pieces movedPieces) the
// chance that the attacker wins.
func calibrateRecord(rec *game.Record, models []Model, sel selection) ([]Calibration, error) {
	out := make([]Calibration, len(models))
	g, err := game.NewGame(records.ReplayRules(rec), rec.Setups[game.Red], rec.Setups[game.Blue])
	if err != nil {
		return out, fmt.Errorf("setting up: %w", err)
	}
	moved := sel.pieces == movedPieces
	for ply, m := range rec.Moves {
		side := g.ToMove()
		_, attacker, _ := g.PieceAt(m.From)
		_, target, occupied := g.PieceAt(m.To)
		v := g.View(game.ViewerOf(side))
		if occupied && v.Board[m.To].Rank == game.NoRank && sel.wanted(rec, side.Opponent()) {
			for i, model := range models {
				bs, err := ai.Beliefs(v, model.Opt)
				if err != nil {
					return out, fmt.Errorf("ply %d: %w", ply+1, err)
				}
				for _, b := range bs {
					if b.Square != m.To || b.Moved != moved {
						continue
					}
					chance, event := b.P[game.Bomb], target == game.Bomb
					if moved {
						chance, event = winChance(attacker, &b.P), game.Fight(attacker, target) == game.AttackerWon
					}
					bin := min(int(chance*10), 9)
					out[i].Attacks[bin]++
					out[i].Chance[bin] += chance
					if event {
						out[i].Events[bin]++
					}
					if target == game.Flag {
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

// winChance is the chance that a piece of rank a beats a piece whose ranks
// have the probabilities p.
func winChance(a game.Rank, p *[game.NumRanks]float64) float64 {
	won := 0.0
	for r, x := range p {
		if game.Fight(a, game.Rank(r)) == game.AttackerWon {
			won += x
		}
	}
	return won
}

// totals sums c over its tenths.
func (c *Calibration) totals() (attacks, events, flags int, chance float64) {
	for b := range c.Attacks {
		attacks += c.Attacks[b]
		events += c.Events[b]
		flags += c.Flags[b]
		chance += c.Chance[b]
	}
	return attacks, events, flags, chance
}

// writeTenths writes c's tenths that hold anything as a table whose columns
// are named label (the chance), counted (what Attacks counts) and column
// (what Events counts).
func (c *Calibration) writeTenths(w io.Writer, label, counted, column string) {
	fmt.Fprintf(w, "  %-11s %8s %9s %6s\n", label, counted, "expected", column)
	for b := range c.Attacks {
		if c.Attacks[b] == 0 {
			continue
		}
		fmt.Fprintf(w, "  %-11s %8d %9.1f %6d\n", fmt.Sprintf("%.1f-%.1f", float64(b)/10, float64(b+1)/10), c.Attacks[b], c.Chance[b], c.Events[b])
	}
}

// printCalibration writes each model's calibration as a table: of the
// chance of a Bomb, or with moved of the attacker winning.
func printCalibration(w io.Writer, models []Model, total []Calibration, moved bool) {
	for i, m := range models {
		c := &total[i]
		attacks, events, flags, chance := c.totals()
		label, column := "P(Bomb)", "Bombs"
		if moved {
			label, column = "P(win)", "won"
			fmt.Fprintf(w, "%s: %d attacks, won expected %.1f, were %d\n", m.Name, attacks, chance, events)
		} else {
			fmt.Fprintf(w, "%s: %d attacks, Bombs expected %.1f, were %d (and %d Flags)\n", m.Name, attacks, chance, events, flags)
		}
		c.writeTenths(w, label, "attacks", column)
	}
}
