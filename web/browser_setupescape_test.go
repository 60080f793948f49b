package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserSetupEscapeAndZone: in the set-up, Escape lets go of a piece
// picked up from the tray, on the tray or on the board, as it lets go of a
// piece of the board; and a piece put, typed or tapped on a square off the
// player's rows says why nothing happened, in the player's language.
func TestBrowserSetupEscapeAndZone(t *testing.T) {
	f := newFixture(t)
	f.setPrefs("1001", Preferences{Language: "fr"})
	ctx := browser(t)
	m, err := f.store.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
	); err != nil {
		t.Fatal(err)
	}
	// Barrage's tray: Marshal (10), General, Miner, Scout, Spy, Bomb, Flag.
	picked := func() string {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('#tray [aria-selected="true"]')).map(b => b.dataset.rank).join()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	text := func(sel string) string {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	do("pick the Marshal on the tray", chromedp.Click(chromedp.CSS(`#tray [data-rank="10"]`)))
	if got := picked(); got != "10" {
		t.Fatalf("the tray's picked pieces are %q, want the Marshal", got)
	}
	do("Escape on the tray", chromedp.KeyEvent(kb.Escape))
	if got := picked(); got != "" {
		t.Fatalf("after Escape on the tray, the tray's picked pieces are %q, want none", got)
	}

	do("pick the Marshal, then Escape on the board",
		chromedp.Click(chromedp.CSS(`#tray [data-rank="10"]`)),
		chromedp.Focus(chromedp.CSS(`[data-sq="0"]`)),
		chromedp.KeyEvent(kb.Escape))
	if got := picked(); got != "" {
		t.Fatalf("after Escape on the board, the tray's picked pieces are %q, want none", got)
	}
	do("Enter on A1 with nothing picked: A1 is selected, nothing put", chromedp.KeyEvent(kb.Enter))
	if got := label(t, ctx, 0); got != "A1\u00a0: vide, sélectionnée" {
		t.Fatalf("after Escape and Enter, A1 says %q, want it empty", got)
	}
	do("Escape lets A1 go", chromedp.KeyEvent(kb.Escape))
	if got := label(t, ctx, 0); got != "A1\u00a0: vide" {
		t.Fatalf("after Escape, A1 says %q", got)
	}

	want := strings.ReplaceAll(lang.For("fr").Sprintf(txtOutsideZone), " :", "\u00a0:") // as frenchSpaces binds it
	if want == txtOutsideZone {
		t.Fatal("the text off the zone is not in French")
	}
	do("pick the Marshal and tap E6, off Red's rows",
		chromedp.Click(chromedp.CSS(`#tray [data-rank="10"]`)),
		chromedp.Click(chromedp.CSS(`[data-sq="54"]`)))
	if got := text(`#hint`); got != want {
		t.Fatalf("a tap off the player's rows says %q, want %q", got, want)
	}
	if got := picked(); got != "10" {
		t.Fatalf("after a tap off the rows, the tray's picked pieces are %q, want the Marshal still", got)
	}
	if got := label(t, ctx, 54); got != "E6\u00a0: vide" {
		t.Fatalf("E6 says %q", got)
	}
	do("put the Marshal on A1 (the hint goes)", chromedp.Click(chromedp.CSS(`[data-sq="0"]`)))
	browsertest.Wait(t, ctx, "the check of the set-up", `+document.body.dataset.checked >= 1`)
	if got := text(`#hint`); got == want {
		t.Fatalf("the hint stays after a piece is put: %q", got)
	}
	do("type a Bomb on D10, Blue's",
		chromedp.Focus(chromedp.CSS(`[data-sq="93"]`)),
		chromedp.KeyEvent("b"))
	if got := text(`#hint`); got != want {
		t.Fatalf("a rank typed off the player's rows says %q, want %q", got, want)
	}
	if got := label(t, ctx, 93); got != "D10\u00a0: vide" {
		t.Fatalf("D10 says %q", got)
	}
}
