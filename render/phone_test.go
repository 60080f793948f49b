package render

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/image/draw"

	"github.com/strategobot/strategobot/game"
)

var phoneDir = flag.String("phone", "", "write pictures as a phone shows them (300 px wide, in colour and in greyscale) into this directory, to look at")

// phoneWidth is about how wide Discord's phone client shows a picture.
const phoneWidth = 300

// phoneMinPx is the smallest a text or a symbol may be on a phone, in pixels.
const phoneMinPx = 9

// phoneScale is how much a phone shrinks a picture.
const phoneScale = float64(phoneWidth) / pageW

// onPhone scales img to phoneWidth the way a client does (Catmull-Rom).
func onPhone(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, phoneWidth, b.Dy()*phoneWidth/b.Dx()))
	draw.CatmullRom.Scale(out, out.Rect, img, b, draw.Src, nil)
	return out
}

// squareOnPhone scales the part of img around the square at p (one square
// of margin on every side, so that the filter sees the neighbours) as
// onPhone scales the whole, and returns it with the square's rectangle in it.
func squareOnPhone(img image.Image, p image.Point) (*image.RGBA, image.Rectangle) {
	return squareAtWidth(img, p, phoneWidth)
}

// squareAtWidth is squareOnPhone for a picture shown width pixels wide.
func squareAtWidth(img image.Image, p image.Point, width int) (*image.RGBA, image.Rectangle) {
	area := image.Rect(p.X-tileSize, p.Y-tileSize, p.X+2*tileSize, p.Y+2*tileSize).Intersect(img.Bounds())
	f := float64(width) / float64(img.Bounds().Dx())
	scale := func(v int) int { return int(float64(v)*f + 0.5) }
	out := image.NewRGBA(image.Rect(0, 0, scale(area.Dx()), scale(area.Dy())))
	draw.CatmullRom.Scale(out, out.Rect, img, area, draw.Src, nil)
	sq := image.Rectangle{p.Sub(area.Min), p.Sub(area.Min).Add(image.Pt(tileSize, tileSize))}
	return out, image.Rect(scale(sq.Min.X), scale(sq.Min.Y), scale(sq.Max.X), scale(sq.Max.Y))
}

// luma is the brightness of c, 0 to 255, as a greyscale conversion gives it.
func luma(c color.Color) int { return int(color.GrayModel.Convert(c).(color.Gray).Y) }

// difference counts the pixels of two phone pictures within rect whose
// brightness differs by at least level of 255.
func difference(a, b *image.RGBA, rect image.Rectangle, level int) int {
	n := 0
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			if abs(luma(a.RGBAAt(x, y))-luma(b.RGBAAt(x, y))) >= level {
				n++
			}
		}
	}
	return n
}

// inkHeight returns how many rows of a size x size tile hold pixels of palette index ink.
func inkHeight(tile []uint8, size int, ink uint8) int {
	top, bottom := size, -1
	for i, p := range tile {
		if p == ink {
			top, bottom = min(top, i/size), max(bottom, i/size)
		}
	}
	return bottom - top + 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestPhoneLegibility checks that what a picture tells stays visible when a
// phone shows it 300 pixels wide, and in greyscale: the texts' size, the
// frames of the last move, the moved dot and the ring of a known piece.
// Run with -phone DIR to look at the pictures.
func TestPhoneLegibility(t *testing.T) {
	r := renderer(t)
	// A font's size is what "9 px text" means; every text drawn is here:
	// the status, names and move lines, the tray counts, the coordinates,
	// the labels of the squares and of the mini pieces (trays, battle line).
	t.Run("text sizes", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			size float64 // at full size, in pixels
		}{
			{"status, names, move and battle lines", r.text.size},
			{"bold: names, tray counts", r.bold.size},
			{"two-digit tray counts", r.small.size},
			{"coordinates", coordSize},
			{"labels of the squares", labelSize},
			{"labels of the mini pieces", miniLabelSize},
			{"standings, at their widest", r.text.size * pageW / tableMaxW}, // shrunk more than a board
		} {
			if got := tc.size * phoneScale; got < phoneMinPx {
				t.Errorf("%s: %.1f px on a phone, want at least %d", tc.name, got, phoneMinPx)
			}
		}
	})
	// A symbol's size is the height of its ink, measured on the tiles.
	t.Run("symbol sizes", func(t *testing.T) {
		white := uint8(r.pal.Index(colWhite))
		for _, tc := range []struct {
			name string
			size int
			tile []uint8
			ink  uint8
		}{
			{"a mini piece", miniSize, r.tiles.mini[game.Red][0][0][game.Bomb], 0},
			{"a bomb on a mini piece", miniSize, r.tiles.mini[game.Red][0][0][game.Bomb], white},
			{"a flag on a mini piece", miniSize, r.tiles.mini[game.Blue][0][0][game.Flag], white},
			{"a bomb on a square", tileSize, r.tiles.face[bgNormal][game.Red][markNone][0][game.Bomb], white},
			{"a side's chip", chipSize, r.tiles.chip[game.Blue], 0},
		} {
			h := tc.size
			if tc.ink != 0 {
				h = inkHeight(tc.tile, tc.size, tc.ink)
			}
			if got := float64(h) * phoneScale; got < phoneMinPx {
				t.Errorf("%s: %.1f px high on a phone (%d here), want at least %d", tc.name, got, h, phoneMinPx)
			}
		}
	})

	// Each mark is checked by drawing the view with and without it: on a
	// phone, in greyscale, at least min pixels of the square must differ by
	// markLevel or more (a clear difference, not a shade).
	const markLevel = 50
	l := &r.board
	unmark := func(square string, f func(c *game.Cell)) func(v *game.View) {
		return func(v *game.View) { f(&v.Board[sq(t, square)]) }
	}
	noLastMove := func(v *game.View) { v.History = nil }
	tests := []struct {
		name    string
		plies   int
		viewer  game.Viewer
		square  string
		without func(v *game.View)
		min     int
	}{
		// The figures of the pictures before this test (a yellow square, a
		// dot 6 pixels wide, a ring 1.5 pixels thick) are in the comments.
		{"the frame of the from square", 3, game.BlueViewer, "F4", noLastMove, 100},                          // now 200, was 0
		{"the frame of the to square", 3, game.BlueViewer, "F6", noLastMove, 120},                            // now 296, was 0
		{"the frame of the battle square", 2, game.RedViewer, "A6", noLastMove, 100},                         // now 141, was 26
		{"the moved dot", 7, game.RedViewer, "B5", unmark("B5", func(c *game.Cell) { c.Moved = false }), 18}, // now 24, was 12
		{"the moved dot on a hidden piece", 7, game.BlueViewer, "B5", unmark("B5", func(c *game.Cell) { c.Moved = false }), 18},
		{"the ring of a known piece", 2, game.RedViewer, "A6", unmark("A6", func(c *game.Cell) { c.Revealed = false }), 125}, // now 125, was 106
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := goldenGame(t, tc.plies).View(tc.viewer)
			bottom := game.Red
			if s, ok := tc.viewer.IsPlayer(); ok {
				bottom = s
			}
			p := l.squareAt(sq(t, tc.square), bottom)
			with, rect := squareOnPhone(decodePNG(t, boardPNG(t, r, v, Options{})), p)
			tc.without(&v)
			without, _ := squareOnPhone(decodePNG(t, boardPNG(t, r, v, Options{})), p)
			got := difference(with, without, rect, markLevel)
			if got < tc.min {
				t.Errorf("on a phone, in greyscale, the mark changes %d pixels of the square by %d levels of 255 or more, want at least %d", got, markLevel, tc.min)
			}
		})
	}

	if *phoneDir == "" {
		return
	}
	if err := os.MkdirAll(*phoneDir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, img image.Image) {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*phoneDir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		plies  int
		viewer game.Viewer
	}{{"battle-red", 2, game.RedViewer}, {"move-blue", 3, game.BlueViewer}, {"public", 7, game.PublicViewer}} {
		phone := onPhone(decodePNG(t, boardPNG(t, r, goldenGame(t, tc.plies).View(tc.viewer), Options{Names: [2]string{"Ada", "Grace"}})))
		write(tc.name+".png", phone)
		grey := image.NewGray(phone.Rect)
		draw.Draw(grey, grey.Rect, phone, image.Point{}, draw.Src)
		write(tc.name+"-grey.png", grey)
	}
	t.Logf("phone pictures in %s", *phoneDir)
}

// TestMoveAndBattleFramesDifferInShape checks that a plain move's frame and a
// battle's, and a run's trail and the frame of the square it left, differ in
// greyscale by their shape, not only by their shade: the
// pixels each frame inks (those clearly darker than its square) must differ
// in many places, on the tiles as drawn and as a phone shows them.
func TestMoveAndBattleFramesDifferInShape(t *testing.T) {
	r := renderer(t)
	// ink maps the frame of an empty square with background bg to the pixels
	// at least 40 levels darker than the square's middle, in greyscale.
	ink := func(bg int, scale float64) []bool {
		src := &image.Paletted{Pix: r.tiles.empty[bg], Stride: tileSize, Rect: image.Rect(0, 0, tileSize, tileSize), Palette: r.pal}
		n := int(tileSize*scale + 0.5)
		img := image.NewRGBA(image.Rect(0, 0, n, n))
		draw.CatmullRom.Scale(img, img.Rect, src, src.Rect, draw.Src, nil)
		square := luma(img.RGBAAt(n/2, n/2))
		out := make([]bool, n*n)
		for i := range out {
			out[i] = square-luma(img.RGBAAt(i%n, i/n)) >= 40
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		a, b  int
		scale float64
	}{
		{"move and battle, full size", bgTo, bgBattle, 1},
		{"move and battle, on a phone", bgTo, bgBattle, phoneScale},
		// A run's trail is no square it left.
		{"trail and from square, on a phone", bgTrailV, bgFrom, phoneScale},
		{"trail across and from square, on a phone", bgTrailH, bgFrom, phoneScale},
	} {
		t.Run(tc.name, func(t *testing.T) {
			move, battle := ink(tc.a, tc.scale), ink(tc.b, tc.scale)
			differ, inked := 0, 0
			for i := range move {
				if move[i] != battle[i] {
					differ++
				}
				if move[i] || battle[i] {
					inked++
				}
			}
			// A frame of another colour only inks the same pixels.
			if inked == 0 || differ*4 < inked {
				t.Errorf("the frames ink %d pixels, of which only %d differ in shape; want a quarter or more", inked, differ)
			}
		})
	}
}

// TestWrongCountsDifferInShape: in a set-up preview's tray, a rank placed
// the wrong number of times is marked by a bar under it, not only by the
// red of its count: on a phone, in greyscale, the band under each entry is
// clearly darker than the page for a wrong count and for no other.
func TestWrongCountsDifferInShape(t *testing.T) {
	r := renderer(t)
	red, _ := goldenSetups(t)
	red[3][0] = game.NoRank  // a Miner missing
	red[3][1] = game.Captain // a Bomb become a Captain: one too many
	rules := game.DefaultRules(game.VariantClassic)
	var b bytes.Buffer
	if err := r.SetupPreview(&b, red, game.Red, rules, Options{}); err != nil {
		t.Fatal(err)
	}
	phone := onPhone(decodePNG(t, b.Bytes()))
	sc := r.setupScene(&red, game.Red, rules, Options{})
	tray := r.board.strips[1].tray
	entries := sc.strips[1].tray
	ew := min(44, (tray.Dx()-2*padX)/len(entries))
	scale := func(v int) int { return int(float64(v) * phoneScale) }
	page := luma(colPage)
	for i, e := range entries {
		x := padX + i*ew
		// The band under the mini piece, on the phone.
		band := image.Rect(scale(x), scale(tray.Max.Y-5), scale(x+ew-6), scale(tray.Max.Y))
		dark := 0
		for y := band.Min.Y; y < band.Max.Y; y++ {
			for x := band.Min.X; x < band.Max.X; x++ {
				if page-luma(phone.RGBAAt(x, y)) >= 50 {
					dark++
				}
			}
		}
		if marked := dark >= band.Dx()/2; marked != e.warn {
			t.Errorf("the %s entry (%q, wrong: %v) has %d dark pixels under it on a phone", e.rank, e.text, e.warn, dark)
		}
	}
	if !slices.ContainsFunc(entries, func(e trayEntry) bool { return e.warn }) {
		t.Fatal("no count is wrong")
	}
}
