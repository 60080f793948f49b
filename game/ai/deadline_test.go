package ai

import (
	"fmt"
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

// TestWithTimeCap: a player with another time cap searches until that cap
// (or, with none, until its node budget alone stops it), and the player it
// came from keeps its own.
func TestWithTimeCap(t *testing.T) {
	g := newGame(t, game.DefaultRules(game.VariantClassic), 3)
	playOut(t, g, [2]*Player{testPlayer(Normal, 1), testPlayer(Normal, 2)}, 60)
	v := g.View(game.ViewerOf(g.ToMove()))
	tests := []struct {
		name    string
		cap     time.Duration
		noLimit bool
		least   time.Duration // the deadline is at least this far from the start
	}{
		{"a longer cap", time.Hour, false, 59 * time.Minute},
		{"no cap", 0, true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			p := New(Hard, 1)
			_, s, err := p.WithTimeCap(tc.cap).choose(v)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.deadline.IsZero(); got != tc.noLimit {
				t.Errorf("deadline %v, want none: %v", s.deadline, tc.noLimit)
			}
			if !tc.noLimit && s.deadline.Sub(start) < tc.least {
				t.Errorf("deadline %v after the start, want at least %v", s.deadline.Sub(start), tc.least)
			}
			if _, s, _ := p.choose(v); s.deadline.Sub(start) > MoveTimeCap+time.Minute {
				t.Errorf("the original player's deadline moved to %v after the start", s.deadline.Sub(start))
			}
		})
	}
}

// TestTimeCapCountsTheIndexing: the time cap counts from the call of
// Choose, the indexing of the published set-ups (done by a process's first
// choice) included. The bot reserves each thought a slot of its schedule
// and plays the move a pace after the reservation begins, whatever the
// thought took; a thought that ran past its reservation by the time the
// indexing took (0.2 to 0.5 s on an idle machine, much longer for a thread
// of the lowest priority on a busy one) could end after the move was due,
// and then the move came when the search ended, which the computer's hidden
// pieces decide.
func TestTimeCapCountsTheIndexing(t *testing.T) {
	g := newGame(t, game.DefaultRules(game.VariantClassic), 3)
	playOut(t, g, [2]*Player{testPlayer(Normal, 1), testPlayer(Normal, 2)}, 20)
	v := g.View(game.ViewerOf(g.ToMove()))
	const limit = time.Hour
	p := New(Hard, 1).WithTimeCap(limit)
	var indexed time.Time
	p.indexed = func() {
		// Strictly after the call's start and before the search's: the
		// clock is read until it moves on.
		from := time.Now()
		for !time.Now().After(from) {
		}
		indexed = time.Now()
		for !time.Now().After(indexed) {
		}
	}
	_, s, err := p.choose(v)
	if err != nil {
		t.Fatal(err)
	}
	if indexed.IsZero() {
		t.Fatal("hard indexed nothing")
	}
	if !s.deadline.Before(indexed.Add(limit)) {
		t.Errorf("the search's deadline is %v after the indexing ended, want less than the cap %v: the indexing's time was not counted", s.deadline.Sub(indexed), limit)
	}
}

// TestOutOfTimeInTheFirstGuessRanksEveryMoveAlike: a search that runs out
// of time before it has searched every root move in its first guess of the
// hidden pieces (as when a process's first hard move spends its cap
// indexing the published set-ups) ranks the root moves by one measure, the
// evaluation right after each move, as a player that searches nothing
// does, rather than weigh the few it searched against made-up values of the
// others.
func TestOutOfTimeInTheFirstGuessRanksEveryMoveAlike(t *testing.T) {
	for _, plies := range []int{20, 40, 60} {
		t.Run(fmt.Sprint(plies), func(t *testing.T) {
			g := newGame(t, game.DefaultRules(game.VariantClassic), 3)
			playOut(t, g, [2]*Player{testPlayer(Normal, 1), testPlayer(Normal, 2)}, plies)
			v := g.View(game.ViewerOf(g.ToMove()))
			hurried := New(Hard, 1).WithTimeCap(time.Nanosecond)
			hurried.cfg.noise = 0
			hurried.indexed = func() {
				// The indexing outlasts the cap.
				from := time.Now()
				for !time.Now().After(from.Add(time.Microsecond)) {
				}
			}
			m, s, err := hurried.choose(v)
			if err != nil {
				t.Fatal(err)
			}
			if !s.stopped {
				t.Fatal("the search did not run out of time")
			}
			// A player that only evaluates the position after each move,
			// in the same first guess.
			static := New(Hard, 1).WithTimeCap(0)
			static.cfg.noise, static.cfg.samples = 0, 1
			static.cfg.depth, static.cfg.smallBoard, static.cfg.qDepth = 0, 0, 0
			want, _, err := static.choose(v)
			if err != nil {
				t.Fatal(err)
			}
			if m != want {
				legal, _ := v.LegalMoves()
				t.Errorf("out of time after %d nodes, among %d legal moves, it chose %s; the evaluation after each move ranks %s first", s.nodes, len(legal), m, want)
			}
		})
	}
}
