package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/game/ucc"
	"github.com/strategobot/strategobot/internal/cli"
)

const arenaUsage = `usage: strategolab arena -a PLAYER -b PLAYER -n GAMES [-variant V] [-seed S] [flags]

Plays GAMES games between two computer players, A and B, with colours
alternating (A is Red in the even games), and prints A's wins, draws and
losses with a 95% confidence interval (Wilson), the game lengths and each
side's move times. A PLAYER is a level, random, easy, normal or hard, or
ext:COMMAND, an outside program that speaks the stdio protocol of the 2012
UCC Stratego competition (Classic only; see the package game/ucc), such as
"ext:strategolab agent -level hard". COMMAND is split into words as a shell
would, without expanding anything, and runs in the working directory. An
outside program sees only what its side may know; a bad set-up, an illegal
move, a timeout (-ext-timeout for a move, -ext-start-timeout for the start and
the set-up) or a crash loses the game and is listed. A game
that reaches the move limit is a draw. Games run in parallel; the same seed
gives the same games (as far as outside programs allow). With -records DIR
every game is also written to DIR as a Gravon XML record, set-ups included
(game-0001.xml, …), for study with the same tools as real games
(strategobot replay DIR/*.xml). -first K plays from game K on, the games a
run from game 1 would play there: a stopped run goes on where it stopped,
with its set-ups, so that two players can be compared on the same ones.

Flags:
`

type arenaConfig struct {
	players  [2]arenaSpec // A, B
	games    int
	first    int // the number of the first game played (1 unless -first)
	rules    game.Rules
	seed     uint64
	workers  int
	verbose  bool
	maxMoves int
	records  string // a directory for each game's Gravon record; "" for none
	// extTimeout bounds each move of an outside program, extStartTimeout its
	// set-up, which includes its start.
	extTimeout, extStartTimeout time.Duration
	// timeCap, when above 0, replaces the built-in players' own cap on a
	// move's thinking.
	timeCap time.Duration

	playerNames [2]string // -a and -b as given
	variantName string
}

// player returns the built-in player of level l for one side of one game.
func (c *arenaConfig) player(l ai.Level, seed uint64) *ai.Player {
	p := ai.New(l, seed)
	if c.timeCap > 0 {
		p = p.WithTimeCap(c.timeCap)
	}
	return p
}

// arenaFlags declares arena's flags into c.
func arenaFlags(c *arenaConfig, w io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("arena", arenaUsage, w)
	fs.StringVar(&c.playerNames[0], "a", "normal", "player A: random, easy, normal, hard or ext:COMMAND")
	fs.StringVar(&c.playerNames[1], "b", "random", "player B")
	fs.IntVar(&c.games, "n", 10, "number of games")
	fs.IntVar(&c.first, "first", 1, "play from this game on: the same games as a run from game 1 would play there (to add games to a run)")
	fs.StringVar(&c.variantName, "variant", "classic", cli.VariantHelp)
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the set-ups and the players")
	fs.IntVar(&c.maxMoves, "max-moves", 2000, "a game that reaches this many moves (plies) is a draw")
	fs.IntVar(&c.workers, "j", runtime.NumCPU(), "games played at the same time")
	fs.BoolVar(&c.verbose, "v", false, "print every game's result to stderr")
	fs.DurationVar(&c.extTimeout, "ext-timeout", 5*time.Second, "the longest an outside program may take for a move")
	fs.DurationVar(&c.extStartTimeout, "ext-start-timeout", 30*time.Second, "the longest an outside program may take to start and send its set-up")
	fs.StringVar(&c.records, "records", "", "write every game as a Gravon XML record into this directory")
	fs.DurationVar(&c.timeCap, "time-cap", 0, "the longest the built-in players may think about a move, instead of their own cap "+
		"(0: their own); with a long one only their node budgets bound them, and a run repeats itself move for move on a loaded machine")
	return fs
}

func parseArenaArgs(args []string, help io.Writer) (arenaConfig, error) {
	var c arenaConfig
	if err := cli.ParseFlags(arenaFlags(&c, help), args); err != nil {
		return c, err
	}
	var err error
	if c.players[0], err = parseArenaSpec(c.playerNames[0]); err != nil {
		return c, fmt.Errorf("-a: %w", err)
	}
	if c.players[1], err = parseArenaSpec(c.playerNames[1]); err != nil {
		return c, fmt.Errorf("-b: %w", err)
	}
	if c.timeCap < 0 {
		return c, fmt.Errorf("-time-cap must be 0 (the players' own) or positive, not %s", c.timeCap)
	}
	if c.extTimeout <= 0 || c.extStartTimeout <= 0 {
		return c, fmt.Errorf("-ext-timeout and -ext-start-timeout must be positive, not %s and %s", c.extTimeout, c.extStartTimeout)
	}
	if c.games < 1 {
		return c, fmt.Errorf("-n must be at least 1, not %d", c.games)
	}
	if c.first < 1 {
		return c, fmt.Errorf("-first must be at least 1, not %d", c.first)
	}
	if c.workers < 1 {
		c.workers = 1
	}
	if c.maxMoves < 1 || c.maxMoves > game.MaxMovesLimit {
		return c, fmt.Errorf("-max-moves must be between 1 and %d, not %d", game.MaxMovesLimit, c.maxMoves)
	}
	if c.rules, err = cli.VariantRules(c.variantName); err != nil {
		return c, err
	}
	c.rules.MaxMoves = c.maxMoves
	if (c.players[0].external() || c.players[1].external()) && c.rules.Variant != game.VariantClassic {
		return c, fmt.Errorf("outside programs play Classic only (the UCC protocol's), not %s", c.rules.Variant)
	}
	return c, nil
}

// runArena is `strategolab arena`: computer players against each other.
func runArena(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseArenaArgs(args, stdout)
	if err != nil {
		return cli.UsageFailed(stderr, "strategolab arena", arenaUsage, err)
	}
	if c.records != "" {
		if err := os.MkdirAll(c.records, 0o755); err != nil {
			fmt.Fprintf(stderr, "strategolab arena: -records: %v\n", err)
			return 2
		}
	}
	results, err := playArena(ctx, c, stderr)
	if errors.Is(err, errArenaStopped) && len(results) > 0 {
		// Hours of games are not thrown away with an interrupt.
		fmt.Fprintf(stderr, "strategolab arena: %v after %d of %d games; the report counts those\n", err, len(results), c.games)
		c.games = len(results)
		writeArenaReport(stdout, c, results)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "strategolab arena: %v\n", err)
		return 1
	}
	writeArenaReport(stdout, c, results)
	return 0
}

// errArenaStopped is playArena's error when its context ends (an interrupt):
// it then returns the games finished before.
var errArenaStopped = errors.New("stopped")

// arenaGame is one finished game, seen from A.
type arenaGame struct {
	index  int
	aSide  game.Side
	result game.Result
	plies  int
	times  [2][]time.Duration // A's and B's move times
	// fault is how an outside program lost, when it did; faultBy is 0 for A, 1 for B.
	fault   *arenaFault
	faultBy int
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
	stop := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make([]arenaGame, c.games)
	finished := make([]bool, c.games)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < min(c.workers, c.games); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				i := c.first - 1 + j // the game's number in the run, from 0
				r, err := playArenaGame(ctx, c, i)
				mu.Lock()
				if err != nil && firstErr == nil && stop.Err() == nil {
					firstErr = err
					cancel()
				}
				results[j], finished[j] = r, err == nil
				if err == nil && c.verbose {
					how := r.result.String()
					if r.fault != nil {
						how = fmt.Sprintf("%s (%s %s)", r.result.Outcome, [2]string{"A", "B"}[r.faultBy], r.fault)
					}
					fmt.Fprintf(progress, "game %d: A (%s) is %s: %s after %d plies\n", i+1, c.players[0], r.aSide, how, r.plies)
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
	if stop.Err() != nil {
		var done []arenaGame
		for i, r := range results {
			if finished[i] {
				done = append(done, r)
			}
		}
		return done, errArenaStopped
	}
	return results, nil
}

// playArenaGame plays game i: A is Red in the even games, Blue in the odd ones.
func playArenaGame(ctx context.Context, c arenaConfig, i int) (r arenaGame, err error) {
	r = arenaGame{index: i, aSide: game.Side(i % 2)}
	whoIs := func(side game.Side) int { // 0 for A, 1 for B
		if side == r.aSide {
			return 0
		}
		return 1
	}
	nameOf := func(side game.Side) string { return c.players[whoIs(side)].String() }
	var (
		players [2]arenaPlayer // by side
		g       *game.Game
		quit    string // what outside programs get after QUIT
	)
	for side := game.Red; side <= game.Blue; side++ {
		who := whoIs(side)
		spec := c.players[who]
		if !spec.external() {
			players[side] = &computerPlayer{rules: c.rules, setupSeed: arenaSeed(c.seed, i, uint64(2*who)),
				p: c.player(spec.level, arenaSeed(c.seed, i, uint64(2*who+1)))}
			continue
		}
		p, err := startExtPlayer(ctx, spec, c.rules, c.extTimeout, c.extStartTimeout)
		if err != nil {
			return r, fmt.Errorf("game %d: %w", i+1, err)
		}
		defer func() { p.finish(quit) }()
		players[side] = p
	}
	// lost ends the game for a side whose program broke the rules or the
	// protocol; any other error stops the arena.
	lost := func(side game.Side, err error) (arenaGame, error) {
		if ctx.Err() != nil {
			// An interrupt stops the outside programs too: the game in
			// progress is dropped, not lost by the program that died of it.
			return r, ctx.Err()
		}
		var f *arenaFault
		if !errors.As(err, &f) {
			return r, err
		}
		r.fault, r.faultBy = f, whoIs(side)
		r.result = game.Result{Outcome: game.WinFor(side.Opponent())}
		outcome := ucc.IllegalMove
		if f.kind == faultSurrender {
			outcome = ucc.Surrendered
		}
		quit = quitResult(g, c.rules, side, nameOf(side), outcome)
		if g == nil {
			return r, nil // no game to record: it ended in the set-up
		}
		if f.kind == faultTimeout && side == g.ToMove() {
			g.TimeOut(side)
		} else {
			g.Resign(side)
		}
		r.result, r.plies = g.Result(), g.Ply()
		return r, writeArenaRecord(c, i, r.aSide, g)
	}
	var setups [2]game.Setup
	for side := game.Red; side <= game.Blue; side++ {
		if setups[side], err = players[side].setup(ctx, side, nameOf(side.Opponent())); err != nil {
			return lost(side, fmt.Errorf("game %d: %s's set-up: %w", i+1, side, err))
		}
	}
	if g, err = game.NewGame(c.rules, setups[game.Red], setups[game.Blue]); err != nil {
		return r, fmt.Errorf("game %d: %w", i+1, err)
	}
	for !g.Result().Over() {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		side := g.ToMove()
		who := whoIs(side)
		r.plies = g.Ply()
		start := time.Now()
		m, err := players[side].move(ctx, g.View(game.ViewerOf(side)))
		took := time.Since(start)
		if err != nil {
			return lost(side, fmt.Errorf("game %d, ply %d: %s (%s) found no move: %w", i+1, g.Ply()+1, side, c.players[who], err))
		}
		rec, err := g.Apply(m)
		if err != nil {
			err = fmt.Errorf("game %d, ply %d: %s (%s) chose %s: %w", i+1, g.Ply()+1, side, c.players[who], m, err)
			if c.players[who].external() {
				err = &arenaFault{faultIllegal, err.Error()}
			}
			return lost(side, err)
		}
		r.times[who] = append(r.times[who], took)
		if g.Result().Over() {
			break // the UCC manager sends QUIT instead of the last report
		}
		for s, p := range players {
			if err := p.tell(rec); err != nil {
				return lost(game.Side(s), fmt.Errorf("game %d, ply %d: %w", i+1, g.Ply(), err))
			}
		}
	}
	r.result, r.plies = g.Result(), g.Ply()
	mover := g.ToMove().Opponent()
	outcome := ucc.Draw
	switch w, won := r.result.Winner(); {
	case won && w == mover:
		outcome = ucc.Victory
	case won:
		outcome = ucc.Defeat
	case r.result.Method == game.MoveLimit:
		outcome = ucc.DrawDefault
	}
	quit = quitResult(g, c.rules, mover, nameOf(mover), outcome)
	return r, writeArenaRecord(c, i, r.aSide, g)
}

// quitResult is the result outside programs get after QUIT, worded as the UCC
// manager does: seen from the player on whose turn the game ended, side. The
// game is nil when it ended in the set-up.
func quitResult(g *game.Game, rules game.Rules, side game.Side, name, outcome string) string {
	res := ucc.Result{Name: name, Side: side, Outcome: outcome, Turn: 1,
		Values: [2]int{ucc.PieceValue(rules.Army), ucc.PieceValue(rules.Army)}}
	if g != nil {
		v := g.View(game.PublicViewer)
		res.Values = [2]int{ucc.PieceValue(v.Remaining[game.Red]), ucc.PieceValue(v.Remaining[game.Blue])}
		res.Turn = ucc.TurnOf(g.Ply())
		if g.Result().Over() {
			res.Turn = ucc.TurnOf(g.Ply() - 1) // the turn of the last move
		}
	}
	return res.String()
}

// arenaA begins the name of player A in a record, "A (hard)"; B's begins
// "B (". strategolab compare finds A by it.
const arenaA = "A ("

// arenaB begins the name of player B in a record, "B (normal)".
const arenaB = "B ("

// isArenaA reports whether a record's player name is the arena's player A.
func isArenaA(name string) bool { return strings.HasPrefix(name, arenaA) }

// writeArenaRecord writes game i as DIR/game-NNNN.xml when -records asks
// for it; the players are named by their part and spec, such as "A (hard)".
func writeArenaRecord(c arenaConfig, i int, aSide game.Side, g *game.Game) error {
	if c.records == "" {
		return nil
	}
	var names [2]string
	names[aSide] = arenaA + c.players[0].String() + ")"
	names[aSide.Opponent()] = arenaB + c.players[1].String() + ")"
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

// scoreTally counts a player's games by its points in each: 1 for a win,
// ½ for a draw, 0 for a loss.
type scoreTally struct {
	wins, draws, losses int
	score               float64
}

func (t *scoreTally) add(points float64) {
	t.score += points
	switch points {
	case 1:
		t.wins++
	case 0:
		t.losses++
	default:
		t.draws++
	}
}

func writeArenaReport(w io.Writer, c arenaConfig, games []arenaGame) {
	var plies, minPlies, maxPlies int
	var tally scoreTally
	methods := map[game.Method]int{}
	faults := map[string]int{} // "A timeout", …
	var faulty []arenaGame
	var times [2][]time.Duration
	minPlies = math.MaxInt
	for _, g := range games {
		tally.add(g.score())
		plies += g.plies
		minPlies, maxPlies = min(minPlies, g.plies), max(maxPlies, g.plies)
		if g.fault != nil {
			faults[[2]string{"A", "B"}[g.faultBy]+" "+g.fault.kind]++
			faulty = append(faulty, g)
		} else {
			methods[g.result.Method]++
		}
		times[0] = append(times[0], g.times[0]...)
		times[1] = append(times[1], g.times[1]...)
	}
	n := len(games)
	from := ""
	if c.first > 1 {
		from = fmt.Sprintf(" from game %d", c.first)
	}
	fmt.Fprintf(w, "arena: A = %s, B = %s, %s, %d games%s, seed %d, move limit %d\n",
		c.players[0], c.players[1], c.rules.Variant, n, from, c.seed, c.rules.MaxMoves)
	fmt.Fprintf(w, "A: %d wins, %d draws, %d losses\n", tally.wins, tally.draws, tally.losses)
	lo, hi := wilson(float64(tally.wins)/float64(n), n)
	fmt.Fprintf(w, "A win rate %.1f%% (95%% CI %.1f%%–%.1f%%)\n", 100*float64(tally.wins)/float64(n), 100*lo, 100*hi)
	lo, hi = wilson(tally.score/float64(n), n)
	fmt.Fprintf(w, "A score %.1f%% (wins + draws/2; 95%% CI %.1f%%–%.1f%%)\n", 100*tally.score/float64(n), 100*lo, 100*hi)
	fmt.Fprintf(w, "game length: average %.1f plies (shortest %d, longest %d)\n", float64(plies)/float64(n), minPlies, maxPlies)
	var endings []string
	for m := game.FlagCaptured; m <= game.MoveLimit; m++ {
		if methods[m] > 0 {
			endings = append(endings, fmt.Sprintf("%s %d", m, methods[m]))
		}
	}
	for _, who := range [2]string{"A", "B"} {
		for _, kind := range faultKinds {
			if n := faults[who+" "+kind]; n > 0 {
				endings = append(endings, fmt.Sprintf("%s %s %d", who, kind, n))
			}
		}
	}
	fmt.Fprintf(w, "endings: %s\n", strings.Join(endings, "; "))
	for _, g := range faulty {
		fmt.Fprintf(w, "game %d: %s (%s) lost by %s\n", g.index+1, [2]string{"A", "B"}[g.faultBy], c.players[g.faultBy], g.fault)
	}
	for who, name := range [2]string{"A", "B"} {
		t := times[who]
		if len(t) == 0 {
			fmt.Fprintf(w, "move time %s (%s): no moves\n", name, c.players[who])
			continue
		}
		slices.Sort(t)
		fmt.Fprintf(w, "move time %s (%s): median %s, max %s over %d moves\n",
			name, c.players[who], roundDuration(t[len(t)/2]), roundDuration(t[len(t)-1]), len(t))
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
