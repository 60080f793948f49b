package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserNoOlderStateOverANewer: an action refused because the board
// changed brings the board as it is (a request of its own); if the event
// stream brings a newer one before that answer arrives, the older answer
// does not replace it: nothing would correct it until the next change.
func TestBrowserNoOlderStateOverANewer(t *testing.T) {
	f := newFixture(t)
	net := newSlowNet(t, f)
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	if err := chromedp.Do(ctx, chromedp.Navigate(net.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's move", `document.getElementById("status").textContent === "Your move."`)
	// Blue offers a draw on Discord; its event is not there yet when Red
	// offers one too, on the board as it was.
	m1, err := f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Blue, At: storagetest.T0})
	if err != nil {
		t.Fatal(err)
	}
	h, letGo := net.hold("/api/state", true)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#draw`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
		chromedp.Click(chromedp.CSS(`#ask-choices button`)),
	); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, ctx, "the board as it is, after the refusal")
	// The offer's event comes, then Blue takes the offer back.
	changed(t, f, m1)
	browsertest.Wait(t, ctx, "Blue's offer", `!document.getElementById("decline").hidden`)
	m2, err := f.store.Act(bg, m.ID, m1.Version, storage.Action{Kind: storage.ActDeclineDraw, Side: game.Blue, At: storagetest.T0})
	if err != nil {
		t.Fatal(err)
	}
	changed(t, f, m2)
	browsertest.Wait(t, ctx, "the offer taken back", `document.getElementById("decline").hidden`)
	letGo()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`fetch("/api/texts").then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`true`)); err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("time").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(shown, "offers a draw") {
		t.Errorf("the older answer brought back an offer taken back: %q", shown)
	}
}

// changed tells f's server that m changed, as the bot does after a change.
func changed(t *testing.T, f *fixture, m *storage.Match) {
	t.Helper()
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m, g)
}
