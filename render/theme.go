package render

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/strategobot/strategobot/game"
)

// The theme's colours. Every picture is an 8-bit paletted image, so every
// colour the tiles and the text can produce must be in the palette: the base
// colours below, and ramps between the pairs that meet at anti-aliased edges
// (see pairs).
var (
	colPage     = rgb(0xF4F0E6) // paper behind everything
	colPanel    = rgb(0xE6DECB) // status bar
	colBanner   = rgb(0xF2CF63) // status bar when the game is over
	colInk      = rgb(0x25211C) // text
	colInkSoft  = rgb(0x6E6656) // secondary text, coordinates
	colWarn     = rgb(0xB3261E) // a set-up problem
	colWhite    = rgb(0xFFFFFF)
	colLand     = rgb(0xE4D4A6) // a square of the board
	colGrid     = rgb(0xC1AC79) // lines between squares
	colFrame    = rgb(0x6B5B3B) // border around the board
	colLake     = rgb(0x8CC0DE)
	colLakeWave = rgb(0x5E9CC6)
	colLakeEdge = rgb(0x4F86AE)
	colMoveHL   = rgb(0xF3D35A) // the squares of the last move
	colBattleHL = rgb(0xEF8F55) // the square of the last battle
	// colMoveMark and colBattleMark frame the squares of the last move, so
	// that they show in greyscale too, where the yellow is as light as the
	// land. Each stands out at 3:1 (WCAG AA for graphics) from its square's
	// colour and from the land beside it (TestMarkContrast), as the web
	// board's (web/static) do in the same colours.
	colMoveMark   = rgb(0x946300)
	colBattleMark = rgb(0x962B07)
	// colTrail dots the squares a Scout ran over: the move's frame colour,
	// dark enough to read in greyscale.
	colTrail     = colMoveMark
	colDimFill   = rgb(0xDDD5C3) // a tray slot whose pieces are all gone
	colDimBorder = rgb(0xBDB29A)
	// colDimInk labels a dim mini piece: 6:1 on colDimFill, the contrast
	// of small text (it is 9 px on a phone), where colInkSoft had 3.9. It
	// is a shade the palette holds already, the ramp from colPage to colInk
	// (TestDimInkInPalette), so that no other pixel changes.
	colDimInk = rgb(0x4E4A44)

	// sideFill, sideDark and sideSoft are each side's piece body, border and
	// back emblem. Blue is darker than Red, so the sides differ in lightness
	// as well as hue; their shapes differ too (see drawToken).
	sideFill = [2]color.RGBA{rgb(0xCD3B31), rgb(0x2858A8)}
	sideDark = [2]color.RGBA{rgb(0x7D1B15), rgb(0x112F66)}
	sideSoft = [2]color.RGBA{rgb(0xE7776C), rgb(0x6E95D6)}
	// sideText writes a player's name on the page.
	sideText = [2]color.RGBA{rgb(0xB02A21), rgb(0x1E4E9C)}
)

// contrast is the WCAG contrast ratio of two opaque colours, 1 to 21.
func contrast(a, b color.RGBA) float64 {
	lum := func(c color.RGBA) float64 {
		ch := func(v uint8) float64 {
			x := float64(v) / 255
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

func rgb(hex uint32) color.RGBA {
	return color.RGBA{R: uint8(hex >> 16), G: uint8(hex >> 8), B: uint8(hex), A: 0xFF}
}

// squareBgs are the backgrounds a square can have.
const (
	bgNormal = iota
	bgFrom   // the square the last move came from: yellow, a thin frame
	bgTo     // the square the last move went to: yellow, a thick frame over the piece
	bgBattle // the square of the last battle or infiltration: orange, a thick dashed frame
	numBgs
)

// A Scout's run leaves a trail of dots on the squares it crossed, across the
// picture (bgTrailH) or up and down it (bgTrailV). A run crosses only empty
// squares, so only the empty tiles have these backgrounds.
const (
	bgTrailH = numBgs + iota
	bgTrailV
	numEmptyBgs
)

var squareBg = [numBgs]color.RGBA{colLand, colMoveHL, colMoveHL, colBattleHL}

// squareMark is the frame drawn over a square and its piece: its colour, its
// width, and the length of its dashes (0 for a solid frame). A battle's frame
// is dashed, so that it differs from a move's in shape, not only in hue.
var squareMark = [numBgs]struct {
	col   color.RGBA
	width int
	dash  int
}{bgFrom: {colMoveMark, 3, 0}, bgTo: {colMoveMark, 5, 0}, bgBattle: {colBattleMark, 6, 8}}

// markLastMove sets the backgrounds of the squares of the last move, and of
// those a run crossed: the move is public, so every view shows them.
func markLastMove(bg *[game.NumSquares]uint8, last game.MoveRecord) {
	from, to := last.Move.From, last.Move.To
	bg[from] = bgFrom
	bg[to] = bgTo
	if last.IsAttack() || last.Move.IsInfiltration() {
		bg[to] = bgBattle
	}
	if last.Move.IsInfiltration() {
		return // a strike from afar: the Infiltrator crossed nothing
	}
	// Rows stay rows in both orientations of the board.
	step, trail := 1, uint8(bgTrailH)
	if from.Col() == to.Col() {
		step, trail = 10, bgTrailV
	} else if from.Row() != to.Row() {
		return
	}
	if to < from {
		step = -step
	}
	for s := int(from) + step; s != int(to); s += step {
		bg[s] = trail
	}
}

// rampSteps is the number of colours between the two ends of a ramp; text
// masks are quantized to the same number of levels (textLevels).
const rampSteps = 4

// pairs lists the colours that meet at anti-aliased edges; the palette holds
// rampSteps colours between the two of each pair.
func pairs() [][2]color.RGBA {
	var p [][2]color.RGBA
	for _, bg := range squareBg {
		p = append(p, [2]color.RGBA{bg, colGrid}, [2]color.RGBA{bg, sideDark[0]}, [2]color.RGBA{bg, sideDark[1]})
	}
	for s := range 2 {
		p = append(p,
			[2]color.RGBA{sideDark[s], sideFill[s]},
			[2]color.RGBA{sideFill[s], colWhite},
			[2]color.RGBA{sideFill[s], sideSoft[s]},
			[2]color.RGBA{sideDark[s], colWhite},
			[2]color.RGBA{colPage, sideDark[s]},
			[2]color.RGBA{colPage, sideText[s]},
		)
	}
	p = append(p,
		[2]color.RGBA{colLand, colLakeEdge},
		[2]color.RGBA{colLand, colTrail},
		[2]color.RGBA{colLakeEdge, colLake},
		[2]color.RGBA{colLake, colLakeWave},
		[2]color.RGBA{colPage, colFrame},
		[2]color.RGBA{colPage, colInk},
		[2]color.RGBA{colPage, colInkSoft},
		[2]color.RGBA{colPage, colWarn},
		[2]color.RGBA{colWarn, colWhite}, // a low clock
		[2]color.RGBA{colPage, colDimBorder},
		[2]color.RGBA{colDimBorder, colDimFill},
		[2]color.RGBA{colDimFill, colInkSoft},
		[2]color.RGBA{colPanel, colInk},
		[2]color.RGBA{colPanel, colInkSoft},
		[2]color.RGBA{colBanner, colInk},
		[2]color.RGBA{colPanel, sideText[0]},
		[2]color.RGBA{colPanel, sideText[1]},
	)
	return p
}

// buildPalette returns the theme's palette: the base colours first, then the
// ramps. It has at most 255 colours, so that a GIF can add a transparent one.
func buildPalette() (color.Palette, error) {
	var pal color.Palette
	seen := map[color.RGBA]bool{}
	add := func(c color.RGBA) {
		if !seen[c] {
			seen[c] = true
			pal = append(pal, c)
		}
	}
	for _, c := range []color.RGBA{colPage, colPanel, colBanner, colInk, colInkSoft, colWarn, colWhite,
		colLand, colGrid, colFrame, colLake, colLakeWave, colLakeEdge, colMoveHL, colBattleHL, colMoveMark, colBattleMark, colDimFill, colDimBorder} {
		add(c)
	}
	for s := range 2 {
		add(sideFill[s])
		add(sideDark[s])
		add(sideSoft[s])
		add(sideText[s])
	}
	for _, p := range pairs() {
		for k := 1; k <= rampSteps; k++ {
			add(mix(p[0], p[1], k, rampSteps+1))
		}
	}
	if len(pal) > 255 {
		return nil, fmt.Errorf("render: the theme needs %d colours, a palette holds 255", len(pal))
	}
	return pal, nil
}

// mix returns a + (b-a)*num/den, rounded.
func mix(a, b color.RGBA, num, den int) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8((int(x)*(den-num) + int(y)*num + den/2) / den) }
	return color.RGBA{R: f(a.R, b.R), G: f(a.G, b.G), B: f(a.B, b.B), A: 0xFF}
}

// quantizer maps colours to the nearest palette entry, remembering answers:
// anti-aliased drawings repeat the same few hundred colours many times.
type quantizer struct {
	pal   []color.RGBA
	cache map[color.RGBA]uint8
}

func newQuantizer(pal color.Palette) *quantizer {
	q := &quantizer{cache: map[color.RGBA]uint8{}}
	for _, c := range pal {
		q.pal = append(q.pal, color.RGBAModel.Convert(c).(color.RGBA))
	}
	return q
}

// index returns the palette index nearest to c, an opaque colour.
func (q *quantizer) index(c color.RGBA) uint8 {
	if i, ok := q.cache[c]; ok {
		return i
	}
	best, bestD := 0, 1<<62
	for i, p := range q.pal {
		// Weights follow the eye's sensitivity, roughly (green most, blue least).
		dr, dg, db := int(c.R)-int(p.R), int(c.G)-int(p.G), int(c.B)-int(p.B)
		d := 3*dr*dr + 4*dg*dg + 2*db*db
		if d < bestD {
			best, bestD = i, d
		}
	}
	q.cache[c] = uint8(best)
	return uint8(best)
}

// paletted converts an opaque RGBA drawing to palette indices, row by row.
func (q *quantizer) paletted(src *image.RGBA) []uint8 {
	b := src.Bounds()
	out := make([]uint8, 0, b.Dx()*b.Dy())
	var last color.RGBA
	var lastIdx uint8
	have := false
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := src.Pix[src.PixOffset(b.Min.X, y):]
		for x := 0; x < b.Dx(); x++ {
			p := row[4*x : 4*x+4]
			// src is premultiplied; every drawing here is opaque, so this is the colour.
			c := color.RGBA{R: p[0], G: p[1], B: p[2], A: 0xFF}
			if !have || c != last {
				last, lastIdx, have = c, q.index(c), true
			}
			out = append(out, lastIdx)
		}
	}
	return out
}

// numberings are the two labellings, indexing tile tables.
var numberings = [2]game.Numbering{game.NumberingModern, game.NumberingClassic}
