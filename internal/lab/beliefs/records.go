package beliefs

import "github.com/strategobot/strategobot/game"

// trueRank returns the rank of the piece that began on start in g.
func trueRank(g *game.Game, start game.Square) game.Rank {
	for _, side := range []game.Side{game.Red, game.Blue} {
		if row, col, ok := game.SetupCell(side, start); ok {
			s := g.Setup(side)
			return s[row][col]
		}
	}
	return game.NoRank
}
