package game

import (
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
