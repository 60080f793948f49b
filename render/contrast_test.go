package render

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// hexColour writes c as CSS does, #RRGGBB.
func hexColour(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

// TestTextContrast: every ink on every background the pictures write it on
// has WCAG's contrast for small text, 4.5 or more, which a phone's 9 px
// text needs.
func TestTextContrast(t *testing.T) {
	for _, tc := range []struct {
		name string
		ink  color.RGBA
		bg   color.RGBA
	}{
		{"the status bar", inkColors[inkText], colPanel},
		{"a result on the banner", inkColors[inkText], colBanner},
		{"Your move, Red", inkColors[inkRed], colPanel},
		{"Your move, Blue", inkColors[inkBlue], colPanel},
		{"Red's name", inkColors[inkRed], colPage},
		{"Blue's name", inkColors[inkBlue], colPage},
		{"notes, labels, move numbers, coordinates", inkColors[inkSoft], colPage},
		{"tray counts, footers, the key", inkColors[inkText], colPage},
		{"a rank's label on a Red piece", colWhite, sideFill[game.Red]},
		{"a rank's label on a Blue piece", colWhite, sideFill[game.Blue]},
		{"the label of a rank with none left, in a tray", colDimInk, colDimFill},
		{"a set-up's problem", inkColors[inkWarn], colPage},
		{"a low clock", inkColors[inkWhite], colWarn},
		{"the standings' headings", inkColors[tableHeadInk], colPanel},
		{"the standings' shaded rows", inkColors[inkText], colPanel},
	} {
		if got := contrast(tc.ink, tc.bg); got < 4.5 {
			t.Errorf("%s: contrast %.2f, want 4.5 or more", tc.name, got)
		}
	}
}

// TestDimInkInPalette: the label of a dim mini piece is a colour of the
// palette, not one the quantizer would map to its nearest.
func TestDimInkInPalette(t *testing.T) {
	pal, err := buildPalette()
	if err != nil {
		t.Fatal(err)
	}
	if got := color.RGBAModel.Convert(pal[pal.Index(colDimInk)]); got != colDimInk {
		t.Errorf("colDimInk %s is not in the palette; the nearest is %s", hexColour(colDimInk), hexColour(got.(color.RGBA)))
	}
}

// TestMarkContrast: every mark of the last move stands out at 3:1, WCAG AA
// for graphics, from every ground it lies on: a frame from its own square's
// colour (the yellow of a move, the orange of a battle) and from the land of
// the squares around it, a Scout's trail from the land it dots. The web
// board draws the same marks in the same colours (web/static), so both
// read alike. A frame never touches a lake's edge: the lake's picture keeps
// land between its edge and the squares around it (drawLake).
func TestMarkContrast(t *testing.T) {
	names := [numBgs]string{bgFrom: "the last move's thin frame", bgTo: "the last move's thick frame", bgBattle: "a battle's dashed frame"}
	type pair struct {
		name     string
		mark, on color.RGBA
	}
	var pairs []pair
	for bg := range numBgs {
		m := squareMark[bg]
		if m.width == 0 {
			continue
		}
		pairs = append(pairs,
			pair{names[bg] + ", on its square", m.col, squareBg[bg]},
			pair{names[bg] + ", by the land", m.col, colLand},
		)
	}
	pairs = append(pairs, pair{"a Scout's trail, on the land", colTrail, colLand})
	if len(pairs) != 7 {
		t.Fatalf("%d pairs, want 7: a mark is missing", len(pairs))
	}
	for _, p := range pairs {
		if got := contrast(p.mark, p.on); got < 3 {
			t.Errorf("%s: %s on %s, contrast %.2f, want 3 or more", p.name, hexColour(p.mark), hexColour(p.on), got)
		}
	}
}

// TestMarkEdges: on every square a frame of the last move is drawn on,
// empty or with any piece, of either side, known or hidden, every pixel
// next to the frame (inside the grid lines) stands out from it at 3:1: the
// frame lies over the piece, and no one colour stands out at 3:1 from the
// land and the yellow and from the pieces' bodies, so the frame is lined
// with its square's colour where it meets the piece.
func TestMarkEdges(t *testing.T) {
	r := renderer(t)
	ts := r.tiles
	for bg := range numBgs {
		m := squareMark[bg]
		if m.width == 0 {
			continue
		}
		ink := uint8(r.pal.Index(m.col))
		if r.pal[ink] != m.col {
			t.Fatalf("the palette lacks the frame's colour %v", m.col)
		}
		tiles := map[string][]uint8{"empty": ts.empty[bg]}
		for side := range 2 {
			for moved := range 2 {
				tiles[fmt.Sprintf("%v hidden, moved %v", game.Side(side), moved == 1)] = ts.back[bg][side][moved]
			}
			for mark := range numMarks {
				for ni := range numberings {
					for _, rank := range game.Ranks {
						tiles[fmt.Sprintf("%v %v, mark %d, numbering %d", game.Side(side), rank, mark, ni)] = ts.face[bg][side][mark][ni][rank]
					}
				}
			}
		}
		in := tileSize - 1 // the grid line takes the last pixel
		for name, tile := range tiles {
			worst, at := 21.0, image.Point{}
			for y := range in {
				for x := range in {
					if tile[y*tileSize+x] != ink {
						continue
					}
					for dy := -1; dy <= 1; dy++ {
						for dx := -1; dx <= 1; dx++ {
							nx, ny := x+dx, y+dy
							if nx < 0 || ny < 0 || nx >= in || ny >= in || tile[ny*tileSize+nx] == ink {
								continue
							}
							c := r.pal[tile[ny*tileSize+nx]].(color.RGBA)
							if got := contrast(m.col, c); got < worst {
								worst, at = got, image.Pt(nx, ny)
							}
						}
					}
				}
			}
			if worst < 3 {
				t.Errorf("background %d, %s: the frame's neighbour at %v is %s, contrast %.2f, want 3 or more", bg, name, at, hexColour(r.pal[tile[at.Y*tileSize+at.X]].(color.RGBA)), worst)
			}
		}
	}
}

// TestMarksMissTheLakes: no mark of the last move touches a lake's edge
// (#4F86AE, from which no mark colour stands out at 3:1): the marks lie
// inside the squares' tiles, and a lake's picture keeps a ring of land,
// inside the grid lines, between its edge and the squares around it.
func TestMarksMissTheLakes(t *testing.T) {
	r := renderer(t)
	land := uint8(r.pal.Index(colLand))
	for bottom, bg := range r.boardBg {
		for _, col := range []int{2, 6} {
			// The lakes look the same from both sides (background).
			p := r.board.squareAt(game.SquareAt(col, 5), game.Red)
			const size = 2 * tileSize
			in := size - 1 // the grid line takes the last pixel
			for i := range in {
				for _, at := range [][2]int{{i, 0}, {i, in - 1}, {0, i}, {in - 1, i}} {
					x, y := p.X+at[0], p.Y+at[1]
					if got := bg[y*r.board.w+x]; got != land {
						t.Errorf("bottom %v, lake at column %d: (%d,%d) of its picture is %v, not the land", game.Side(bottom), col, at[0], at[1], r.pal[got])
					}
				}
			}
		}
	}
}

// TestWebBoardMarks: the web board (web/static) draws the last move's
// frames, a battle's frame and a Scout's trail in the pictures' colours, so
// that a board reads alike in Discord and in a browser.
func TestWebBoardMarks(t *testing.T) {
	hex := regexp.MustCompile(`#([0-9A-Fa-f]{6})\b`)
	for _, tc := range []struct {
		file string
		want color.RGBA
	}{
		{"last-from.svg", squareMark[bgFrom].col},
		{"last-to.svg", squareMark[bgTo].col},
		{"battle.svg", squareMark[bgBattle].col},
		{"trail-h.svg", colTrail},
		{"trail-v.svg", colTrail},
	} {
		b, err := os.ReadFile(filepath.Join("..", "web", "static", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		m := hex.FindStringSubmatch(string(b))
		if m == nil {
			t.Fatalf("%s names no colour", tc.file)
		}
		v, _ := strconv.ParseUint(m[1], 16, 32)
		if got := rgb(uint32(v)); got != tc.want {
			t.Errorf("%s draws in #%s, the pictures in %s", tc.file, m[1], hexColour(tc.want))
		}
	}
}
