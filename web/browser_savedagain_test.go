package web

import (
	"context"
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

// TestBrowserSavedSetupsAskedAgain: the player's saved set-ups, asked for
// as the set-up page opens while the bot is away (behind its proxy), are
// asked for again with the next state: the menu of them never came.
func TestBrowserSavedSetupsAskedAgain(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	away := true
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		a := away
		mu.Unlock()
		if a && r.URL.Path == "/api/setups" {
			http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
			return
		}
		f.srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	ctx := browser(t)
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.UpdatePlayer(bg, m.Players[game.Red].UserID, func(p *storage.PlayerSettings) error {
		return p.SaveSetup(storage.SavedSetup{Name: "Wall", Variant: m.Rules.Variant, Army: m.Rules.Army, Setup: game.RandomSetup(m.Rules, 3), Saved: storagetest.T0})
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the saved set-ups not had", `!document.getElementById("tray").hidden && document.getElementById("refusal").textContent === `+jsString(txtNoConnection))
	mu.Lock()
	away = false
	mu.Unlock()
	// The next state: Blue's set-up confirmed.
	if m, err = f.store.SetSetup(bg, m.ID, m.Version, game.Blue, game.RandomSetup(m.Rules, 5), storage.SetupConfirmed, storagetest.T0); err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m, nil)
	browsertest.Wait(t, ctx, "the saved set-ups' menu", `!document.getElementById("saved").hidden && document.getElementById("saved").options.length === 2`)
}
