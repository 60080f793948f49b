package ai

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
)

// TestSearchStopsAtTheDeadline: the time cap counts from the call of
// Choose, and a search out of time still answers a legal move.
func TestSearchStopsAtTheDeadline(t *testing.T) {
	g := newGame(t, game.DefaultRules(game.VariantClassic), 3)
	playOut(t, g, [2]*Player{testPlayer(Normal, 1), testPlayer(Normal, 2)}, 60)
	v := g.View(game.ViewerOf(g.ToMove()))
	p := New(Hard, 1)
	p.cfg.timeCap = time.Nanosecond
	m, s, err := p.choose(v)
	if err != nil {
		t.Fatal(err)
	}
	if !s.stopped {
		t.Error("the search ran on past its deadline")
	}
	if _, err := g.Apply(m); err != nil {
		t.Errorf("out of time, it chose %s: %v", m, err)
	}
}
