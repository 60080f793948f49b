package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserQuestionOvertaken: a question a live update overtakes leaves
// the keyboard user on the board, not at the top of the page with the
// focus nowhere. The end of the match closes a question (Resign?) that
// nothing can answer any more, and a question whose button went away
// meanwhile (Decline the draw?, the offer withdrawn), cancelled, gives the
// focus to the board, where it was last: the browser handed it back to the
// button that opened the question, hidden by then, and so to no one.
func TestBrowserQuestionOvertaken(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	onTheBoard := `document.activeElement && document.activeElement.matches("#board .sq")`
	ask := func(button string) {
		t.Helper()
		if err := chromedp.Do(ctx,
			chromedp.Focus(chromedp.CSS(`#`+button)),
			chromedp.KeyEvent(kb.Enter),
			chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
		); err != nil {
			t.Fatal(err)
		}
	}

	// The match ends while Red is asked whether to resign.
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	if err := chromedp.Do(ctx, chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's move", `!document.getElementById("resign").hidden`)
	ask("resign")
	m, err := f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: storagetest.T0})
	if err != nil {
		t.Fatal(err)
	}
	changed(t, f, m)
	browsertest.Wait(t, ctx, "the end", `document.getElementById("resign").hidden`)
	browsertest.Wait(t, ctx, "the question closed", `!document.getElementById("ask").open`)
	browsertest.Wait(t, ctx, "the focus on the board after the end", onTheBoard)

	// Blue withdraws its offer while Red is asked whether to decline it.
	m = storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 2)
	if m, err = f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Blue, At: storagetest.T0}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Blue's offer", `!document.getElementById("decline").hidden`)
	ask("decline")
	if m, err = f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActDeclineDraw, Side: game.Blue, At: storagetest.T0}); err != nil {
		t.Fatal(err)
	}
	changed(t, f, m)
	browsertest.Wait(t, ctx, "the offer withdrawn", `document.getElementById("decline").hidden`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the question cancelled", `!document.getElementById("ask").open`)
	browsertest.Wait(t, ctx, "the focus on the board after the question", onTheBoard)
}
