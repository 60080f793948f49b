package game

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestViewKnowledge(t *testing.T) {
	g := position(t, DefaultRules(VariantClassic), Red,
		red("A1", Flag), red("B2", Scout), red("E4", Captain), red("J1", Bomb),
		blue("J10", Flag), blue("E7", Lieutenant), blue("A7", Scout), blue("F7", Bomb))
	play(t, g, "B2-B5", "E7-E6", "E4-E5", "A7-A8", "E5xE6")

	tests := []struct {
		viewer Viewer
		square string
		want   Cell
	}{
		// Own pieces: everything.
		{RedViewer, "J1", Cell{Occupied: true, Side: Red, Rank: Bomb}},
		{RedViewer, "B5", Cell{Occupied: true, Side: Red, Rank: Scout, Moved: true, KnownScout: true}},
		// The opponent's: position, moved, scout by movement; rank only once revealed.
		{BlueViewer, "J1", Cell{Occupied: true, Side: Red}},
		{BlueViewer, "B5", Cell{Occupied: true, Side: Red, Moved: true, KnownScout: true}},
		{RedViewer, "A8", Cell{Occupied: true, Side: Blue, Moved: true}},
		{RedViewer, "F7", Cell{Occupied: true, Side: Blue}},
		{BlueViewer, "E6", Cell{Occupied: true, Side: Red, Rank: Captain, Moved: true, Revealed: true}},
		// The public: what both players know.
		{PublicViewer, "B5", Cell{Occupied: true, Side: Red, Moved: true, KnownScout: true}},
		{PublicViewer, "E6", Cell{Occupied: true, Side: Red, Rank: Captain, Moved: true, Revealed: true}},
		{PublicViewer, "A1", Cell{Occupied: true, Side: Red}},
		{PublicViewer, "E4", Cell{}},
		{PublicViewer, "C5", Cell{}},
	}
	for _, tc := range tests {
		if got := g.View(tc.viewer).Board[sq(t, tc.square)]; got != tc.want {
			t.Errorf("%v sees %s as %+v, want %+v", tc.viewer, tc.square, got, tc.want)
		}
	}
	v := g.View(PublicViewer)
	if v.Captured[Blue][Lieutenant] != 1 || v.Captured[Blue].Total() != 1 || v.Captured[Red].Total() != 0 {
		t.Errorf("captured %v / %v", v.Captured[Red], v.Captured[Blue])
	}
	if v.Remaining[Blue][Lieutenant] != 0 || v.Remaining[Blue].Total() != 3 {
		t.Errorf("remaining %v", v.Remaining[Blue])
	}
	last, ok := v.LastMove()
	if !ok || last.String() != "E5xE6" || last.Attacker != Captain || last.Defender != Lieutenant || last.Outcome != AttackerWon {
		t.Errorf("last move %+v", last)
	}
	if v.Ply() != 5 || v.ToMove != Blue {
		t.Errorf("ply %d, to move %v", v.Ply(), v.ToMove)
	}
	if _, ok := g.Reveal(); ok {
		t.Error("Reveal works before the end")
	}
	if err := g.Resign(Blue); err != nil {
		t.Fatal(err)
	}
	final, ok := g.Reveal()
	if !ok || final.Board[sq(t, "F7")].Rank != Bomb || final.Board[sq(t, "J1")].Rank != Bomb {
		t.Errorf("final reveal hides pieces: %+v", final.Board[sq(t, "F7")])
	}
}

// TestViewHidesUnknownRanks is the leak property: shuffling the still-hidden
// pieces of one side among themselves (keeping what the opponent has seen of
// each: moved, known Scout) leaves the opponent's view, the public view, the
// opponent's legal moves and every refusal reason unchanged.
func TestViewHidesUnknownRanks(t *testing.T) {
	variants := []Rules{DefaultRules(VariantClassic), DefaultRules(VariantBarrage), DefaultRules(VariantDuel), DefaultRules(VariantInfiltrator)}
	for vi, rules := range variants {
		for seed := uint64(1); seed <= 25; seed++ {
			g := randomGame(t, rules, seed*7+uint64(vi), int(seed*13))
			r := rand.New(rand.NewPCG(seed, 99))
			for hidden := Red; hidden <= Blue; hidden++ {
				shuffled := ShuffleHidden(g, hidden, r.Uint64())
				observer := ViewerOf(hidden.Opponent())
				for _, viewer := range []Viewer{observer, PublicViewer} {
					if a, b := g.View(viewer), shuffled.View(viewer); !reflect.DeepEqual(a, b) {
						t.Fatalf("%v seed %d: shuffling %v's hidden pieces changed the %v view", rules.Variant, seed, hidden, viewer)
					}
				}
				if g.ToMove() == hidden.Opponent() && !g.Result().Over() {
					if a, b := g.LegalMoves(), shuffled.LegalMoves(); !reflect.DeepEqual(a, b) {
						t.Fatalf("%v seed %d: the legal moves of %v depend on %v's hidden ranks", rules.Variant, seed, hidden.Opponent(), hidden)
					}
					for a := Square(0); a < NumSquares; a += 3 {
						for b := Square(0); b < NumSquares; b++ {
							m := Move{From: a, To: b}
							if e1, e2 := errText(g.Check(m)), errText(shuffled.Check(m)); e1 != e2 {
								t.Fatalf("%v: the reason %q became %q after a shuffle", m, e1, e2)
							}
						}
					}
				}
			}
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
