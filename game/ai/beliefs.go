package ai

import (
	"fmt"

	"github.com/strategobot/strategobot/game"
)

// BeliefOptions says what Beliefs draws on, for measuring the beliefs.
type BeliefOptions struct {
	// Prior weighs the ranks by where people set them up (the per-square
	// prior); without it only the counts left and what moved count.
	Prior bool
	// Recognition also weighs the published set-ups that agree with what
	// the opponent's pieces showed (needs Prior).
	Recognition bool
	// Layouts also weighs the layouts of Bombs and Flag of the published
	// set-ups that agree with it (needs Recognition).
	Layouts bool
	// Behaviour is how a hidden piece's behaviour weighs its ranks (needs Prior).
	Behaviour Behaviour
}

// Behaviour is how the beliefs read a hidden piece's behaviour.
type Behaviour uint8

// The ways of reading behaviour.
const (
	// NoBehaviour ignores it.
	NoBehaviour Behaviour = iota
	// HandBehaviour uses hand-set odds: it stepped next to a known piece it
	// beats, ran from one that beats it, went at unknown pieces.
	HandBehaviour
	// FittedBehaviour uses the model fitted on real games.
	FittedBehaviour
)

func (b Behaviour) model() behaviourModel {
	switch b {
	case HandBehaviour:
		return handBehaviour
	case FittedBehaviour:
		return fittedBehaviour
	}
	return noBehaviour
}

// HardBeliefs returns the options of the beliefs hard plays with.
func HardBeliefs() BeliefOptions {
	b := NoBehaviour
	switch configs[Hard].behaviour {
	case handBehaviour:
		b = HandBehaviour
	case fittedBehaviour:
		b = FittedBehaviour
	}
	inf := configs[Hard].inference
	return BeliefOptions{Prior: true, Recognition: inf >= recognition, Layouts: inf >= layouts, Behaviour: b}
}

// PieceBelief is what the beliefs say about one of the opponent's pieces on
// the board whose rank the viewer does not know.
type PieceBelief struct {
	// Start is the square the piece began on, Square where it stands.
	Start, Square game.Square
	// Moved: the piece has moved (so it is no Bomb or Flag).
	Moved bool
	// P is the probability of each rank.
	P [game.NumRanks]float64
}

// Beliefs returns the beliefs of v's viewer (a player, to move or not) about
// every hidden piece of the opponent on the board, in the game's order of
// pieces.
func Beliefs(v game.View, opt BeliefOptions) ([]PieceBelief, error) {
	inf := countsOnly
	if opt.Prior {
		inf = setupsAndBehaviour
		if opt.Recognition {
			inf = recognition
			if opt.Layouts {
				inf = layouts
			}
		}
	}
	if _, ok := v.Viewer.IsPlayer(); !ok {
		return nil, ErrNotPlayerView
	}
	k, err := newKnowledgeWith(&v, inf, opt.Behaviour.model())
	if err != nil {
		return nil, fmt.Errorf("reading the view: %w", err)
	}
	out := make([]PieceBelief, len(k.unknown))
	for i, id := range k.unknown {
		t := &k.tracks[id]
		out[i] = PieceBelief{Start: t.Start, Square: t.Square, Moved: t.Moved, P: k.belief[i]}
	}
	return out, nil
}

// FlagOdds returns the chance hard's search gives the enemy of taking the
// Flag of v's viewer when a piece of the enemy's stands beside it: the
// per-square prior of the Flag's start square among the viewer's pieces the
// enemy has neither seen move nor fight (see offeredFlag, which gives a taker
// worth more than a Miner a quarter of it). ok is false when the viewer has
// no Flag on the board.
func FlagOdds(v game.View) (odds float64, ok bool, err error) {
	if _, ok := v.Viewer.IsPlayer(); !ok {
		return 0, false, ErrNotPlayerView
	}
	k, err := newKnowledgeWith(&v, countsOnly, noBehaviour)
	if err != nil {
		return 0, false, fmt.Errorf("reading the view: %w", err)
	}
	f := k.flag()
	if f < 0 {
		return 0, false, nil
	}
	return k.flagOdds(f), true, nil
}

// NumBehaviourFeatures is the number of behaviour features of a hidden piece.
const NumBehaviourFeatures = numBehaviourFeatures

// BehaviourFeatureName names behaviour feature f.
func BehaviourFeatureName(f int) string { return behaviourFeatureNames[f] }

// BehaviourSample is what fitting the behaviour model needs of one hidden
// piece: the weight of each rank before behaviour counts (the per-square
// prior with its floor, zero for the ranks it cannot be), and its behaviour
// features.
type BehaviourSample struct {
	Start    game.Square
	Base     [game.NumRanks]float64
	Features [NumBehaviourFeatures]float64
}

// BehaviourSamples returns a BehaviourSample for every hidden piece of the
// opponent on the board, seen from v's viewer, in the order of Beliefs.
func BehaviourSamples(v game.View) ([]BehaviourSample, error) {
	if _, ok := v.Viewer.IsPlayer(); !ok {
		return nil, ErrNotPlayerView
	}
	k, err := newKnowledgeWith(&v, countsOnly, fittedBehaviour)
	if err != nil {
		return nil, fmt.Errorf("reading the view: %w", err)
	}
	prior := priorFor(k.rules)
	n := len(k.unknown)
	out := make([]BehaviourSample, n)
	ply := len(k.hashes) - 1
	for i, id := range k.unknown {
		t := &k.tracks[id]
		s := &out[i]
		s.Start = t.Start
		s.Features = k.features(id, ply, k.oppMoves)
		row, col, _ := game.SetupCell(k.opp, t.Start)
		for _, r := range game.Ranks {
			if k.pool[r] == 0 || (t.Moved && !r.Movable()) {
				continue
			}
			s.Base[r] = priorFloor*float64(k.pool[r])/float64(n) + prior[row][col][r]
		}
		for _, r := range t.NotRanks {
			s.Base[r] = 0
		}
	}
	return out, nil
}
