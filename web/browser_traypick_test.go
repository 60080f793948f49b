package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserTrayPickLetsGoOfTheBoard: in the set-up, a piece picked from
// the tray lets go of a square selected on the board, as picking up another
// piece does on lichess. A player taps their Marshal on the board, changes
// their mind and taps the tray's Flag, puts it, and taps an empty square:
// that square is selected, and the Marshal, no longer shown selected since
// the tray was tapped, stays where it was (it jumped onto the square).
// A piece dragged from the tray lets go of a square selected too.
func TestBrowserTrayPickLetsGoOfTheBoard(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m, err := f.store.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		browsertest.Phone(),
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
	); err != nil {
		t.Fatal(err)
	}
	tap := func(what, selector string) {
		t.Helper()
		if err := browsertest.Tap(ctx, selector); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	selected := func() string {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll(".sq.sel")).map(b => b.dataset.sq).join()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	tap("pick the Marshal", `#tray [data-rank="10"]`)
	tap("put it on A1", `[data-sq="0"]`)
	browsertest.Wait(t, ctx, "the Marshal on A1", `document.querySelector('[data-sq="0"]').classList.contains("red")`)
	tap("select the Marshal on A1", `[data-sq="0"]`)
	browsertest.Wait(t, ctx, "A1 selected", `document.querySelector('[data-sq="0"]').classList.contains("sel")`)
	tap("pick the Flag instead", `#tray [data-rank="13"]`)
	browsertest.Wait(t, ctx, "the Flag picked", `document.querySelector('#tray [data-rank="13"]').getAttribute("aria-selected") === "true"`)
	if got := selected(); got != "" {
		t.Errorf("with the Flag picked from the tray, the board shows square %q selected too", got)
	}
	tap("put the Flag on C1", `[data-sq="2"]`)
	browsertest.Wait(t, ctx, "the Flag on C1", `document.querySelector('[data-sq="2"]').classList.contains("flag")`)
	tap("tap E1, empty", `[data-sq="4"]`)
	browsertest.Wait(t, ctx, "E1 selected", `document.querySelector('[data-sq="4"]').classList.contains("sel") || document.querySelector('[data-sq="4"]').classList.contains("red")`)
	if got, want := label(t, ctx, 0), "A1: your Marshal (10)"; got != want {
		t.Errorf("after a tap on E1, A1 says %q, want %q", got, want)
	}
	if got, want := label(t, ctx, 4), "E1: empty, selected"; got != want {
		t.Errorf("after a tap on E1, E1 says %q, want %q", got, want)
	}
	// A piece dragged from the tray lets go of the square selected, as a
	// tap on it does.
	tap("let go of E1", `[data-sq="4"]`)
	browsertest.Wait(t, ctx, "nothing selected", `!document.querySelector(".sq.sel")`)
	tap("select the Marshal again", `[data-sq="0"]`)
	browsertest.Wait(t, ctx, "A1 selected", `document.querySelector('[data-sq="0"]').classList.contains("sel")`)
	if err := browsertest.Drag(ctx, `#tray [data-rank="1"]`, `[data-sq="6"]`); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the Spy on G1", `document.querySelector('[data-sq="6"]').classList.contains("red")`)
	if got := selected(); got != "" {
		t.Errorf("after a piece dragged from the tray, the board shows square %q selected", got)
	}
}
