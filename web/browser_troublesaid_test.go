package web

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserTroubleStaysSaid: what keeps a page from being live, a link
// refused while it was open (revoked, or expired on a page left open for
// days) or a connection lost and not yet back, stays on the status line
// when the player taps the board: it said "Your move." again at the first
// tap, as if the board were live.
func TestBrowserTroubleStaysSaid(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		trouble    func(f *fixture, cut func())
	}{
		{"refused", txtLinkInvalid, func(f *fixture, _ func()) { f.links.revoke("1001") }},
		{"connection lost", txtConnection, func(_ *fixture, cut func()) { cut() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.srv.setPing(100 * time.Millisecond)
			var mu sync.Mutex
			down := false
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				d := down
				mu.Unlock()
				if d && r.URL.Path == "/api/events" {
					http.Error(w, "Bad Gateway", http.StatusBadGateway) // the bot is away behind its proxy
					return
				}
				f.srv.ServeHTTP(w, r)
			}))
			t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
			cut := func() {
				mu.Lock()
				down = true
				mu.Unlock()
				ts.CloseClientConnections()
			}
			ctx := browser(t)
			m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
			g, err := m.Game()
			if err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, browsertest.Phone(), chromedp.Navigate(ts.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
				t.Fatal(err)
			}
			browsertest.Wait(t, ctx, "Red's move", `document.getElementById("status").textContent === "Your move."`)
			tc.trouble(f, cut)
			browsertest.Wait(t, ctx, "the trouble said", `document.getElementById("status").textContent === `+jsString(tc.want))
			if err := browsertest.Tap(ctx, `.sq[data-sq="`+itoa(int(g.LegalMoves()[0].From))+`"]`); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`true`)); err != nil {
				t.Fatal(err)
			}
			if got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#status`))); err != nil || got != tc.want {
				t.Errorf("after a tap on the board, the status line says %q, want %q (%v)", got, tc.want, err)
			}
			if tc.want == txtConnection {
				// Back, the stream brings the board, and the line says whose move it is.
				mu.Lock()
				down = false
				mu.Unlock()
				browsertest.Wait(t, ctx, "Red's move again", `document.getElementById("status").textContent === "Your move."`)
			}
		})
	}
}
