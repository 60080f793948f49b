package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/internal/lab/records"
)

const movetimeUsage = `usage: strategolab movetime [-level L] [-every N] [-variant V] RECORD...

Times the computer's choice of a move on positions of games: every N-th
ply of each Gravon record (zip archives or XML files, such as an arena's
-records folder's game-*.xml), for the side to move, as that side sees the
board. It prints how many positions it timed and the median, 90th and 99th
percentiles and the longest. Run it on a core of its own (taskset -c 1): the
times are wall-clock times.

Flags:
`

type movetimeConfig struct {
	level                  ai.Level
	every                  int
	variant                game.Variant
	levelName, variantName string
}

func movetimeFlags(c *movetimeConfig, w io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("movetime", movetimeUsage, w)
	fs.StringVar(&c.levelName, "level", "hard", "easy, normal or hard")
	fs.IntVar(&c.every, "every", 5, "time every N-th ply of each game")
	fs.StringVar(&c.variantName, "variant", "classic", "the variant of the records to read (others are skipped)")
	return fs
}

func runMovetime(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var c movetimeConfig
	files, variant, exit, ok := parseRecordArgs(movetimeFlags(&c, stdout), args, &c.variantName, "movetime", movetimeUsage, stderr)
	if !ok {
		return exit
	}
	c.variant = variant
	var err error
	if c.level, err = ai.ParseLevel(c.levelName); err != nil || c.level == ai.Random {
		return cli.UsageFailed(stderr, "strategolab movetime", movetimeUsage, fmt.Errorf("-level is easy, normal or hard, not %q", c.levelName))
	}
	if c.every < 1 {
		return cli.UsageFailed(stderr, "strategolab movetime", movetimeUsage, errors.New("-every is 1 or more"))
	}
	recs, skipped, err := records.Read(files, c.variant)
	if err != nil {
		fmt.Fprintln(stderr, "strategolab movetime:", err)
		return 1
	}
	times, err := timeMoves(ctx, recs, c.level, c.every)
	if err != nil {
		fmt.Fprintln(stderr, "strategolab movetime:", err)
		return 1
	}
	if len(times) == 0 {
		fmt.Fprintf(stderr, "strategolab movetime: no position to time in %d games (skipped: %v)\n", len(recs), skipped)
		return 1
	}
	n := len(times)
	fmt.Fprintf(stdout, "%s, %d positions of %d games (one ply in %d): median %v, 90th percentile %v, 99th %v, longest %v\n",
		c.level, n, len(recs), c.every, ms(times[n/2]), ms(times[n*9/10]), ms(times[n*99/100]), ms(times[n-1]))
	return 0
}

// timeMoves times level's choice on every every-th ply of the records, sorted.
func timeMoves(ctx context.Context, recs []records.Named, level ai.Level, every int) ([]time.Duration, error) {
	p := ai.New(level, 1)
	var times []time.Duration
	warm := false
	for _, r := range recs {
		plies := make([]int, 0, len(r.Record.Moves)/every+1)
		for ply := every; ply < len(r.Record.Moves); ply += every {
			plies = append(plies, ply)
		}
		err := records.Positions(r.Record, plies, func(_ int, g *game.Game) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if g.Result().Over() {
				return nil
			}
			v := g.View(game.ViewerOf(g.ToMove()))
			if !warm { // the first choice builds what every later one shares
				warm = true
				if _, err := p.Choose(v); err != nil {
					return err
				}
			}
			start := time.Now()
			if _, err := p.Choose(v); err != nil {
				return err
			}
			times = append(times, time.Since(start))
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
	}
	slices.Sort(times)
	return times, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
