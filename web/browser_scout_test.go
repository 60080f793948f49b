package web

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestBrowserKnownScout: a piece that moved like a Scout shows the Scout's
// label on its square, as the picture does, though its rank was never shown.
func TestBrowserKnownScout(t *testing.T) {
	var g *game.Game
	scout := game.Square(0)
	gametest.Game(t, game.DefaultRules(game.VariantBarrage), 3, 3000, func(at *game.Game) bool {
		for i, c := range at.View(game.PublicViewer).Board {
			if c.Occupied && c.KnownScout && c.Rank == game.NoRank {
				g, scout = at.Clone(), game.Square(i)
				return false
			}
		}
		return true
	})
	if g == nil {
		t.Fatal("no known Scout in the game")
	}
	w := newWorld(t, playingMatch(g))
	ctx := browser(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(w.ts.URL+"/board#"+strconv.Itoa(int(game.PublicViewer))),
		chromedp.WaitVisible(chromedp.CSS(`.sq.red`)),
	); err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.sq[data-sq="`+strconv.Itoa(int(scout))+`"]`)))
	if err != nil {
		t.Fatal(err)
	}
	if want := game.Scout.Label(game.NumberingModern); text != want {
		t.Fatalf("the known Scout on %v shows %q, want %q", scout, text, want)
	}
}
