package web

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserSetupDragOutlivesTheSetup: a piece picked up to rearrange the
// set-up and let go once the set-up is over (confirmed on Discord while it
// was held, the opponent ready) is no move of the game: the drag was the
// set-up's, made on a draft, and it ends with nothing sent; the game's
// first move is the one the player then makes on the board.
func TestBrowserSetupDragOutlivesTheSetup(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := f.blueReady(t)
	// Red's draft, stored (as typed in the DM, or by Random): one with a
	// piece of the front row that may step sideways onto an empty square of
	// that row, a swap in the set-up, a move in the game.
	var draft game.Setup
	var from, to game.Square
	found := false
	for seed := uint64(1); seed < 100 && !found; seed++ {
		draft = game.RandomSetup(m.Rules, seed)
		for c := 0; c < 10 && !found; c++ {
			if r := draft[0][c]; r == game.NoRank || r == game.Bomb || r == game.Flag {
				continue
			}
			for _, d := range []int{-1, 1} {
				if c+d >= 0 && c+d < 10 && draft[0][c+d] == game.NoRank {
					from, to, found = game.SetupSquare(game.Red, 0, c), game.SetupSquare(game.Red, 0, c+d), true
					break
				}
			}
		}
	}
	if !found {
		t.Fatal("no seed gives a piece beside an empty square of the front row")
	}
	m, err := f.store.SetSetup(bg, m.ID, m.Version, game.Red, draft, storage.SetupDraft, storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`.sq.red`)),
	); err != nil {
		t.Fatal(err)
	}
	sq := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
	confirmed := func() error {
		// Red confirms the same draft on Discord (its preview's Confirm):
		// Blue was ready, the game begins, Red to move.
		m, err = f.store.SetSetup(bg, m.ID, m.Version, game.Red, draft, storage.SetupConfirmed, storagetest.T0)
		if err != nil {
			return err
		}
		g, err := m.Game()
		if err != nil {
			return err
		}
		if !legal(g, from, to) {
			t.Fatalf("%s-%s is no legal move of the game", from, to)
		}
		f.srv.MatchChanged(m, g)
		return chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#resign`)))
	}
	if err := browsertest.DragAndLook(ctx, sq(from), sq(to), confirmed); err != nil {
		t.Fatal(err)
	}
	// Now a move made on the board, another piece's: it is the game's first.
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	var mv game.Move
	for _, l := range g.LegalMoves() {
		if l.From != from {
			mv = l
			break
		}
	}
	// (A move the drag made instead comes to the history, and no piece can
	// be picked up meanwhile.)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sq(mv.From)))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the targets of "+mv.From.String()+", or a move made", `document.querySelector('`+sq(mv.To)+`.target, #history li') !== null`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sq(mv.To)))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "a move in the history", `document.querySelectorAll("#history li").length >= 1`)
	after, err := f.store.Match(bg, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	var made []game.Move
	for _, a := range after.Log {
		if a.Kind == storage.ActMove {
			made = append(made, a.Move)
		}
	}
	if len(made) != 1 || made[0].From != mv.From || made[0].To != mv.To {
		t.Fatalf("the moves made: %v; want only %s-%s (the set-up's drag of %s to %s is no move)", made, mv.From, mv.To, from, to)
	}
}

// TestBrowserTrayDropAfterConfirmed: a piece dragged from the tray and let
// go once the player's set-up was confirmed on Discord does nothing, and
// says nothing: the page shows the set-up confirmed, the one that will be
// played, and keeps no draft of it in the browser.
func TestBrowserTrayDropAfterConfirmed(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
	); err != nil {
		t.Fatal(err)
	}
	confirmed := game.RandomSetup(m.Rules, 7)
	// An empty square of the set-up confirmed, where the Flag is let go.
	var empty game.Square = 255
	for c := 0; c < 10 && empty == 255; c++ {
		if confirmed[0][c] == game.NoRank {
			empty = game.SetupSquare(game.Red, 0, c)
		}
	}
	if empty == 255 {
		t.Fatal("the seed's set-up fills its front row: pick another")
	}
	sq := `.sq[data-sq="` + itoa(int(empty)) + `"]`
	confirm := func() error {
		m, err = f.store.SetSetup(bg, m.ID, 0, game.Red, confirmed, storage.SetupConfirmed, storagetest.T0)
		if err != nil {
			return err
		}
		f.srv.MatchChanged(m, nil)
		return chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.getElementById("tray").hidden`))
	}
	if err := browsertest.DragAndLook(ctx, `#tray button[data-rank="13"]`, sq, confirm); err != nil {
		t.Fatal(err)
	}
	type after struct {
		Piece   bool
		Kept    bool
		Refusal string
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[after](`({
		Piece: document.querySelector('`+sq+`').classList.contains("red"),
		Kept: sessionStorage.getItem("strategobot-setup-`+itoa(int(m.ID))+`-red") !== null,
		Refusal: document.getElementById("refusal").textContent + document.getElementById("hint").textContent,
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Piece {
		t.Errorf("%s shows a piece let go after the set-up was confirmed; the set-up confirmed has none there", empty)
	}
	if got.Kept {
		t.Errorf("the browser keeps a draft of a set-up confirmed")
	}
	if got.Refusal != "" {
		t.Errorf("the drop says %q: nothing was asked of a set-up confirmed", got.Refusal)
	}
}

// legal reports whether from-to is a legal move of g's side to move.
func legal(g *game.Game, from, to game.Square) bool {
	for _, mv := range g.LegalMoves() {
		if mv.From == from && mv.To == to {
			return true
		}
	}
	return false
}

// TestBrowserAnswerAfterConfirmed: an answer to the set-up's Random, Save
// draft or live check that comes after the player's set-up was confirmed
// on Discord (pressed as the DM's Confirm was) changes nothing: the page
// shows the set-up confirmed, the one that will be played, says nothing of
// a draft, and keeps none in the browser.
func TestBrowserAnswerAfterConfirmed(t *testing.T) {
	for _, tc := range []struct {
		name, path, answered string
		press                []chromedp.Action[chromedp.Void]
	}{
		{"Random", "/api/random", "randomed", []chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.CSS(`#random`))}},
		{"Save draft", "/api/setup", "acted", []chromedp.Action[chromedp.Void]{
			chromedp.Click(chromedp.CSS(`#random`)), // a set-up to save
			chromedp.Poll[chromedp.Void](`!document.getElementById("save").disabled`),
			chromedp.Click(chromedp.CSS(`#save`)),
		}},
		// The live check of a draft with the Flag alone: its refusal.
		{"the check", "/api/check", "checked", []chromedp.Action[chromedp.Void]{
			chromedp.Click(chromedp.CSS(`#tray button[data-rank="13"]`)),
			chromedp.Click(chromedp.CSS(`.sq[data-sq="0"]`)),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			stored, held := make(chan struct{}), make(chan struct{})
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				// The check's is the one of the Flag's draft, not the page's
				// first, quiet one, of the empty draft.
				if r.URL.Path == tc.path && (tc.path != "/api/check" || bytes.Contains(body, []byte("13"))) {
					rec := httptest.NewRecorder()
					f.srv.ServeHTTP(rec, r)
					close(stored)
					select { // its answer held until the set-up is confirmed
					case <-held:
					case <-r.Context().Done():
					}
					for k, v := range rec.Header() {
						w.Header()[k] = v
					}
					w.WriteHeader(rec.Code)
					_, _ = w.Write(rec.Body.Bytes())
					return
				}
				f.srv.ServeHTTP(w, r)
			}))
			t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
			ctx := browser(t)
			bg := context.Background()
			m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
			if err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx,
				chromedp.Navigate(ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
				chromedp.WaitVisible(chromedp.CSS(`#random`)),
			); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, tc.press...); err != nil {
				t.Fatal(err)
			}
			// The draft is stored, then the set-up confirmed on Discord.
			select {
			case <-stored:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s was not asked", tc.path)
			}
			if m, err = f.store.Match(bg, m.ID); err != nil {
				t.Fatal(err)
			}
			confirmed := game.RandomSetup(m.Rules, 7)
			if m, err = f.store.SetSetup(bg, m.ID, m.Version, game.Red, confirmed, storage.SetupConfirmed, storagetest.T0); err != nil {
				t.Fatal(err)
			}
			f.srv.MatchChanged(m, nil)
			browsertest.Wait(t, ctx, "the set-up confirmed", `document.getElementById("tray").hidden`)
			close(held)
			browsertest.Wait(t, ctx, "the answer had", `document.body.dataset.`+tc.answered+` === "1"`)
			type page struct {
				Pieces        []int
				Done, Refusal string
				Kept          bool
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[page](`({
				Pieces: Array.from(document.querySelectorAll(".sq.red")).map(b => +b.dataset.sq).sort((a, b) => a - b),
				Done: document.getElementById("done").textContent,
				Refusal: document.getElementById("refusal").textContent + document.getElementById("hint").textContent,
				Kept: sessionStorage.getItem("strategobot-setup-`+itoa(int(m.ID))+`-red") !== null,
			})`))
			if err != nil {
				t.Fatal(err)
			}
			var want []int
			for sq := game.Square(0); sq < 40; sq++ {
				row, col, _ := game.SetupCell(game.Red, sq)
				if confirmed[row][col] != game.NoRank {
					want = append(want, int(sq))
				}
			}
			if !slices.Equal(got.Pieces, want) {
				t.Errorf("the page shows pieces on %v after the answer; the set-up confirmed has them on %v", got.Pieces, want)
			}
			if got.Done != "" || got.Refusal != "" {
				t.Errorf("the page says %q %q of a set-up confirmed", got.Done, got.Refusal)
			}
			if got.Kept {
				t.Errorf("the browser keeps a draft of a set-up confirmed")
			}
		})
	}
}
