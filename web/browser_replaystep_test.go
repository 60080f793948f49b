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

// TestBrowserReplayStepsInFlight: stepping through the moves on a slow
// network, every press of ← counts, though the board of the one before has
// not come yet; and End (now) is where the page stays, though a step's
// board asked for before it comes after.
func TestBrowserReplayStepsInFlight(t *testing.T) {
	f := newFixture(t)
	net := newSlowNet(t, f)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 4)
	m = storagetest.Play(t, f.store, m, 6, rand.New(rand.NewPCG(4, 4)))
	if err := chromedp.Do(ctx,
		chromedp.Navigate(net.URL+"/board#"+f.token(m.ID, game.PublicViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#history li`)),
		chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`),
	); err != nil {
		t.Fatal(err)
	}
	ply := func() string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#ply`)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	h, letGo := net.hold("/api/replay", true)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, ctx, "the first step")
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	letGo()
	browsertest.Wait(t, ctx, "three moves back", `document.getElementById("ply").textContent === "Move 3 of 6"`)
	// A step asked for, then End before it comes.
	h, letGo = net.hold("/api/replay", true)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, ctx, "the step")
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "now", `document.getElementById("ply").textContent === "Move 6 of 6"`)
	letGo()
	// The step's answer has come once a request made after it is answered.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`fetch("/api/texts").then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	if got := ply(); got != "Move 6 of 6" {
		t.Errorf("after End, a step asked for before it brought the page back to %q", got)
	}
	if past, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("board").classList.contains("past")`)); err != nil || past {
		t.Errorf("after End, the board shows a past position (%v)", err)
	}
}
