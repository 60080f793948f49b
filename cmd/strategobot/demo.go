package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/render"
)

// docsFlags are the flags that make docs/images: seed 6 shows, after move 41,
// a battle and both armies well into each other's half. TestDemoDocsImages
// checks that the go:generate line below uses them.
const docsFlags = "-docs -seed 6 -at 40"

//go:generate go run . demo -docs -seed 6 -at 40 -out ../../docs/images

const demoUsage = `usage: strategobot demo -out DIR [-seed N] [-variant V] [flags]

Plays a game between two simple random players and writes a sample of every
picture the bot sends into DIR, so that anyone can see them without Discord:

  setup-red.png      Red's set-up preview, as Red confirms it in a DM
  board-red.png      Red's board in the middle of the game, after a battle
  board-blue.png     Blue's board at the same moment
  board-public.png   the public board at the same moment
  reveal.png         the final position with every piece shown
  replay.gif         the whole game, both armies shown
  key.png            the key to the symbols, as /stratego help shows it

The same seed gives the same game and the same pictures, byte for byte.
Exit code: 0 written, 1 DIR or a picture could not be written, 2 usage
error. It reads no environment variable.

With -docs it writes the pictures of the project's docs/images instead:
setup-red.png, board-red.png, board-blue.png, board-public.png and
reveal.png of the game, and replay-barrage.gif, the replay of a Barrage game
played with the same seed. TestDemoDocsImages fails when they are stale;
remake them with

  go generate ./cmd/strategobot

which runs ` + "`strategobot demo " + docsFlags + " -out docs/images`" + `.

Flags:
`

type demoConfig struct {
	out       string
	seed      uint64
	rules     game.Rules
	numbering game.Numbering
	names     [2]string
	maxMoves  int
	at        int  // the boards show the first battle from this move on
	docs      bool // write docs/images' pictures

	variantName, numberingName string // as given on the command line
}

// demoFlags declares demo's flags into c.
func demoFlags(c *demoConfig, stderr io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("demo", demoUsage, stderr)
	fs.StringVar(&c.out, "out", "", "directory to write the pictures into (created if missing)")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the set-ups and the moves")
	fs.StringVar(&c.variantName, "variant", "classic", cli.VariantHelp)
	fs.StringVar(&c.numberingName, "numbering", "modern", "rank labels: modern (Marshal 10) or classic (Marshal 1)")
	fs.StringVar(&c.names[game.Red], "red", "Ada", "Red player's name")
	fs.StringVar(&c.names[game.Blue], "blue", "Grace", "Blue player's name")
	fs.IntVar(&c.maxMoves, "moves", 400, "stop the game after this many moves (a draw by agreement)")
	fs.IntVar(&c.at, "at", 30, "the boards show the first battle from this move on")
	fs.BoolVar(&c.docs, "docs", false, "write the pictures of docs/images (see above)")
	return fs
}

func parseDemoArgs(args []string, help io.Writer) (demoConfig, error) {
	var c demoConfig
	if err := cli.ParseFlags(demoFlags(&c, help), args); err != nil {
		return c, err
	}
	if c.out == "" {
		return c, errors.New("-out DIR is required")
	}
	if c.maxMoves < 1 {
		return c, fmt.Errorf("-moves must be at least 1, not %d", c.maxMoves)
	}
	var err error
	if c.rules, err = cli.VariantRules(c.variantName); err != nil {
		return c, err
	}
	if c.numbering, err = game.ParseNumbering(c.numberingName); err != nil {
		return c, err
	}
	return c, nil
}

// runDemo is `strategobot demo`: it plays a random game and writes sample pictures.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseDemoArgs(args, stdout)
	if err != nil {
		return cli.UsageFailed(stderr, "strategobot demo", demoUsage, err)
	}
	if err := writeDemo(ctx, c, stdout); err != nil {
		fmt.Fprintf(stderr, "strategobot demo: %v\n", err)
		return 1
	}
	return 0
}

func writeDemo(ctx context.Context, c demoConfig, stdout io.Writer) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		// "mkdir DIR: …" would say DIR twice; a parent's failure keeps its own path.
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) && pe.Path == c.out {
			err = pe.Err
		}
		return fmt.Errorf("cannot create the folder %s: %w", c.out, err)
	}
	r, err := render.New()
	if err != nil {
		return err
	}
	o := render.Options{Names: c.names, Numbering: c.numbering}
	files := map[string]*bytes.Buffer{}
	picture := func(name string, draw func(w io.Writer) error) error {
		var b bytes.Buffer
		if err := draw(&b); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		files[name] = &b
		return nil
	}

	red := game.RandomSetup(c.rules, c.seed)
	if err := picture("setup-red.png", func(w io.Writer) error {
		return r.SetupPreview(w, red, game.Red, c.rules, o)
	}); err != nil {
		return err
	}
	snapshot := false
	boards := func(g *game.Game) error {
		snapshot = true
		for _, v := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
			if err := picture("board-"+fileViewer(v)+".png", func(w io.Writer) error {
				return r.Board(w, g.View(v), o)
			}); err != nil {
				return err
			}
		}
		return nil
	}
	g, err := playDemo(ctx, c.rules, c.seed, c.maxMoves, func(g *game.Game, rec game.MoveRecord) error {
		// The boards are shown after the first battle from move c.at on,
		// so that they show a battle's ranks and outcome.
		if !snapshot && ((rec.IsAttack() && g.Ply() >= c.at) || g.Ply() == c.maxMoves/2) {
			return boards(g)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !snapshot {
		if err := boards(g); err != nil {
			return err
		}
	}
	final, _ := g.Reveal()
	if err := picture("reveal.png", func(w io.Writer) error { return r.Reveal(w, final, o) }); err != nil {
		return err
	}
	summary := fmt.Sprintf("%s game, seed %d: %s after %d moves\n", c.rules.Variant, c.seed, g.Result(), g.Ply())
	names := []string{"setup-red.png", "board-red.png", "board-blue.png", "board-public.png", "reveal.png", "replay.gif", "key.png"}
	if c.docs {
		// The README's replay is of a Barrage game: few pieces, a short film.
		names = []string{"setup-red.png", "board-red.png", "board-blue.png", "board-public.png", "reveal.png", "replay-barrage.gif"}
		if g, err = playDemo(ctx, game.DefaultRules(game.VariantBarrage), c.seed, c.maxMoves, nil); err != nil {
			return err
		}
		summary += fmt.Sprintf("replay: %s game, seed %d: %s after %d moves\n", g.Rules().Variant, c.seed, g.Result(), g.Ply())
	}
	if err := picture(names[5], func(w io.Writer) error {
		return r.Replay(w, g, render.ReplayOptions{Options: o})
	}); err != nil {
		return err
	}
	if !c.docs {
		if err := picture("key.png", func(w io.Writer) error { return r.Key(w, o) }); err != nil {
			return err
		}
	}
	for _, name := range names {
		path := filepath.Join(c.out, name)
		if err := os.WriteFile(path, files[name].Bytes(), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		fmt.Fprintf(stdout, "%s\t%d bytes\n", path, files[name].Len())
	}
	fmt.Fprint(stdout, summary)
	return nil
}

// playDemo plays a game of rules from seed's set-ups to its end or to
// maxMoves, then a draw by agreement, calling after (if not nil) after every move.
func playDemo(ctx context.Context, rules game.Rules, seed uint64, maxMoves int, after func(*game.Game, game.MoveRecord) error) (*game.Game, error) {
	g, err := game.NewGame(rules, game.RandomSetup(rules, seed), game.RandomSetup(rules, seed+1))
	if err != nil {
		return nil, fmt.Errorf("starting the game: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0xde30))
	var moves []game.Move
	for !g.Result().Over() && g.Ply() < maxMoves {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		moves = g.AppendLegalMoves(moves[:0])
		rec, err := g.Apply(pickDemoMove(g, moves, rng))
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", g.Ply()+1, err)
		}
		if after != nil {
			if err := after(g, rec); err != nil {
				return nil, err
			}
		}
	}
	if !g.Result().Over() {
		// The move limit: the players agree to a draw.
		if err := g.OfferDraw(g.ToMove()); err != nil {
			return nil, err
		}
		if err := g.AcceptDraw(g.ToMove().Opponent()); err != nil {
			return nil, err
		}
	}
	return g, nil
}

func fileViewer(v game.Viewer) string {
	switch v {
	case game.RedViewer:
		return "red"
	case game.BlueViewer:
		return "blue"
	}
	return "public"
}

// pickDemoMove plays like a beginner who peeks: it takes a piece it can beat
// when it sees one, never attacks what beats it, and otherwise moves at
// random, forwards more often than not. The demo engine knows every rank;
// only the pictures must not.
func pickDemoMove(g *game.Game, moves []game.Move, rng *rand.Rand) game.Move {
	side := g.ToMove()
	var wins, quiet, forward []game.Move
	for _, m := range moves {
		_, attacker, _ := g.PieceAt(m.From)
		if _, defender, ok := g.PieceAt(m.To); ok && !m.IsInfiltration() {
			if game.Fight(attacker, defender) == game.AttackerWon {
				wins = append(wins, m)
			}
			continue
		}
		quiet = append(quiet, m)
		if (side == game.Red) == (m.To.Row() > m.From.Row()) && m.To.Row() != m.From.Row() {
			forward = append(forward, m)
		}
	}
	switch {
	case len(wins) > 0 && rng.IntN(4) > 0:
		return wins[rng.IntN(len(wins))]
	case len(forward) > 0 && rng.IntN(3) == 0:
		return forward[rng.IntN(len(forward))]
	case len(quiet) > 0:
		return quiet[rng.IntN(len(quiet))]
	}
	return moves[rng.IntN(len(moves))]
}
