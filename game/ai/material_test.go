package ai

import (
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestBattleMaterial: a battle is worth what the attacker's side took, less
// what it lost, at the evaluation's values of the start of a game.
func TestBattleMaterial(t *testing.T) {
	tests := []struct {
		name string
		r    game.MoveRecord
		want int
	}{
		{"a Captain takes a Scout", game.MoveRecord{Outcome: game.AttackerWon, Attacker: game.Captain, Defender: game.Scout}, 15},
		{"a Sergeant loses to a Major", game.MoveRecord{Outcome: game.DefenderWon, Attacker: game.Sergeant, Defender: game.Major}, -22},
		{"two Colonels", game.MoveRecord{Outcome: game.BothRemoved, Attacker: game.Colonel, Defender: game.Colonel}, 0},
		{"a Spy takes the Marshal", game.MoveRecord{Outcome: game.AttackerWon, Attacker: game.Spy, Defender: game.Marshal}, 400},
		{"a plain move", game.MoveRecord{Outcome: game.NoBattle}, 0},
		{"a right guess", game.MoveRecord{Outcome: game.GuessedRight, Attacker: game.Infiltrator, Defender: game.General}, 0},
	}
	for _, tc := range tests {
		if got := BattleMaterial(tc.r); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
