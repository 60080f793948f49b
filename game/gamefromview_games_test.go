package game_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestGameFromViewEnds checks results that only the view records: resignation,
// agreed draw, time forfeit, and a standing draw offer.
func TestGameFromViewEnds(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	tests := []struct {
		name string
		act  func(g *game.Game) error
	}{
		{"resignation", func(g *game.Game) error { return g.Resign(game.Blue) }},
		{"time", func(g *game.Game) error { return g.TimeOut(g.ToMove()) }},
		{"draw agreed", func(g *game.Game) error {
			if err := g.OfferDraw(game.Red); err != nil {
				return err
			}
			return g.AcceptDraw(game.Blue)
		}},
		{"draw offered", func(g *game.Game) error { return g.OfferDraw(g.ToMove().Opponent()) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := gametest.Game(t, rules, 3, 9, nil)
			if err := tc.act(g); err != nil {
				t.Fatal(err)
			}
			v := g.View(game.ViewerOf(g.ToMove()))
			rebuilt, err := game.GameFromView(v)
			if err != nil {
				t.Fatal(err)
			}
			if rebuilt.Result() != g.Result() {
				t.Errorf("result %v, want %v", rebuilt.Result(), g.Result())
			}
			by, ok := rebuilt.DrawOffer()
			wantBy, wantOK := g.DrawOffer()
			if ok != wantOK || (ok && by != wantBy) {
				t.Errorf("draw offer %v %v, want %v %v", by, ok, wantBy, wantOK)
			}
			moves, err := v.LegalMoves()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(moves, g.LegalMoves()) {
				t.Errorf("legal moves %v, want %v", moves, g.LegalMoves())
			}
		})
	}
}

// TestGameFromViewRefusesInconsistentViews checks that a view whose history
// and board disagree is refused, not trusted.
func TestGameFromViewRefusesInconsistentViews(t *testing.T) {
	g := gametest.Game(t, game.DefaultRules(game.VariantBarrage), 5, 40, nil)
	base := g.View(game.ViewerOf(g.ToMove()))
	tests := []struct {
		name   string
		change func(v *game.View)
	}{
		{"a move from an empty square", func(v *game.View) { v.History[len(v.History)-1].Move.To = game.NoSquare }},
		{"a piece removed from the board", func(v *game.View) {
			for s := range v.Board {
				if v.Board[s].Occupied && v.Board[s].Side == v.ToMove.Opponent() {
					v.Board[s] = game.Cell{}
					return
				}
			}
		}},
		{"a turn out of order", func(v *game.View) { v.History[0].Side = game.Blue }},
		{"too many known Marshals", func(v *game.View) {
			for s := range v.Board {
				if c := &v.Board[s]; c.Occupied && c.Side == v.ToMove && c.Rank != game.Marshal {
					c.Rank = game.Marshal
					return
				}
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := base
			v.History = slices.Clone(base.History)
			tc.change(&v)
			if _, err := game.GameFromView(v); !errors.Is(err, game.ErrInconsistentView) {
				t.Fatalf("error %v, want ErrInconsistentView", err)
			}
		})
	}
}

// BenchmarkGameFromView rebuilds games 100–300 plies long from a player's view.
func BenchmarkGameFromView(b *testing.B) {
	var views []game.View
	for seed := uint64(0); len(views) < 16; seed++ {
		g := gametest.Game(b, game.DefaultRules(game.VariantClassic), seed, 100+int(seed%200), nil)
		if !g.Result().Over() {
			views = append(views, g.View(game.ViewerOf(g.ToMove())))
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := game.GameFromView(views[i%len(views)]); err != nil {
			b.Fatal(err)
		}
	}
}
