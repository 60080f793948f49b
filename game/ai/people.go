package ai

import (
	"fmt"
	"math"
	"slices"

	"github.com/strategobot/strategobot/game"
)

// People's moves: a log-linear model of which legal move a person picks,
// fitted on real games (strategolab fit-moves), read from what the mover
// knows. Hard adds its log-odds to each root move's value in Classic, so
// that of moves its search finds alike it plays the one a person would; the
// lab scores players by it: how like a person's their moves are.

const (
	pfRank       = 0  // 10: the mover's rank, Spy to Marshal
	pfFirst      = 10 // 3: the piece's first move, by class (low, middle, high)
	pfShown      = 13 // the enemy knows the mover's rank
	pfSame       = 14 // the piece the player moved last
	pfBack       = 15 // back to the square it came from last
	pfForward    = 16
	pfBackward   = 17
	pfLong       = 18 // a Scout's move of more than one square
	pfKnownWin   = 19 // attacking a known piece: wins, both fall, loses
	pfKnownTie   = 20
	pfKnownLose  = 21
	pfMovedHit   = 22 // 3: attacking a hidden piece that moved, by class
	pfUnmovedHit = 25 // 4: attacking a hidden piece that never moved: Scout, low, middle, high
	pfNearTaker  = 29 // ends beside a known enemy piece that beats it
	pfNearPrey   = 30 // ends beside a known enemy piece it beats
	pfFlees      = 31 // starts beside a known enemy piece that beats it
	pfNearHidden = 32 // ends beside a hidden enemy piece
	pfEnemyHalf  = 33 // ends in the enemy's half

	numMoveFeatures = 34
)

// rankClass sorts the movable ranks into low (Spy to Sergeant), middle
// (Lieutenant to Major) and high (Colonel to Marshal).
func rankClass(r game.Rank) int {
	switch {
	case r <= game.Sergeant || r == game.Infiltrator:
		return 0
	case r <= game.Major:
		return 1
	}
	return 2
}

// moveFeatures reads move m of the player's from its knowledge.
func (k *knowledge) moveFeatures(m move) (f [numMoveFeatures]float64) {
	a := k.board[m.from]
	if a < 0 {
		return f
	}
	r := k.rank[a]
	if r >= game.Spy && r <= game.Marshal {
		f[pfRank+int(r-game.Spy)] = 1
	}
	t := &k.tracks[a]
	if !t.Moved {
		f[pfFirst+rankClass(r)] = 1
	}
	if t.Revealed || t.KnownScout {
		f[pfShown] = 1
	}
	if a == k.lastMoved {
		f[pfSame] = 1
		if m.to == k.lastMovedFrom {
			f[pfBack] = 1
		}
	}
	fr, tr := int(m.from)/10, int(m.to)/10
	dr := tr - fr
	if k.me == game.Blue {
		dr = -dr
	}
	switch {
	case dr > 0:
		f[pfForward] = 1
	case dr < 0:
		f[pfBackward] = 1
	}
	if d := abs(tr-fr) + abs(int(m.to)%10-int(m.from)%10); d > 1 {
		f[pfLong] = 1
	}
	if tr >= 5 && k.me == game.Red || tr <= 4 && k.me == game.Blue {
		f[pfEnemyHalf] = 1
	}
	if d := k.board[m.to]; d >= 0 {
		switch {
		case k.rank[d] != game.NoRank:
			switch fightTable[r][k.rank[d]] {
			case attackerWins:
				f[pfKnownWin] = 1
			case bothDie:
				f[pfKnownTie] = 1
			default:
				f[pfKnownLose] = 1
			}
		case k.tracks[d].Moved:
			f[pfMovedHit+rankClass(r)] = 1
		case r == game.Scout:
			f[pfUnmovedHit] = 1
		default:
			f[pfUnmovedHit+1+rankClass(r)] = 1
		}
		return f
	}
	for _, n := range neighbours[m.to] {
		if n == noSq || n == m.from {
			continue
		}
		e := k.board[n]
		if e < 0 || sideOf(e) == k.me {
			continue
		}
		if k.rank[e] == game.NoRank {
			f[pfNearHidden] = 1
			continue
		}
		switch fightTable[k.rank[e]][r] {
		case attackerWins:
			f[pfNearTaker] = 1
		case defenderWins:
			f[pfNearPrey] = 1
		}
	}
	for _, n := range neighbours[m.from] {
		if n == noSq {
			continue
		}
		if e := k.board[n]; e >= 0 && sideOf(e) != k.me && k.rank[e] != game.NoRank && fightTable[k.rank[e]][r] == attackerWins {
			f[pfFlees] = 1
		}
	}
	return f
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// peopleLogOdds is the model's log-odds of move m, up to a constant of the
// position.
func (k *knowledge) peopleLogOdds(m move) float64 {
	return peopleLogit(k.moveFeatures(m))
}

// peopleLogit weighs a move's features by the fitted weights.
func peopleLogit(f [numMoveFeatures]float64) float64 {
	var x float64
	for i, v := range f {
		x += v * peopleMoveWeights[i]
	}
	return x
}

// NumMoveFeatures is the number of features of a move in the model of
// people's moves.
const NumMoveFeatures = numMoveFeatures

// MoveFeatureName names move feature f.
func MoveFeatureName(f int) string { return moveFeatureNames[f] }

var moveFeatureNames = func() (n [numMoveFeatures]string) {
	for r := game.Spy; r <= game.Marshal; r++ {
		n[pfRank+int(r-game.Spy)] = "a " + r.String() + " moves"
	}
	classes := [3]string{"Spy to Sergeant", "Lieutenant to Major", "Colonel to Marshal"}
	for c, name := range classes {
		n[pfFirst+c] = "its first move, " + name
		n[pfMovedHit+c] = "attacks a hidden piece that moved, " + name
	}
	n[pfShown] = "the enemy knows its rank"
	n[pfSame] = "the piece moved last"
	n[pfBack] = "back to the square it came from last"
	n[pfForward] = "forward"
	n[pfBackward] = "backward"
	n[pfLong] = "more than one square"
	n[pfKnownWin] = "attacks a known piece it beats"
	n[pfKnownTie] = "attacks a known piece of its rank"
	n[pfKnownLose] = "attacks a known piece that beats it"
	n[pfUnmovedHit] = "attacks a hidden piece that never moved, Scout"
	for c, name := range [3]string{"Spy, Miner or Sergeant", "Lieutenant to Major", "Colonel to Marshal"} {
		n[pfUnmovedHit+1+c] = "attacks a hidden piece that never moved, " + name
	}
	n[pfNearTaker] = "ends beside a known piece that beats it"
	n[pfNearPrey] = "ends beside a known piece it beats"
	n[pfFlees] = "starts beside a known piece that beats it"
	n[pfNearHidden] = "ends beside a hidden piece"
	n[pfEnemyHalf] = "ends in the enemy's half"
	return n
}()

// MoveSamples returns the features of every legal move of the side to move,
// read from v (its player's view), with the moves in the same order.
func MoveSamples(v game.View) ([]game.Move, [][NumMoveFeatures]float64, error) {
	if _, ok := v.Viewer.IsPlayer(); !ok {
		return nil, nil, ErrNotPlayerView
	}
	legal, err := v.LegalMoves()
	if err != nil {
		return nil, nil, fmt.Errorf("finding the legal moves: %w", err)
	}
	k, err := newKnowledgeWith(&v, countsOnly, noBehaviour)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the view: %w", err)
	}
	out := make([][NumMoveFeatures]float64, len(legal))
	for i, m := range legal {
		out[i] = k.moveFeatures(fromGame(m))
	}
	return legal, out, nil
}

// PeopleLogLikelihood returns the natural log of the chance the model of
// people's moves gives move m among the legal moves of v's viewer, who is
// to move, and that of every legal move alike (minus the log of their
// number), for comparison.
func PeopleLogLikelihood(v game.View, m game.Move) (model, alike float64, err error) {
	legal, fs, err := MoveSamples(v)
	if err != nil {
		return 0, 0, err
	}
	played := slices.Index(legal, m)
	if played < 0 {
		return 0, 0, fmt.Errorf("%s is not a legal move: %w", m, game.ErrIllegalMove)
	}
	z := make([]float64, len(fs))
	top := math.Inf(-1)
	for i, f := range fs {
		z[i] = peopleLogit(f)
		top = max(top, z[i])
	}
	var sum float64
	for _, x := range z {
		sum += math.Exp(x - top)
	}
	return z[played] - top - math.Log(sum), -math.Log(float64(len(legal))), nil
}
