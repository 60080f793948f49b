package ai

import (
	"math"

	"github.com/strategobot/strategobot/game"
)

// Reading behaviour. How a hidden piece behaved hints at its rank: how often
// and how early it moved, whether it went near the player's known pieces or
// ran from them, which of them it left alone when it could have attacked,
// whether it stayed put when a hidden piece came next to it, and whether it
// moved alongside its neighbours. Each hidden piece gets a
// vector of such features, and its ranks are weighed by exp(Σ w[f][r]·x[f]),
// a log-linear model whose weights (behaviourWeights, a generated table)
// were fitted on real games: the weights that make the true ranks likeliest
// given the per-square set-up prior (see internal/lab/beliefs, which also
// scores the beliefs on held-out games).

// The behaviour features of a hidden piece, each a number from what the
// viewer saw.
const (
	featMoved           = iota // it has moved (1 or 0)
	featMoves                  // log(1 + its moves)
	featMoveShare              // its share of its side's moves, times 10 (at most 10)
	featEarly                  // it moved in the first 30 plies
	featStillLate              // it has not moved: the ply / 200 (at most 2)
	featRecent                 // it moved in the last 20 plies
	featAdvance                // how many rows it stands forward of its start, / 3
	featDeep                   // it stands in the viewer's set-up zone
	featStreak                 // log(1 + its moves right after its own previous move)
	featEscort                 // log(1 + its moves next to the piece its side moved just before)
	featBold                   // log(1 + its steps next to the viewer's hidden pieces)
	featApproachWeak           // it stepped next to a known Spy, Scout, Miner or Sergeant of the viewer's
	featApproachMid            // … a known Lieutenant, Captain or Major
	featApproachStrong         // … a known Colonel, General or Marshal
	featApproachBomb           // … a known Bomb
	featFledWeak               // it ran from a known weak piece that had just come next to it
	featFledMid                // … a middle one
	featFledStrong             // … a strong one
	featStoodWeak              // it stayed next to a known weak piece that had just come next to it
	featStoodMid               // … a middle one
	featStoodStrong            // … a strong one
	featSparedWeak             // on its side's turn it stood next to a known weak piece and did not attack it
	featSparedMid              // … a middle one
	featSparedStrong           // … a strong one
	featIdle                   // log(1 + its side's turns it could have stepped, before it first moved)
	featBombNeighbour          // start squares next to its own that held a known Bomb (at most 2)
	featMovedNeighbours        // the share of the pieces next to its start square that have moved
	featLoneStill              // it has not moved, though every piece next to its start square has
	featStoodHidden            // log(1 + the times it stayed where it was when a hidden piece of the viewer's had just come next to it)
	numBehaviourFeatures
)

// behaviourFeatureNames name the features, for the fitted table and reports.
var behaviourFeatureNames = [numBehaviourFeatures]string{
	"moved", "moves", "move share", "early", "still late", "recent", "advance", "deep",
	"streak", "escort", "bold",
	"approach weak", "approach mid", "approach strong", "approach bomb",
	"fled weak", "fled mid", "fled strong",
	"stood weak", "stood mid", "stood strong",
	"spared weak", "spared mid", "spared strong",
	"idle", "bomb neighbour", "moved neighbours", "lone still",
	"stood hidden",
}

// strengthClass sorts a known rank into weak (0), middle (1) and strong (2),
// or 3 for a Bomb and -1 for anything else.
func strengthClass(r game.Rank) int {
	switch {
	case r == game.Bomb:
		return 3
	case r == game.NoRank || r == game.Flag:
		return -1
	case strength(r) <= int(game.Sergeant):
		return 0
	case strength(r) <= int(game.Major):
		return 1
	}
	return 2
}

// behaviourStats are the counts behind an opponent piece's features,
// gathered while replaying the history.
type behaviourStats struct {
	moves      int
	firstMove  int // ply of its first move, -1 before it
	lastMove   int
	streak     int
	escort     int
	bold       int
	approached uint8 // bit per strength class
	fled       uint8
	stood      uint8
	spared     uint8
	idle       int
	// stoodHidden counts the times it stayed when a hidden piece of the
	// viewer's had just come next to it: a Bomb never answers.
	stoodHidden int
}

// features returns the feature vector of opponent piece id at the end of the
// history (ply plies, oppMoves moves of its side).
func (k *knowledge) features(id int8, ply, oppMoves int) (x [numBehaviourFeatures]float64) {
	st := &k.stats[id]
	t := &k.tracks[id]
	if st.moves > 0 {
		x[featMoved] = 1
		x[featMoves] = math.Log1p(float64(st.moves))
		x[featMoveShare] = min(10, 10*float64(st.moves)/float64(max(1, oppMoves)))
		if st.firstMove < 30 {
			x[featEarly] = 1
		}
		if ply-st.lastMove <= 20 {
			x[featRecent] = 1
		}
	} else {
		x[featStillLate] = min(2, float64(ply)/200)
	}
	if t.Square != game.NoSquare {
		fwd := t.Square.Row() - t.Start.Row() // Red moves up the rows
		if k.opp == game.Blue {
			fwd = -fwd
		}
		x[featAdvance] = float64(fwd) / 3
		if game.InZone(k.me, t.Square) {
			x[featDeep] = 1
		}
	}
	x[featStreak] = math.Log1p(float64(st.streak))
	x[featEscort] = math.Log1p(float64(st.escort))
	x[featBold] = math.Log1p(float64(st.bold))
	for c := range 4 {
		if st.approached&(1<<c) != 0 {
			x[featApproachWeak+c] = 1
		}
	}
	for c := range 3 {
		if st.fled&(1<<c) != 0 {
			x[featFledWeak+c] = 1
		}
		if st.stood&(1<<c) != 0 {
			x[featStoodWeak+c] = 1
		}
		if st.spared&(1<<c) != 0 {
			x[featSparedWeak+c] = 1
		}
	}
	x[featIdle] = math.Log1p(float64(st.idle))
	x[featStoodHidden] = math.Log1p(float64(st.stoodHidden))
	around, moved, bombs := 0, 0, 0
	for _, n := range neighbours[t.Start] {
		if n == noSq {
			continue
		}
		o := k.startAt[n]
		if o < 0 || sideOf(o) != k.opp {
			continue
		}
		around++
		if k.tracks[o].Moved {
			moved++
		}
		if k.rank[o] == game.Bomb {
			bombs++
		}
	}
	x[featBombNeighbour] = float64(min(bombs, 2))
	if around > 0 {
		x[featMovedNeighbours] = float64(moved) / float64(around)
		if moved == around && st.moves == 0 {
			x[featLoneStill] = 1
		}
	}
	return x
}

// fittedLikelihood weighs each rank by the fitted model for features x.
func fittedLikelihood(x *[numBehaviourFeatures]float64) (l [game.NumRanks]float64) {
	var s [game.NumRanks]float64
	for f, v := range x {
		if v == 0 {
			continue
		}
		w := &behaviourWeights[f]
		for r := range s {
			s[r] += w[r] * v
		}
	}
	for r := range l {
		l[r] = math.Exp(max(-20, min(20, s[r])))
	}
	return l
}

// noteSpared records, before the opponent's move from→to, which of the
// player's known pieces each opponent piece next to them left alone.
func (k *knowledge) noteSpared(sqOf *[numIDs]uint8, revealed *[numIDs]bool, from, to uint8) {
	base := game.MaxPieces * int(k.me)
	for p := base; p < base+game.MaxPieces; p++ {
		s := sqOf[p]
		if s == noSq || !revealed[p] {
			continue
		}
		c := strengthClass(k.rank[p])
		if c < 0 || c > 2 {
			continue
		}
		for _, n := range neighbours[s] {
			if n == noSq {
				continue
			}
			x := k.board[n]
			if x < 0 || sideOf(x) != k.opp || (n == from && s == to) {
				continue
			}
			k.stats[x].spared |= 1 << c
		}
	}
}

// noteIdle counts, before an opponent's move, the turn for each of its
// pieces that never moved and could have stepped.
func (k *knowledge) noteIdle(sqOf *[numIDs]uint8) {
	base := game.MaxPieces * int(k.opp)
	for x := base; x < base+game.MaxPieces; x++ {
		s := sqOf[x]
		if s == noSq || k.stats[x].moves > 0 {
			continue
		}
		for _, n := range neighbours[s] {
			if n != noSq && k.board[n] == empty {
				k.stats[x].idle++
				break
			}
		}
	}
}

// noteOpponentStep counts the opponent's step of piece a from→to at ply i:
// prev is the piece its side moved before (or -1).
func (k *knowledge) noteOpponentStep(sqOf *[numIDs]uint8, i int, a, prev int8, from, to uint8) {
	st := &k.stats[a]
	st.moves++
	if st.firstMove < 0 {
		st.firstMove = i
	}
	st.lastMove = i
	if prev == a {
		st.streak++
	} else if prev >= 0 {
		if s := sqOf[prev]; s != noSq && (game.Adjacent(game.Square(s), game.Square(from)) || game.Adjacent(game.Square(s), game.Square(to))) {
			st.escort++
		}
	}
}
