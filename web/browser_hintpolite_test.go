package web

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserSetupHintIsPolite: what the live check of a set-up under way
// says (what is missing) is a hint, in a polite live region of its own: a
// screen reader says it once it is done speaking, and not again while it
// is the same (a swap that leaves the pieces missing as they were). The
// alert, which interrupts, is for a refusal of what the player did, and
// the hint is never in it: it was, and the whole list was read out,
// interrupting, after every piece placed.
func TestBrowserSetupHintIsPolite(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m, err := f.store.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
		// Every change under the alert, and under every polite region.
		chromedp.Evaluate[chromedp.Void](`window.alerted = 0; window.hinted = 0;
			new MutationObserver(rs => { window.alerted += rs.length; }).observe(document.getElementById("refusal"), {childList: true, characterData: true, subtree: true});
			document.querySelectorAll('[aria-live="polite"], [role="status"]').forEach(e =>
				new MutationObserver(rs => { window.hinted += rs.length; }).observe(e, {childList: true, characterData: true, subtree: true}))`),
		chromedp.Focus(chromedp.CSS(`.sq[data-sq="10"]`)),
		chromedp.KeyEvent("f"),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the check of the Flag", `+document.body.dataset.checked === 1`)
	// The element that says what is missing.
	where := `(() => { const e = Array.from(document.querySelectorAll("p")).find(e => e.textContent.indexOf("Missing") >= 0); return e ? e.id : ""; })()`
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](where))
	if err != nil {
		t.Fatal(err)
	}
	if id == "" {
		t.Fatal("nothing says what is missing")
	}
	role, _, err := browsertest.Accessible(ctx, "#"+id)
	if err != nil {
		t.Fatal(err)
	}
	live, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(e => e.closest('[role="alert"]') ? "alert" : e.closest('[aria-live]') ? e.closest('[aria-live]').getAttribute("aria-live") : e.closest('[role="status"]') ? "polite" : "")(document.getElementById(`+jsString(id)+`))`))
	if err != nil {
		t.Fatal(err)
	}
	if role == "alert" || live != "polite" {
		t.Fatalf("what is missing is in #%s, a %q whose live region is %q, want a polite one", id, role, live)
	}
	if role, _, err := browsertest.Accessible(ctx, "#refusal"); err != nil || role != "alert" {
		t.Fatalf("the refusals are in a %q (%v), want an alert", role, err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[2]int](`[window.alerted, window.hinted]`))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 0 || got[1] == 0 {
		t.Fatalf("the check's answer changed the alert %d times, the polite regions %d times", got[0], got[1])
	}

	// The Flag moved to another square, by a tap on it and one on the
	// square: the same pieces are missing, and nothing is said again.
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`window.alerted = 0; window.hinted = 0`),
		chromedp.Click(chromedp.CSS(`.sq[data-sq="10"]`)),
		chromedp.Click(chromedp.CSS(`.sq[data-sq="11"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.sq[data-sq="11"].red`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the check of the Flag moved", `+document.body.dataset.checked === 2`)
	if got, err = chromedp.Run(ctx, chromedp.Evaluate[[2]int](`[window.alerted, window.hinted]`)); err != nil {
		t.Fatal(err)
	}
	if got != [2]int{0, 0} {
		t.Fatalf("with the same pieces missing, the alert changed %d times, the polite regions %d times", got[0], got[1])
	}
	still, err := chromedp.Run(ctx, chromedp.Evaluate[string](where))
	if err != nil || still != id {
		t.Fatalf("what is missing is said in %q (%v), no longer in #%s", still, err, id)
	}

	// A step that does nothing (a second Flag) says why, politely too.
	if err := chromedp.Do(ctx,
		chromedp.Focus(chromedp.CSS(`.sq[data-sq="12"]`)),
		chromedp.KeyEvent("f"),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the answer to a second Flag", `document.getElementById(`+jsString(id)+`).textContent === "Flag: 0 left"`)
	if got, err = chromedp.Run(ctx, chromedp.Evaluate[[2]int](`[window.alerted, window.hinted]`)); err != nil || got[0] != 0 {
		t.Fatalf("a second Flag changed the alert %d times (%v)", got[0], err)
	}
	// Typed again, it says so again: the step was made, and did nothing.
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`window.hinted = 0`),
		chromedp.KeyEvent("f"),
	); err != nil {
		t.Fatal(err)
	}
	if got, err = chromedp.Run(ctx, chromedp.Evaluate[[2]int](`[window.alerted, window.hinted]`)); err != nil || got[0] != 0 || got[1] == 0 {
		t.Fatalf("a third Flag changed the alert %d times, the polite regions %d times (%v)", got[0], got[1], err)
	}

	// Confirm, the set-up not whole: a refusal of what the player did, an
	// alert, and the hint, which would say the same, gives way to it.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#confirm`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the refusal of Confirm", `document.getElementById("refusal").textContent.indexOf("Missing") >= 0`)
	if hint, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#"+id))); err != nil || hint != "" {
		t.Fatalf("beside the refusal, the hint says %q (%v)", hint, err)
	}

	// A check still on its way when Confirm is refused keeps the hint away
	// too when it answers: the refusal said it already.
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`window.heldChecks = [];
			const fetched = window.fetch;
			window.fetch = (url, opts) => String(url).indexOf("/api/check") < 0 ? fetched(url, opts) :
				new Promise(done => window.heldChecks.push(() => done(fetched(url, opts))))`),
		chromedp.Focus(chromedp.CSS(`.sq[data-sq="13"]`)),
		chromedp.KeyEvent("b"),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the check of the Bomb asked", `window.heldChecks.length === 1`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#confirm`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Confirm refused again", `document.getElementById("refusal").textContent.indexOf("Missing") >= 0`)
	checked, err := chromedp.Run(ctx, chromedp.Evaluate[int](`+document.body.dataset.checked`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.heldChecks.forEach(f => f())`)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the held check's answer", `+document.body.dataset.checked === `+strconv.Itoa(checked+1))
	if hint, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#"+id))); err != nil || hint != "" {
		t.Fatalf("beside the refusal, the late check's hint says %q (%v)", hint, err)
	}
}
