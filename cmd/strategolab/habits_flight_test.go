package main

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// flightGame sets up a small game in which, after the opening, Blue's Major
// stands on E5, shown: it took Red's Sergeant there.
func flightGame(t *testing.T) (*game.Game, []string) {
	rules := gametest.CustomRules(t, "7 4 4 2 F")
	red := map[string]game.Rank{"A1": game.Flag, "E4": game.Sergeant, "F4": game.Sergeant, "H4": game.Major, "J1": game.Scout}
	blue := map[string]game.Rank{"A10": game.Flag, "E7": game.Major, "H7": game.Sergeant, "C10": game.Sergeant, "J10": game.Scout}
	return gametest.Scripted(t, rules, red, blue), []string{"E4-E5", "E7-E6", "H4-H3", "E6xE5"}
}

// TestFlightBounds: a hidden piece reads as weaker than a shown enemy piece
// it stood beside on its side's turn without attacking, or ran from; not one
// that came beside it (a chase), nor one beside a hidden piece. The bound
// goes with the piece.
func TestFlightBounds(t *testing.T) {
	tests := []struct {
		name  string
		moves []string // after the opening
		at    string
		want  int8
	}{
		{"beside a hidden piece nothing is read", nil, "E5", 0},
		{"a piece that comes beside a shown piece chases it", []string{"F4-F5"}, "F5", 0},
		{"one that stays beside it on its next turn reads weaker", []string{"F4-F5", "J10-J9", "J1-J2"}, "F5", int8(game.Major)},
		{"one that runs from it reads weaker", []string{"F4-F5", "J10-J9", "F5-F4"}, "F4", int8(game.Major)},
		{"the bound goes with the piece", []string{"F4-F5", "J10-J9", "F5-F4", "J9-J10", "F4-F3"}, "F3", int8(game.Major)},
		{"and leaves the square", []string{"F4-F5", "J10-J9", "F5-F4", "J9-J10", "F4-F3"}, "F4", 0},
		{"a piece that moves on, never beside it, reads nothing", []string{"J1-J2", "J10-J9", "J2-J3"}, "J3", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, opening := flightGame(t)
			var b flightBounds
			moves := append(opening, tc.moves...)
			if tc.moves == nil {
				moves = opening[:3] // Red's Sergeant on E5 stood beside Blue's hidden Major
			}
			for _, text := range moves {
				m, err := game.ParseMove(text, game.NumberingModern)
				if err != nil {
					t.Fatal(err)
				}
				r, err := g.Apply(m)
				if err != nil {
					t.Fatalf("%s: %v", text, err)
				}
				v := g.View(game.ViewerOf(r.Side.Opponent()))
				b.after(&v, r)
			}
			sq, err := game.ParseSquare(tc.at)
			if err != nil {
				t.Fatal(err)
			}
			if b[sq] != tc.want {
				t.Errorf("bound on %s %d, want %d", tc.at, b[sq], tc.want)
			}
		})
	}
}

// TestHabitsFlightReads: a Colonel beside a hidden piece that moved counts
// as not read while a rank the piece may be beats it (Blue's General,
// unseen), and as read once every such rank is seen.
func TestHabitsFlightReads(t *testing.T) {
	rules := gametest.CustomRules(t, "9 8 4 2 F")
	red := map[string]game.Rank{"A1": game.Flag, "E4": game.Colonel, "A4": game.Sergeant, "H4": game.General, "J4": game.Scout}
	blue := map[string]game.Rank{"A10": game.Flag, "F7": game.Sergeant, "I7": game.General, "H7": game.Colonel, "J10": game.Scout}
	// Blue's Sergeant comes beside Red's Colonel on E5, which waits two
	// turns; Blue's General, beside Red's Scout (read: nothing of Red's
	// beats it), takes it and is seen, and Red's Colonel takes the Sergeant.
	moves := []string{"E4-E5", "F7-F6", "J4-J5", "F6-F5", "J5-J6", "I7-I6", "A4-A5", "I6xJ6", "E5xF5"}
	redWalk := []string{"A5-B5", "B5-B4", "B4-A4", "A4-A5"}
	blueWalk := []string{"J10-J9", "J9-I9", "I9-I10", "I10-J10"}
	for i := 0; len(moves) < 60; i++ {
		moves = append(moves, blueWalk[i%4], redWalk[i%4])
	}
	out := habitsOfGame(t, gametest.Scripted(t, rules, red, blue, moves...))
	want := "hard\n" +
		"  read            1 turns, 100.0% attacked, 100.0% won\n" +
		"  not read        2 turns,   0.0% attacked,      - won\n" +
		"normal\n" +
		"  read            1 turns, 100.0% attacked, 100.0% won\n" +
		"  not read        0 turns,      - attacked,      - won\n"
	if !strings.HasSuffix(out, want) {
		t.Errorf("stdout\n%s\nwant it to end with\n%s", out, want)
	}
}
