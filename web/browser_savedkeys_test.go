package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserSavedSetupsByArrowKeys: the menu of saved set-ups works with
// the arrow keys as a menu does: each press puts the next saved set-up on
// the board (a closed menu changes its choice at once, on Windows and
// Linux), instead of the first one again and again, the others out of
// reach; Up back to the menu's first line changes nothing.
func TestBrowserSavedSetupsByArrowKeys(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"One", "Two", "Three"}
	setups := map[string]game.Setup{}
	for i, name := range names {
		setups[name] = game.RandomSetup(m.Rules, uint64(10+i))
		if _, err := f.store.UpdatePlayer(bg, "1001", func(p *storage.PlayerSettings) error {
			return p.SaveSetup(storage.SavedSetup{Name: name, Variant: m.Rules.Variant, Army: m.Rules.Army, Setup: setups[name], Saved: storagetest.T0})
		}); err != nil {
			t.Fatal(err)
		}
	}
	p := lang.For("en")
	// shows is the script that is true when the board shows su.
	shows := func(su game.Setup) string {
		js := "true"
		for r, row := range su {
			for c, rank := range row {
				sq := game.Square((3-r)*10 + c)
				want := sq.String() + ": empty"
				if rank != game.NoRank {
					want = sq.String() + ": your " + render.PieceName(p, rank, game.NumberingModern)
				}
				js += ` && document.querySelector('.sq[data-sq="` + itoa(int(sq)) + `"]').getAttribute("aria-label") === ` + jsString(want)
			}
		}
		return js
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#saved`)),
		chromedp.Focus(chromedp.CSS(`#saved`)),
	); err != nil {
		t.Fatal(err)
	}
	menu, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#saved option")).slice(1).map(o => o.textContent)`))
	if err != nil || len(menu) != len(names) {
		t.Fatalf("the menu offers %q (%v)", menu, err)
	}
	for _, name := range menu {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowDown)); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, "the saved set-up "+name, shows(setups[name]))
	}
	// Up to the menu's first line, which names the menu: the board stays.
	for range menu[1:] {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowUp)); err != nil {
			t.Fatal(err)
		}
	}
	browsertest.Wait(t, ctx, "the first set-up again", shows(setups[menu[0]]))
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowUp)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the menu's first line", `document.getElementById("saved").value === ""`)
	browsertest.Wait(t, ctx, "the board unchanged", shows(setups[menu[0]]))
}
