package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserProxyErrorBeforeTexts: a page opened while the bot is away
// (restarting behind its reverse proxy, which answers 502 with a page of
// its own, not the bot's JSON) has no texts yet to say so in: it shows no
// word rather than the name of a text ("failed"), and tries again until
// the bot is back. A refusal that is not the bot's (a proxy's 404) is no
// word either.
func TestBrowserProxyErrorBeforeTexts(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	var mu sync.Mutex
	status, asked, again := http.StatusBadGateway, 0, make(chan struct{})
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		down := status
		if r.URL.Path == "/api/texts" {
			if asked++; asked == 2 {
				close(again)
			}
		}
		mu.Unlock()
		if down != 0 && r.URL.Path == "/api/texts" {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(down)
			_, _ = io.WriteString(w, "<html><body>Bad Gateway</body></html>")
			return
		}
		f.srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { proxy.CloseClientConnections(); proxy.Close() })
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(proxy.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
		t.Fatal(err)
	}
	// The page asks again only after it has shown the first answer.
	select {
	case <-again:
	case <-ctx.Done():
		t.Fatal("the page never asked for its texts again")
	}
	got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#status`)))
	if err != nil {
		t.Fatal(err)
	}
	if got != "" {
		t.Errorf("while the proxy answers 502, the page says %q", got)
	}
	mu.Lock()
	status = 0
	mu.Unlock()
	browsertest.Wait(t, ctx, "the board once the bot is back", `document.getElementById("status").textContent !== "" && !document.getElementById("resign").hidden`)

	// A proxy's refusal, for good.
	mu.Lock()
	status = http.StatusNotFound
	mu.Unlock()
	if err := chromedp.Do(ctx,
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(proxy.URL+"/board#"+f.token(m.ID, game.RedViewer)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the page refused", `document.body.dataset.refused === "1"`)
	if got, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#status`))); err != nil {
		t.Fatal(err)
	}
	if got != "" {
		t.Errorf("refused by the proxy, the page says %q", got)
	}
}
