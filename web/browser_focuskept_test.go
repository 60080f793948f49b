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

// TestBrowserFocusStaysOnThePage: a keyboard user whose button goes away
// once its action is done (Withdraw draw offer, the last Give time,
// Resign at the end) is not dropped at the top of the page with the focus
// nowhere: the focus goes to the board, where it was last.
func TestBrowserFocusStaysOnThePage(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	var err error
	if m, err = f.store.Act(bg, m.ID, 0, storage.Action{Kind: storage.ActOfferDraw, Side: game.Red, At: storagetest.T0}); err != nil {
		t.Fatal(err)
	}
	for range storage.MaxGifts - 1 {
		if m, err = f.store.Act(bg, m.ID, 0, storage.Action{Kind: storage.ActGiveTime, Side: game.Red, At: storagetest.T0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#withdrawDraw`)),
	); err != nil {
		t.Fatal(err)
	}
	onTheBoard := `document.activeElement && document.activeElement.matches("#board .sq")`
	for _, tc := range []struct{ button, gone string }{
		{"withdrawDraw", `document.getElementById("withdrawDraw").hidden`},
		{"giveTime", `document.getElementById("giveTime").hidden`},
		{"resign", `document.getElementById("resign").hidden`},
	} {
		if err := chromedp.Do(ctx,
			chromedp.Focus(chromedp.CSS(`#`+tc.button)),
			chromedp.KeyEvent(kb.Enter),
			chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
			chromedp.Focus(chromedp.CSS(`#ask-choices button`)), // Yes (Resign? opens on Cancel)
			chromedp.KeyEvent(kb.Enter),
		); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, tc.button+" gone", tc.gone)
		browsertest.Wait(t, ctx, "the focus on the board after "+tc.button, onTheBoard)
	}
}
