package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserTrayKeys: the set-up's tray is a list box, and works as one
// from the keyboard alone: one stop of the Tab key (roving tabindex), the
// arrow keys move between its pieces, Home and End to the first and the
// last, Enter or Space picks one (aria-selected), and the picked piece is
// placed on the square Enter is pressed on. A piece none of which is left stays in
// the list, marked unavailable (aria-disabled), and cannot be picked.
func TestBrowserTrayKeys(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m, err := f.store.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
		chromedp.Focus(chromedp.CSS(`.sq[tabindex="0"]`)),
	); err != nil {
		t.Fatal(err)
	}
	// Barrage's tray: Marshal, General, Miner, Scout, Spy, Bomb, Flag.
	type tray struct {
		Focus    string // the focused element: a tray's piece's rank, or "sq" and a square
		Stops    []string
		Selected []string
		Disabled []string
	}
	look := func() tray {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[tray](`(() => {
			const a = document.activeElement, opts = Array.from(document.querySelectorAll("#tray [role=option]"));
			const ranks = f => opts.filter(f).map(b => b.dataset.rank);
			return {
				Focus: a.closest("#tray") ? a.dataset.rank : a.dataset.sq !== undefined ? "sq" + a.dataset.sq : a.id,
				Stops: ranks(b => b.tabIndex === 0),
				Selected: ranks(b => b.getAttribute("aria-selected") === "true"),
				Disabled: ranks(b => b.getAttribute("aria-disabled") === "true" || b.disabled),
			};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, step := range []struct {
		keys  string
		shift bool
		focus string
		sel   string
	}{
		{kb.Tab, false, "10", ""}, // into the tray: its first piece, its one Tab stop
		{kb.ArrowRight, false, "9", ""},
		{kb.ArrowDown, false, "3", ""},
		{kb.ArrowLeft, false, "9", ""},
		{kb.ArrowUp, false, "10", ""},
		{kb.ArrowUp, false, "10", ""}, // the first stays the first
		{kb.End, false, "13", ""},
		{kb.ArrowRight, false, "13", ""},
		{kb.Home, false, "10", ""},
		{kb.End, false, "13", ""},
		{kb.Enter, false, "13", "13"}, // picked
		{kb.Tab, true, "sq0", "13"},   // back to the board, on A1
		{kb.Enter, false, "sq0", ""},  // placed there; none is left
		{kb.Tab, false, "13", ""},     // into the tray again: where it was left
		{kb.Enter, false, "13", ""},   // none left: not picked
		{" ", false, "13", ""},
		{kb.Home, false, "10", ""},
		{" ", false, "10", "10"}, // Space picks as Enter does
		{" ", false, "10", ""},   // and puts back what was picked
	} {
		var opts []chromedp.KeyOption
		if step.shift {
			opts = append(opts, chromedp.KeyModifiers(chromedp.ModifierShift))
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(step.keys, opts...)); err != nil {
			t.Fatal(err)
		}
		got := look()
		want := tray{Focus: step.focus, Stops: []string{step.focus}}
		if step.focus[0] == 's' {
			want.Stops = got.Stops // the board has the focus; the tray keeps its stop
		}
		if len(got.Stops) != 1 || got.Focus != want.Focus || (step.focus[0] != 's' && got.Stops[0] != step.focus) {
			t.Fatalf("after %q the focus is on %q and the tray's Tab stops are %v; want %q", step.keys, got.Focus, got.Stops, step.focus)
		}
		if sel := append(got.Selected, "")[0]; sel != step.sel || len(got.Selected) > 1 {
			t.Fatalf("after %q the tray's selected pieces are %v; want %q", step.keys, got.Selected, step.sel)
		}
	}
	if got := label(t, ctx, 0); got != "A1: your Flag" {
		t.Fatalf("A1 says %q", got)
	}
	if got := look().Disabled; len(got) != 1 || got[0] != "13" {
		t.Fatalf("the tray's unavailable pieces are %v; want the Flag", got)
	}
	browsertest.Wait(t, ctx, "the check of the set-up", `+document.body.dataset.checked >= 1`)
}
