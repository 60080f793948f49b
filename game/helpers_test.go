package game

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

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

// randomSetup shuffles an army into a set-up without the human heuristics:
// tests need variety, not realism.
func shuffledSetup(rules Rules, r *rand.Rand) Setup {
	var cells []Rank
	for _, k := range Ranks {
		for i := 0; i < int(rules.Army[k]); i++ {
			cells = append(cells, k)
		}
	}
	for len(cells) < SetupRows*10 {
		cells = append(cells, NoRank)
	}
	r.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	var s Setup
	for i, k := range cells {
		s[i/10][i%10] = k
	}
	return s
}

// randomGame plays up to plies random legal moves from shuffled set-ups.
func randomGame(t testing.TB, rules Rules, seed uint64, plies int) *Game {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	g, err := NewGame(rules, shuffledSetup(rules, r), shuffledSetup(rules, r))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]Move, 0, 256)
	for i := 0; i < plies && !g.Result().Over(); i++ {
		buf = g.AppendLegalMoves(buf[:0])
		if len(buf) == 0 {
			t.Fatalf("seed %d ply %d: no legal move but the game is on", seed, g.Ply())
		}
		if _, err := g.Apply(buf[r.IntN(len(buf))]); err != nil {
			t.Fatalf("seed %d ply %d: a generated move was refused: %v", seed, g.Ply(), err)
		}
	}
	return g
}
