package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserLongWordsFit: on a phone 320 px wide, a name of one long word
// (a Discord name has no space to break at, a set-up's name need not have
// one) breaks inside the question that names it and inside the message
// that says what was done, instead of pushing the page or the dialog wider
// than the screen.
func TestBrowserLongWordsFit(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	nm := storagetest.NewMatch(game.VariantBarrage)
	nm.Players[game.Blue].Name = strings.Repeat("M", 32) // Discord's longest name
	m := storagetest.Started(t, f.store, nm, 3)
	setup, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	type width struct{ Page, Dialog, DialogRoom int }
	widths := func(what string) {
		t.Helper()
		w, err := chromedp.Run(ctx, chromedp.Evaluate[width](`(d => ({Page: document.documentElement.scrollWidth, Dialog: d.scrollWidth, DialogRoom: d.clientWidth}))(document.getElementById("ask"))`))
		if err != nil {
			t.Fatal(err)
		}
		if w.Page > 320 || w.Dialog > w.DialogRoom {
			t.Errorf("%s: the page is %d px wide at 320, the dialog's text %d px in %d", what, w.Page, w.Dialog, w.DialogRoom)
		}
	}
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#giveTime`)),
		chromedp.Click(chromedp.CSS(`#giveTime`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
	); err != nil {
		t.Fatal(err)
	}
	widths("asked to give time")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#ask-choices button`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the gift said", `document.getElementById("done").textContent !== ""`)
	widths("after giving time")

	// A set-up kept under a long name of one word.
	if err := chromedp.Do(ctx,
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(setup.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#random`)),
		chromedp.Click(chromedp.CSS(`#random`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the random set-up accepted", `!document.getElementById("keepSetup").disabled`)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#keepSetup`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask-input`)),
		chromedp.SendKeys(`#ask-input`, strings.Repeat("w", MaxSetupName)),
		chromedp.Click(chromedp.CSS(`#ask-choices button`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the set-up kept", `document.getElementById("done").textContent !== "" && !document.getElementById("saved").hidden`)
	widths("after keeping a set-up")
}
