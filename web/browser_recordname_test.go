package web

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserRecordFileName: the record downloaded from the page has the
// name /stratego record gives its file on Discord (stratego-match-N.xml),
// as the server's answer names it too, so that a player who has both
// keeps one file, not two names for the same record.
func TestBrowserRecordFileName(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	m, err := f.store.Act(context.Background(), m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: storagetest.T0})
	if err != nil {
		t.Fatal(err)
	}
	want := "stratego-match-" + strconv.FormatUint(uint64(m.ID), 10) + ".xml"
	_, _, h := f.do(t, "GET", "/api/record", f.token(m.ID, game.RedViewer), "")
	if got := h.Get("Content-Disposition"); !strings.Contains(got, `filename="`+want+`"`) {
		t.Errorf("the record's answer names it %q, want %q", got, want)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#download`)),
		// The page saves the record through a link it clicks: its name is the file's.
		chromedp.Evaluate[chromedp.Void](`HTMLAnchorElement.prototype.click = function () { window.saved = this.download; }`),
		chromedp.Click(chromedp.CSS(`#download`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the record saved", `typeof window.saved === "string"`)
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.saved`)); err != nil || got != want {
		t.Errorf("the page saves the record as %q (%v), want %q", got, err, want)
	}
}
