package web

import (
	"math/rand/v2"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestStateLengthLeaksNothing: whoever sees a page's traffic but not its
// bytes (the length of an encrypted response or event on the player's
// network, or the size column of the reverse proxy's access log) must
// learn nothing of the player's hidden pieces from how long each state is.
// Shuffling the player's own hidden pieces (those the opponent cannot tell
// apart) changes what the state says, never its length.
func TestStateLengthLeaksNothing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules game.Rules
		seed  uint64
	}{
		{"Barrage", game.DefaultRules(game.VariantBarrage), 3},
		{"Classic", game.DefaultRules(game.VariantClassic), 1},
		{"Infiltrator", game.DefaultRules(game.VariantInfiltrator), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(tc.seed, 11))
			differ, positions := 0, 0
			gametest.Game(t, tc.rules, tc.seed*31, 400, func(g *game.Game) bool {
				if g.Result().Over() {
					return true
				}
				positions++
				own := g.ToMove()
				sh := gametest.ShuffleHidden(t, g, own, r.Uint64())
				a := BuildState(playingMatch(g), g, game.ViewerOf(own), stateNow).Encode()
				b := BuildState(playingMatch(sh), sh, game.ViewerOf(own), stateNow).Encode()
				if len(a) != len(b) {
					differ++
					if differ == 1 {
						t.Errorf("ply %d: shuffling %v's hidden pieces changed the length of %v's state from %d to %d bytes (legal moves %d and %d)",
							g.Ply(), own, own, len(a), len(b), len(BuildState(playingMatch(g), g, game.ViewerOf(own), stateNow).Legal), len(BuildState(playingMatch(sh), sh, game.ViewerOf(own), stateNow).Legal))
					}
				}
				return true
			})
			if differ > 0 {
				t.Errorf("%d of %d positions: the state's length depends on the mover's hidden pieces", differ, positions)
			}
		})
	}
}
