package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/internal/lab/records"
)

const habitsUsage = `usage: strategolab habits [-variant V] RECORD...

Tells how the players of Gravon records (zip archives or XML files) use
their pieces: at plies 50, 100 and 200, for every side of a game that got
that far, the pieces it has moved that the other side has not seen fight,
its pieces that can move but never did, and the attacks it has made. Run
on people's games it is the yardstick for the same figures of an arena's
players (strategolab compare -battles).

Flags:
`

// habitPlies are the plies at which habits counts.
var habitPlies = [...]int{50, 100, 200}

// habitTally sums, by ply of habitPlies, over the sides of the games that
// reached it.
type habitTally struct {
	sides   [len(habitPlies)]int
	unseen  [len(habitPlies)]int // moved pieces the other side has not seen fight
	still   [len(habitPlies)]int // pieces that can move and never did, not seen
	attacks [len(habitPlies)]int // attacks made so far
}

func habitsFlags(variant *string, stderr io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("habits", habitsUsage, stderr)
	fs.StringVar(variant, "variant", "classic", "the variant of the records to read (others are skipped)")
	return fs
}

func runHabits(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var variantName string
	files, err := cli.ParseInterleaved(habitsFlags(&variantName, stderr), args)
	if err == nil {
		err = atLeastOneRecord(len(files))
	}
	if err != nil {
		return cli.UsageFailed(stderr, "strategolab habits", habitsUsage, err)
	}
	variant, err := game.ParseVariant(variantName)
	if err != nil {
		return cli.UsageFailed(stderr, "strategolab habits", habitsUsage, err)
	}
	recs, skipped, err := records.Read(files, variant)
	if err != nil {
		fmt.Fprintln(stderr, "strategolab habits:", err)
		return 1
	}
	var t habitTally
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			fmt.Fprintln(stderr, "strategolab habits:", err)
			return 1
		}
		if err := t.add(r.Record); err != nil {
			fmt.Fprintf(stderr, "strategolab habits: %s: %v\n", r.Name, err)
			return 1
		}
	}
	if t.sides[0] == 0 {
		fmt.Fprintf(stderr, "strategolab habits: no game of %d reached ply %d (skipped: %v)\n", len(recs), habitPlies[0], skipped)
		return 1
	}
	fmt.Fprintf(stdout, "%d %s games, a side:\n", len(recs), variant)
	fmt.Fprintf(stdout, "  %-5s %6s %22s %22s %16s\n", "ply", "sides", "moved, not seen fight", "can move, never moved", "attacks so far")
	for i, ply := range habitPlies {
		n := t.sides[i]
		if n == 0 {
			continue
		}
		per := func(x int) float64 { return float64(x) / float64(n) }
		fmt.Fprintf(stdout, "  %-5d %6d %22.2f %22.2f %16.2f\n", ply, n, per(t.unseen[i]), per(t.still[i]), per(t.attacks[i]))
	}
	return 0
}

// add replays rec and counts both its sides at each of habitPlies it reaches.
func (t *habitTally) add(rec *game.Record) error {
	return records.Positions(rec, habitPlies[:], func(ply int, g *game.Game) error {
		i := 0
		for habitPlies[i] != ply {
			i++
		}
		var attacks [2]int
		for _, m := range g.Moves() {
			if m.IsAttack() {
				attacks[m.Side]++
			}
		}
		for side := game.Red; side <= game.Blue; side++ {
			t.sides[i]++
			t.attacks[i] += attacks[side]
			other := g.View(game.ViewerOf(side.Opponent()))
			for sq, c := range other.Board {
				switch {
				case hiddenMoved(c, side):
					t.unseen[i]++
				case c.Occupied && c.Side == side && c.Rank == game.NoRank:
					if _, r, _ := g.PieceAt(game.Square(sq)); r.Movable() {
						t.still[i]++
					}
				}
			}
		}
		return nil
	})
}
