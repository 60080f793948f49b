package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
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

// TestBrowserActsOnABoardBack: a board can come back as it was (a draw
// offered, then declined, shows the board of before the offer): the
// action sent on it then is done with, and the player moves on it. The
// page took the board back for the one its offer was sent on, still on
// its way, and let no piece be picked up.
func TestBrowserActsOnABoardBack(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	mv := g.LegalMoves()[0]
	if err := chromedp.Do(ctx,
		browsertest.Phone(),
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#draw`)),
	); err != nil {
		t.Fatal(err)
	}
	tap(t, ctx, `#draw`)
	browsertest.Wait(t, ctx, "the question", `document.getElementById("ask").open`)
	tap(t, ctx, `#ask-choices button`)
	browsertest.Wait(t, ctx, "the offer made", `document.getElementById("draw").disabled`)
	if m, err = f.store.Match(t.Context(), m.ID); err != nil {
		t.Fatal(err)
	}
	if m, err = f.store.Act(t.Context(), m.ID, m.Version, storage.Action{Kind: storage.ActDeclineDraw, Side: game.Blue, At: storagetest.T0}); err != nil {
		t.Fatal(err)
	}
	changed(t, f, m)
	browsertest.Wait(t, ctx, "the offer declined", `!document.getElementById("draw").disabled`)
	tap(t, ctx, sqSel(mv.From))
	browsertest.Wait(t, ctx, "the target", `document.querySelector('`+sqSel(mv.To)+`').classList.contains("target")`)
	tap(t, ctx, sqSel(mv.To))
	browsertest.Wait(t, ctx, "the move made", `document.querySelectorAll("#history li").length === 1`)
}
