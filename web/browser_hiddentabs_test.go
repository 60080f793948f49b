package web

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// hide makes the page of ctx hidden, or shown again, as the browser does
// when its tab goes to the background or comes back (a headless browser's
// tabs are all shown): its visibility state, and the event that says so.
func hide(t *testing.T, ctx context.Context, hidden bool) {
	t.Helper()
	state := "visible"
	if hidden {
		state = "hidden"
	}
	js := `(h => {
		Object.defineProperty(document, "hidden", {get: () => h, configurable: true});
		Object.defineProperty(document, "visibilityState", {get: () => h ? "hidden" : "visible", configurable: true});
		document.dispatchEvent(new Event("visibilitychange"));
	})(` + map[bool]string{true: "true", false: "false"}[hidden] + `)`
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](js)); err != nil {
		t.Fatalf("making the page %s: %v", state, err)
	}
}

// TestBrowserHiddenTabsLetGoOfTheirStreams: a browser opens at most six
// HTTP/1.1 connections to a host, and each open page's event stream holds
// one. A player with six boards open in tabs (a bot served without HTTP/2)
// could not move on any of them: the move's request waited for a
// connection that never came. A tab in the background lets go of its
// stream, and opens another, whose first state is the board as it is now,
// when it is shown again.
func TestBrowserHiddenTabsLetGoOfTheirStreams(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	const tabs = 6
	var matches []*storage.Match
	var pages []context.Context
	for i := range tabs {
		m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), uint64(i+1))
		matches = append(matches, m)
		page := ctx
		if i > 0 {
			var cancel context.CancelFunc
			page, cancel = chromedp.NewContext(ctx) // another tab of the same browser
			defer cancel()
		}
		if err := chromedp.Do(page,
			chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
			chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		); err != nil {
			t.Fatalf("tab %d: %v", i, err)
		}
		if i > 0 {
			hide(t, page, true)
		}
		pages = append(pages, page)
	}
	// The first tab, in front, moves.
	g, _ := matches[0].Game()
	mv := g.LegalMoves()[0]
	sq := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
	if err := chromedp.Do(pages[0],
		chromedp.Click(chromedp.CSS(sq(mv.From))),
		chromedp.WaitVisible(chromedp.CSS(sq(mv.To)+`.target`)),
		chromedp.Click(chromedp.CSS(sq(mv.To))),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, pages[0], "the move made", `document.querySelectorAll("#history li").length === 1`)
	if m, _ := f.store.Match(bg, matches[0].ID); m.Moves() != 1 {
		t.Fatalf("the move on the first tab was not made: %d moves", m.Moves())
	}
	// A move made on Discord while the second tab was in the background
	// shows there once it is in front again.
	m := matches[1]
	g, _ = m.Game()
	m, g, err := f.store.ApplyMove(bg, m.ID, m.Version, game.Red, g.LegalMoves()[0], storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m, g)
	hide(t, pages[1], false)
	browsertest.Wait(t, pages[1], "the move made meanwhile", `document.querySelectorAll("#history li").length === 1`)
}

// TestProxyDocsAskForHTTP2: a page shown holds a connection for its live
// updates, and a browser opens at most six HTTP/1.1 connections to a host:
// the reverse proxy's page tells the admin to serve the board over HTTP/2,
// which nginx does only when told (Caddy does by itself).
func TestProxyDocsAskForHTTP2(t *testing.T) {
	b, err := os.ReadFile("../docs/deploy/reverse-proxy.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{"HTTP/2", "listen 443 ssl http2;", "http2 on;", "six HTTP/1.1 connections"} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/deploy/reverse-proxy.md does not say %q", want)
		}
	}
}
