package render

import (
	"io"
	"math/rand/v2"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestHiddenRanksStayInTheirMatch: the encoder keeps compressed bands for
// any later picture to reuse (pngEncoder), and whether a picture found its
// bands shows in the bot's metrics (BandStats, strategobot_picture_bands_reused_total)
// and in how long it took to draw. A row of squares that shows a player's
// own hidden ranks must be found only by pictures given the same
// Options.Secret (that player's match): else anyone who draws a guessed
// set-up, in a preview or on the board of a match of their own, learns
// whether a row of the guess is a row of another player's army.
func TestHiddenRanksStayInTheirMatch(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	r := rand.New(rand.NewPCG(1, 2))
	victim, blue := gametest.Setup(rules, r), gametest.Setup(rules, r)
	// A wrong guess: every row of the victim's set-up turned by a square.
	wrong := victim
	for i := range wrong {
		row := wrong[i]
		for c := range row {
			wrong[i][c] = row[(c+1)%10]
		}
	}
	victimOpts, attackerOpts := Options{Secret: 1}, Options{Secret: 2}
	draws := []struct {
		name string
		draw func(t *testing.T, pics *Renderer, guess game.Setup)
	}{
		{"a set-up preview", func(t *testing.T, pics *Renderer, guess game.Setup) {
			if err := pics.SetupPreview(io.Discard, guess, game.Red, rules, attackerOpts); err != nil {
				t.Fatal(err)
			}
		}},
		{"the board of another match", func(t *testing.T, pics *Renderer, guess game.Setup) {
			g, err := game.NewGame(rules, guess, blue)
			if err != nil {
				t.Fatal(err)
			}
			if err := pics.Board(io.Discard, g.View(game.RedViewer), attackerOpts); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, d := range draws {
		t.Run(d.name, func(t *testing.T) {
			var found [2]uint64 // bands the attacker's picture found: right guess, wrong guess
			for k, guess := range []game.Setup{victim, wrong} {
				pics, err := New()
				if err != nil {
					t.Fatal(err)
				}
				g, err := game.NewGame(rules, victim, blue)
				if err != nil {
					t.Fatal(err)
				}
				v := g.View(game.RedViewer)
				if err := pics.Board(io.Discard, v, victimOpts); err != nil {
					t.Fatal(err)
				}
				_, before := pics.BandStats()
				d.draw(t, pics, guess)
				_, after := pics.BandStats()
				found[k] = after - before
				// The victim's own next picture still finds all its rows.
				_, before = pics.BandStats()
				if err := pics.Board(io.Discard, v, victimOpts); err != nil {
					t.Fatal(err)
				}
				if _, after := pics.BandStats(); after-before < 10 {
					t.Errorf("the victim's second picture found %d bands, want its 10 rows at least", after-before)
				}
			}
			if found[0] != found[1] {
				t.Errorf("drawing the victim's set-up found %d compressed bands, a wrong guess %d: a picture tells whether a guess is another player's army", found[0], found[1])
			}
		})
	}
}
