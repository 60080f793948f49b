package web

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// basisRecorder is an Actor that checks a move's basis on the match as it
// is when the move comes, reports that check, and answers with it.
type basisRecorder struct {
	Actor
	checked chan error
}

func (a basisRecorder) Move(_ context.Context, m *storage.Match, at Basis, _ game.Side, _ game.Move) error {
	g, err := gameOf(m)
	if err != nil {
		return err
	}
	err = at(m, g)
	a.checked <- err
	return err
}

// TestBrowserQuestionAnsweredOnAnotherBoard: an Infiltrator's move is
// chosen on a board, then its question (attack, or which rank to guess)
// answered after the board changed under it (here the opponent offered a
// draw meanwhile). The move goes as made on the board it was chosen on,
// which the bot refuses as changed, and the page says so and shows the
// board as it is: it went as made on the new board, which the player chose
// nothing on.
func TestBrowserQuestionAnsweredOnAnotherBoard(t *testing.T) {
	g, attack := attackOrInfiltrate(t)
	side := g.ToMove()
	w := &world{m: playingMatch(g)}
	rec := basisRecorder{checked: make(chan error, 1)}
	w.srv = New(Options{Auth: viewerAuth{}, Matches: w, Actor: rec, Rate: 1e9})
	w.ts = httptest.NewServer(w.srv)
	t.Cleanup(func() { w.ts.CloseClientConnections(); w.ts.Close() })
	ctx := browser(t)
	sel := func(s game.Square) string { return `.sq[data-sq="` + strconv.Itoa(int(s)) + `"]` }
	if err := chromedp.Do(ctx,
		chromedp.Navigate(w.ts.URL+"/board#"+strconv.Itoa(int(game.ViewerOf(side)))),
		chromedp.WaitVisible(chromedp.CSS(sel(attack.From))),
		chromedp.Click(chromedp.CSS(sel(attack.From))),
		chromedp.WaitVisible(chromedp.CSS(sel(attack.To)+`.target`)),
		chromedp.Click(chromedp.CSS(sel(attack.To))),
		chromedp.WaitVisible(chromedp.CSS(`#ask`)),
	); err != nil {
		t.Fatal(err)
	}
	// The opponent offers a draw while the question is open.
	g2 := g.Clone()
	if err := g2.OfferDraw(side.Opponent()); err != nil {
		t.Fatal(err)
	}
	m2 := playingMatch(g2)
	m2.Log = append(m2.Log, storage.Action{Kind: storage.ActOfferDraw, Side: side.Opponent()})
	m2.Version++
	w.change(m2, g2)
	if err := chromedp.Do(ctx,
		chromedp.Poll[chromedp.Void](`!document.getElementById("decline").hidden`),
		chromedp.KeyEvent(kb.Enter), // Attack
	); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-rec.checked:
		if err == nil {
			t.Fatal("the move went as made on the board that came while its question was open")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no move sent")
	}
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.getElementById("refusal").textContent === `+jsString(txtStale))); err != nil {
		t.Fatalf("the refusal said: %v", err)
	}
}
