package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserEndSaidAfterTextsFailed: the texts that word how the match
// ended are asked for as its end comes; when they cannot be had then (the
// bot going down just after the match ended), the page asks again as its
// stream comes back, and says how the match ended: its status line stayed
// empty for good.
func TestBrowserEndSaidAfterTextsFailed(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	away := false
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		a := away
		mu.Unlock()
		if a && r.URL.Path == "/api/texts" {
			http.Error(w, "Service Unavailable", http.StatusServiceUnavailable) // the bot away behind its proxy
			return
		}
		f.srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	tok := f.token(m.ID, game.RedViewer)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/board#"+tok),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
	); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	away = true
	mu.Unlock()
	m, err := f.store.Act(context.Background(), m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: storagetest.T0})
	if err != nil {
		t.Fatal(err)
	}
	changed(t, f, m)
	var texts Texts
	if code, body, _ := f.do(t, "GET", "/api/texts", tok, ""); code != 200 || json.Unmarshal([]byte(body), &texts) != nil || texts.Result == "" {
		t.Fatalf("texts: %d %s", code, body)
	}
	browsertest.Wait(t, ctx, "the end, its texts not had", `document.getElementById("resign").hidden && document.getElementById("refusal").textContent === `+jsString(txtNoConnection))
	mu.Lock()
	away = false
	mu.Unlock()
	ts.CloseClientConnections() // the bot back: the stream comes back
	browsertest.Wait(t, ctx, "how the match ended", `document.getElementById("status").textContent === `+jsString(texts.Result))
}
