package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"sync"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// testRenderer is built once for all tests: building it is the slow part.
var testRenderer = sync.OnceValues(New)

func renderer(t testing.TB) *Renderer {
	t.Helper()
	r, err := testRenderer()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r
}

// boardPNG renders v and fails the test on an error.
func boardPNG(t testing.TB, r *Renderer, v game.View, o Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := r.Board(&b, v, o); err != nil {
		t.Fatalf("Board(%s): %v", v.Viewer, err)
	}
	return b.Bytes()
}

func decodePNG(t testing.TB, data []byte) *image.Paletted {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding PNG: %v", err)
	}
	p, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("PNG is a %T, want *image.Paletted", img)
	}
	return p
}

func rgbaAt(img image.Image, x, y int) color.RGBA {
	return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
}

// parseSetup reads four rows of labels in modern numbering, front row first,
// each from the player's left, as a test writes a set-up.
func parseSetup(t testing.TB, rows ...string) game.Setup {
	t.Helper()
	var s game.Setup
	if len(rows) != game.SetupRows {
		t.Fatalf("a set-up has %d rows, got %d", game.SetupRows, len(rows))
	}
	for i, row := range rows {
		for j, tok := range strings.Fields(row) {
			if tok == "." {
				continue
			}
			r, err := game.ParseRank(tok, game.NumberingModern)
			if err != nil {
				t.Fatalf("set-up row %d: %v", i, err)
			}
			s[i][j] = r
		}
	}
	return s
}

// The set-ups of the golden games.
func goldenSetups(t testing.TB) (red, blue game.Setup) {
	red = parseSetup(t,
		"2 9 6 2 B 2 8 5 2 6",
		"5 10 S 4 7 3 6 B 7 2",
		"4 3 8 7 B 4 5 B 3 2",
		"3 B F B 4 2 6 5 3 2")
	blue = parseSetup(t,
		"6 2 5 2 B 9 2 8 2 6",
		"2 S 10 7 4 B 3 6 7 5",
		"4 B 8 3 B 4 5 2 3 7",
		"3 2 B F B 4 6 5 3 2")
	return red, blue
}

// goldenMoves is a short Classic game: a Scout runs and is taken, a Scout
// hits a Bomb, a General walks forward.
var goldenMoves = []string{
	"A4-A6", // Red Scout runs two squares: a known Scout
	"A7xA6", // Blue Captain takes it
	"F4-F6", // Red Scout
	"E7-E6", // Blue General
	"F6xF7", // Red Scout hits a Bomb
	"E6-E5",
	"B4-B5",
}

// goldenGame plays the first n golden moves on a Classic game.
func goldenGame(t testing.TB, n int) *game.Game {
	t.Helper()
	red, blue := goldenSetups(t)
	g, err := game.NewGame(game.DefaultRules(game.VariantClassic), red, blue)
	if err != nil {
		t.Fatalf("NewGame: %v", err)
	}
	for _, text := range goldenMoves[:n] {
		m, err := game.ParseMove(text, game.NumberingModern)
		if err != nil {
			t.Fatalf("ParseMove(%q): %v", text, err)
		}
		if _, err := g.Apply(m); err != nil {
			t.Fatalf("Apply(%s): %v", text, err)
		}
	}
	return g
}

// testRules returns the rules of every variant, Custom with an army that has
// an Infiltrator.
func testRules(t testing.TB) []game.Rules {
	t.Helper()
	var out []game.Rules
	for _, v := range game.Variants {
		rules := game.DefaultRules(v)
		if v == game.VariantCustom {
			army, err := game.ParseArmy("10 9 8 8 3 3 2 2 2 S I B B F", game.NumberingModern)
			if err != nil {
				t.Fatalf("ParseArmy: %v", err)
			}
			rules.Army = army
		}
		out = append(out, rules)
	}
	return out
}

// drawBoard paints the picture of v on img in full, a frame of the board
// layout, and returns the keys of its rows of squares: the pixels that the
// lazy encoder (Renderer.encodeLazily) must reproduce, which the tests
// compare its pictures with and look for leaks in.
func (r *Renderer) drawBoard(img *image.Paletted, v *game.View, o Options) ([10]bandKey, error) {
	if err := checkView(v, o); err != nil {
		return [10]bandKey{}, err
	}
	sc := r.viewScene(v, o)
	return r.drawScene(img, &sc), nil
}

// drawScene paints sc on img in full, a frame of the board layout, and
// returns the keys of its rows of squares (see drawBoard).
func (r *Renderer) drawScene(img *image.Paletted, sc *scene) [10]bandKey {
	r.drawFrame(img, sc)
	for i := range sc.strips {
		r.drawStrip(img, r.board.strips[i], &sc.strips[i], sc.numbering)
	}
	var rows boardRows
	r.sceneRows(sc, &rows)
	for row := range rows.keys {
		r.drawRow(img, sc.bottom, row, &rows)
	}
	return rows.keys
}
