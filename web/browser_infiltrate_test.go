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
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/storage"
)

// moveRecorder is an Actor that only records the moves it is asked for.
type moveRecorder struct {
	Actor
	moves chan game.Move
}

func (a moveRecorder) Move(_ context.Context, _ *storage.Match, _ Basis, _ game.Side, mv game.Move) error {
	a.moves <- mv
	return nil
}

// attackOrInfiltrate finds a position of an Infiltrator game in which the side to move
// may either attack an adjacent piece or infiltrate it.
func attackOrInfiltrate(t *testing.T) (*game.Game, game.Move) {
	t.Helper()
	var found *game.Game
	var attack game.Move
	visit := func(g *game.Game) bool {
		infiltrations := map[[2]game.Square]bool{}
		for _, mv := range g.LegalMoves() {
			if mv.IsInfiltration() {
				infiltrations[[2]game.Square{mv.From, mv.To}] = true
			}
		}
		for _, mv := range g.LegalMoves() {
			if !mv.IsInfiltration() && infiltrations[[2]game.Square{mv.From, mv.To}] {
				found, attack = g.Clone(), mv
				return false
			}
		}
		return true
	}
	for seed := uint64(1); found == nil && seed < 200; seed++ {
		gametest.Game(t, game.DefaultRules(game.VariantInfiltrator), seed, 3000, visit)
	}
	if found == nil {
		t.Fatal("no position where an Infiltrator may attack or infiltrate")
	}
	return found, attack
}

// TestBrowserInfiltratorChooses: an Infiltrator next to an enemy piece may
// attack it or infiltrate it; the page asks which, and the keyboard answers.
func TestBrowserInfiltratorChooses(t *testing.T) {
	g, attack := attackOrInfiltrate(t)
	side := g.ToMove()
	w := &world{m: playingMatch(g)}
	rec := moveRecorder{moves: make(chan game.Move, 1)}
	w.srv = New(Options{Auth: viewerAuth{}, Matches: w, Actor: rec, Rate: 1e9})
	w.ts = httptest.NewServer(w.srv)
	t.Cleanup(func() { w.ts.CloseClientConnections(); w.ts.Close() })
	ctx := browser(t)
	sel := func(s game.Square) string { return `.sq[data-sq="` + strconv.Itoa(int(s)) + `"]` }
	tests := []struct {
		name string
		keys string // typed in the dialog: the first button is Attack
		want game.Rank
	}{
		{"attack", kb.Enter, game.NoRank},
		{"guess", kb.Tab + kb.Enter, firstGuess(g)},
	}
	for _, tc := range tests {
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"), // a page of its own: a new fragment alone would reload the old one under the next steps
			chromedp.Navigate(w.ts.URL+"/board#"+strconv.Itoa(int(game.ViewerOf(side)))),
			chromedp.WaitVisible(chromedp.CSS(sel(attack.From))),
			chromedp.Click(chromedp.CSS(sel(attack.From))),
			chromedp.WaitVisible(chromedp.CSS(sel(attack.To)+`.target`)),
			chromedp.Click(chromedp.CSS(sel(attack.To))),
			chromedp.WaitVisible(chromedp.CSS(`#ask`)),
		); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		question, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#ask-text`)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(tc.keys)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if question != "Attack this piece, or infiltrate it: guess its rank." {
			t.Fatalf("%s: asked %q", tc.name, question)
		}
		select {
		case mv := <-rec.moves:
			if mv.From != attack.From || mv.To != attack.To || mv.Guess != tc.want {
				t.Fatalf("%s: sent %+v, want guess %v", tc.name, mv, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no move sent", tc.name)
		}
	}
}

// firstGuess is the rank of the first guess the page offers: the lowest
// rank in the army.
func firstGuess(g *game.Game) game.Rank {
	army := g.Rules().Army
	for r := game.Rank(1); int(r) < len(army); r++ {
		if army[r] > 0 {
			return r
		}
	}
	return game.NoRank
}
