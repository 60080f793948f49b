package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserOnlineReconnects: a page whose event stream was lost opens
// another as soon as the browser says the network is back (online), not
// when its backoff ends, up to half a minute later. Here no backoff ever
// ends: the page's timers of 400 ms or more never fire.
func TestBrowserOnlineReconnects(t *testing.T) {
	f := newFixture(t)
	var streams atomic.Int32
	net := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/events" {
			streams.Add(1)
		}
		f.srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { net.CloseClientConnections(); net.Close() })
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	if err := chromedp.Do(ctx,
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
				Source: `(() => { const set = window.setTimeout; window.setTimeout = (fn, ms, ...args) => ms >= 400 ? 0 : set(fn, ms, ...args); })()`,
			})
			return err
		}),
		chromedp.Navigate(net.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the board", `document.getElementById("status").textContent === `+jsString(txtYourMove))
	net.CloseClientConnections() // the network drops the stream
	browsertest.Wait(t, ctx, "the connection said lost", `document.getElementById("status").textContent === `+jsString(txtConnection))
	if n := streams.Load(); n != 1 {
		t.Fatalf("%d streams opened before the network came back, want 1", n)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.dispatchEvent(new Event("online"))`)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the board again, at once", `document.getElementById("status").textContent === `+jsString(txtYourMove))
	if n := streams.Load(); n != 2 {
		t.Fatalf("%d streams opened, want 2", n)
	}
}
