package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserAnswerLostMoveMade: a move whose answer was lost (the bot went
// down as it answered) was made all the same. The page says it could not
// reach the bot only while the board it sent the move on is the one shown:
// once the board that shows the move comes, before the loss or after it,
// the board says what happened, and the page does not say to try again (it
// is the opponent's move).
func TestBrowserAnswerLostMoveMade(t *testing.T) {
	for _, tc := range []struct {
		name string
		// boardFirst: the move is made and its board sent before its
		// answer is lost; else the answer is lost first, and the move
		// found made afterwards (as the bot that took it comes back).
		boardFirst bool
	}{{"the board first", true}, {"the loss first", false}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			release := make(chan struct{})
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost && r.URL.Path == "/api/move" {
					if tc.boardFirst {
						f.srv.ServeHTTP(httptest.NewRecorder(), r) // made, and its board sent
						select {
						case <-release:
						case <-r.Context().Done():
						}
					}
					if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
						c.Close() // its answer lost
					}
					return
				}
				f.srv.ServeHTTP(w, r)
			}))
			t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
			ctx := browser(t)
			bg := context.Background()
			m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
			g, err := m.Game()
			if err != nil {
				t.Fatal(err)
			}
			mv := g.LegalMoves()[0]
			sq := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
			if err := chromedp.Do(ctx,
				chromedp.Navigate(ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
				chromedp.WaitVisible(chromedp.CSS(`#resign`)),
				chromedp.Click(chromedp.CSS(sq(mv.From))),
				chromedp.WaitVisible(chromedp.CSS(sq(mv.To)+`.target`)),
				chromedp.Click(chromedp.CSS(sq(mv.To))),
			); err != nil {
				t.Fatal(err)
			}
			if tc.boardFirst {
				browsertest.Wait(t, ctx, "the move on the board", `document.querySelectorAll("#history li").length === 1`)
				close(release)
				browsertest.Wait(t, ctx, "the move's answer had", `document.body.dataset.acted === "1"`)
			} else {
				browsertest.Wait(t, ctx, "the move's answer had", `document.body.dataset.acted === "1"`)
				if got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#refusal`))); err != nil || got != txtNoConnection {
					t.Fatalf("with the board it was sent on, the page says %q of the lost answer (%v), want %q", got, err, txtNoConnection)
				}
				m2, g2, err := f.store.ApplyMove(bg, m.ID, m.Version, game.Red, mv, storagetest.T0)
				if err != nil {
					t.Fatal(err)
				}
				f.srv.MatchChanged(m2, g2)
				browsertest.Wait(t, ctx, "the move on the board", `document.querySelectorAll("#history li").length === 1`)
			}
			if got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#refusal`))); err != nil || got != "" {
				t.Fatalf("under the board that shows the move, the page says %q (%v)", got, err)
			}
		})
	}
}
