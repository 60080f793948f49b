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

// TestBrowserUpgradeReloads: the bot is upgraded (its page and script are
// another build) while a page is open. The page, whose stream comes back
// from the restart naming the new build, loads itself again, and it is the
// new page, with the new script, that shows the match as it is now: the
// old script is not run against the new bot.
func TestBrowserUpgradeReloads(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		chromedp.Evaluate[chromedp.Void](`window.oldPage = true`),
	); err != nil {
		t.Fatal(err)
	}
	// The upgrade: the bot comes back with another build, and the page's
	// stream, cut as the old one stopped, comes back to it.
	f.srv.setBuild("next")
	f.ts.CloseClientConnections()
	// A move made meanwhile, on Discord.
	g, _ := m.Game()
	m2, g2, err := f.store.ApplyMove(bg, m.ID, m.Version, game.Red, g.LegalMoves()[0], storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m2, g2)
	browsertest.WaitAcrossLoad(t, ctx, "the move on the page", `document.querySelectorAll("#history li").length === 1`)
	type page struct {
		Old    bool
		Script string
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[page](`({Old: window.oldPage === true, Script: document.querySelector("script").src})`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Old || !strings.HasSuffix(got.Script, "/static/board.js?v=next") {
		t.Fatalf("after the upgrade the page is the old one (%v), its script %s", got.Old, got.Script)
	}
}

// TestBrowserUpgradeSaysReload: a page that loaded itself again for a
// build and is still not of it (a proxy that keeps the old page) does not
// load itself again and again: it says to reload it, in the reader's words,
// and stops.
func TestBrowserUpgradeSaysReload(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	f.setPrefs(m.Players[game.Red].UserID, Preferences{Language: "fr"})
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		// This tab loaded itself again for build "next" once already.
		chromedp.Evaluate[chromedp.Void](`sessionStorage.setItem("strategobot-reloaded", "next"); window.oldPage = true`),
	); err != nil {
		t.Fatal(err)
	}
	f.srv.setBuild("next")
	f.ts.CloseClientConnections()
	browsertest.Wait(t, ctx, "the page stopped", `document.body.dataset.refused === "1"`)
	type page struct {
		Old    bool
		Status string
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[page](`({Old: window.oldPage === true, Status: document.getElementById("status").textContent})`))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Old || !strings.Contains(got.Status, "rechargez") {
		t.Fatalf("the page (old: %v) says %q; want the old page saying to reload it", got.Old, got.Status)
	}
}

// TestBrowserUpgradeAgain: a tab that loaded itself again for a build, and
// came up of it, does so again at the next change of the bot's build, even
// back and forth (an upgrade rolled back, then made again): only a tab
// still not of the build it loaded itself for says to reload instead.
func TestBrowserUpgradeAgain(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	first := f.srv.buildName()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
	); err != nil {
		t.Fatal(err)
	}
	for i, build := range []string{"next", first, "next"} {
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.oldPage = true`)); err != nil {
			t.Fatal(err)
		}
		f.srv.setBuild(build)
		f.ts.CloseClientConnections()
		browsertest.WaitAcrossLoad(t, ctx, "the page of build "+build, `window.oldPage === undefined && document.querySelector("script").src.endsWith("?v=`+build+`") && !document.getElementById("resign").hidden`)
		if refused, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.body.dataset.refused === "1"`)); err != nil || refused {
			t.Fatalf("upgrade %d: the page refused (%v)", i+1, err)
		}
	}
}
