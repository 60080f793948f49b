package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserMoveIsSaid: a move that arrives on an open page is said to a
// screen reader (a live region), which otherwise hears only that it is
// their move, and would have to search the board for what changed; the
// moves already made when the page opens are not read out.
func TestBrowserMoveIsSaid(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	g, _ := m.Game()
	m, g, err := f.store.ApplyMove(bg, m.ID, m.Version, game.Red, g.LegalMoves()[0], storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#history li`)),
	); err != nil {
		t.Fatal(err)
	}
	type said struct {
		Text, Live string
		Width      float64
	}
	read := `(e => e ? {Text: e.textContent, Live: e.getAttribute("aria-live") || "", Width: e.getBoundingClientRect().width} : {})(document.getElementById("said"))`
	got, err := chromedp.Run(ctx, chromedp.Evaluate[said](read))
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != "" {
		t.Fatalf("on opening, the page says %q", got.Text)
	}
	mv := g.LegalMoves()[0]
	m2, g2, err := f.store.ApplyMove(bg, m.ID, m.Version, game.Blue, mv, storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m2, g2)
	browsertest.Wait(t, ctx, "Blue's move", `document.querySelectorAll("#history li").length === 2`)
	if got, err = chromedp.Run(ctx, chromedp.Evaluate[said](read)); err != nil {
		t.Fatal(err)
	}
	want := "Blue " + mv.From.String() + "-" + mv.To.String()
	if got.Text != want || got.Live != "polite" || got.Width > 1 {
		t.Fatalf("after Blue's move the page says %+v, want %q in a live region seen by no one", got, want)
	}
}
