package ai

import (
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestFlagBeliefFollowsSetups: at the start of a Classic game, hard's
// beliefs put the Flag where people put it, in the back row, and give a
// front-row piece only a small chance of it: the prior's floor is in
// proportion to the ranks left, so one Flag does not get the floor of six
// Bombs.
func TestFlagBeliefFollowsSetups(t *testing.T) {
	g := newGame(t, game.DefaultRules(game.VariantClassic), 7)
	v := g.View(game.ViewerOf(game.Red))
	k, err := newKnowledge(&v, recognition)
	if err != nil {
		t.Fatal(err)
	}
	var front, back float64 // the largest Flag chance in each row
	for i, id := range k.unknown {
		row, _, _ := game.SetupCell(k.opp, k.tracks[id].Start)
		p := k.belief[i][game.Flag]
		switch row {
		case 0:
			front = max(front, p)
		case game.SetupRows - 1:
			back = max(back, p)
		}
	}
	if front > 0.01 {
		t.Errorf("a front-row piece is the Flag with probability %.4f, want at most 0.01", front)
	}
	if back < 0.05 {
		t.Errorf("no back-row piece is the Flag with probability 0.05 or more (at most %.4f)", back)
	}
}
