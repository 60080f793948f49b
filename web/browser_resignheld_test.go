package web

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserEnterHeldEndsNothing: the questions that end the match
// (Resign?, Accept the draw?) open on Cancel, the answer that loses
// nothing, as a dialog asking for a destructive action should: on Yes,
// Enter held down on Resign a moment too long (the key repeats) or pressed
// twice resigned the match, the question it was to ask passing unseen.
func TestBrowserEnterHeldEndsNothing(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	m, err := f.store.Act(t.Context(), m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Blue, At: storagetest.T0})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Blue's offer", `!document.getElementById("decline").hidden`)
	for _, button := range []string{"resign", "draw"} {
		if err := chromedp.Do(ctx,
			chromedp.Focus(chromedp.CSS(`#`+button)),
			chromedp.KeyEvent(kb.Enter),
			chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
			chromedp.KeyEvent(kb.Enter), // the key again
		); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, "the question closed", `!document.getElementById("ask").open`)
		// An answer sent has come back once a later request has.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`fetch("/api/texts").then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		got, err := f.store.Match(t.Context(), m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Phase != storage.PhasePlaying {
			t.Fatalf("Enter twice on %s ended the match: %s", button, got.Phase)
		}
	}
}
