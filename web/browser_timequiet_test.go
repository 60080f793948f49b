package web

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
)

// TestBrowserTimeFromNowNotReadAgain: the notices under the board are read
// out when the match brings news (a pause agreed, a draw offered). How far
// a pause's end is from now ("in 59 minutes") changes as the clock runs,
// not as the match does: that change is made where a screen reader does
// not read it out (no live region). The whole line was written anew in a
// live region, and read out again, every minute of a pause's last two
// hours on a page left open, every hour before. The news is still said.
func TestBrowserTimeFromNowNotReadAgain(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	at := time.Now().Truncate(time.Second) // the pause ends a day from now
	m := f.inPlaySince(t, at, 3)
	m, err := f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActOfferPause, Side: game.Red, Days: 1, At: at})
	if err != nil {
		t.Fatal(err)
	}
	if _, err = f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActAcceptPause, Side: game.Blue, At: at}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the pause", `document.getElementById("time").textContent.includes("paused by agreement")`)
	browsertest.Wait(t, ctx, "the pause said", `document.getElementById("news").textContent.includes("paused by agreement")`)
	// What changes in a live region from now on, and the page's clock 23.5 hours on.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => {
		window.changed = [];
		new MutationObserver(rs => rs.forEach(r => {
			const e = r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement;
			const live = e.closest('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]');
			window.changed.push(live ? live.id : "");
		})).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
		const real = Date.now;
		Date.now = () => real() + 23.5 * 3600 * 1000;
	})()`)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the pause's end in minutes", `document.getElementById("time").textContent.includes("in 30 minutes")`)
	read, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.changed.filter(l => l !== "")`))
	if err != nil {
		t.Fatal(err)
	}
	if len(read) > 0 {
		t.Errorf("as the clock ran, the notices changed where they are read out (%q)", read)
	}
	// News is said.
	if m, err = f.store.Act(bg, m.ID, 0, storage.Action{Kind: storage.ActOfferDraw, Side: game.Blue, At: at}); err != nil {
		t.Fatal(err)
	}
	changed(t, f, m)
	browsertest.Wait(t, ctx, "the offer said", `(e => e.textContent === "Bob offers a draw." && e.getAttribute("aria-live") === "polite")(document.getElementById("news"))`)
}
