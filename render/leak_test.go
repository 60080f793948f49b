package render

import (
	"archive/zip"
	"bytes"
	"fmt"
	"image"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/internal/lang"
)

// leakChecker renders a position from every viewer, then again after
// shuffling each side's hidden pieces, and reports any picture that changed
// for a viewer who cannot know the shuffled ranks.
type leakChecker struct {
	r *Renderer
	o Options
	// positions counts the positions checked; ownerSaw counts, for the
	// picture, the alt text and the text board, those where the shuffle
	// changed the shuffled side's own, which shows that the shuffles really
	// moved ranks around (the test is not vacuous).
	positions atomic.Int64
	ownerSaw  [3]atomic.Int64
}

// pngEveryRace is how often, under the race detector, a position is compared
// as encoded PNGs; the others are compared as the paletted images the PNGs
// encode (the encoder is deterministic, so equal pixels give equal bytes).
const pngEveryRace = 32

func (lc *leakChecker) check(t *testing.T, g *game.Game, o Options, what string) {
	t.Helper()
	n := lc.positions.Add(1)
	asPNG := !raceEnabled || n%pngEveryRace == 0
	// outputs are everything made of a view: the picture, its alt text and the text board.
	outputs := func(v game.View) [3][]byte {
		var pic []byte
		if asPNG {
			pic = boardPNG(t, lc.r, v, o)
		} else {
			img := image.NewPaletted(image.Rect(0, 0, lc.r.board.w, lc.r.board.h), lc.r.pal)
			if _, err := lc.r.drawBoard(img, &v, o); err != nil {
				t.Fatalf("drawBoard(%s): %v", v.Viewer, err)
			}
			pic = img.Pix
		}
		alt, err := AltText(v, o)
		if err != nil {
			t.Fatalf("AltText(%s): %v", v.Viewer, err)
		}
		text, err := TextBoard(v, o)
		if err != nil {
			t.Fatalf("TextBoard(%s): %v", v.Viewer, err)
		}
		return [3][]byte{pic, []byte(alt), []byte(text)}
	}
	kinds := [3]string{"picture", "alt text", "text board"}
	ply := g.Ply()
	own := [2][3][]byte{outputs(g.View(game.RedViewer)), outputs(g.View(game.BlueViewer))}
	public := outputs(g.View(game.PublicViewer))
	var changed [3]bool
	for _, side := range []game.Side{game.Red, game.Blue} {
		shuffled := gametest.ShuffleHidden(t, g, side, uint64(ply)*2+uint64(side)+1)
		other := side.Opponent()
		otherGot, publicGot, ownGot := outputs(shuffled.View(game.ViewerOf(other))), outputs(shuffled.View(game.PublicViewer)), outputs(shuffled.View(game.ViewerOf(side)))
		for k, kind := range kinds {
			if !bytes.Equal(otherGot[k], own[other][k]) {
				t.Errorf("%s, move %d: %s's %s changed when %s's hidden pieces were shuffled", what, ply, other, kind, side)
			}
			if !bytes.Equal(publicGot[k], public[k]) {
				t.Errorf("%s, move %d: the public %s changed when %s's hidden pieces were shuffled", what, ply, kind, side)
			}
			if !bytes.Equal(ownGot[k], own[side][k]) {
				changed[k] = true
			}
		}
	}
	for k, c := range changed {
		if c {
			lc.ownerSaw[k].Add(1)
		}
	}
}

// vacuous reports an error if no shuffle ever changed the owner's picture,
// alt text or text board.
func (lc *leakChecker) vacuous(t *testing.T) {
	t.Helper()
	for k, kind := range [3]string{"picture", "alt text", "text board"} {
		saw := lc.ownerSaw[k].Load()
		t.Logf("checked %d positions (3 viewers, 2 shuffles each); in %d the owner's own %s changed", lc.positions.Load(), saw, kind)
		if lc.positions.Load() > 0 && saw == 0 {
			t.Errorf("no shuffle ever changed the owner's %s: the leak test checks nothing", kind)
		}
	}
}

// TestLeakRandomGames is the security property of the pictures, their alt
// texts and the text boards: for random games of every variant, at many
// points of each game, shuffling a side's still-hidden pieces leaves the
// other player's and the public's PNG, alt text and text board byte-identical.
func TestLeakRandomGames(t *testing.T) {
	t.Parallel()
	games, plies, every := 4, 300, 25
	if raceEnabled {
		games, every = 2, 50
	}
	if testing.Short() {
		games, plies = 1, 120
	}
	lc := &leakChecker{r: renderer(t), o: Options{Names: [2]string{"Ada", "Grace"}}}
	languages := lang.Languages()
	for vi, rules := range testRules(t) {
		t.Run(rules.Variant.String(), func(t *testing.T) {
			t.Parallel()
			for seed := uint64(1); seed <= uint64(games); seed++ {
				// Every language and both numberings, spread over the games.
				o := lc.o
				o.Lang = lang.For(languages[(vi+int(seed))%len(languages)].Code)
				if seed%2 == 0 {
					o.Numbering = game.NumberingClassic
				} else {
					// A game clock, one side low on time.
					o.Clocks, o.LowClocks = [2]string{"0:25", "12:05"}, [2]bool{true, false}
				}
				what := fmt.Sprintf("%s game %d", rules.Variant, seed)
				g := gametest.Game(t, rules, seed, plies, func(g *game.Game) bool {
					// The start, the first moves, then every so many moves.
					if p := g.Ply(); p <= 2 || p%every == 0 {
						lc.check(t, g, o, what)
					}
					return true
				})
				if !g.Result().Over() {
					// A game that ends by resignation: the final views are still views.
					if err := g.Resign(g.ToMove()); err != nil {
						t.Fatal(err)
					}
				}
				lc.check(t, g, o, what+" (end)")
			}
		})
	}
	t.Cleanup(func() { lc.vacuous(t) })
}

// gravonSources lists real game records: game/testdata/gravon/*.xml, and the
// zip files or XML files named by RENDER_GRAVON (a path list), for a longer run
// against the Gravon archive.
func gravonSources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join("..", "game", "testdata", "gravon", "*.xml"))
	if env := os.Getenv("RENDER_GRAVON"); env != "" {
		paths = append(paths, filepath.SplitList(env)...)
	}
	for _, p := range paths {
		if strings.HasSuffix(p, ".zip") {
			zr, err := zip.OpenReader(p)
			if err != nil {
				t.Fatalf("opening %s: %v", p, err)
			}
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					t.Fatalf("%s/%s: %v", p, f.Name, err)
				}
				data, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					t.Fatalf("%s/%s: %v", p, f.Name, err)
				}
				out[p+"/"+f.Name] = data
			}
			zr.Close()
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("reading %s: %v", p, err)
		}
		out[p] = data
	}
	return out
}

// TestLeakRealGames runs the leak check on real games from Gravon records,
// replayed move by move (real set-ups and real play reveal pieces in ways
// random games rarely do).
func TestLeakRealGames(t *testing.T) {
	t.Parallel()
	sources := gravonSources(t)
	if len(sources) == 0 {
		t.Skip("no Gravon records: game/testdata/gravon/*.xml is empty and RENDER_GRAVON is not set")
	}
	lc := &leakChecker{r: renderer(t), o: Options{Names: [2]string{"Ada", "Grace"}}}
	games, perGame := 0, 8
	if raceEnabled {
		perGame = 3
	}
	for _, name := range slices.Sorted(maps.Keys(sources)) {
		data := sources[name]
		rec, err := game.ParseGravon(bytes.NewReader(data))
		if err != nil {
			continue // unreadable records are the replay tool's business
		}
		rules := game.DefaultRules(rec.Rules.Variant)
		rules.Army = rec.Rules.Army
		rules.TwoSquares, rules.MoreSquares = 0, false // only the positions matter here
		g, err := game.NewGame(rules, rec.Setups[game.Red], rec.Setups[game.Blue])
		if err != nil {
			continue
		}
		games++
		every := max(1, len(rec.Moves)/perGame)
		for i, m := range rec.Moves {
			if _, err := g.Apply(m); err != nil {
				break
			}
			if i%every == every-1 {
				o := lc.o
				o.Lang = lang.For(lang.Languages()[games%len(lang.Languages())].Code)
				lc.check(t, g, o, filepath.Base(name))
			}
		}
	}
	t.Logf("%d real games", games)
	lc.vacuous(t)
}

// TestLeakInfiltrations runs the leak check on the positions just after an
// Infiltrator's strike, right and wrong, which random games almost never
// reach (the Infiltrator must walk into the opponent's zone): a wrong guess
// shows its target's square as a battle's but not its rank, and a right
// one takes the piece. The games mostly move an Infiltrator forward when
// one can, and strike whenever one can, guessing at random.
func TestLeakInfiltrations(t *testing.T) {
	t.Parallel()
	lc := &leakChecker{r: renderer(t), o: Options{Names: [2]string{"Ada", "Grace"}}}
	rules := testRules(t)
	var outcomes [2]int // wrong guesses, right guesses checked
	languages := lang.Languages()
	games := uint64(4)
	if raceEnabled {
		games = 2
	}
	for _, rl := range rules {
		if rl.Army[game.Infiltrator] == 0 {
			continue
		}
		for seed := uint64(1); seed <= games; seed++ {
			r := rand.New(rand.NewPCG(seed, 0x1f))
			g, err := game.NewGame(rl, gametest.Setup(rl, r), gametest.Setup(rl, r))
			if err != nil {
				t.Fatal(err)
			}
			o := lc.o
			o.Lang = lang.For(languages[int(seed)%len(languages)].Code)
			if seed%2 == 0 {
				o.Numbering = game.NumberingClassic
			}
			for ply := 0; ply < 400 && !g.Result().Over(); ply++ {
				moves := g.LegalMoves()
				var strikes, forward []game.Move
				for _, m := range moves {
					if m.IsInfiltration() {
						strikes = append(strikes, m)
						continue
					}
					if side, rank, _ := g.PieceAt(m.From); rank == game.Infiltrator && (m.To.Row()-m.From.Row())*(1-2*int(side)) > 0 {
						forward = append(forward, m)
					}
				}
				pick := moves
				switch {
				case len(strikes) > 0:
					pick = strikes
				case len(forward) > 0 && r.IntN(4) > 0:
					pick = forward
				}
				rec, err := g.Apply(pick[r.IntN(len(pick))])
				if err != nil {
					t.Fatal(err)
				}
				if rec.Move.IsInfiltration() {
					if rec.Outcome == game.GuessedRight {
						outcomes[1]++
					} else {
						outcomes[0]++
					}
					lc.check(t, g, o, fmt.Sprintf("%s game %d", rl.Variant, seed))
				}
			}
		}
	}
	t.Logf("checked %d wrong and %d right guesses", outcomes[0], outcomes[1])
	if outcomes[0] == 0 || outcomes[1] == 0 {
		t.Errorf("checked %d wrong and %d right guesses: want both", outcomes[0], outcomes[1])
	}
	// The alt text names none of its owner's hidden ranks after a strike
	// (its last move), so only the picture and the text board show that
	// the shuffles moved ranks.
	for k, kind := range map[int]string{0: "picture", 2: "text board"} {
		if lc.ownerSaw[k].Load() == 0 {
			t.Errorf("no shuffle ever changed the owner's %s: the leak test checks nothing", kind)
		}
	}
}
