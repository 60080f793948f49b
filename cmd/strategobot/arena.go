package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
)

const arenaUsage = `usage: strategobot arena -a LEVEL -b LEVEL -n GAMES [-variant V] [-seed S] [flags]

Plays GAMES games between two computer players, A and B, with colours
alternating (A is Red in the even games), and prints A's wins, draws and
losses with a 95% confidence interval (Wilson), the game lengths and each
side's move times. LEVEL is random, easy, normal or hard. A game that reaches
the move limit is a draw. Games run in parallel; the same seed gives the same
games. With -records DIR every game is also written to DIR as a Gravon XML
record, set-ups included (game-0001.xml, …), for study with the same tools as
real games (strategobot replay DIR/*.xml).

Flags:
`

type arenaConfig struct {
	levels   [2]ai.Level // A, B
	games    int
	rules    game.Rules
	seed     uint64
	workers  int
	verbose  bool
	maxMoves int
	records  string // a directory for each game's Gravon record; "" for none
}

func parseArenaArgs(args []string, stderr io.Writer) (arenaConfig, error) {
	fs := subcommandFlags("arena", arenaUsage, stderr)
	var c arenaConfig
	a := fs.String("a", "normal", "level of player A: random, easy, normal or hard")
	b := fs.String("b", "random", "level of player B")
	fs.IntVar(&c.games, "n", 10, "number of games")
	variant := fs.String("variant", "classic", variantHelp)
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the set-ups and the players")
	fs.IntVar(&c.maxMoves, "max-moves", 2000, "a game that reaches this many moves (plies) is a draw")
	fs.IntVar(&c.workers, "j", runtime.NumCPU(), "games played at the same time")
	fs.BoolVar(&c.verbose, "v", false, "print every game's result to stderr")
	fs.StringVar(&c.records, "records", "", "write every game as a Gravon XML record into this directory")
	if err := parseFlags(fs, args); err != nil {
		return c, err
	}
	var err error
	if c.levels[0], err = ai.ParseLevel(*a); err != nil {
		return c, fmt.Errorf("-a: %w", err)
	}
	if c.levels[1], err = ai.ParseLevel(*b); err != nil {
		return c, fmt.Errorf("-b: %w", err)
	}
	if c.games < 1 {
		return c, fmt.Errorf("-n must be at least 1, not %d", c.games)
	}
	if c.workers < 1 {
		c.workers = 1
	}
	if c.maxMoves < 1 || c.maxMoves > game.MaxMovesLimit {
		return c, fmt.Errorf("-max-moves must be between 1 and %d, not %d", game.MaxMovesLimit, c.maxMoves)
	}
	if c.rules, err = variantRules(*variant); err != nil {
		return c, err
	}
	c.rules.MaxMoves = c.maxMoves
	return c, nil
}

// runArena is `strategobot arena`: computer players against each other.
func runArena(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseArenaArgs(args, stderr)
	if err != nil {
		return usageFailed(stderr, "arena", arenaUsage, err)
	}
	if c.records != "" {
		if err := os.MkdirAll(c.records, 0o755); err != nil {
			fmt.Fprintf(stderr, "strategobot arena: -records: %v\n", err)
			return 2
		}
	}
	results, err := playArena(ctx, c, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "strategobot arena: %v\n", err)
		return 1
	}
	writeArenaReport(stdout, c, results)
	return 0
}

// arenaGame is one finished game, seen from A.
type arenaGame struct {
	index  int
	aSide  game.Side
	result game.Result
	plies  int
	times  [2][]time.Duration // A's and B's move times
}

// score is 1 for a win of A, ½ for a draw, 0 for a loss.
func (g arenaGame) score() float64 {
	if w, ok := g.result.Winner(); ok {
		if w == g.aSide {
			return 1
		}
		return 0
	}
	return 0.5
}

// arenaSeed mixes the run's seed, a game and a purpose into one seed.
func arenaSeed(seed uint64, gameIndex int, purpose uint64) uint64 {
	x := seed*0x9E3779B97F4A7C15 + uint64(gameIndex)*0xBF58476D1CE4E5B9 + purpose*0x94D049BB133111EB
	x ^= x >> 31
	x *= 0xD6E8FEB86659FD93
	return x ^ x>>32
}

func playArena(ctx context.Context, c arenaConfig, progress io.Writer) ([]arenaGame, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make([]arenaGame, c.games)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < min(c.workers, c.games); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r, err := playArenaGame(ctx, c, i)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				results[i] = r
				if err == nil && c.verbose {
					fmt.Fprintf(progress, "game %d: A (%s) is %s: %s after %d plies\n", i+1, c.levels[0], r.aSide, r.result, r.plies)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := 0; i < c.games; i++ {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

// playArenaGame plays game i: A is Red in the even games, Blue in the odd ones.
func playArenaGame(ctx context.Context, c arenaConfig, i int) (arenaGame, error) {
	r := arenaGame{index: i, aSide: game.Side(i % 2)}
	var setups [2]game.Setup
	var players [2]*ai.Player // by side
	for side := game.Red; side <= game.Blue; side++ {
		who := 0 // A
		if side != r.aSide {
			who = 1
		}
		setups[side] = ai.Setup(c.rules, arenaSeed(c.seed, i, uint64(2*who)))
		players[side] = ai.New(c.levels[who], arenaSeed(c.seed, i, uint64(2*who+1)))
	}
	g, err := game.NewGame(c.rules, setups[game.Red], setups[game.Blue])
	if err != nil {
		return r, fmt.Errorf("game %d: %w", i+1, err)
	}
	for !g.Result().Over() {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		side := g.ToMove()
		start := time.Now()
		m, err := players[side].Choose(g.View(game.ViewerOf(side)))
		took := time.Since(start)
		if err != nil {
			return r, fmt.Errorf("game %d, ply %d: %s (%s) found no move: %w", i+1, g.Ply()+1, side, players[side].Level(), err)
		}
		if _, err := g.Apply(m); err != nil {
			return r, fmt.Errorf("game %d, ply %d: %s (%s) chose %s: %w", i+1, g.Ply()+1, side, players[side].Level(), m, err)
		}
		who := 0
		if side != r.aSide {
			who = 1
		}
		r.times[who] = append(r.times[who], took)
	}
	r.result, r.plies = g.Result(), g.Ply()
	if c.records != "" {
		if err := writeArenaRecord(c, i, r.aSide, g); err != nil {
			return r, err
		}
	}
	return r, nil
}

// writeArenaRecord writes game i as DIR/game-NNNN.xml; the players are named
// by their part and level, such as "A (hard)".
func writeArenaRecord(c arenaConfig, i int, aSide game.Side, g *game.Game) error {
	var names [2]string
	names[aSide] = fmt.Sprintf("A (%s)", c.levels[0])
	names[aSide.Opponent()] = fmt.Sprintf("B (%s)", c.levels[1])
	var buf bytes.Buffer
	if err := game.NewRecord(g, names[game.Red], names[game.Blue]).WriteGravon(&buf); err != nil {
		return fmt.Errorf("game %d: record: %w", i+1, err)
	}
	path := filepath.Join(c.records, fmt.Sprintf("game-%04d.xml", i+1))
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("game %d: %w", i+1, err)
	}
	return nil
}

// wilson returns the 95% Wilson score interval of a proportion p of n trials.
func wilson(p float64, n int) (lo, hi float64) {
	const z = 1.959963984540054
	if n == 0 {
		return 0, 1
	}
	nf := float64(n)
	den := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return max(0, centre-half), min(1, centre+half)
}

func writeArenaReport(w io.Writer, c arenaConfig, games []arenaGame) {
	var wins, draws, losses, plies, minPlies, maxPlies int
	var score float64
	methods := map[game.Method]int{}
	var times [2][]time.Duration
	minPlies = math.MaxInt
	for _, g := range games {
		switch s := g.score(); s {
		case 1:
			wins++
		case 0:
			losses++
		default:
			draws++
		}
		score += g.score()
		plies += g.plies
		minPlies, maxPlies = min(minPlies, g.plies), max(maxPlies, g.plies)
		methods[g.result.Method]++
		times[0] = append(times[0], g.times[0]...)
		times[1] = append(times[1], g.times[1]...)
	}
	n := len(games)
	fmt.Fprintf(w, "arena: A = %s, B = %s, %s, %d games, seed %d, move limit %d\n",
		c.levels[0], c.levels[1], c.rules.Variant, n, c.seed, c.rules.MaxMoves)
	fmt.Fprintf(w, "A: %d wins, %d draws, %d losses\n", wins, draws, losses)
	lo, hi := wilson(float64(wins)/float64(n), n)
	fmt.Fprintf(w, "A win rate %.1f%% (95%% CI %.1f%%–%.1f%%)\n", 100*float64(wins)/float64(n), 100*lo, 100*hi)
	lo, hi = wilson(score/float64(n), n)
	fmt.Fprintf(w, "A score %.1f%% (wins + draws/2; 95%% CI %.1f%%–%.1f%%)\n", 100*score/float64(n), 100*lo, 100*hi)
	fmt.Fprintf(w, "game length: average %.1f plies (shortest %d, longest %d)\n", float64(plies)/float64(n), minPlies, maxPlies)
	fmt.Fprint(w, "endings:")
	for m := game.FlagCaptured; m <= game.MoveLimit; m++ {
		if methods[m] > 0 {
			fmt.Fprintf(w, " %s %d;", m, methods[m])
		}
	}
	fmt.Fprintln(w)
	for who, name := range [2]string{"A", "B"} {
		t := times[who]
		if len(t) == 0 {
			fmt.Fprintf(w, "move time %s (%s): no moves\n", name, c.levels[who])
			continue
		}
		slices.Sort(t)
		fmt.Fprintf(w, "move time %s (%s): median %s, max %s over %d moves\n",
			name, c.levels[who], roundDuration(t[len(t)/2]), roundDuration(t[len(t)-1]), len(t))
	}
}

// roundDuration keeps three significant digits or so.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d >= time.Microsecond:
		return d.Round(10 * time.Nanosecond)
	}
	return d
}
