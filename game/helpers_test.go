package game

import (
	"errors"
	"strings"
	"testing"
)

// Helpers of the tests inside the package. Random set-ups, random games and
// ShuffleHidden are in game/gametest, for the tests outside it (package
// game_test, with export_test.go) and of other packages.

// at places one piece for a test position.
type at struct {
	sq   string
	side Side
	rank Rank
}

func red(sq string, r Rank) at  { return at{sq, Red, r} }
func blue(sq string, r Rank) at { return at{sq, Blue, r} }

// position builds a game in any position, pieces anywhere, bypassing set-ups.
// Pieces are numbered in the order given.
func position(t testing.TB, rules Rules, toMove Side, placed ...at) *Game {
	t.Helper()
	g := &Game{rules: rules, toMove: toMove}
	for s := Square(0); s < NumSquares; s++ {
		if s.IsLake() {
			g.board[s] = cellLake
		}
	}
	for i := range g.pieces {
		g.pieces[i] = piece{sq: NoSquare}
	}
	next := [2]int{0, MaxPieces}
	for _, p := range placed {
		s := sq(t, p.sq)
		if g.board[s] != 0 {
			t.Fatalf("position: %s is taken", s)
		}
		id := next[p.side]
		next[p.side]++
		g.pieces[id] = piece{rank: p.rank, sq: s}
		g.board[s] = uint8(id + 1)
		g.hash ^= zobrist(id, s)
		if p.rank.Movable() {
			g.movable[p.side]++
		}
	}
	g.checkEnd()
	return g
}

func sq(t testing.TB, name string) Square {
	t.Helper()
	s, err := ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mv(t testing.TB, text string) Move {
	t.Helper()
	m, err := ParseMove(text, NumberingModern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// play applies moves given in notation and fails the test on the first refusal.
func play(t testing.TB, g *Game, moves ...string) {
	t.Helper()
	for _, text := range moves {
		if _, err := g.Apply(mv(t, text)); err != nil {
			t.Fatalf("move %d %s: %v", g.Ply()+1, text, err)
		}
	}
}

// refused asserts that the move is illegal with a reason containing want.
func refused(t testing.TB, g *Game, text, want string) {
	t.Helper()
	m := mv(t, text)
	before := g.Clone()
	_, err := g.Apply(m)
	if err == nil {
		t.Fatalf("%s was accepted; want refused with %q", text, want)
	}
	if !errors.Is(err, ErrIllegalMove) && !errors.Is(err, ErrGameOver) {
		t.Fatalf("%s: error %v does not wrap ErrIllegalMove", text, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("%s: reason %q does not contain %q", text, err, want)
	}
	if g.Ply() != before.Ply() || g.board != before.board || g.pieces != before.pieces {
		t.Fatalf("%s: a refused move changed the game", text)
	}
	for _, l := range g.LegalMoves() {
		if l == m {
			t.Fatalf("%s is refused by Apply but listed by LegalMoves", text)
		}
	}
}
