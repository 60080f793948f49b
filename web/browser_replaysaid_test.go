package web

import (
	"math/rand/v2"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserReplayIsSaid: a screen reader's user stepping through the
// moves hears which move the board shows now and what it was, as a move
// that arrives is said (the live region): the focus stays on the key's
// button or on the page, whose names do not change, and the board's
// squares, which do, are not read unasked.
func TestBrowserReplayIsSaid(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 4)
	m = storagetest.Play(t, f.store, m, 6, rand.New(rand.NewPCG(4, 4)))
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.PublicViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#history li`)),
		chromedp.Focus(chromedp.CSS(`#prev`)),
	); err != nil {
		t.Fatal(err)
	}
	said := func(key, ply, move string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, "“"+ply+"” after "+key, `document.getElementById("ply").textContent === "`+ply+`"`)
		want := ply
		if move != "" {
			text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#history li:nth-child(`+move+`)`)))
			if err != nil {
				t.Fatal(err)
			}
			want += ": " + text
		}
		browsertest.Wait(t, ctx, "“"+want+"” said", `document.getElementById("said").textContent === `+jsString(want))
	}
	said(kb.ArrowLeft, "Move 5 of 6", "5")
	said(kb.ArrowLeft, "Move 4 of 6", "4")
	said(kb.Home, "Move 0 of 6", "")
	said(kb.ArrowRight, "Move 1 of 6", "1")
	said(kb.End, "Move 6 of 6", "6")
}
