package ai

import (
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestMoveFeatures: the model of people's moves reads a move as its mover
// knows it: which piece, whether it is the piece's first move or the one
// moved last, which way it goes, what it attacks and what it ends beside.
func TestMoveFeatures(t *testing.T) {
	// Blue's Colonel came from F7 to F5 and beat Red's Sergeant there, so
	// Red knows it; Red's Miner stands beside it on E5.
	raider := scripted(t, "10 8 6 4 3 F",
		map[string]game.Rank{"E4": game.Miner, "F4": game.Sergeant, "G4": game.Captain, "F3": game.Marshal, "J1": game.Colonel, "A1": game.Flag},
		map[string]game.Rank{"F7": game.Colonel, "A10": game.Flag, "J10": game.Miner, "B10": game.Marshal, "C10": game.Captain, "D10": game.Sergeant},
		"E4-E5", "F7-F6", "J1-J2", "F6-F5", "F4xF5", "J10-J9")
	// Blue's General took Red's Miner on F6 and stands there, known; Red's
	// Marshal moved last, E5 to E6; Blue's Spy on F7 never moved.
	bait := scripted(t, "10 9 3 3 S F",
		map[string]game.Rank{"E4": game.Marshal, "F4": game.Miner, "A1": game.Flag, "J1": game.Miner, "B1": game.Spy, "C1": game.General},
		map[string]game.Rank{"E7": game.General, "F7": game.Spy, "F10": game.Miner, "J10": game.Miner, "A10": game.Flag, "B10": game.Marshal},
		"F4-F5", "E7-E6", "F5-F6", "E6xF6", "E4-E5", "J10-J9", "E5-E6", "J9-J8")
	tests := []struct {
		name string
		g    *game.Game
		move string
		want []int
	}{
		{"a Captain's first step, next to a known Colonel", raider, "G4-F4",
			[]int{pfRank + int(game.Captain-game.Spy), pfFirst + 1, pfNearTaker}},
		{"a Marshal's first step, next to a known Colonel", raider, "F3-F4",
			[]int{pfRank + int(game.Marshal-game.Spy), pfFirst + 2, pfForward, pfNearPrey}},
		{"a Miner runs from a known Colonel into the enemy's half", raider, "E5-E6",
			[]int{pfRank + int(game.Miner-game.Spy), pfForward, pfEnemyHalf, pfFlees}},
		{"the piece moved last takes a known General", bait, "E6xF6",
			[]int{pfRank + int(game.Marshal-game.Spy), pfSame, pfEnemyHalf, pfKnownWin}},
		{"the piece moved last goes back", bait, "E6-E5",
			[]int{pfRank + int(game.Marshal-game.Spy), pfSame, pfBack, pfBackward}},
		{"into the enemy's half, next to a hidden piece", bait, "E6-E7",
			[]int{pfRank + int(game.Marshal-game.Spy), pfSame, pfForward, pfEnemyHalf, pfNearHidden}},
		{"a Spy's first step", bait, "B1-B2",
			[]int{pfRank, pfFirst, pfForward}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.g.View(game.ViewerOf(game.Red))
			k, err := newKnowledgeWith(&v, countsOnly, noBehaviour)
			if err != nil {
				t.Fatal(err)
			}
			got := k.moveFeatures(rootMove(t, tc.move))
			var want [numMoveFeatures]float64
			for _, f := range tc.want {
				want[f] = 1
			}
			if got != want {
				t.Errorf("features %v, want %v", got, want)
			}
		})
	}
}
