package render

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
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

// TestHiddenRanksRowsRepeatAlike: within one match too, whether a player's
// picture found a row of their own pieces compressed must not depend on
// their hidden ranks. Red's hidden piece X steps A4-A5 and on to A6; later
// Red's hidden piece Y steps B4-A4-A5, and row 5 of Red's picture looks as
// it did after X's first step exactly when X and Y have one rank. Found by
// its tiles alone, that row told (in BandStats) whether two hidden pieces
// are alike; found by which pieces stand in it, it tells nothing.
func TestHiddenRanksRowsRepeatAlike(t *testing.T) {
	rules := gametest.CustomRules(t, "5 4 4 F")
	blue := map[string]game.Rank{"J7": game.Sergeant, "I7": game.Sergeant, "B7": game.Lieutenant, "A10": game.Flag}
	moves := []string{"A4-A5", "J7-J6", "A5-A6", "I7-I6", "B4-A4", "B7-B8", "A4-A5"}
	armies := map[string]map[string]game.Rank{
		"X and Y alike":  {"A4": game.Sergeant, "B4": game.Sergeant, "C4": game.Lieutenant, "A1": game.Flag},
		"X and Y unlike": {"A4": game.Sergeant, "B4": game.Lieutenant, "C4": game.Sergeant, "A1": game.Flag},
	}
	var found [2][]uint64 // per army, the bands each of Red's pictures found compressed
	for k, name := range []string{"X and Y alike", "X and Y unlike"} {
		pics, err := New()
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply <= len(moves); ply++ {
			g := gametest.Scripted(t, rules, armies[name], blue, moves[:ply]...)
			v := g.View(game.RedViewer)
			_, before := pics.BandStats()
			var warm bytes.Buffer
			if err := pics.Board(&warm, v, Options{Secret: 1}); err != nil {
				t.Fatal(err)
			}
			_, after := pics.BandStats()
			found[k] = append(found[k], after-before)
			// Found or drawn, the picture is the one drawn afresh.
			if cold := boardPNG(t, renderer(t), v, Options{}); !bytes.Equal(warm.Bytes(), cold) {
				t.Fatalf("%s, after %d moves: the picture differs from the one drawn afresh", name, ply)
			}
		}
	}
	if !slices.Equal(found[0], found[1]) {
		t.Errorf("Red's pictures found %v compressed bands when X and Y are alike, %v when not: the metric tells whether two hidden pieces are alike", found[0], found[1])
	}
}
