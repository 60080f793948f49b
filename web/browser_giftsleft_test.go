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

// TestBrowserNoGiveTimeWhenNoneLeft: a player who has given all the gifts
// of time a match allows is offered no Give time button, as a player with
// no proposals to pause left is offered none to propose one; the opponent,
// who has all theirs, still is.
func TestBrowserNoGiveTimeWhenNoneLeft(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	var err error
	for range storage.MaxGifts {
		if m, err = f.store.Act(bg, m.ID, 0, storage.Action{Kind: storage.ActGiveTime, Side: game.Red, At: storagetest.T0}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		viewer game.Viewer
		shown  bool
	}{{game.RedViewer, false}, {game.BlueViewer, true}} {
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"),
			chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, tc.viewer)),
			chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, "the gifts shown", `document.getElementById("time").textContent.includes("Time given")`)
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!document.getElementById("giveTime").hidden`))
		if err != nil {
			t.Fatal(err)
		}
		if shown != tc.shown {
			t.Errorf("%v's page shows Give time: %v, want %v", tc.viewer, shown, tc.shown)
		}
	}
}
