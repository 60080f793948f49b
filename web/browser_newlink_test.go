package web

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserNewLinkInTheSameTab: a player whose link has expired pastes
// the fresh one the bot gave them into the same tab. Only the fragment
// changes, which loads nothing by itself: the page takes the new link at
// once and shows the board, instead of staying refused under it.
func TestBrowserNewLinkInTheSameTab(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	expired := f.signer.Sign(Capability{Match: m.ID, Viewer: game.RedViewer, Expires: f.now.Add(-time.Second)})
	if err := chromedp.Do(ctx, chromedp.Navigate(f.ts.URL+"/board#"+expired)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the expired link refused", `document.body.dataset.refused === "1"`)
	if err := chromedp.Do(ctx, chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitAcrossLoad(t, ctx, "the board by the new link", `!document.body.dataset.refused && !document.getElementById("resign").hidden`)
}
