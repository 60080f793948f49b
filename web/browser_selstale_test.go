package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserSelectionGoesWithItsBoard: a piece selected on the page stays
// selected only on the board it was selected on. Its player moved it on
// Discord meanwhile and the opponent answered, and the page, its stream
// back, is told of both at once (the player to move again): the square
// selected is empty now, or another piece stands on it, and nothing is
// selected or marked; a tap there moves nothing.
func TestBrowserSelectionGoesWithItsBoard(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	mv := g.LegalMoves()[0]
	sq := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		chromedp.Click(chromedp.CSS(sq(mv.From))),
		chromedp.WaitVisible(chromedp.CSS(sq(mv.From)+`.sel`)),
	); err != nil {
		t.Fatal(err)
	}
	// On Discord: Red moves that piece, Blue answers; the page hears of both at once.
	m, g, err = f.store.ApplyMove(bg, m.ID, m.Version, game.Red, mv, storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	m, g, err = f.store.ApplyMove(bg, m.ID, m.Version, game.Blue, g.LegalMoves()[0], storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m, g)
	browsertest.Wait(t, ctx, "both moves on the page", `document.querySelectorAll("#history li").length === 2`)
	type marks struct{ Sel, Targets int }
	got, err := chromedp.Run(ctx, chromedp.Evaluate[marks](`({
		Sel: document.querySelectorAll(".sq.sel").length,
		Targets: document.querySelectorAll(".sq.target").length,
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if got != (marks{}) {
		t.Fatalf("on the new board %d square is selected and %d marked, as on the board %s was selected on", got.Sel, got.Targets, mv.From)
	}
}
