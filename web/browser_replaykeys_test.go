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

// TestBrowserReplayKeys: as on lichess, the arrow keys step through the
// moves, and Home and End go to the start and to the board as it is now,
// wherever the focus is but on the board (whose arrow keys move around
// it) and in a field; the keys' help says so.
func TestBrowserReplayKeys(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 4)
	m = storagetest.Play(t, f.store, m, 6, rand.New(rand.NewPCG(4, 4)))
	if m.Moves() != 6 {
		t.Fatalf("%d moves played", m.Moves())
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.PublicViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#history li`)),
	); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{kb.ArrowLeft: "←", kb.ArrowRight: "→", kb.Home: "Home", kb.End: "End"}
	at := func(key, want string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, "“"+want+"” after "+names[key], `document.getElementById("ply").textContent === "`+want+`"`)
	}
	// The focus on the page itself, as after a click beside the board.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`)); err != nil {
		t.Fatal(err)
	}
	at(kb.ArrowLeft, "Move 5 of 6")
	at(kb.ArrowLeft, "Move 4 of 6")
	at(kb.Home, "Move 0 of 6")
	at(kb.ArrowRight, "Move 1 of 6")
	at(kb.End, "Move 6 of 6")
	browsertest.Wait(t, ctx, "the board as it is now", `!document.getElementById("board").classList.contains("past")`)
	// On a replay button too.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#prev`))); err != nil {
		t.Fatal(err)
	}
	at(kb.ArrowLeft, "Move 5 of 6")
	// On the board the arrow keys move around it, not through the moves.
	if err := chromedp.Do(ctx,
		chromedp.Focus(chromedp.CSS(`.sq[data-sq="44"]`)),
		chromedp.KeyEvent(kb.ArrowLeft),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the focus one square to the left", `document.activeElement.dataset.sq === "43"`)
	if ply, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#ply`))); err != nil || ply != "Move 5 of 6" {
		t.Fatalf("after an arrow key on the board the replay is at %q (%v)", ply, err)
	}
	keys, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#keys`)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Arrow keys move around the board; each square says what stands on it. Elsewhere on the page, ← and → step through the moves (in their list, ↑ and ↓ too), Home and End go to the start and to now."; keys != want {
		t.Fatalf("the keys' help says %q, want %q", keys, want)
	}
}
