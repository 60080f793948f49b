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

// TestBrowserTrayFocusGoesToTheBoard: a keyboard user on the set-up's
// tray whose set-up is confirmed elsewhere meanwhile (on Discord, or on
// another page), which puts the tray away, is not dropped at the top of
// the page with the focus nowhere: the focus goes to the board, where it
// was last, as it does from a button gone once its action is done.
func TestBrowserTrayFocusGoesToTheBoard(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		browsertest.Focused(),
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
		chromedp.Focus(chromedp.CSS(`.sq[data-sq="0"]`)),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), // to D1
		chromedp.Focus(chromedp.CSS(`#tray [data-rank="10"]`)),
	); err != nil {
		t.Fatal(err)
	}
	if m, err = f.store.SetSetup(bg, m.ID, 0, game.Red, game.RandomSetup(m.Rules, 7), storage.SetupConfirmed, storagetest.T0); err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m, nil)
	browsertest.Wait(t, ctx, "the set-up confirmed", `document.getElementById("tray").hidden`)
	browsertest.Wait(t, ctx, "the focus on the board, on D1", `document.activeElement && document.activeElement.matches('#board .sq[data-sq="3"]')`)
}
