package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserNoConnectionInTheReadersWords: an action whose request gets no
// answer at all (the network is gone, as when a laptop has just woken) is
// refused in the player's words, not in the browser's English ("Failed to
// fetch").
func TestBrowserNoConnectionInTheReadersWords(t *testing.T) {
	f := newFixture(t)
	f.setPrefs("1001", Preferences{Language: "nl"})
	cut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/resign" {
			panic(http.ErrAbortHandler) // the connection dropped, no answer
		}
		f.srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { cut.CloseClientConnections(); cut.Close() })
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(cut.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		chromedp.Click(chromedp.CSS(`#resign`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
		chromedp.Click(chromedp.CSS(`#ask-choices button`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the refusal", `document.getElementById("refusal").textContent !== ""`)
	got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#refusal`)))
	if err != nil {
		t.Fatal(err)
	}
	if want := lang.For("nl").Sprintf(txtNoConnection); got != want || want == txtNoConnection {
		t.Fatalf("with no connection, the page says %q, want %q", got, want)
	}
}

// TestBrowserRefusalsInThePlayersLanguage: once the page knows its player's
// language (their settings), the server's own refusals speak it too, not
// the browser's: a link revoked while the page is open says so in Dutch to
// a Dutch player whose browser is in English.
func TestBrowserRefusalsInThePlayersLanguage(t *testing.T) {
	f := newFixture(t)
	f.srv.setPing(100 * time.Millisecond)
	f.setPrefs("1001", Preferences{Language: "nl"})
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
	); err != nil {
		t.Fatal(err)
	}
	f.links.revoke("1001")
	browsertest.Wait(t, ctx, "the revoked link refused", `document.body.dataset.refused === "1"`)
	got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#status`)))
	if err != nil {
		t.Fatal(err)
	}
	if want := lang.For("nl").Sprintf(txtLinkInvalid); got != want {
		t.Fatalf("the revoked link says %q, want %q", got, want)
	}
}

// TestBrowserBotAwayBehindItsProxy: an action answered by the admin's
// reverse proxy, not by the bot (502, 503 or 504 with a page of its own:
// the bot is restarting, or too slow), says what an action with no answer
// says, to try again in a moment, not "Something went wrong.", which says
// neither what happened nor what to do.
func TestBrowserBotAwayBehindItsProxy(t *testing.T) {
	for _, code := range []int{http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			f := newFixture(t)
			f.setPrefs("1001", Preferences{Language: "de"})
			proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/resign" {
					w.Header().Set("Content-Type", "text/html")
					w.WriteHeader(code)
					_, _ = w.Write([]byte("<html><body>" + http.StatusText(code) + "</body></html>"))
					return
				}
				f.srv.ServeHTTP(w, r)
			}))
			t.Cleanup(func() { proxy.CloseClientConnections(); proxy.Close() })
			ctx := browser(t)
			m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
			if err := chromedp.Do(ctx,
				chromedp.Navigate(proxy.URL+"/board#"+f.token(m.ID, game.RedViewer)),
				chromedp.WaitVisible(chromedp.CSS(`#resign`)),
				chromedp.Click(chromedp.CSS(`#resign`)),
				chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
				chromedp.Click(chromedp.CSS(`#ask-choices button`)),
			); err != nil {
				t.Fatal(err)
			}
			browsertest.Wait(t, ctx, "the refusal", `document.getElementById("refusal").textContent !== ""`)
			got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#refusal`)))
			if err != nil {
				t.Fatal(err)
			}
			if want := lang.For("de").Sprintf(txtNoConnection); got != want {
				t.Fatalf("the proxy's %d says %q, want %q", code, got, want)
			}
		})
	}
}
