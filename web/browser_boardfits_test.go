package web

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserBoardFitsTheWindow: the whole board, its coordinates with it,
// fits in the window's height as well as its width, as lichess's does: on a
// laptop's screen zoomed to 200% (1280×800 seen as 640×400) and on a phone
// held sideways, a move from one end of the board to the other is two taps,
// or one drag, without scrolling between them. Its squares stay big enough
// to tap, the pieces' labels grow and shrink with them (inside a piece),
// and nothing is wider than the screen.
func TestBrowserBoardFitsTheWindow(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantClassic), 1)
	type fit struct {
		Scroll, Inner, InnerHeight int
		Board                      struct{ Width, Height float64 }
		Square                     float64
		Coordinates                float64  // from the board's top to the bottom of its file letters
		Labels                     []string // the pieces' labels wider than the frame inside their tile
	}
	for _, tt := range []struct {
		name          string
		viewport      chromedp.Action[chromedp.Void]
		width, height int
	}{
		{"laptop at 200%", chromedp.EmulateViewport(640, 400, chromedp.EmulateScale(2)), 640, 400},
		{"phone sideways", chromedp.EmulateViewport(740, 360, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch), 740, 360},
		{"phone upright", chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch), 320, 640},
		{"desktop", chromedp.EmulateViewport(1280, 800), 1280, 800},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := chromedp.Do(ctx,
				tt.viewport,
				chromedp.Navigate("about:blank"),
				chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
				chromedp.WaitVisible(chromedp.CSS(`#resign`)),
			); err != nil {
				t.Fatal(err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[fit](`(() => {
				const board = document.getElementById("board").getBoundingClientRect();
				const sq = document.querySelector('.sq[data-file]'), r = sq.getBoundingClientRect(), after = getComputedStyle(sq, "::after");
				return {
					Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth, InnerHeight: window.innerHeight,
					Board: {Width: board.width, Height: board.height},
					Square: Math.min(r.width, r.height),
					Coordinates: r.top + parseFloat(after.top) + parseFloat(after.height) - board.top,
					// A label is inside the white frame of a known piece's tile (32.5 of render's 47 pixels).
					Labels: Array.from(document.querySelectorAll(".sq")).filter(b => b.textContent).map(b => {
						const range = document.createRange(); range.selectNodeContents(b);
						const text = range.getBoundingClientRect(), sq = b.getBoundingClientRect();
						return text.width > sq.width * 32.5 / 47 ? b.textContent + " " + text.width.toFixed(1) + " px wide on a square of " + sq.width.toFixed(1) : "";
					}).filter(x => x),
				};
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%+v", got)
			if got.Inner != tt.width || got.InnerHeight != tt.height || got.Scroll > got.Inner {
				t.Errorf("wider than the screen: %d px of %d (window %d×%d)", got.Scroll, got.Inner, got.Inner, got.InnerHeight)
			}
			if got.Coordinates > float64(got.InnerHeight) {
				t.Errorf("the board and its coordinates take %.0f px of a window %d px high (the board %.0f×%.0f)", got.Coordinates, got.InnerHeight, got.Board.Width, got.Board.Height)
			}
			if len(got.Labels) > 0 {
				t.Errorf("labels wider than their piece: %q", got.Labels)
			}
			if got.Square < 24 {
				t.Errorf("a square is %.1f px: too small to tap", got.Square)
			}
		})
	}
}
