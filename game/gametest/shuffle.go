package gametest

import (
	"math/rand/v2"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// ShuffleHidden returns another game that side's opponent could equally be
// playing: side's pieces the opponent cannot tell apart trade ranks in side's
// set-up, and the same moves are played from it. Pieces trade only within a
// class of what the opponent has seen of them (never moved; moved; known
// Scout); pieces the opponent has learned something of (revealed, an
// Infiltrator's wrong guess) keep their ranks. Everything the opponent and
// the public are shown must be the same for g and the copy: the leak tests
// check that. A shuffle that would change how the game went (a piece walled
// in ends it) is drawn again; after ten tries the copy is g replayed as it is.
func ShuffleHidden(t testing.TB, g *game.Game, side game.Side, seed uint64) *game.Game {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0x5ba7f1e))
	classes := hiddenClasses(g, side)
	for range 10 {
		setup := g.Setup(side)
		for _, cells := range classes {
			ranks := make([]game.Rank, len(cells))
			for i, c := range cells {
				ranks[i] = setup[c[0]][c[1]]
			}
			r.Shuffle(len(ranks), func(i, j int) { ranks[i], ranks[j] = ranks[j], ranks[i] })
			for i, c := range cells {
				setup[c[0]][c[1]] = ranks[i]
			}
		}
		if c, ok := replay(g, side, setup); ok {
			return c
		}
	}
	c, ok := replay(g, side, g.Setup(side))
	if !ok {
		t.Fatalf("the game does not replay from its own set-ups")
	}
	return c
}

// hiddenClasses returns, per class of what the opponent has seen, the set-up
// cells (row, column) of side's pieces on the board whose rank the opponent
// does not know, found by following every piece from its start through g's moves.
func hiddenClasses(g *game.Game, side game.Side) [][][2]int {
	setup := g.Setup(side)
	start := map[game.Square][2]int{} // side's pieces on the board: where each started
	for row := range setup {
		for col, rank := range setup[row] {
			if rank != game.NoRank {
				start[game.SetupSquare(side, row, col)] = [2]int{row, col}
			}
		}
	}
	known := map[[2]int]bool{}
	for _, rec := range g.Moves() {
		m := rec.Move
		switch {
		case m.IsInfiltration() && rec.Side != side && rec.Outcome == game.GuessedWrong:
			known[start[m.To]] = true // the opponent knows what it is not
		case m.IsInfiltration() && rec.Side != side && rec.Outcome == game.GuessedRight:
			delete(start, m.To)
		case m.IsInfiltration():
			known[start[m.From]] = true
		case rec.Side == side:
			cell := start[m.From]
			delete(start, m.From)
			if rec.Outcome == game.NoBattle || rec.Outcome == game.AttackerWon {
				start[m.To] = cell
			}
		case rec.Outcome == game.AttackerWon || rec.Outcome == game.BothRemoved:
			delete(start, m.To) // side's piece there lost
		}
	}
	v := g.View(game.ViewerOf(side.Opponent()))
	byClass := map[[2]bool][][2]int{}
	for sq, cell := range start {
		c := v.Board[sq]
		if c.Rank != game.NoRank || known[cell] {
			continue
		}
		k := [2]bool{c.Moved, c.KnownScout}
		byClass[k] = append(byClass[k], cell)
	}
	var out [][][2]int
	for _, k := range [][2]bool{{false, false}, {true, false}, {true, true}} {
		out = append(out, byClass[k])
	}
	return out
}

// replay plays g's moves, and how it ended, from g's set-ups with side's
// replaced; false when they do not replay to g's result.
func replay(g *game.Game, side game.Side, setup game.Setup) (*game.Game, bool) {
	setups := [2]game.Setup{g.Setup(game.Red), g.Setup(game.Blue)}
	setups[side] = setup
	c, err := game.NewGame(g.Rules(), setups[game.Red], setups[game.Blue])
	if err != nil {
		return nil, false
	}
	for _, rec := range g.Moves() {
		if _, err := c.Apply(rec.Move); err != nil {
			return nil, false
		}
	}
	if res := g.Result(); res.Over() && !c.Result().Over() {
		loser := game.Blue
		if winner, ok := res.Winner(); ok {
			loser = winner.Opponent()
		}
		switch res.Method {
		case game.Resignation:
			err = c.Resign(loser)
		case game.TimeForfeit:
			err = c.TimeOut(loser)
		case game.Awarded:
			err = c.Award(loser.Opponent())
		case game.DrawAgreed:
			if err = c.OfferDraw(c.ToMove()); err == nil {
				err = c.AcceptDraw(c.ToMove().Opponent())
			}
		}
		if err != nil {
			return nil, false
		}
	}
	if by, ok := g.DrawOffer(); ok && c.OfferDraw(by) != nil {
		return nil, false
	}
	return c, c.Result() == g.Result()
}
