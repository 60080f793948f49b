package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserShortcutsStayTheBrowsers: on the board, a key pressed with
// Ctrl, Alt or Meta is the browser's shortcut, not the board's: Ctrl+F
// (find) put a Flag on the square in the set-up and kept the browser from
// finding, Ctrl+0 (the zoom back to normal) a Marshal, Ctrl+S a Spy, and
// Alt+← (back) moved the focus instead of going back.
func TestBrowserShortcutsStayTheBrowsers(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m, err := f.store.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
		// What the browser would do with the key: a listener after the board's.
		chromedp.Evaluate[chromedp.Void](`window.addEventListener("keydown", e => { window.taken = e.defaultPrevented; })`),
	); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		key  string
		mod  chromedp.Modifier
	}{
		{"Ctrl+F", "f", chromedp.ModifierCtrl},
		{"Ctrl+0", "0", chromedp.ModifierCtrl},
		{"Meta+S", "s", chromedp.ModifierMeta},
		{"Alt+B", "b", chromedp.ModifierAlt},
		{"Alt+←", kb.ArrowLeft, chromedp.ModifierAlt},
	} {
		if err := chromedp.Do(ctx,
			chromedp.Focus(chromedp.CSS(`.sq[data-sq="14"]`)),
			chromedp.KeyEvent(tc.key, chromedp.KeyModifiers(tc.mod)),
		); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
			Taken bool
			Focus string
		}](`({Taken: !!window.taken, Focus: document.activeElement.dataset.sq || ""})`))
		if err != nil {
			t.Fatal(err)
		}
		if l := label(t, ctx, 14); l != "E2: empty" || got.Taken || got.Focus != "14" {
			t.Errorf("%s on E2: E2 says %q, the key kept from the browser: %v, the focus on %q", tc.name, l, got.Taken, got.Focus)
		}
	}
}
