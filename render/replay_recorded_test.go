package render

import (
	"bytes"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestReplayOfARecordedChase: a finished match whose log holds a move the
// More-Squares rule now refuses (gametest.ChaseInTurn, replayed as recorded)
// still has its replay.
func TestReplayOfARecordedChase(t *testing.T) {
	g, log := gametest.ChaseInTurn(t)
	for _, m := range log {
		if _, err := g.ApplyRecorded(m); err != nil {
			t.Fatalf("recorded %s: %v", m, err)
		}
	}
	if err := g.Resign(game.Red); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := renderer(t).Replay(&b, g, ReplayOptions{}); err != nil || b.Len() == 0 {
		t.Fatalf("Replay: %v", err)
	}
}
