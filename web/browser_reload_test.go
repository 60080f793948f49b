package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserReload: the link's token leaves the address bar but stays with
// the tab, so a reload shows the board again; a tab opened without a link
// is told, by the server in the page's language, that it needs one.
func TestBrowserReload(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`.sq.red`)),
	); err != nil {
		t.Fatal(err)
	}
	url, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(url, "#") {
		t.Fatalf("the token stays in the address bar: %s", url)
	}
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the board after a reload", `document.querySelectorAll(".sq.red").length > 0 && !document.body.dataset.refused`)

	other, cancel := chromedp.NewContext(ctx) // a new tab: no token kept
	defer cancel()
	if err := chromedp.Do(other,
		chromedp.Navigate(f.ts.URL+"/board"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-refused="1"]`)),
	); err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(other, chromedp.Text(chromedp.CSS(`#status`)))
	if err != nil {
		t.Fatal(err)
	}
	if status != txtNeedsLink {
		t.Fatalf("a tab without a link says %q", status)
	}
}
