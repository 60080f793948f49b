package render

import (
	"bytes"
	"fmt"
	"hash/adler32"
	"image"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestAdler32Combine: the checksum combined from two parts' is the whole's,
// for parts empty, short and long enough to wrap the sums many times.
func TestAdler32Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 300_000)
	for i := range data {
		data[i] = byte(rng.IntN(256))
	}
	ones := bytes.Repeat([]byte{0xff}, 200_000) // the largest sums
	for _, tc := range []struct {
		name string
		data []byte
		cut  int
	}{
		{"both empty", nil, 0},
		{"first empty", data[:10], 0},
		{"second empty", data[:10], 10},
		{"one byte each", data[:2], 1},
		{"random", data, 123_457},
		{"random, second past the modulus", data, 1_000},
		{"all 0xff", ones, 65_521},
		{"all 0xff, second of the modulus", ones, len(ones) - 65_521},
	} {
		a, b := adler32.Checksum(tc.data[:tc.cut]), adler32.Checksum(tc.data[tc.cut:])
		if got, want := adler32Combine(a, b, len(tc.data)-tc.cut), adler32.Checksum(tc.data); got != want {
			t.Errorf("%s: combined %08x, want %08x", tc.name, got, want)
		}
	}
}

// TestBandCache: the cache keeps at most its limit, gives back what it
// kept, and lets a band used since the last sweep outlive one that was not.
func TestBandCache(t *testing.T) {
	c := newBandCache(1000)
	put := func(i int) bandKey {
		k := bandKey{h1: uint64(i), n: i}
		c.put(k, band{data: make([]byte, 100), sum: uint32(i), n: i})
		return k
	}
	var keys []bandKey
	for i := range 10 {
		keys = append(keys, put(i))
	}
	if c.bytes != 1000 {
		t.Fatalf("kept %d bytes, want 1000", c.bytes)
	}
	for _, k := range keys {
		if b, ok := c.get(k); !ok || b.sum != uint32(k.n) {
			t.Fatalf("band %d: got %v, %v", k.n, b.sum, ok)
		}
	}
	// Every band was used: the first sweep gives each a second chance, the
	// second evicts band 0.
	put(10)
	if _, ok := c.get(keys[0]); ok {
		t.Error("band 0 is still kept, band 10 should have replaced it")
	}
	// Band 1 is used again, band 2 is not: band 2 goes first.
	c.get(keys[1])
	put(11)
	if _, ok := c.get(keys[1]); !ok {
		t.Error("band 1 was used since the last sweep and was evicted")
	}
	if _, ok := c.get(keys[2]); ok {
		t.Error("band 2 was not used since the last sweep and was kept")
	}
	if c.bytes > 1000 || len(c.index) != 10 {
		t.Errorf("kept %d bands of %d bytes, want 10 within 1000", len(c.index), c.bytes)
	}
	// A band larger than the limit is not kept, and evicts nothing.
	c.put(bandKey{h1: 99}, band{data: make([]byte, 1001)})
	if _, ok := c.get(bandKey{h1: 99}); ok || len(c.index) != 10 {
		t.Errorf("a band larger than the limit: kept %v, %d bands", ok, len(c.index))
	}
	// Many more bands: the limit holds, and the slots do not grow.
	for i := 100; i < 1100; i++ {
		put(i)
		if c.bytes > 1000 {
			t.Fatalf("kept %d bytes after band %d", c.bytes, i)
		}
	}
	if len(c.slots) > 10 {
		t.Errorf("%d slots for at most 10 bands", len(c.slots))
	}
}

// TestRowKeysNamePixels: a board's rows of squares are looked up by their
// tiles' codes, and its players' strips by their texts and trays, not by
// their pixels, so the keys must name the pixels exactly: a key that missed a
// difference would show one picture's row (another viewer's ranks, even) or
// strip in another. Many pictures, of every variant, viewer,
// numbering, highlight and stage of a game, the final reveals and set-up
// previews, go through one renderer, whose cache keeps their rows; each must
// be byte for byte the picture a fresh encoder makes from its pixels alone.
func TestRowKeysNamePixels(t *testing.T) {
	r := renderer(t)
	if cuts := r.board.bands(); len(cuts) != boardBands || cuts[firstRowBand-1] != r.board.board.Y {
		t.Fatalf("%d bands, the squares from row %d; want %d and band %d", len(cuts), cuts[firstRowBand-1], boardBands, firstRowBand)
	}
	img := image.NewPaletted(image.Rect(0, 0, r.board.w, r.board.h), r.pal)
	check := func(what string, got []byte, draw func() [10]bandKey) {
		t.Helper()
		rows := draw()
		cold, err := newPNGEncoder(r.pal, r.board.bands(), bandCacheBytes)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := cold.encode(&want, img, nil, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%s: %d bytes with row keys, %d from the pixels", what, len(got), want.Len())
		}
		// Rows with the same key have the same pixels in this picture too.
		seen := map[bandKey]int{}
		for i, k := range rows {
			if j, ok := seen[k]; ok {
				top := func(row int) []uint8 {
					y := r.board.board.Y + row*tileSize
					return img.Pix[img.PixOffset(0, y):img.PixOffset(0, y+tileSize)]
				}
				if !bytes.Equal(top(i), top(j)) {
					t.Fatalf("%s: rows %d and %d share a key but not their pixels", what, j, i)
				}
			}
			seen[k] = i
		}
	}
	pictures := 0
	for _, rules := range testRules(t) {
		for seed := uint64(1); seed <= 2; seed++ {
			gametest.Game(t, rules, seed, 300, func(g *game.Game) bool {
				if g.Ply()%25 != 0 && !g.Result().Over() {
					return true
				}
				for _, numbering := range []game.Numbering{game.NumberingModern, game.NumberingClassic} {
					o := Options{Names: [2]string{"Ada", "Grace"}, Numbering: numbering}
					if numbering == game.NumberingClassic {
						// The same clocks, low every other time: a strip's
						// key must tell them apart.
						o.Clocks, o.LowClocks = [2]string{"0:25", "0:25"}, [2]bool{g.Ply()%50 == 0, g.Ply()%50 != 0}
					}
					for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
						v := g.View(viewer)
						var got bytes.Buffer
						if err := r.Board(&got, v, o); err != nil {
							t.Fatal(err)
						}
						check(fmt.Sprintf("%s, %s after move %d", rules.Variant, viewer, g.Ply()), got.Bytes(), func() [10]bandKey {
							rows, err := r.drawBoard(img, &v, o)
							if err != nil {
								t.Fatal(err)
							}
							return rows
						})
						pictures++
					}
					if v, ok := g.Reveal(); ok {
						var got bytes.Buffer
						if err := r.Reveal(&got, v, o); err != nil {
							t.Fatal(err)
						}
						check(fmt.Sprintf("%s, the reveal", rules.Variant), got.Bytes(), func() [10]bandKey {
							sc := r.revealScene(&v, o)
							return r.drawScene(img, &sc)
						})
						pictures++
					}
				}
				return true
			})
			for _, side := range []game.Side{game.Red, game.Blue} {
				setup := gametest.Setup(rules, rand.New(rand.NewPCG(seed, uint64(side))))
				var got bytes.Buffer
				if err := r.SetupPreview(&got, setup, side, rules, Options{}); err != nil {
					t.Fatal(err)
				}
				check(fmt.Sprintf("%s, %s's set-up", rules.Variant, side), got.Bytes(), func() [10]bandKey {
					sc := r.setupScene(&setup, side, rules, Options{})
					return r.drawScene(img, &sc)
				})
				pictures++
			}
		}
	}
	if pictures < 100 {
		t.Fatalf("only %d pictures checked", pictures)
	}
}

// TestBoardDrawsOnlyNewRows: a board's rows of squares are drawn only when the
// encoder has not compressed them before. The first picture of a renderer
// draws all ten; the same picture again draws none; after a move, only the
// rows the move changed. The pictures stay the ones drawn in full
// (TestRowKeysNamePixels).
func TestBoardDrawsOnlyNewRows(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	g := goldenGame(t, 0)
	var drawn []int
	count := func(v game.View) []int {
		t.Helper()
		drawn = drawn[:0]
		sc := r.viewScene(&v, Options{Secret: 1}) // one match's pictures: their rows of Red's own ranks are kept too
		img := r.frames.Get().(*image.Paletted)
		defer r.frames.Put(img)
		err := r.encodeLazily(io.Discard, img, &sc, func(img *image.Paletted, bottom game.Side, row int, rows *boardRows) {
			drawn = append(drawn, row)
			r.drawRow(img, bottom, row, rows)
		})
		if err != nil {
			t.Fatal(err)
		}
		return slices.Clone(drawn)
	}
	v := g.View(game.RedViewer)
	if got := count(v); len(got) != 10 {
		t.Errorf("first picture: drew rows %v, want all ten", got)
	}
	if got := count(v); len(got) != 0 {
		t.Errorf("the same picture again: drew rows %v, want none", got)
	}
	// Red (at the bottom) steps from row 3 to row 4 of the board, counted from
	// the bottom: picture rows 6 and 5 from the top, and no other.
	if _, err := g.Apply(game.Move{From: sq(t, "A4"), To: sq(t, "A5")}); err != nil {
		t.Fatal(err)
	}
	if got := count(g.View(game.RedViewer)); !slices.Equal(got, []int{5, 6}) {
		t.Errorf("after A4-A5: drew rows %v, want [5 6]", got)
	}
}
