package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"

	"github.com/strategobot/strategobot/game"
)

// Sizes in pixels.
const (
	tileSize = 48 // a square of the board
	miniSize = 26 // a piece in a tray or in the last-move line
	chipSize = 16 // the side marker before a player's name

	labelSize     = 25 // a rank's label on a square
	miniLabelSize = 16 // a rank's label on a mini piece
	// labelDrop is how far below a square's piece's middle its label's
	// middle is, so that a "10" stays clear of the moved dot in the
	// corner above it (TestLabelsCentred).
	labelDrop = 3
	// miniSymbol scales a square's bomb and flag to a mini piece's: 16
	// pixels high or more, 9 on a phone.
	miniSymbol = 0.9
)

// Marks on a piece whose rank the viewer sees.
const (
	markNone  = iota
	markMoved // it has moved (the opponent knows it is no Bomb or Flag)
	markKnown // its rank is public: revealed in a battle, or a Scout by its moves
	numMarks
)

// tileSet holds every picture of a square, mini piece and chip, as palette
// indices row by row, drawn once with gg and never changed afterwards.
type tileSet struct {
	empty [numEmptyBgs][]uint8 // with the trail of a run
	// face is a piece whose rank the viewer knows: [bg][side][mark][numbering][rank].
	face [numBgs][2][numMarks][2][game.NumRanks][]uint8
	// back is a piece whose rank the viewer does not know: [bg][side][moved].
	back [numBgs][2][2][]uint8
	// mini is a small piece for trays and texts: [side][dim][numbering][rank].
	mini [2][2][2][game.NumRanks][]uint8
	chip [2][]uint8
}

// tileFonts are the faces gg draws tile labels with, at start-up only.
type tileFonts struct {
	label, mini font.Face
}

func newTileFonts(bold *opentype.Font) (*tileFonts, error) {
	face := func(f *opentype.Font, size float64) (font.Face, error) {
		fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, fmt.Errorf("render: tile font at %vpx: %w", size, err)
		}
		return fc, nil
	}
	var tf tileFonts
	var err error
	if tf.label, err = face(bold, labelSize); err != nil {
		return nil, err
	}
	if tf.mini, err = face(bold, miniLabelSize); err != nil {
		return nil, err
	}
	return &tf, nil
}

func buildTiles(q *quantizer, tf *tileFonts) *tileSet {
	ts := &tileSet{}
	var bgImgs [numBgs]*image.RGBA
	for bg := range numBgs {
		dc := gg.NewContext(tileSize, tileSize)
		drawSquare(dc, squareBg[bg])
		bgImgs[bg] = dc.Image().(*image.RGBA)
		empty := image.NewRGBA(bgImgs[bg].Rect)
		copy(empty.Pix, bgImgs[bg].Pix)
		drawSquareMark(empty, bg)
		ts.empty[bg] = q.paletted(empty)
	}
	for i, bg := range []int{bgTrailH, bgTrailV} {
		dc := gg.NewContext(tileSize, tileSize)
		drawSquare(dc, colLand)
		drawTrail(dc, i == 1)
		ts.empty[bg] = q.paletted(dc.Image().(*image.RGBA))
	}
	// over draws a transparent piece on each square background, and the
	// square's frame over both.
	over := func(piece *image.RGBA) (out [numBgs][]uint8) {
		for bg := range numBgs {
			dst := image.NewRGBA(bgImgs[bg].Rect)
			copy(dst.Pix, bgImgs[bg].Pix)
			draw.Draw(dst, dst.Rect, piece, image.Point{}, draw.Over)
			drawSquareMark(dst, bg)
			out[bg] = q.paletted(dst)
		}
		return out
	}
	for side := range 2 {
		for moved := range 2 {
			dc := gg.NewContext(tileSize, tileSize)
			drawBack(dc, side, moved == 1)
			t := over(dc.Image().(*image.RGBA))
			for bg := range numBgs {
				ts.back[bg][side][moved] = t[bg]
			}
		}
		for mark := range numMarks {
			for ni, n := range numberings {
				for _, r := range game.Ranks {
					if ni > 0 && r.Label(n) == r.Label(game.NumberingModern) {
						for bg := range numBgs {
							ts.face[bg][side][mark][ni][r] = ts.face[bg][side][mark][0][r]
						}
						continue
					}
					dc := gg.NewContext(tileSize, tileSize)
					drawFace(dc, tf, side, r, n, mark)
					t := over(dc.Image().(*image.RGBA))
					for bg := range numBgs {
						ts.face[bg][side][mark][ni][r] = t[bg]
					}
				}
			}
		}
		for dim := range 2 {
			for ni, n := range numberings {
				for _, r := range game.Ranks {
					if ni > 0 && r.Label(n) == r.Label(game.NumberingModern) {
						ts.mini[side][dim][ni][r] = ts.mini[side][dim][0][r]
						continue
					}
					dc := gg.NewContext(miniSize, miniSize)
					dc.SetColor(colPage)
					dc.Clear()
					drawMini(dc, tf, side, r, n, dim == 1)
					ts.mini[side][dim][ni][r] = q.paletted(dc.Image().(*image.RGBA))
				}
			}
		}
		dc := gg.NewContext(chipSize, chipSize)
		dc.SetColor(colPage)
		dc.Clear()
		drawToken(dc, side, 1, chipSize-2, sideDark[side], sideFill[side], 1.5)
		ts.chip[side] = q.paletted(dc.Image().(*image.RGBA))
	}
	return ts
}

// drawSquare paints an empty square: land with a grid line on its right and bottom edges.
func drawSquare(dc *gg.Context, bg color.RGBA) {
	dc.SetColor(bg)
	dc.Clear()
	dc.SetColor(colGrid)
	dc.DrawRectangle(tileSize-1, 0, 1, tileSize)
	dc.DrawRectangle(0, tileSize-1, tileSize, 1)
	dc.Fill()
}

// drawSquareMark frames a square of the last move, over its piece, inside
// the grid lines: pixel-aligned, so that it is crisp and cheap to compress.
// A line of the square's colour, a pixel wide, lines the frame where it
// meets what it would not stand out from at 3:1 (a piece's body), so that
// the frame stands out from the piece as from the square: no one colour
// does from both (TestMarkEdges). What stands out already (a known piece's
// white ring) is left as it is.
func drawSquareMark(dst *image.RGBA, bg int) {
	m := squareMark[bg]
	if m.width == 0 {
		return
	}
	in := tileSize - 1 // the grid line takes the last pixel
	var mark [tileSize * tileSize]bool
	ink := func(r image.Rectangle) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				mark[y*tileSize+x] = true
			}
		}
	}
	for _, r := range []image.Rectangle{
		image.Rect(0, 0, in, m.width), image.Rect(0, in-m.width, in, in),
		image.Rect(0, 0, m.width, in), image.Rect(in-m.width, 0, in, in),
	} {
		if m.dash == 0 {
			ink(r)
			continue
		}
		// Dashes from both ends towards the middle, so that every corner
		// is inked and the frame is symmetric.
		horizontal := r.Dx() > r.Dy()
		for at := 0; at < in/2; at += 2 * m.dash {
			end := min(at+m.dash, in/2+1)
			for _, span := range [][2]int{{at, end}, {in - end, in - at}} {
				d := image.Rect(span[0], r.Min.Y, span[1], r.Max.Y)
				if !horizontal {
					d = image.Rect(r.Min.X, span[0], r.Max.X, span[1])
				}
				ink(d)
			}
		}
	}
	for y := range in {
		for x := range in {
			switch {
			case mark[y*tileSize+x]:
				dst.SetRGBA(x, y, m.col)
			case nextTo(&mark, x, y) && contrast(m.col, dst.RGBAAt(x, y)) < 3:
				dst.SetRGBA(x, y, squareBg[bg])
			}
		}
	}
}

// nextTo says whether a pixel of mark is next to (x, y), across or along a
// diagonal.
func nextTo(mark *[tileSize * tileSize]bool, x, y int) bool {
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if nx, ny := x+dx, y+dy; nx >= 0 && ny >= 0 && nx < tileSize && ny < tileSize && mark[ny*tileSize+nx] {
				return true
			}
		}
	}
	return false
}

// Sizes of the dots of a run's trail: two a square, evenly spaced across
// squares, big enough to stay dots on a phone (TestTrailLegibility).
const (
	trailDot     = 4.5 // radius
	trailSpacing = tileSize / 2
)

// drawTrail dots the middle line of a square a run crossed, across it or
// (vertical) up and down it.
func drawTrail(dc *gg.Context, vertical bool) {
	c := float64(tileSize-1) / 2 // the grid line takes the last pixel
	dc.SetColor(colTrail)
	for _, d := range []float64{-trailSpacing / 2, trailSpacing / 2} {
		x, y := c+d, c
		if vertical {
			x, y = c, c+d
		}
		dc.DrawCircle(x, y, trailDot)
		dc.Fill()
	}
}

// tokenShape traces a piece's outline in a box at (inset, inset) of size
// size. Red pieces are rounded squares and Blue pieces sharp-cornered
// squares, so that the sides differ in shape as well as colour.
func tokenShape(dc *gg.Context, side int, inset, size float64) {
	if side == int(game.Red) {
		dc.DrawRoundedRectangle(inset, inset, size, size, size*0.3)
		return
	}
	dc.DrawRectangle(inset, inset, size, size)
}

// drawToken paints a piece's body: a border of width border in dark, filled with fill.
func drawToken(dc *gg.Context, side int, inset, size float64, dark, fill color.RGBA, border float64) {
	dc.SetColor(dark)
	tokenShape(dc, side, inset, size)
	dc.Fill()
	dc.SetColor(fill)
	tokenShape(dc, side, inset+border, size-2*border)
	dc.Fill()
}

const (
	tokenInset = 3.0
	tokenSize  = tileSize - 2*tokenInset - 1 // the grid line takes the last pixel
)

func drawBack(dc *gg.Context, side int, moved bool) {
	drawToken(dc, side, tokenInset, tokenSize, sideDark[side], sideFill[side], 2)
	c := tokenInset + tokenSize/2
	// An emblem in the middle, a ring for Red and a square for Blue, says
	// "hidden piece" and repeats the shape difference of the sides.
	dc.SetColor(sideSoft[side])
	dc.SetLineWidth(3)
	if side == int(game.Red) {
		dc.DrawCircle(c, c, 9)
	} else {
		// Pixel-aligned, so that its edges are crisp: cheaper to compress.
		dc.DrawRectangle(c-8, c-8, 16, 16)
	}
	dc.Stroke()
	if moved {
		drawMovedMark(dc)
	}
}

// The moved dot's middle and radius: 9 pixels wide, so that it stays a dot
// on a phone.
const (
	movedDotX = tokenInset + tokenSize - 8
	movedDotY = tokenInset + 8
	movedDotR = 4.5
)

// drawMovedMark puts a white dot in the top-right corner: the piece has
// moved.
func drawMovedMark(dc *gg.Context) {
	dc.SetColor(colWhite)
	dc.DrawCircle(movedDotX, movedDotY, movedDotR)
	dc.Fill()
}

func drawFace(dc *gg.Context, tf *tileFonts, side int, r game.Rank, n game.Numbering, mark int) {
	drawToken(dc, side, tokenInset, tokenSize, sideDark[side], sideFill[side], 2)
	c := tokenInset + tokenSize/2
	if mark == markKnown {
		// A thick white inner outline: everyone knows what this piece is.
		dc.SetColor(colWhite)
		dc.SetLineWidth(2.5)
		tokenShape(dc, side, tokenInset+4.25, tokenSize-8.5)
		dc.Stroke()
	}
	dc.SetColor(colWhite)
	switch r {
	case game.Bomb:
		drawBomb(dc, c, c, 1.25)
	case game.Flag:
		drawFlag(dc, c, c, 1.25)
	default:
		drawLabel(dc, tf.label, r.Label(n), c, c+labelDrop)
	}
	if mark == markMoved {
		drawMovedMark(dc)
	}
}

func drawMini(dc *gg.Context, tf *tileFonts, side int, r game.Rank, n game.Numbering, dim bool) {
	dark, fill, ink := sideDark[side], sideFill[side], colWhite
	if dim {
		dark, fill, ink = colDimBorder, colDimFill, colDimInk
	}
	drawToken(dc, side, 0.5, miniSize-1, dark, fill, 1.5)
	c := float64(miniSize) / 2
	dc.SetColor(ink)
	switch r {
	case game.Bomb:
		drawBomb(dc, c, c, miniSymbol)
	case game.Flag:
		drawFlag(dc, c, c, miniSymbol)
	default:
		drawLabel(dc, tf.mini, r.Label(n), c, c)
	}
}

// drawLabel writes a short text (a rank's label, a coordinate) in face
// with its ink centred on (cx, cy), which gg's anchor would not do: it
// centres the advance and the font's line height, and a label sat four or
// five pixels low, an E a pixel and a half to the left (TestLabelsCentred,
// TestCoordinatesCentred).
func drawLabel(dc *gg.Context, face font.Face, label string, cx, cy float64) {
	dc.SetFontFace(face)
	ink, _ := font.BoundString(face, label)
	// fixed.Int26_6 to pixels, halved: the ink's middle from the dot.
	midX, midY := float64(ink.Min.X+ink.Max.X)/128, float64(ink.Min.Y+ink.Max.Y)/128
	dc.DrawString(label, cx-midX, cy-midY)
}

// drawBomb draws a round bomb with a lit fuse centred on (cx, cy), s times the size of a square's.
func drawBomb(dc *gg.Context, cx, cy, s float64) {
	dc.DrawCircle(cx-1*s, cy+1.5*s, 7.5*s)
	dc.Fill()
	dc.SetLineWidth(2.2 * s)
	dc.DrawLine(cx+3*s, cy-3.5*s, cx+6*s, cy-7*s)
	dc.Stroke()
	dc.SetLineWidth(1.4 * s)
	for i := range 5 {
		a := float64(i)*2*math.Pi/5 - math.Pi/2
		dc.DrawLine(cx+7.5*s, cy-8.5*s, cx+7.5*s+3.2*s*math.Cos(a), cy-8.5*s+3.2*s*math.Sin(a))
	}
	dc.Stroke()
}

// drawFlag draws a flag on its pole centred on (cx, cy), s times the size of a square's.
func drawFlag(dc *gg.Context, cx, cy, s float64) {
	dc.SetLineWidth(2.2 * s)
	dc.DrawLine(cx-5.5*s, cy-9*s, cx-5.5*s, cy+9*s)
	dc.Stroke()
	dc.MoveTo(cx-5.5*s, cy-9*s)
	dc.LineTo(cx+8*s, cy-4.5*s)
	dc.LineTo(cx-5.5*s, cy+0.5*s)
	dc.ClosePath()
	dc.Fill()
}
