package game

import "testing"

// TestNeighbours: a square's neighbours are the squares Adjacent to it, lakes
// included, with NoSquare where the board ends.
func TestNeighbours(t *testing.T) {
	sq := func(text string) Square {
		s, err := ParseSquare(text)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		name string
		s    Square
		want [4]Square
	}{
		{"a corner", sq("A1"), [4]Square{sq("A2"), NoSquare, NoSquare, sq("B1")}},
		{"an edge", sq("J5"), [4]Square{sq("J6"), sq("J4"), sq("I5"), NoSquare}},
		{"beside a lake", sq("F5"), [4]Square{sq("F6"), sq("F4"), sq("E5"), sq("G5")}},
		{"off the board", NoSquare, [4]Square{NoSquare, NoSquare, NoSquare, NoSquare}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.s.Neighbours()
			if got != tc.want {
				t.Fatalf("Neighbours() = %v, want %v", got, tc.want)
			}
			for _, n := range got {
				if n != NoSquare && !Adjacent(tc.s, n) {
					t.Errorf("%v is not adjacent to %v", n, tc.s)
				}
			}
		})
	}
}
