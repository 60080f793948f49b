package render

import (
	"image"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestCoordinatesCentred measures the coordinates around the board, seen
// from either side: each row's number stands level with its row, each
// column's letter over and under its column, and the letters as far from
// the board's frame above it as below it. Drawn on the font's line height,
// the numbers sat 3 pixels low, and the letters above the board a pixel
// from its frame, those under it 7.
func TestCoordinatesCentred(t *testing.T) {
	r := renderer(t)
	l := &r.board
	for _, bottom := range []game.Side{game.Red, game.Blue} {
		bg := r.boardBg[bottom]
		ink := func(area image.Rectangle) image.Rectangle {
			var out image.Rectangle
			for y := area.Min.Y; y < area.Max.Y; y++ {
				for x := area.Min.X; x < area.Max.X; x++ {
					if luma(r.pal[bg[y*l.w+x]]) < (luma(colPage)+luma(colInkSoft))/2 {
						out = out.Union(image.Rect(x, y, x+1, y+1))
					}
				}
			}
			return out
		}
		near := func(a, b int) bool { return a-b <= 1 && b-a <= 1 }
		frameTop, frameBottom := l.board.Y-frameW, l.board.Y+boardPx+frameW
		for i := range 10 {
			sq := image.Rect(l.board.X+i*tileSize, l.board.Y+i*tileSize, l.board.X+(i+1)*tileSize, l.board.Y+(i+1)*tileSize)
			// The middle of a square's piece, doubled to stay in whole pixels.
			mid2 := 2*sq.Min.Y + 2*tokenInset + tokenSize
			midX2 := 2*sq.Min.X + 2*tokenInset + tokenSize
			for _, area := range []image.Rectangle{
				image.Rect(0, sq.Min.Y, l.board.X-frameW, sq.Max.Y),
				image.Rect(l.board.X+boardPx+frameW, sq.Min.Y, l.w, sq.Max.Y),
			} {
				if n := ink(area); !near(n.Min.Y+n.Max.Y, int(mid2)) {
					t.Errorf("%s at the bottom: the number of the row %d from the top is drawn over pixels %d to %d, its pieces' middle is %.1f",
						bottom, i+1, n.Min.Y, n.Max.Y-1, float64(mid2)/2)
				}
			}
			above := ink(image.Rect(sq.Min.X, frameTop-coordH, sq.Max.X, frameTop))
			below := ink(image.Rect(sq.Min.X, frameBottom, sq.Max.X, frameBottom+coordH))
			for _, c := range []image.Rectangle{above, below} {
				if !near(c.Min.X+c.Max.X, int(midX2)) {
					t.Errorf("%s at the bottom: the letter of the column %d from the left is drawn over pixels %d to %d, its column's middle is %.1f",
						bottom, i+1, c.Min.X, c.Max.X-1, float64(midX2)/2)
				}
			}
			if gapAbove, gapBelow := frameTop-above.Max.Y, below.Min.Y-frameBottom; !near(gapAbove, gapBelow) {
				t.Errorf("%s at the bottom: the letter of the column %d from the left is %d pixels above the board's frame, %d below it", bottom, i+1, gapAbove, gapBelow)
			}
		}
	}
}
