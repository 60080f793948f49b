// Package ai is the computer player: it picks a move from what its side may
// know, a game.View, never from the game itself, so by construction it cannot
// read a hidden rank.
//
// It plays at four levels. Random moves uniformly at random among the legal
// moves (a yardstick for the arena). Easy looks at its own move and the
// battles that follow at once, with a lot of noise. Normal also looks at every
// answer of the opponent. Hard reasons about what each hidden piece may be
// (the counts left, what moved, where people set up which piece, which of
// the set-ups people published agree with what the pieces showed, how the
// piece behaved near known pieces), draws many guesses of the hidden pieces
// from those beliefs, and searches deeper in each guess.
//
// Search. For every guess (a "world" with every rank filled in) the player
// searches each legal move a few plies deep with alpha-beta and then follows
// the good battles (quiescence), and averages the values over the guesses:
// Perfect Information Monte Carlo. Inside the tree the player attacks only
// pieces whose rank it knows or its beliefs make nearly certain (at the root
// it may attack anything: the average over the guesses is then the expected
// outcome), so that it does not act on knowledge that a guess gives it but
// the game does not; the opponent is assumed to know its own pieces and to
// see through the player's, which makes the player careful. All but the
// Flag: the opponent takes it only as often as it could tell it from the
// player's other pieces that it never saw move or fight (see flagOdds), so
// that an enemy piece beside the Flag is a danger to weigh, not a lost game;
// and where every move loses all the same, the player plays on as if the
// opponent could not take it, rather than throw its pieces away. The evaluation
// counts material by rank value (Spies, Miners and Scouts valued by what is
// left), the worth of a rank the enemy does not know yet, a pull of each piece
// towards the enemy pieces it expects to beat (which keeps the game going when
// no battle is in sight) and the danger to its own Flag; hard's side to move at
// the end of the battles also loses what the enemy's last move forks (see
// searcher.hanging). The root moves come from the real rules (see
// game.View.LegalMoves), so the player never picks a move the repetition rules
// refuse, and moves back into a recent position are penalized, so that it
// never stalls a game on purpose.
//
// A Player keeps no state between moves and is deterministic: the same level,
// seed and view give the same move. The search is bounded by a node budget
// (so that it is reproducible) with a wall-clock cap as a safety net.
package ai

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
)

// Level is how strongly the computer plays.
type Level uint8

// The levels, weakest first.
const (
	// Random picks uniformly among the legal moves.
	Random Level = iota
	// Easy plays sensible but loose moves.
	Easy
	// Normal sees every answer to its move.
	Normal
	// Hard reasons about the hidden pieces and searches deeper.
	Hard
)

// Levels lists the levels, weakest first.
var Levels = [...]Level{Random, Easy, Normal, Hard}

var levelNames = [...]string{"random", "easy", "normal", "hard"}

// String returns the level's name: "random", "easy", "normal" or "hard".
func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", uint8(l))
}

// ParseLevel reads a level name, case-insensitive.
func ParseLevel(text string) (Level, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	for i, n := range levelNames {
		if t == n {
			return Level(i), nil
		}
	}
	switch t {
	case "medium":
		return Normal, nil
	case "difficult", "strong":
		return Hard, nil
	}
	return Random, fmt.Errorf("%q is not a level: choose random, easy, normal or hard", text)
}

// MarshalText implements encoding.TextMarshaler.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (l *Level) UnmarshalText(b []byte) error {
	p, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = p
	return nil
}

// configs are the settings of the levels.
var configs = [...]config{
	Easy: {samples: 3, depth: 0, qDepth: 2, pull: 0.5, noise: 60, nodeBudget: 50_000,
		timeCap: MoveTimeCap, repetition: 10},
	Normal: {samples: 6, depth: 1, qDepth: 4, pull: 1, noise: 4, nodeBudget: 200_000,
		timeCap: MoveTimeCap, repetition: 30},
	// Hard searches two plies deeper than normal (three deeper with at most 24
	// pieces on the board: Barrage against normal went from 58% to 69%), over
	// 16 guesses, with beliefs from set-ups, recognition of published ones and
	// behaviour (behaviour.go). Shown the enemy's true ranks it beat Demon of
	// Ignorance in each of 10 games, so beliefs are what it lacks most. Each
	// other setting answers a way it lost games in the arena: a Flag pull of
	// 1500 charged unknown pieces (500 won 74% against normal instead of 46%);
	// its Marshal and General died on Bombs and its Marshal to a Spy beside a
	// bait (flagCap, cheapFlag, spyGuard); its known strong pieces were taken
	// back by hidden neighbours (takeBack); a known General counted as a
	// danger to a Flag walled in by Bombs (sealedFlag); a Miner it knew walked
	// up to such a Flag, and its last defenders walked away from a Flag with
	// an open side (guard); Demon's known raiders stepped between its pieces
	// and took one a move (forks); it moved three times as many pieces as
	// people and walked its weak ones out, where people's habits break the
	// ties of its search (people). The changes that scored within the luck of
	// the arena or worse are in the history of docs/COMPUTER.md (git log -p),
	// so that the next reader does not try them again.
	Hard: {samples: 16, depth: 3, smallBoard: 24, qDepth: 6, inference: recognition, behaviour: fittedBehaviour, pull: 1, flagPull: 500,
		flagCap: 1000, cheapFlag: true, spyGuard: 0.2, takeBack: 1, sealedFlag: 0.2, guard: 300, forks: true,
		people: 10, noise: 1, nodeBudget: 1_500_000, timeCap: MoveTimeCap, repetition: 30},
}

// MoveTimeCap bounds a move's thinking from the call of Choose, so that a
// loaded machine slows the computer's play but never stalls it: the node
// budget ends nearly every search well before (hard's median is about 80 ms).
const MoveTimeCap = time.Second

// Player is a computer player of one level. It keeps no state between moves,
// so one Player may serve any number of games, also concurrently.
type Player struct {
	level Level
	seed  uint64
	cfg   config
	// indexed, if set (by a test), is called once the published set-ups
	// are indexed, before the search.
	indexed func()
}

// New returns a player of the given level whose choices follow from seed.
func New(level Level, seed uint64) *Player {
	p := &Player{level: level, seed: seed}
	if int(level) < len(configs) {
		p.cfg = configs[level]
	}
	return p
}

// WithTimeCap returns a player like p whose search gives up after d of
// thinking instead of after the level's own cap (0: never; the node budget
// alone bounds it). The budget ends nearly every search first, but on a
// loaded machine the cap may cut one short and change the move; the lab
// lifts it so that two runs repeat themselves move for move.
func (p *Player) WithTimeCap(d time.Duration) *Player {
	q := *p
	if q.cfg.timeCap > 0 {
		q.cfg.timeCap = d
	}
	return &q
}

// Level returns the player's level.
func (p *Player) Level() Level { return p.level }

// ErrNotPlayerView is returned by Choose for a view that is not of a player.
var ErrNotPlayerView = errors.New("the computer plays from a player's view, not the public one")

// Choose returns the move to play in v, the view of the side to move. It
// fails (wrapping game.ErrGameOver, game.ErrNotYourTurn, ErrNotPlayerView or
// game.ErrInconsistentView) when there is nothing to choose.
func (p *Player) Choose(v game.View) (game.Move, error) {
	side, ok := v.Viewer.IsPlayer()
	switch {
	case !ok:
		return game.Move{}, ErrNotPlayerView
	case v.Result.Over():
		return game.Move{}, game.ErrGameOver
	case side != v.ToMove:
		return game.Move{}, fmt.Errorf("choosing for %s while %s is to move: %w", side, v.ToMove, game.ErrNotYourTurn)
	}
	m, _, err := p.choose(v)
	return m, err
}

// choose is Choose, with the searcher for tests (nil when there was no search).
func (p *Player) choose(v game.View) (game.Move, *searcher, error) {
	// The time cap counts from here. Indexing the published set-ups, once
	// per process, is in it: the bot reserves each thought a slot of its
	// time and plays the move when the reservation allows, not when the
	// search ended, only while the thought ends within it. (The lab, which
	// times moves, warms the indexes first.)
	start := time.Now()
	if p.cfg.inference >= recognition {
		indexFor(v.Rules)
	}
	if p.cfg.inference >= layouts {
		layoutsFor(v.Rules)
	}
	if p.indexed != nil {
		p.indexed()
	}
	side, _ := v.Viewer.IsPlayer()
	legal, err := v.LegalMoves()
	if err != nil {
		return game.Move{}, nil, fmt.Errorf("finding the legal moves: %w", err)
	}
	if len(legal) == 0 {
		return game.Move{}, nil, fmt.Errorf("no legal move: %w", game.ErrGameOver)
	}
	rng := rand.New(rand.NewPCG(p.seed, uint64(v.Ply())<<1|uint64(side)))
	if p.level == Random || len(legal) == 1 || int(p.level) >= len(configs) {
		return legal[rng.IntN(len(legal))], nil, nil
	}
	k, err := newKnowledgeWith(&v, p.cfg.inference, p.cfg.behaviour)
	if err != nil {
		return game.Move{}, nil, fmt.Errorf("reading the view: %w", err)
	}
	e := newEvaluator(k, &v, p.cfg)
	s := newSearcher(p.cfg, k, e, start)
	return s.choose(legal, rng), s, nil
}

// Setup returns a set-up for the player's side, like a person's: a new one
// drawn by game.RandomSetup from what real players do, never a real player's
// own. The same seed gives the same set-up, so the seed must be secret.
func Setup(rules game.Rules, seed uint64) game.Setup { return game.RandomSetup(rules, seed) }
