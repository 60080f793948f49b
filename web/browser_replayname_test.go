package web

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserReplayBoardIsNamed: the board of a past move is named as one
// to a screen reader, as the eye sees it by its other colour and the note
// under it: a player who stepped back with ← and went to the board heard
// its squares as if they were the board now ("Board"), and Enter on a piece
// did nothing, unexplained.
func TestBrowserReplayBoardIsNamed(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 4)
	m = storagetest.Play(t, f.store, m, 6, rand.New(rand.NewPCG(4, 4)))
	if m.Moves() != 6 {
		t.Fatalf("%d moves played", m.Moves())
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#history li`)),
	); err != nil {
		t.Fatal(err)
	}
	name := func(want string) {
		t.Helper()
		_, got, err := browsertest.Accessible(ctx, `#board`)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("the board is named %q, want %q", got, want)
		}
	}
	name("Board")
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`),
		chromedp.KeyEvent(kb.ArrowLeft),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "move 5", `document.getElementById("board").classList.contains("past")`)
	name("The board as you knew it after move 5.")
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the board now", `!document.getElementById("board").classList.contains("past")`)
	name("Board")

	// Over, every move's board shows both armies: not as the player knew it.
	m, err := f.store.Act(context.Background(), m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: storagetest.T0})
	if err != nil {
		t.Fatal(err)
	}
	changed(t, f, m)
	browsertest.Wait(t, ctx, "the end", `document.getElementById("resign").hidden && document.getElementById("note").textContent !== ""`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "move 5 of the match over", `document.getElementById("board").classList.contains("past")`)
	name("Move 5 of 6")
}
