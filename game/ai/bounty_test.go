package ai

import (
	"testing"

	"github.com/strategobot/strategobot/game"
)

// bountyGame: Blue's General shows itself by taking Red's Miner on E4, next
// to Red's hidden General on E3, two steps from Red's Lieutenants on D3, F3
// and E2 and three from its Sergeants on D2 and F2.
func bountyGame(t *testing.T) *game.Game {
	return scripted(t, "10 9 5 5 5 4 4 3 F",
		map[string]game.Rank{"E3": game.General, "E4": game.Miner, "D3": game.Lieutenant, "F3": game.Lieutenant,
			"E2": game.Lieutenant, "D2": game.Sergeant, "F2": game.Sergeant, "A1": game.Flag, "J1": game.Marshal},
		map[string]game.Rank{"E7": game.General, "J10": game.Marshal, "A10": game.Sergeant, "B10": game.Sergeant,
			"C10": game.Miner, "D10": game.Lieutenant, "F10": game.Lieutenant, "G10": game.Lieutenant, "A9": game.Flag},
		"J1-J2", "E7-E6", "J2-J1", "E6-E5", "J1-J2", "E5xE4")
}

// TestBounties: a known enemy piece is priced by the pieces of ours it beats
// within three steps (weight times their values, a step nearer a third
// more), an unknown one or one far from ours is not, and without the
// setting nothing is.
func TestBounties(t *testing.T) {
	g := bountyGame(t)
	v := g.View(game.ViewerOf(game.Red))
	k, err := newKnowledge(&v, true)
	if err != nil {
		t.Fatal(err)
	}
	at := func(name string) int8 {
		sq, err := game.ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return k.board[sq]
	}
	general := at("E4")
	tests := []struct {
		name   string
		weight float64
		id     int8
		want   int32
	}{
		// Three Lieutenants at two steps, two Sergeants at three:
		// 3×35×2/3 + 2×22×1/3 = 84.7.
		{"known General among our pieces", 1, general, 84},
		{"half the weight", 0.5, general, 42},
		{"no bounties", 0, general, 0},
		{"unknown piece", 1, at("J10"), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := configs[Hard]
			cfg.bounty = tc.weight
			e := newEvaluator(k, &v, cfg)
			if got := e.bounty[tc.id]; got != tc.want {
				t.Errorf("bounty %d, want %d", got, tc.want)
			}
		})
	}
}

// TestBountyTrade: with a bounty on the known General among its pieces, hard
// trades its own hidden General for it; without, the trade is not worth its
// General's secret, and it plays something else.
func TestBountyTrade(t *testing.T) {
	g := bountyGame(t)
	for _, tc := range []struct {
		weight float64
		trade  bool
	}{{1, true}, {0, false}} {
		for seed := uint64(0); seed < 3; seed++ {
			p := testPlayer(Hard, seed)
			p.cfg.bounty = tc.weight
			m, err := p.Choose(g.View(game.ViewerOf(game.Red)))
			if err != nil {
				t.Fatal(err)
			}
			if got := m.String() == "E3-E4"; got != tc.trade {
				t.Errorf("bounty weight %g, seed %d: played %s, trade %v, want %v", tc.weight, seed, m, got, tc.trade)
			}
		}
	}
}
