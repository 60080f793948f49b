package render

import (
	"image"
	"strconv"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"

	"github.com/strategobot/strategobot/game"
)

// Sizes of the parts of a picture, in pixels.
//
// A picture is 524 pixels wide and Discord shows it about 300 pixels wide on a
// phone, so every font is at least 16 pixels here (9 on the phone; see
// TestPhoneLegibility).
const (
	edgeW   = 22 // the margins left and right of the board, with the row numbers
	coordH  = 20 // the margins above and below the board, with the column letters
	statusH = 36 // the status bar at the top
	nameH   = 28 // a player's name line
	trayH   = 34 // a player's tray
	lineH   = 28 // a line of the footer: the last move, its battle
	// footerGap is the space between the lower tray and the footer, and
	// footerPad the space under it: a mini piece on its last line ends a
	// pixel above the line's bottom, so padX from the picture's edge, as
	// the texts are from its sides (TestMargins).
	footerGap = 4
	footerPad = padX - 1
	frameW    = 2 // the border around the board
	warnBarH  = 3 // the bar under a set-up's wrong count in the tray

	textSize  = 18 // status, names, footer, tray counts
	smallSize = 16 // tray counts of two digits
	coordSize = 16 // the coordinates around the board
	padX      = 10 // space between the picture's edge and text
	boardPx   = 10 * tileSize
	pageW     = 2*edgeW + boardPx
)

// strip is one player's part of a picture: the name line and the tray.
type strip struct {
	name, tray image.Rectangle
}

// layout places the parts of one kind of picture.
type layout struct {
	w, h   int
	status image.Rectangle
	// strips[0] is above the board, strips[1] below it.
	strips [2]strip
	board  image.Point // top-left corner of the top-left square
	// footer holds the lines under the board (board pictures) or above it
	// (a replay's caption), if any.
	footer []image.Rectangle
}

// boardLayout is the layout of every still picture: status, the top player,
// the board, the bottom player, the last move.
func boardLayout() layout {
	l := layout{w: pageW}
	y := 0
	l.status = image.Rect(0, y, pageW, y+statusH)
	y += statusH
	l.strips[0] = strip{name: image.Rect(0, y, pageW, y+nameH), tray: image.Rect(0, y+nameH, pageW, y+nameH+trayH)}
	y += nameH + trayH + coordH
	l.board = image.Pt(edgeW, y)
	y += boardPx + coordH
	l.strips[1] = strip{name: image.Rect(0, y, pageW, y+nameH), tray: image.Rect(0, y+nameH, pageW, y+nameH+trayH)}
	y += nameH + trayH + footerGap
	l.footer = []image.Rectangle{image.Rect(0, y, pageW, y+lineH), image.Rect(0, y+lineH, pageW, y+2*lineH)}
	l.h = y + 2*lineH + footerPad
	return l
}

// replayLayout is the layout of a replay: the status line and the caption
// (the move and its battle) at the top, a name line above and below the
// board, no trays, so that a frame changes little and in two places only.
func replayLayout() layout {
	l := layout{w: pageW}
	y := 0
	l.status = image.Rect(0, y, pageW, y+statusH)
	y += statusH
	l.footer = []image.Rectangle{image.Rect(0, y, pageW, y+lineH+4)}
	y += lineH + 4
	l.strips[0] = strip{name: image.Rect(0, y, pageW, y+nameH)}
	y += nameH + coordH
	l.board = image.Pt(edgeW, y)
	y += boardPx + coordH
	l.strips[1] = strip{name: image.Rect(0, y, pageW, y+nameH)}
	l.h = y + nameH + 4
	return l
}

// squareAt returns the top-left pixel of square s when bottom's army is at the
// bottom of the picture: Blue's view is Red's turned by 180 degrees.
func (l *layout) squareAt(s game.Square, bottom game.Side) image.Point {
	col, row := s.Col(), 9-s.Row()
	if bottom == game.Blue {
		col, row = 9-s.Col(), s.Row()
	}
	return image.Pt(l.board.X+col*tileSize, l.board.Y+row*tileSize)
}

// background draws what never changes in a layout: the page, the board's
// frame, the lakes and the coordinates, as seen with bottom's army at the bottom.
func (l *layout) background(q *quantizer, coords font.Face, bottom game.Side) []uint8 {
	dc := gg.NewContext(l.w, l.h)
	dc.SetColor(colPage)
	dc.Clear()
	bx, by := float64(l.board.X), float64(l.board.Y)
	dc.SetColor(colFrame)
	dc.DrawRectangle(bx-frameW, by-frameW, boardPx+2*frameW, boardPx+2*frameW)
	dc.Fill()
	dc.SetColor(colLand)
	dc.DrawRectangle(bx, by, boardPx, boardPx)
	dc.Fill()
	// The lakes: C5–D6 and G5–H6 look the same from both sides.
	for _, col := range []int{2, 6} {
		p := l.squareAt(game.SquareAt(col, 5), game.Red)
		drawLake(dc, float64(p.X), float64(p.Y))
	}
	// Each coordinate is centred by its ink (drawLabel): the letters as
	// far from the frame above the board as below it, the numbers level
	// with their rows' pieces (TestCoordinatesCentred).
	dc.SetColor(colInkSoft)
	for i := range 10 {
		s := game.SquareAt(i, i) // a square in column i and row i
		p := l.squareAt(s, bottom)
		letter := string(rune('A' + i))
		cx := float64(p.X) + tileSize/2
		drawLabel(dc, coords, letter, cx, by-frameW-coordH/2)
		drawLabel(dc, coords, letter, cx, by+boardPx+frameW+coordH/2)
		num := strconv.Itoa(i + 1)
		cy := float64(p.Y) + tokenInset + tokenSize/2
		drawLabel(dc, coords, num, (bx-frameW)/2, cy)
		drawLabel(dc, coords, num, bx+boardPx+frameW+(float64(l.w)-bx-boardPx-frameW)/2, cy)
	}
	return q.paletted(dc.Image().(*image.RGBA))
}

// drawLake paints a 2x2 lake with its top-left corner at (x, y).
func drawLake(dc *gg.Context, x, y float64) {
	const size = 2 * tileSize
	// The squares' tiles draw grid lines on their right and bottom edges; the
	// lake, which has no tiles, draws its own.
	dc.SetColor(colGrid)
	dc.DrawRectangle(x+size-1, y, 1, size)
	dc.DrawRectangle(x, y+size-1, size, 1)
	dc.Fill()
	dc.SetColor(colLakeEdge)
	dc.DrawRoundedRectangle(x+3, y+3, size-7, size-7, 14)
	dc.Fill()
	dc.SetColor(colLake)
	dc.DrawRoundedRectangle(x+5, y+5, size-11, size-11, 12)
	dc.Fill()
	dc.SetColor(colLakeWave)
	dc.SetLineWidth(2)
	for i, wy := range []float64{30, 48, 66} {
		wx := x + 22 + float64(i%2)*10
		dc.MoveTo(wx, y+wy)
		for k := range 4 {
			dc.QuadraticTo(wx+float64(k)*10+5, y+wy-4+8*float64(k%2), wx+float64(k+1)*10, y+wy)
		}
		dc.Stroke()
	}
}

// bands returns the rows where the PNG encoder's bands end (see pngEncoder):
// one band per part a move may change alone, so that the rest is reused.
// Each row of squares is a band, the first of them band firstRowBand.
func (l layout) bands() []int {
	cuts := []int{l.status.Max.Y, l.strips[0].name.Max.Y, l.board.Y}
	for row := 1; row <= 10; row++ {
		cuts = append(cuts, l.board.Y+row*tileSize)
	}
	cuts = append(cuts, l.strips[1].name.Max.Y, l.strips[1].tray.Max.Y, l.h)
	return cuts
}

// firstRowBand is the band of the top row of squares: the status, the upper
// name line and the upper tray come before it.
const firstRowBand = 3

// boardBands is the number of bands of a board picture.
const boardBands = firstRowBand + 10 + 3
