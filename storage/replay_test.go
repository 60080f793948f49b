package storage

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestStoredChaseStillLoads: a match is rebuilt by replaying its log, and
// the repetition rules may have grown stricter since a logged move was
// accepted. This log, of two pieces chased in turn, was accepted when the
// More-Squares rule counted only the chase of one piece; its last move
// leads back to the position after move 7, which the rule now refuses. The
// stored match still loads, and plays on under today's rules.
func TestStoredChaseStillLoads(t *testing.T) {
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	c := Changes{}
	m := setupMatch(base)
	start, logged := gametest.ChaseInTurn(t)
	m.Rules = start.Rules()
	for side := game.Red; side <= game.Blue; side++ {
		if _, err := c.SetSetup(m, side, start.Setup(side), SetupConfirmed, base); err != nil {
			t.Fatal(err)
		}
	}
	move := func(text string) game.Move {
		mv, err := game.ParseMove(text, game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		return mv
	}
	at := base
	for i, mv := range logged {
		at = at.Add(time.Minute)
		m.Log = append(m.Log, Action{Kind: ActMove, Side: game.Side(i % 2), Move: mv, At: at})
	}
	// Stored and read back, as a match is.
	data, err := encodeMatch(m)
	if err != nil {
		t.Fatal(err)
	}
	if m, err = decodeMatch(data); err != nil {
		t.Fatal(err)
	}
	g, err := m.Game()
	if err != nil {
		t.Fatalf("the stored match does not load: %v", err)
	}
	if g.Ply() != len(logged) {
		t.Fatalf("replayed %d moves of %d", g.Ply(), len(logged))
	}
	if _, err := c.ApplyMove(m, game.Blue, move("I6-J6"), at.Add(time.Minute)); err != nil {
		t.Fatalf("Blue's move after the log: %v", err)
	}
	// E5-E6 would lead back to the position after move 9: refused now.
	_, err = c.ApplyMove(m, game.Red, move("E5-E6"), at.Add(2*time.Minute))
	if err == nil || !strings.Contains(err.Error(), "More-Squares") {
		t.Fatalf("a new repeating chasing move: %v, want the More-Squares rule's refusal", err)
	}
	if _, err := c.ApplyMove(m, game.Red, move("E5-E4"), at.Add(2*time.Minute)); err != nil {
		t.Fatalf("Red's move that does not chase: %v", err)
	}
	if _, err := m.Game(); err != nil || m.Moves() != len(logged)+2 {
		t.Fatalf("after two more moves: %d moves, %v", m.Moves(), err)
	}
}
