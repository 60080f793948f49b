package render

import (
	"bytes"
	"image"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestMargins: a footer of two lines (a battle, a reveal's winner and last
// move, a set-up's long problem) keeps as much page under its ink as left of
// it: padX, the margin of every text from the picture's sides (the bottom
// had 5 px under a battle's mini pieces).
func TestMargins(t *testing.T) {
	r := renderer(t)
	ada := Options{Names: [2]string{"Ada", "Grace"}}
	board := func(plies int, viewer game.Viewer) func(t *testing.T, w *bytes.Buffer) error {
		return func(t *testing.T, w *bytes.Buffer) error { return r.Board(w, goldenGame(t, plies).View(viewer), ada) }
	}
	for _, tc := range []struct {
		name  string
		write func(t *testing.T, w *bytes.Buffer) error
	}{
		{"a battle", board(2, game.RedViewer)},
		{"a Scout hits a Bomb", board(5, game.PublicViewer)},
		{"the reveal", func(t *testing.T, w *bytes.Buffer) error {
			g := goldenGame(t, 2)
			if err := g.Resign(game.Red); err != nil {
				t.Fatal(err)
			}
			v, _ := g.Reveal()
			return r.Reveal(w, v, ada)
		}},
		{"a set-up far from complete", func(t *testing.T, w *bytes.Buffer) error {
			s := parseSetup(t, ". . 2 . 10 . . 3 . .", ". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . B")
			return r.SetupPreview(w, s, game.Red, game.DefaultRules(game.VariantClassic), ada)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(t, &b); err != nil {
				t.Fatal(err)
			}
			img := decodePNG(t, b.Bytes())
			// The footer and what is under it, to the picture's bottom.
			area := image.Rect(0, r.board.footer[0].Min.Y, img.Rect.Dx(), img.Rect.Dy())
			left, lowest := area.Max.X, -1
			lines := map[int]bool{} // the footer lines with ink
			for y := area.Min.Y; y < area.Max.Y; y++ {
				for x := area.Min.X; x < area.Max.X; x++ {
					if img.Pix[img.PixOffset(x, y)] != r.idxPage {
						left, lowest = min(left, x), y
						lines[(y-area.Min.Y)/lineH] = true
					}
				}
			}
			if !lines[0] || !lines[1] {
				t.Fatalf("the footer has ink on lines %v, want two", lines)
			}
			bottom := img.Rect.Dy() - 1 - lowest
			// A line of text alone ends a little higher than a mini piece.
			if left != padX || bottom < left || bottom > left+3 {
				t.Errorf("%d px of page under the footer, %d left of it; want %d, and under it up to 3 more", bottom, left, padX)
			}
		})
	}
}
