package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserDraftStaysWithItsSide: the draft a page keeps in the browser
// is its own tab's, for a reload, and its own match's and side's: it is
// there again after a reload, never in the storage that outlives the tab;
// the opponent's page opened in the same browser (a shared computer)
// starts from an empty board, not from Red's set-up; and once Red's set-up
// is confirmed the browser keeps no copy of it.
func TestBrowserDraftStaysWithItsSide(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m, err := f.store.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	pieces := 0
	for _, n := range m.Rules.Army {
		pieces += int(n)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#random`)),
		chromedp.Click(chromedp.CSS(`#random`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's random set-up", `document.querySelectorAll(".sq.red").length === `+itoa(pieces))
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's draft after a reload", `document.querySelectorAll(".sq.red").length === `+itoa(pieces))
	kept, err := chromedp.Run(ctx, chromedp.Evaluate[[2]bool](`[Object.keys(sessionStorage).some(k => k.startsWith("strategobot-setup")), Object.keys(localStorage).some(k => k.startsWith("strategobot-setup"))]`))
	if err != nil {
		t.Fatal(err)
	}
	if !kept[0] || kept[1] {
		t.Fatalf("the draft kept for the tab: %v, for as long as the browser lives: %v", kept[0], kept[1])
	}

	blue, cancel := chromedp.NewContext(ctx) // another tab of the same browser
	defer cancel()
	if err := chromedp.Do(blue,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.BlueViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, blue, "Blue's board", `document.querySelectorAll(".sq").length === 100`)
	shown, err := chromedp.Run(blue, chromedp.Evaluate[int](`document.querySelectorAll(".sq.red, .sq.blue").length`))
	if err != nil {
		t.Fatal(err)
	}
	if shown != 0 {
		t.Fatalf("Blue's page opened in the browser Red set up in shows %d pieces: Red's set-up", shown)
	}

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#confirm`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's set-up confirmed", `document.getElementById("tray").hidden`)
	browsertest.Wait(t, ctx, "no copy of Red's set-up in the browser", `![sessionStorage, localStorage].some(s => Object.keys(s).some(k => k.startsWith("strategobot-setup")))`)
}
