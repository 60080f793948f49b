package tournament

import (
	"errors"
	"fmt"
)

// Format is how the rounds are paired.
type Format uint8

// The formats.
const (
	// RoundRobin: every pair of players meets once (twice when Double), on a
	// fixed Berger schedule made when the first round is paired.
	RoundRobin Format = iota + 1
	// Swiss: a fixed number of rounds, each paired from the standings so far
	// (see PairSwissRound).
	Swiss
)

// String returns "round robin" or "Swiss".
func (f Format) String() string {
	switch f {
	case RoundRobin:
		return "round robin"
	case Swiss:
		return "Swiss"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// Adjudication is how a game still unfinished when its round closes is scored.
type Adjudication uint8

// The adjudications of unfinished games. Either way the game is unrated.
const (
	// BothLose: each side scores Rules.Loss.
	BothLose Adjudication = iota
	// ScoredAsDraw: each side scores Rules.Draw.
	ScoredAsDraw
)

// String describes the adjudication.
func (a Adjudication) String() string {
	switch a {
	case BothLose:
		return "both lose"
	case ScoredAsDraw:
		return "scored as a draw"
	}
	return fmt.Sprintf("Adjudication(%d)", uint8(a))
}

// Rules are a tournament's settings. They do not change once it has begun.
type Rules struct {
	Format Format
	// Rounds is the number of rounds of a Swiss event. A round robin has as
	// many as its schedule needs, and Rounds must be 0.
	Rounds int
	// Double makes a round robin double: the second cycle repeats the first
	// with the colours swapped.
	Double bool
	// AllAtOnce plays a round robin's rounds together rather than one after
	// another, as correspondence round robins do: every round is paired at
	// the start (PairAll), results come in any order, and one deadline
	// closes them all (CloseAll). Tournaments stored before it existed read
	// it as false and keep playing round by round.
	AllAtOnce bool

	// Points for a played game.
	Win, Draw, Loss Points
	// Bye is what a player without an opponent in a round scores.
	Bye Points
	// ForfeitWin and ForfeitLoss are what a game that was not played scores:
	// the player who did not play (or withdrew) gets ForfeitLoss and the
	// opponent ForfeitWin. A double forfeit gives both ForfeitLoss.
	ForfeitWin, ForfeitLoss Points
	// Unfinished says how a game still on when its round closes is scored.
	Unfinished Adjudication
}

// MaxPlayers is the most players a tournament takes.
const MaxPlayers = 400

// MaxSwissRounds is the most rounds a Swiss tournament may have.
const MaxSwissRounds = 50

// DefaultRules returns the house rules for a format: a win is 1 point, a draw
// ½, a loss 0; a forfeit win scores as a win; an unfinished game is lost by
// both. A Swiss bye scores as a win, as FIDE's rules have it; a round
// robin's bye scores nothing, as in Berger tables: everyone of an odd
// number sits out once, so a point for it would only put whoever has had
// theirs ahead while the event lasts. rounds is the number of Swiss rounds
// (ignored for a round robin).
func DefaultRules(f Format, rounds int) Rules {
	r := Rules{Format: f, Win: 2, Draw: 1, Loss: 0, Bye: 2, ForfeitWin: 2, ForfeitLoss: 0, Unfinished: BothLose}
	if f == Swiss {
		r.Rounds = rounds
	} else {
		r.Bye = 0
	}
	return r
}

// ErrRules is wrapped by every refusal of Rules.Validate.
var ErrRules = errors.New("invalid tournament rules")

// Validate reports the first thing wrong with the rules, in words an
// organiser understands.
func (r Rules) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrRules, fmt.Sprintf(format, args...))
	}
	switch r.Format {
	case RoundRobin:
		if r.Rounds != 0 {
			return bad("a round robin has as many rounds as its schedule needs; leave the number of rounds at 0")
		}
	case Swiss:
		if r.Rounds < 1 || r.Rounds > MaxSwissRounds {
			return bad("a Swiss tournament needs between 1 and %d rounds, not %d", MaxSwissRounds, r.Rounds)
		}
		if r.Double {
			return bad("only a round robin can be double")
		}
		if r.AllAtOnce {
			return bad("only a round robin can start every round at once")
		}
	default:
		return bad("choose round robin or Swiss")
	}
	for _, p := range []struct {
		name string
		v    Points
	}{{"a win", r.Win}, {"a draw", r.Draw}, {"a loss", r.Loss}, {"a bye", r.Bye}, {"a forfeit win", r.ForfeitWin}, {"a forfeit loss", r.ForfeitLoss}} {
		if p.v < 0 || p.v > 20 {
			return bad("%s must score between 0 and 10 points, not %s", p.name, p.v)
		}
	}
	if !(r.Loss <= r.Draw && r.Draw <= r.Win) || r.Win == r.Loss {
		return bad("a win must score more than a loss, and a draw neither more than a win nor less than a loss")
	}
	if r.ForfeitLoss > r.ForfeitWin {
		return bad("a forfeit loss cannot score more than a forfeit win")
	}
	if r.Unfinished != BothLose && r.Unfinished != ScoredAsDraw {
		return bad("unfinished games are either lost by both or scored as a draw")
	}
	return nil
}
