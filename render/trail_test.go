package render

import (
	"fmt"
	"slices"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestMarkLastMoveTrail: a run marks the squares between its ends, across
// or up and down the picture; a step, a strike from afar and the ends
// themselves carry no trail.
func TestMarkLastMoveTrail(t *testing.T) {
	for _, tc := range []struct {
		move  string
		trail []string
		bg    uint8
	}{
		{"A4-A6", []string{"A5"}, bgTrailV},
		{"F7-F3", []string{"F6", "F5", "F4"}, bgTrailV},
		{"A4-D4", []string{"B4", "C4"}, bgTrailH},
		{"J6xE6", []string{"I6", "H6", "G6", "F6"}, bgTrailH},
		{"B4-B5", nil, 0},
		{"E5xE6", nil, 0},
		{"A4xA6 I=8", nil, 0}, // an infiltration
	} {
		t.Run(tc.move, func(t *testing.T) {
			m, err := game.ParseMove(tc.move[:5], game.NumberingModern)
			if err != nil {
				t.Fatal(err)
			}
			if len(tc.move) > 5 {
				m.Guess = game.General
			}
			rec := game.MoveRecord{Move: m}
			if tc.move[2] == 'x' {
				rec.Outcome = game.AttackerWon
			}
			var bg [game.NumSquares]uint8
			markLastMove(&bg, rec)
			var got []string
			for s, b := range bg {
				if b >= numBgs {
					got = append(got, game.Square(s).String())
					if b != tc.bg {
						t.Errorf("%s has background %d, want %d", game.Square(s), b, tc.bg)
					}
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.trail))
			if !slices.Equal(got, want) {
				t.Errorf("trail on %v, want %v", got, want)
			}
		})
	}
}

// TestTrailLegibility: the squares a Scout ran over show its trail on every
// view (the move is public), in greyscale, at the widths Discord shows a
// picture on a phone: inside each crossed square, at least trailMin pixels
// differ by markLevel from the same square with no last move.
func TestTrailLegibility(t *testing.T) {
	r := renderer(t)
	const markLevel, trailMin = 50, 25 // now 38 or 39 at 300 px, 57 at 360 px; was 0
	// A Barrage army leaves room in the front row for a run across it.
	barrage := func(t *testing.T) *game.Game {
		red := parseSetup(t, ". . 2 . 10 . . 3 . .", ". 2 . . . 9 . . . .", ". . . S . . . . . .", ". . . . . . . . F B")
		blue := parseSetup(t, ". . 2 . 10 . . 3 . .", ". 2 . . . 9 . . . .", ". . . S . . . . . .", ". . . . . . . . F B")
		g, err := game.NewGame(game.DefaultRules(game.VariantBarrage), red, blue)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := game.ParseMove("C4-A4", game.NumberingModern)
		if _, err := g.Apply(m); err != nil {
			t.Fatal(err)
		}
		return g
	}
	golden := func(plies int) func(t *testing.T) *game.Game {
		return func(t *testing.T) *game.Game { return goldenGame(t, plies) }
	}
	for _, tc := range []struct {
		name    string
		game    func(t *testing.T) *game.Game
		crossed []string
	}{
		{"A4-A6", golden(1), []string{"A5"}},
		{"F4-F6", golden(3), []string{"F5"}},
		{"C4-A4", barrage, []string{"B4"}},
	} {
		g := tc.game(t)
		for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
			for _, width := range []int{300, 360} {
				t.Run(fmt.Sprintf("%s/%s/%dpx", tc.name, viewer, width), func(t *testing.T) {
					v := g.View(viewer)
					bottom := game.Red
					if s, ok := viewer.IsPlayer(); ok {
						bottom = s
					}
					with := decodePNG(t, boardPNG(t, r, v, Options{}))
					v.History = nil
					without := decodePNG(t, boardPNG(t, r, v, Options{}))
					for _, square := range tc.crossed {
						p := r.board.squareAt(sq(t, square), bottom)
						a, rect := squareAtWidth(with, p, width)
						b, _ := squareAtWidth(without, p, width)
						// Inside the square: the frames of its neighbours
						// (the move's ends) blur into its edges.
						inner := rect.Inset(2)
						got := difference(a, b, inner, markLevel)
						if got < trailMin {
							t.Errorf("%s: the trail changes %d pixels by %d levels of 255 or more, want at least %d", square, got, markLevel, trailMin)
						}
					}
				})
			}
		}
	}
}
