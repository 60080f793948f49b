package ai

import (
	"math"
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

// TestPeopleAtTheRoot: in Classic, hard's root gives each move the model of
// people's moves' log-odds times the level's weight, so that the move
// people make more often gets more (continuing with the piece moved last
// before a piece's first move); in other variants it gives nothing.
func TestPeopleAtTheRoot(t *testing.T) {
	for _, tc := range []struct {
		variant game.Variant
		weight  float64
	}{{game.VariantClassic, 10}, {game.VariantBarrage, 0}} {
		t.Run(tc.variant.String(), func(t *testing.T) {
			g := newGame(t, game.DefaultRules(tc.variant), 1)
			// Red steps a front piece forward; Blue answers far away.
			legal := g.LegalMoves()
			first := legal[0]
			for _, m := range legal {
				if m.From < first.From {
					first = m
				}
			}
			play(t, g, first)
			play(t, g, g.LegalMoves()[0])
			p := New(Hard, 1)
			p.cfg.timeCap, p.cfg.nodeBudget, p.cfg.samples, p.cfg.noise = 0, 2_000, 1, 0
			_, s, err := p.choose(g.View(game.ViewerOf(game.Red)))
			if err != nil {
				t.Fatal(err)
			}
			again, fresh := move{}, move{}
			for _, m := range g.LegalMoves() {
				switch mv := fromGame(m); {
				case m.From == first.To && m.To != first.From && s.k.board[mv.to] == empty && again == (move{}):
					again = mv
				case m.From != first.To && s.k.board[mv.to] == empty && fresh == (move{}):
					fresh = mv
				}
			}
			if again == (move{}) || fresh == (move{}) {
				t.Fatal("no quiet move of the piece moved last, or of another piece")
			}
			want := tc.weight * (s.k.peopleLogOdds(again) - s.k.peopleLogOdds(fresh))
			got := s.adjust(again, nil) - s.adjust(fresh, nil)
			if math.Abs(got-want) > 1e-6 || tc.weight > 0 && got <= 0 {
				t.Errorf("the piece moved last gets %.2f more than another piece's first move, want %.2f (and more than 0 in Classic)", got, want)
			}
		})
	}
}

func play(t *testing.T, g *game.Game, m game.Move) {
	t.Helper()
	if _, err := g.Apply(m); err != nil {
		t.Fatal(err)
	}
}
