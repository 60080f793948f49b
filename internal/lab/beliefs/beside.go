package beliefs

import (
	"fmt"
	"io"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/lab/records"
)

// A hidden piece that moved and stands beside a piece of the side to move
// whose rank its own side knows, a Major or stronger, is the piece that side
// must judge before anything else: take it, step away, or stay. Whether it
// came there with its side's last move or was already there tells apart two
// habits: a player steps next to a known officer with a piece that beats it
// (or to bluff), and leaves a piece beside one that does not attack it.
const (
	besideStayed = iota // it stood there before its side's last move
	besideCame          // it came there with its side's last move
	besideKinds
)

// calibrateBeside replays rec and, at every turn, for every hidden piece
// that moved standing beside a known Major or stronger of the side to move
// (a piece of a side whose pieces sel keeps), tallies the chance each model
// gave from that side's view that the piece beats the officer against
// whether it does: out[model*besideKinds+kind]. A piece beside two officers
// counts against the strongest.
func calibrateBeside(rec *game.Record, models []Model, sel selection) ([]Calibration, error) {
	out := make([]Calibration, len(models)*besideKinds)
	g, err := game.NewGame(records.ReplayRules(rec), rec.Setups[game.Red], rec.Setups[game.Blue])
	if err != nil {
		return out, fmt.Errorf("setting up: %w", err)
	}
	lastTo := game.NoSquare // where the last move went
	for ply, m := range rec.Moves {
		side := g.ToMove()
		if sel.wanted(rec, side.Opponent()) {
			v := g.View(game.ViewerOf(side))
			if err := tallyBeside(g, &v, lastTo, models, out); err != nil {
				return out, fmt.Errorf("ply %d: %w", ply+1, err)
			}
		}
		if _, err := g.Apply(m); err != nil {
			return out, fmt.Errorf("ply %d: %w", ply+1, err)
		}
		lastTo = m.To
	}
	return out, nil
}

// tallyBeside adds the pieces beside a known officer in v, the view of the
// side to move in g, to out.
func tallyBeside(g *game.Game, v *game.View, lastTo game.Square, models []Model, out []Calibration) error {
	side, _ := v.Viewer.IsPlayer()
	var officer [game.NumSquares]game.Rank // the strongest known officer beside each hidden moved enemy piece
	found := false
	for sq := game.Square(0); sq < game.NumSquares; sq++ {
		c := v.Board[sq]
		if !c.Occupied || c.Side != side || !c.Revealed || c.Rank < game.Major || c.Rank > game.Marshal {
			continue
		}
		for _, n := range sq.Neighbours() {
			if n == game.NoSquare {
				continue
			}
			e := v.Board[n]
			if e.Occupied && e.Side != side && e.Rank == game.NoRank && e.Moved && c.Rank > officer[n] {
				officer[n] = c.Rank
				found = true
			}
		}
	}
	if !found {
		return nil
	}
	for i, model := range models {
		bs, err := ai.Beliefs(*v, model.Opt)
		if err != nil {
			return err
		}
		var belief [game.NumSquares]*[game.NumRanks]float64
		for j := range bs {
			if sq := bs[j].Square; sq != game.NoSquare {
				belief[sq] = &bs[j].P
			}
		}
		for sq := game.Square(0); sq < game.NumSquares; sq++ {
			if officer[sq] == game.NoRank {
				continue
			}
			_, truth, _ := g.PieceAt(sq)
			beats := game.Fight(truth, officer[sq]) == game.AttackerWon
			chance := 0.0
			if p := belief[sq]; p != nil {
				chance = beatChance(p, officer[sq])
			} else if beats { // the beliefs know its rank: the counts left name it, or it moved as only a Scout can
				chance = 1
			}
			kind := besideStayed
			if sq == lastTo {
				kind = besideCame
			}
			c := &out[i*besideKinds+kind]
			bin := min(int(chance*10), 9)
			c.Attacks[bin]++
			c.Chance[bin] += chance
			if beats {
				c.Events[bin]++
			}
		}
	}
	return nil
}

// beatChance is the chance that a piece whose ranks have the probabilities
// p beats a piece of rank d when it attacks it (winChance the other way).
func beatChance(p *[game.NumRanks]float64, d game.Rank) float64 {
	won := 0.0
	for r, x := range p {
		if game.Fight(game.Rank(r), d) == game.AttackerWon {
			won += x
		}
	}
	return won
}

// printBeside writes each model's calibration beside known officers, for the
// pieces that came there with their side's last move and those that stood.
func printBeside(w io.Writer, models []Model, total []Calibration) {
	for i, m := range models {
		for kind, name := range [besideKinds]string{besideStayed: "stood there", besideCame: "came there with the last move"} {
			c := &total[i*besideKinds+kind]
			turns, events, _, chance := c.totals()
			fmt.Fprintf(w, "%s, %s: %d turns, beating the officer expected %.1f, were %d\n", m.Name, name, turns, chance, events)
			c.writeTenths(w, "P(beats)", "turns", "beat")
		}
	}
}
