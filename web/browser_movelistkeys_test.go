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

// TestBrowserMoveListIsOneTabStop: the list of moves is one stop of the Tab
// key, the move shown (a roving tabindex, as the board and the tray are):
// a long match's hundreds of moves were as many stops at the end of the
// page. In the list the arrow keys step through the moves, as elsewhere on
// the page, up and down too, and the focus goes with the move shown; a
// move is still opened by Enter on it, or by a click.
func TestBrowserMoveListIsOneTabStop(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 4)
	m = storagetest.Play(t, f.store, m, 30, rand.New(rand.NewPCG(4, 4)))
	n := m.Moves()
	if n < 10 {
		t.Fatalf("%d moves played", n)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.PublicViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#history li`)),
	); err != nil {
		t.Fatal(err)
	}
	type list struct {
		Stops   []int // the moves the Tab key stops on
		Focused int   // the move with the focus, 0 if none
		Current int   // the move shown, 0 if none
		Ply     string
	}
	read := `(() => {
		const h = document.getElementById("history"), cur = h.querySelector("[aria-current]"), a = document.activeElement;
		return {
			Stops: Array.from(h.querySelectorAll("button")).filter(b => b.tabIndex >= 0).map(b => +b.dataset.ply),
			Focused: h.contains(a) ? +a.dataset.ply : 0,
			Current: cur ? +cur.dataset.ply : 0,
			Ply: document.getElementById("ply").textContent,
		};
	})()`
	look := func(what string, stop, focused, current int) {
		t.Helper()
		browsertest.Wait(t, ctx, what, `document.getElementById("ply").textContent === "Move `+itoa(current)+` of `+itoa(n)+`"`)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[list](read))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Stops) != 1 || got.Stops[0] != stop || got.Focused != focused || got.Current != current {
			t.Fatalf("%s: the list's Tab stops are moves %v, the focus on move %d, move %d shown (%s); want a stop on move %d only, the focus on move %d, move %d shown",
				what, got.Stops, got.Focused, got.Current, got.Ply, stop, focused, current)
		}
	}
	look("on opening", n, 0, n)
	press := func(keys ...string) {
		t.Helper()
		for _, k := range keys {
			if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#history [aria-current]`))); err != nil {
		t.Fatal(err)
	}
	press(kb.ArrowUp)
	look("after ↑ in the list", n-1, n-1, n-1)
	press(kb.ArrowLeft)
	look("after ← in the list", n-2, n-2, n-2)
	press(kb.ArrowDown)
	look("after ↓ in the list", n-1, n-1, n-1)
	press(kb.Home)
	look("after Home in the list", 1, 1, 0)
	// The move with the focus is in view in the list, its ring seen.
	seen := `(() => { const h = document.getElementById("history"), b = document.activeElement, r = b.getBoundingClientRect(), v = h.getBoundingClientRect();
		return r.top >= v.top && r.bottom <= v.bottom; })()`
	if in, err := chromedp.Run(ctx, chromedp.Evaluate[bool](seen)); err != nil || !in {
		t.Fatalf("after Home the move with the focus is out of the list's view (%v)", err)
	}
	press(kb.ArrowDown, kb.ArrowDown)
	look("after ↓ ↓ from the start", 2, 2, 2)
	press(kb.End)
	look("after End in the list", n, n, n)
	// Enter on a move opens it, as a click does.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#history [data-ply="3"]`))); err != nil {
		t.Fatal(err)
	}
	press(kb.Enter)
	look("after Enter on move 3", 3, 3, 3)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#history [data-ply="5"]`))); err != nil {
		t.Fatal(err)
	}
	look("after a click on move 5", 5, 5, 5)
	// Tab leaves the list at once, whichever move it is on.
	press(kb.Tab)
	if in, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("history").contains(document.activeElement)`)); err != nil || in {
		t.Fatalf("after Tab the focus is still in the list (%v)", err)
	}
	look("after Tab out of the list", 5, 0, 5)
}
