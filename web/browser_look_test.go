package web

import (
	"bytes"
	"context"
	"image/png"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// colour is a pixel's red, green and blue.
type colour [3]int

// far says whether two colours tell apart at a glance.
func (c colour) far(d colour) bool {
	n := 0
	for i := range c {
		n += max(c[i]-d[i], d[i]-c[i])
	}
	return n > 60
}

// pixel is the colour of the open page's element of selector at (fx, fy),
// fractions of its width and height.
func pixel(t *testing.T, ctx context.Context, selector string, fx, fy float64) colour {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(selector)))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	r, g, bl, _ := img.At(b.Min.X+int(fx*float64(b.Dx()-1)), b.Min.Y+int(fy*float64(b.Dy()-1))).RGBA()
	return colour{int(r >> 8), int(g >> 8), int(bl >> 8)}
}

// TestBrowserBoardMarks: the selected piece, the squares it may move to and
// the last move each look their own way on the board: the selection fills
// its square with a tint (not only a frame, which a target's looked like),
// an empty target has a dot, and the last move's empty square a tint too.
func TestBrowserBoardMarks(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	for range 2 {
		g, _ := m.Game()
		var err error
		if m, _, err = f.store.ApplyMove(bg, m.ID, m.Version, g.ToMove(), g.LegalMoves()[0], storagetest.T0); err != nil {
			t.Fatal(err)
		}
	}
	g, _ := m.Game()
	last := m.Log[len(m.Log)-1].Move
	// A Red piece that may step onto an empty square other than the last
	// move's, and another Red piece to compare it with.
	var mv game.Move
	found := false
	for _, c := range g.LegalMoves() {
		if _, _, taken := g.PieceAt(c.To); !taken && c.To != last.From && c.From != last.To {
			mv, found = c, true
			break
		}
	}
	if !found {
		t.Fatal("no move of Red's to an empty square")
	}
	other := game.Square(0)
	for s := range game.NumSquares {
		if side, _, ok := g.PieceAt(game.Square(s)); ok && side == game.Red && game.Square(s) != mv.From && game.Square(s) != last.To {
			other = game.Square(s)
			break
		}
	}
	plain := game.Square(0)
	for _, s := range []game.Square{44, 45, 54, 55, 40, 49, 50, 59} { // the middle's land squares
		if _, _, ok := g.PieceAt(s); !ok && s != last.From && s != mv.To {
			plain = s
			break
		}
	}
	sel := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		chromedp.Click(chromedp.CSS(sel(mv.From))),
		chromedp.WaitVisible(chromedp.CSS(sel(mv.To)+`.target`)),
	); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		what       string
		a          string
		ax, ay     float64
		b          string
		bx, by     float64
		shouldDiff bool
	}{
		{"the selected piece's face, and another piece's", sel(mv.From), 0.2, 0.5, sel(other), 0.2, 0.5, true},
		{"an empty target's centre, and its side", sel(mv.To), 0.5, 0.5, sel(mv.To), 0.2, 0.2, true},
		{"an empty target's side, and an empty square's", sel(mv.To), 0.2, 0.2, sel(plain), 0.2, 0.2, false},
		{"the last move's empty square, and an empty square", sel(last.From), 0.3, 0.3, sel(plain), 0.3, 0.3, true},
		{"the selected piece's face, and the last move's square", sel(mv.From), 0.2, 0.5, sel(last.From), 0.2, 0.5, true},
	} {
		a, b := pixel(t, ctx, tt.a, tt.ax, tt.ay), pixel(t, ctx, tt.b, tt.bx, tt.by)
		if a.far(b) != tt.shouldDiff {
			t.Errorf("%s: %v and %v, want them told apart: %v", tt.what, a, b, tt.shouldDiff)
		}
	}
}
