package ai

import (
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestHanging: at a quiescence leaf hard's side to move, standing pat, loses
// the second worst piece that the enemy's last move threatens (it moves the
// worst away), nothing when that move threatens one piece only, and less
// where a piece of its own would take the attacker back.
func TestHanging(t *testing.T) {
	army := "10 9 7 6 2 F"
	red := map[string]game.Rank{"E4": game.Major, "F4": game.Captain, "F3": game.Marshal, "A1": game.Flag, "J1": game.Scout, "B1": game.General}
	blue := map[string]game.Rank{"E7": game.General, "A10": game.Flag, "J10": game.Scout, "B10": game.Marshal, "C10": game.Major, "D10": game.Captain}
	tests := []struct {
		name     string
		moves    []string
		attacker game.Rank
		want     int32
	}{
		{"a General forks a Major and a Captain", []string{"F4-F5", "E7-E6", "J1-J2", "E6-E5"}, game.General, 60 + 8},
		{"it threatens the Major only", []string{"J1-J2", "E7-E6", "J2-J3", "E6-E5"}, game.General, 0},
		{"the Marshal would take it back from the Captain", []string{"F4-F5", "E7-E6", "F3-F4", "E6-E5"}, game.General, 0},
		{"a Scout beats neither", []string{"F4-F5", "E7-E6", "J1-J2", "E6-E5"}, game.Scout, 0},
		{"a Captain trades with the Captain and loses to the Major", []string{"F4-F5", "E7-E6", "J1-J2", "E6-E5"}, game.Captain, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := scripted(t, army, red, blue, tc.moves...)
			s := redRoot(t, g, 1, 2_000, func(*config) {})
			w := oneGuess(s)
			e5, err := game.ParseSquare("E5")
			if err != nil {
				t.Fatal(err)
			}
			id := w.board[e5]
			if id < 0 || sideOf(id) != game.Blue {
				t.Fatalf("no Blue piece on E5")
			}
			defer s.setRank(w, id, tc.attacker)()
			w.last = uint8(e5)
			if got := s.hanging(w); got != tc.want {
				t.Errorf("hanging %d, want %d", got, tc.want)
			}
			if got, want := s.quiesce(w, 0, -infinity, infinity), s.score(w)-tc.want; got != want {
				t.Errorf("quiescence stands pat at %d, want %d", got, want)
			}
			w.last = noSq
			if got := s.hanging(w); got != 0 {
				t.Errorf("before any move in the search: hanging %d, want 0", got)
			}
		})
	}
}
