package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserMoveSentOnce: on a phone whose network is slow, a player taps a
// piece and its target, and, the board not changing at once, taps them
// again. The move is sent once, not twice: the second would be refused
// ("the board changed") though the first went through, and the page would
// say so in red under a move that was made.
func TestBrowserMoveSentOnce(t *testing.T) {
	f := newFixture(t)
	net := newSlowNet(t, f)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	mv := g.LegalMoves()[0]
	if err := chromedp.Do(ctx, browsertest.Phone(), chromedp.Navigate(net.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's move", `document.getElementById("status").textContent === "Your move."`)
	h, letGo := net.hold("/api/move", false)
	for i := 0; i < 2; i++ {
		tap(t, ctx, sqSel(mv.From))
		if i == 0 {
			browsertest.Wait(t, ctx, "the target", `document.querySelector('`+sqSel(mv.To)+`').classList.contains("target")`)
		}
		tap(t, ctx, sqSel(mv.To))
		if i == 0 {
			h.waitFor(t, ctx, "the move")
		}
	}
	// The second taps have been handled once a later event has.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`true`)); err != nil {
		t.Fatal(err)
	}
	letGo()
	browsertest.Wait(t, ctx, "the move made", `document.querySelectorAll("#history li").length === 1`)
	browsertest.Wait(t, ctx, "Blue's turn", `document.getElementById("status").textContent === "Blue to move."`)
	if n := net.count("/api/move"); n != 1 {
		t.Errorf("the move was sent %d times", n)
	}
	if got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#refusal`))); err != nil || got != "" {
		t.Errorf("after the move, the page says %q (%v)", got, err)
	}
}

// TestBrowserConfirmSentOnce: Confirm tapped twice on a slow network sends
// the set-up once; the second would be refused as already confirmed.
func TestBrowserConfirmSentOnce(t *testing.T) {
	f := newFixture(t)
	net := newSlowNet(t, f)
	ctx := browser(t)
	m := f.blueReady(t)
	if err := chromedp.Do(ctx, browsertest.Phone(), chromedp.Navigate(net.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the set-up", `!document.getElementById("random").hidden`)
	tap(t, ctx, `#random`)
	browsertest.Wait(t, ctx, "the random set-up accepted", `!document.getElementById("keepSetup").disabled`)
	h, letGo := net.hold("/api/setup", false)
	tap(t, ctx, `#confirm`)
	h.waitFor(t, ctx, "the confirmation")
	tap(t, ctx, `#confirm`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`true`)); err != nil {
		t.Fatal(err)
	}
	letGo()
	browsertest.Wait(t, ctx, "the game on", `!document.getElementById("resign").hidden`)
	if n := net.count("/api/setup"); n != 1 {
		t.Errorf("the set-up was sent %d times", n)
	}
	if got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#refusal`))); err != nil || got != "" {
		t.Errorf("after the confirmation, the page says %q (%v)", got, err)
	}
}

// tap taps the element of selector with a finger.
func tap(t *testing.T, ctx context.Context, selector string) {
	t.Helper()
	if err := browsertest.Tap(ctx, selector); err != nil {
		t.Fatal(err)
	}
}

func sqSel(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
