package bot

import (
	"io"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// TestPicturesKeepHiddenRowsInTheirMatch: the renderer reuses compressed
// rows of squares across pictures, and how many it reused is a metric
// (strategobot_picture_bands_reused_total) and shows in how long a picture
// takes. A member who draws a guessed set-up, as a draft's preview or on
// the board of another match, must not learn from it whether the guess is
// a row of the army of a player who saw their own board: every picture of a
// match carries that match's picture secret (pictureOptions).
func TestPicturesKeepHiddenRowsInTheirMatch(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	victim := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag, {3, 1}: game.Marshal, {3, 2}: game.Bomb})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	wrong := victim // every row of the victim's set-up turned by a square
	for i, row := range victim {
		for c := range row {
			wrong[i][c] = row[(c+1)%10]
		}
	}
	match := func(id storage.MatchID, red game.Setup) (*storage.Match, *game.Game) {
		m := &storage.Match{ID: id, Rules: rules, Phase: storage.PhasePlaying, Created: time.Unix(0, 0)}
		m.Players[game.Red] = storage.Player{UserID: "1", Name: "alice"}
		m.Players[game.Blue] = storage.Player{UserID: "2", Name: "bob"}
		var err error
		if m.Secret, err = storage.NewSecret(); err != nil {
			t.Fatal(err)
		}
		g, err := game.NewGame(rules, red, blue)
		if err != nil {
			t.Fatal(err)
		}
		return m, g
	}
	p := lang.For("en")
	draws := []struct {
		name string
		draw func(t *testing.T, b *Bot, guess game.Setup)
	}{
		{"a draft's preview", func(t *testing.T, b *Bot, guess game.Setup) {
			m, _ := match(2, guess)
			if err := b.pics.SetupPreview(io.Discard, guess, game.Red, rules, b.pictureOptions(p, m, game.NumberingModern)); err != nil {
				t.Fatal(err)
			}
		}},
		{"the board of another match", func(t *testing.T, b *Bot, guess game.Setup) {
			m, g := match(2, guess)
			b.boardMessage(p, m, g, game.RedViewer, game.NumberingModern, noHeadline, time.Time{}, false)
		}},
	}
	for _, d := range draws {
		t.Run(d.name, func(t *testing.T) {
			var found [2]uint64 // rows the member's picture found compressed: right guess, wrong guess
			for k, guess := range []game.Setup{victim, wrong} {
				pics, err := render.New() // its own: no other test's pictures in its counts
				if err != nil {
					t.Fatal(err)
				}
				b := New(Config{}, nil, nil, pics)
				m, g := match(1, victim)
				b.boardMessage(p, m, g, game.RedViewer, game.NumberingModern, startHeadline, time.Time{}, false)
				_, before := pics.BandStats()
				d.draw(t, b, guess)
				bands, after := pics.BandStats()
				found[k] = after - before
				// The match's own next picture, the same again, still finds
				// every band, its rows of hidden ranks too.
				b.boardMessage(p, m, g, game.RedViewer, game.NumberingModern, startHeadline, time.Time{}, false)
				if bands2, again := pics.BandStats(); again-after != bands2-bands {
					t.Errorf("the victim's same picture again found %d of its %d bands compressed, want all", again-after, bands2-bands)
				}
			}
			if found[0] != found[1] {
				t.Errorf("the victim's set-up found %d compressed bands, a wrong guess %d: the member learns whether they guessed another player's army", found[0], found[1])
			}
		})
	}
}
