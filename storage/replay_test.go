package storage

import (
	"slices"
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

// TestStoredUnderWayGameResumes: a match stored as under way whose log, by
// a stricter reading of the repetition rules, leaves the side to move no
// legal move is rebuilt under way (game.Game.ResumeRecorded), not as over:
// else every action, its time-out too, would be refused as one after the
// end, and the match would stay open for ever. Here Red's Captain shuttled
// A1-A2 three times, and the Two-Squares rule forbids the fourth, Red's
// only step: a log the bot itself would have ended after Red's third, made
// by hand to stand for one a stricter rule ends (Blue's move after it is
// replayed too). Red's move is refused by the rule; Red's time runs out.
func TestStoredUnderWayGameResumes(t *testing.T) {
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	c := Changes{}
	m := setupMatch(base)
	start := gametest.Scripted(t, gametest.CustomRules(t, "6 B B B F"),
		map[string]game.Rank{"A1": game.Captain, "B1": game.Bomb, "B2": game.Bomb, "A3": game.Bomb, "J1": game.Flag},
		map[string]game.Rank{"A7": game.Captain, "E10": game.Bomb, "F10": game.Bomb, "G10": game.Bomb, "J10": game.Flag})
	m.Rules = start.Rules()
	for side := game.Red; side <= game.Blue; side++ {
		if _, err := c.SetSetup(m, side, start.Setup(side), SetupConfirmed, base); err != nil {
			t.Fatal(err)
		}
	}
	at := base
	for i, text := range []string{"A1-A2", "A7-A6", "A2-A1", "A6-A5", "A1-A2", "A5-A4"} {
		mv, err := game.ParseMove(text, game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Minute)
		m.Log = append(m.Log, Action{Kind: ActMove, Side: game.Side(i % 2), Move: mv, At: at})
	}
	if m.Phase != PhasePlaying {
		t.Fatalf("phase %v, want play", m.Phase)
	}
	g, err := m.Game()
	if err != nil {
		t.Fatalf("the match stored as under way does not load: %v", err)
	}
	if g.Result().Over() || g.ToMove() != game.Red {
		t.Fatalf("the match stored as under way rebuilds as %v (to move %v)", g.Result(), g.ToMove())
	}
	back, err := game.ParseMove("A2-A1", game.NumberingModern)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ApplyMove(m, game.Red, back, at.Add(time.Minute)); err == nil || !strings.Contains(err.Error(), "Two-Squares") {
		t.Fatalf("Red's fourth crossing: %v, want the Two-Squares rule's refusal", err)
	}
	// Called off instead, it stays without a result: an abandoned match
	// shows no army and has no winner (the web's reveal, its record).
	off := *m
	off.Log = slices.Clone(m.Log)
	if err := c.Abandon(&off, at.Add(time.Minute), CallOffTournament); err != nil {
		t.Fatalf("calling the match off: %v", err)
	}
	if g, err := off.Game(); err != nil || g.Result().Over() {
		t.Fatalf("the match called off rebuilds as %v (%v), want no result", g.Result(), err)
	}
	if _, err := c.Act(m, Action{Kind: ActTimeOut, Side: game.Red, At: m.Deadline}); err != nil {
		t.Fatalf("Red's time-out: %v", err)
	}
	if m.Phase != PhaseFinished || m.Result.Outcome != game.BlueWon {
		t.Fatalf("after Red's time-out: %v, %v", m.Phase, m.Result)
	}
	if _, err := m.Game(); err != nil {
		t.Fatalf("the finished match does not load: %v", err)
	}
}
