package web

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserDraftStaysWithItsSide: the draft a page keeps in the browser
// is its own tab's, for a reload, and its own match's and side's: it is
// there again after a reload, never in the storage that outlives the tab;
// the opponent's page opened in the same browser (a shared computer)
// starts from an empty board, not from Red's set-up; and once Red's set-up
// is confirmed the browser keeps no copy of it.
func TestBrowserDraftStaysWithItsSide(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m, err := f.store.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	pieces := 0
	for _, n := range m.Rules.Army {
		pieces += int(n)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#random`)),
		chromedp.Click(chromedp.CSS(`#random`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's random set-up", `document.querySelectorAll(".sq.red").length === `+itoa(pieces))
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's draft after a reload", `document.querySelectorAll(".sq.red").length === `+itoa(pieces))
	kept, err := chromedp.Run(ctx, chromedp.Evaluate[[2]bool](`[Object.keys(sessionStorage).some(k => k.startsWith("strategobot-setup")), Object.keys(localStorage).some(k => k.startsWith("strategobot-setup"))]`))
	if err != nil {
		t.Fatal(err)
	}
	if !kept[0] || kept[1] {
		t.Fatalf("the draft kept for the tab: %v, for as long as the browser lives: %v", kept[0], kept[1])
	}

	blue, cancel := chromedp.NewContext(ctx) // another tab of the same browser
	defer cancel()
	if err := chromedp.Do(blue,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.BlueViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, blue, "Blue's board", `document.querySelectorAll(".sq").length === 100`)
	shown, err := chromedp.Run(blue, chromedp.Evaluate[int](`document.querySelectorAll(".sq.red, .sq.blue").length`))
	if err != nil {
		t.Fatal(err)
	}
	if shown != 0 {
		t.Fatalf("Blue's page opened in the browser Red set up in shows %d pieces: Red's set-up", shown)
	}

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#confirm`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's set-up confirmed", `document.getElementById("tray").hidden`)
	browsertest.Wait(t, ctx, "no copy of Red's set-up in the browser", `![sessionStorage, localStorage].some(s => Object.keys(s).some(k => k.startsWith("strategobot-setup")))`)
}

// TestBrowserReloadKeepsEdits: the pieces moved after Random (which the bot
// stores as the draft) are where the player put them after a reload, not
// back where Random put them; a draft stored since elsewhere (typed in the
// DM) is the newer, and the page shows it instead.
func TestBrowserReloadKeepsEdits(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantClassic))
	if err != nil {
		t.Fatal(err)
	}
	labels := `Array.from(document.querySelectorAll(".sq")).map(b => b.getAttribute("aria-label")).join("|")`
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#random`)),
		chromedp.Click(chromedp.CSS(`#random`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's random set-up", `document.querySelectorAll(".sq.red").length === 40`)
	// Swap two pieces of different ranks, by tap-tap.
	a, b := game.Square(0), game.Square(0)
	rank := func(s game.Square) string { return strings.SplitN(label(t, ctx, s), ":", 2)[1] }
	for s := game.Square(1); s < 40; s++ {
		if rank(s) != rank(a) {
			b = s
			break
		}
	}
	sq := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
	before := label(t, ctx, a)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sq(a))), chromedp.Click(chromedp.CSS(sq(b)))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the swap", `document.querySelector('`+sq(a)+`').getAttribute("aria-label") !== `+strconv.Quote(before))
	edited, err := chromedp.Run(ctx, chromedp.Evaluate[string](labels))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's draft after a reload", `document.querySelectorAll(".sq.red").length === 40`)
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](labels)); err != nil || got != edited {
		t.Fatalf("after a reload the board is not the one the player left (%v):\n%s\nwant\n%s", err, got, edited)
	}

	// A draft typed in the DM since is newer than the page's.
	dm := game.RandomSetup(m.Rules, 99)
	if _, err := f.store.SetSetup(bg, m.ID, 0, game.Red, dm, storage.SetupDraft, storagetest.T0); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Red's draft after a reload", `document.querySelectorAll(".sq.red").length === 40`)
	for s := game.Square(0); s < 40; s++ {
		want := "your " + render.PieceName(lang.For("en"), dm[3-s/10][s%10], game.NumberingModern) // Red's front row first
		if got := label(t, ctx, s); !strings.HasSuffix(got, want) {
			t.Fatalf("after the DM's draft and a reload, %s says %q, want %q", s, got, want)
		}
	}
}

// TestBrowserSaveDraftSaysSo: Save draft says that it saved, and that the
// set-up is not confirmed yet: the board alone looks the same after it.
func TestBrowserSaveDraftSaysSo(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#random`)),
		chromedp.Click(chromedp.CSS(`#random`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Save draft enabled", `!document.getElementById("save").disabled`)
	// Swap two pieces, so that the draft saved is not Random's.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.sq[data-sq="30"]`)), chromedp.Click(chromedp.CSS(`.sq[data-sq="37"]`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "Save draft enabled", `!document.getElementById("save").disabled`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#save`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the draft saved", `document.getElementById("done").textContent !== ""`)
	done, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#done`)))
	if err != nil {
		t.Fatal(err)
	}
	if done != "Draft saved. It is not confirmed yet." {
		t.Fatalf("after Save draft the page says %q", done)
	}
	m, _ = f.store.Match(bg, m.ID)
	if m.Setups[game.Red].Status != storage.SetupDraft {
		t.Fatalf("Red's set-up is %v", m.Setups[game.Red].Status)
	}
}

// TestBrowserTypedRankNoneLeft: a rank typed on a square when none of its
// pieces is left in the tray says so (to a screen reader too, in the
// alert below the board), instead of doing nothing without a word.
func TestBrowserTypedRankNoneLeft(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m, err := f.store.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
		chromedp.Focus(chromedp.CSS(`.sq[data-sq="10"]`)),
		chromedp.KeyEvent("f"),
		chromedp.Poll[chromedp.Void](`+document.body.dataset.checked === 1`),
		chromedp.Focus(chromedp.CSS(`.sq[data-sq="11"]`)),
		chromedp.KeyEvent("f"), // Barrage has one Flag
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the answer to a second Flag", `document.getElementById("hint").textContent === "Flag: 0 left"`)
	if got := label(t, ctx, 11); got != "B2: empty" {
		t.Fatalf("B2 says %q", got)
	}
}
