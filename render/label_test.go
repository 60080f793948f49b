package render

import (
	"image"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// whiteInk returns the bounds, in pixels, of what is near white on a size x
// size tile: a label, a symbol, a ring, a moved dot.
func whiteInk(r *Renderer, tile []uint8, size int, within image.Rectangle) image.Rectangle {
	var ink image.Rectangle
	for y := within.Min.Y; y < within.Max.Y; y++ {
		for x := within.Min.X; x < within.Max.X; x++ {
			if luma(r.pal[tile[y*size+x]]) >= 230 {
				ink = ink.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return ink
}

// TestLabelsCentred: a rank's label sits in the middle of its piece, on a
// square and on a mini piece, in both numberings: drawn on the font's line
// height, every label sat 4 or 5 pixels low (of a 41-pixel piece), a
// "10" almost on the bottom of a known piece's ring; and a label stays
// apart from the moved dot.
func TestLabelsCentred(t *testing.T) {
	r := renderer(t)
	for side := range 2 {
		for n := range numberings {
			for _, rank := range game.Ranks {
				if rank == game.Bomb || rank == game.Flag {
					continue // symbols, with their own shapes
				}
				for _, tc := range []struct {
					what string
					tile []uint8
					size int
					mid  float64 // the piece's middle, in pixels
				}{
					{"square", r.tiles.face[bgNormal][side][markNone][n][rank], tileSize, tokenInset + tokenSize/2},
					{"mini", r.tiles.mini[side][0][n][rank], miniSize, miniSize / 2},
				} {
					ink := whiteInk(r, tc.tile, tc.size, image.Rect(0, 0, tc.size, tc.size))
					x, y := float64(ink.Min.X+ink.Max.X)/2, float64(ink.Min.Y+ink.Max.Y)/2
					drop := 0.0
					if tc.size == tileSize {
						drop = float64(labelDrop)
					}
					if y < tc.mid-1 || y > tc.mid+drop+1 || x < tc.mid-1 || x > tc.mid+1 {
						t.Errorf("%s %s %v (%s): the label's middle is at (%.1f, %.1f), the piece's at (%.1f, %.1f)",
							game.Side(side), tc.what, rank, numberings[n], x, y, tc.mid, tc.mid)
					}
				}
				// The moved dot, in the top right corner, stays apart from
				// the label: what is nearer white than the piece's colour
				// around it goes no further than it, so that the two do
				// not run together on a phone.
				moved := r.tiles.face[bgNormal][side][markMoved][n][rank]
				level := (luma(sideFill[side]) + 255) / 2
				if dot := lightAround(r, moved, tileSize, image.Pt(movedDotX, movedDotY), level); !dot.In(movedDotBox()) {
					t.Errorf("%s %v (%s): the moved dot runs into the label: white over %v", game.Side(side), rank, numberings[n], dot)
				}
				// And on a phone, where the picture is shrunk.
				img := image.NewPaletted(image.Rect(0, 0, 3*tileSize, 3*tileSize), r.pal)
				for i := range 9 {
					blit(img, i%3*tileSize, i/3*tileSize, tileSize, r.tiles.empty[bgNormal])
				}
				blit(img, tileSize, tileSize, tileSize, moved)
				phone, sq := squareAtWidth(img, image.Pt(tileSize, tileSize), 3*tileSize*phoneWidth/pageW)
				at := func(v float64) int { return int(v * phoneScale) }
				box := movedDotBox()
				box = image.Rect(at(float64(box.Min.X)), at(float64(box.Min.Y)), at(float64(box.Max.X))+1, at(float64(box.Max.Y))+1).Add(sq.Min)
				if dot := lightAroundRGBA(phone, sq.Min.Add(image.Pt(at(movedDotX), at(movedDotY))), level); !dot.In(box) {
					t.Errorf("%s %v (%s): on a phone the moved dot runs into the label: light over %v, the dot's box %v", game.Side(side), rank, numberings[n], dot, box)
				}
			}
		}
	}
}

// movedDotBox is the moved dot's square, a pixel around.
func movedDotBox() image.Rectangle {
	x, y, rad := float64(movedDotX), float64(movedDotY), float64(movedDotR)
	return image.Rect(int(x-rad)-1, int(y-rad)-1, int(x+rad)+2, int(y+rad)+2)
}

// lightAround returns the bounds of the pixels of a tile at least level
// bright that touch p, across or along a diagonal, from one to the next.
func lightAround(r *Renderer, tile []uint8, size int, p image.Point, level int) image.Rectangle {
	seen := make([]bool, size*size)
	var out image.Rectangle
	todo := []image.Point{p}
	for len(todo) > 0 {
		q := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if q.X < 0 || q.Y < 0 || q.X >= size || q.Y >= size || seen[q.Y*size+q.X] || luma(r.pal[tile[q.Y*size+q.X]]) < level {
			continue
		}
		seen[q.Y*size+q.X] = true
		out = out.Union(image.Rect(q.X, q.Y, q.X+1, q.Y+1))
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				todo = append(todo, q.Add(image.Pt(dx, dy)))
			}
		}
	}
	return out
}

// lightAroundRGBA is lightAround on a picture.
func lightAroundRGBA(img *image.RGBA, p image.Point, level int) image.Rectangle {
	seen := map[image.Point]bool{}
	var out image.Rectangle
	todo := []image.Point{p}
	for len(todo) > 0 {
		q := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if !q.In(img.Rect) || seen[q] || luma(img.RGBAAt(q.X, q.Y)) < level {
			continue
		}
		seen[q] = true
		out = out.Union(image.Rect(q.X, q.Y, q.X+1, q.Y+1))
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				todo = append(todo, q.Add(image.Pt(dx, dy)))
			}
		}
	}
	return out
}
