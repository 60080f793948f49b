package main

import (
	"fmt"
	"io"

	"github.com/strategobot/strategobot/game"
)

// flightBounds is what a reader of flight knows of each piece on the board:
// the strength of the weakest piece of the enemy's, shown in a battle, that
// it stood beside on its side's turn without attacking it, or ran from (0:
// none). Such a piece is taken for weaker than that one from then on; Demon
// of Ignorance reads so (the flee ranks of its Board.java), and hard's
// search, seeing through every piece, acts as if the enemy could always.
type flightBounds [game.NumSquares]int8

// flightStrength orders the ranks that fight by strength (0 for the rest).
func flightStrength(r game.Rank) int8 {
	if r >= game.Spy && r <= game.Marshal {
		return int8(r)
	}
	return 0
}

// after carries the bounds over move r, seen in v, a view of the board
// just after it: the mover takes its bound along (a battle shows its rank,
// and the bound no longer matters), every hidden piece of the mover's side
// beside a shown enemy piece did not attack it, and the mover ran from the
// shown enemy pieces beside the square it left.
func (b *flightBounds) after(v *game.View, r game.MoveRecord) {
	side, m := r.Side, r.Move
	stepped := r.Outcome == game.NoBattle && !m.IsInfiltration()
	if stepped {
		b[m.To], b[m.From] = b[m.From], 0
	} else {
		b[m.To], b[m.From] = 0, 0
	}
	lower := func(sq game.Square, st int8) {
		if st > 0 && (b[sq] == 0 || st < b[sq]) {
			b[sq] = st
		}
	}
	for sq := game.Square(0); sq < game.NumSquares; sq++ {
		e := v.Board[sq]
		if !e.Occupied || e.Side == side || !e.Revealed || !e.Rank.Movable() {
			continue
		}
		for _, n := range sq.Neighbours() {
			if n == game.NoSquare {
				continue
			}
			if c := v.Board[n]; c.Occupied && c.Side == side && !c.Revealed && n != m.To {
				lower(n, flightStrength(e.Rank))
			}
			if n == m.From && stepped && !v.Board[m.To].Revealed {
				lower(m.To, flightStrength(e.Rank))
			}
		}
	}
}

// flightReads counts the turns on which a player's Colonel, General or
// Marshal stood beside a hidden enemy piece that had moved, by whether a
// reader of flight knew it would win (read: every rank the piece may still
// be, among the enemy's pieces the player has not seen, within the piece's
// bound, loses to it or trades), the turns it attacked, and the attacks
// it won.
type flightReads struct {
	turns, attacked, won [2]int // [read]
}

// count counts the turn of the side to move in g, whose view is v, to make
// move m, with the bounds b.
func (t *flightReads) count(g *game.Game, v *game.View, b *flightBounds, m game.Move) {
	side := g.ToMove()
	var unseen [game.NumRanks]int // the enemy's ranks not seen yet
	for sq, c := range v.Board {
		if c.Occupied && c.Side != side && c.Rank == game.NoRank {
			if _, r, ok := g.PieceAt(game.Square(sq)); ok && r.Movable() {
				unseen[r]++
			}
		}
	}
	besideHiddenMovers(v, side, func(at, n game.Square, a game.Cell) {
		if a.Rank < game.Colonel || a.Rank > game.Marshal {
			return
		}
		read := 1
		for r, k := range unseen {
			if k > 0 && (b[n] == 0 || flightStrength(game.Rank(r)) < b[n]) && game.Fight(a.Rank, game.Rank(r)) == game.DefenderWon {
				read = 0
			}
		}
		t.turns[read]++
		if m.From != at || m.To != n {
			return
		}
		t.attacked[read]++
		if _, r, ok := g.PieceAt(n); ok && game.Fight(a.Rank, r) != game.DefenderWon {
			t.won[read]++
		}
	})
}

// writeFlightReads writes, for each player whose Colonels and up stood
// beside hidden enemy pieces that had moved, the turns read and not, the
// share of them it attacked, and the share of those attacks it won.
func writeFlightReads(w io.Writer, players []string, tallies map[string]*flightReads) {
	header := false
	for _, p := range players {
		t := tallies[p]
		if t.turns == [2]int{} {
			continue
		}
		if !header {
			fmt.Fprintln(w, "a Colonel or stronger beside a hidden enemy piece that moved, on its side's turn, by whether flight read it as weaker")
			fmt.Fprintln(w, "(it had stood beside or run from a piece of the player's shown in a battle, and every rank it may still be below that")
			fmt.Fprintln(w, "one loses to the Colonel or stronger, or trades), the share of those turns it attacked it, and of those attacks it won:")
			header = true
		}
		fmt.Fprintf(w, "%s\n", p)
		for _, read := range [...]int{1, 0} {
			fmt.Fprintf(w, "  %-9s %7d turns, %s attacked, %s won\n", [2]string{"not read", "read"}[read],
				t.turns[read], sharePercent(t.attacked[read], t.turns[read]), sharePercent(t.won[read], t.attacked[read]))
		}
	}
}
