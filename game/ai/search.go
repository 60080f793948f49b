package ai

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/strategobot/strategobot/game"
)

// config is what makes a level.
type config struct {
	// samples is how many guesses of the hidden pieces the search averages over.
	samples int
	// depth is how many plies are searched after each root move (0: only the
	// battles that follow at once).
	depth int
	// smallBoard, when above 0, is the number of pieces on the board at or
	// below which the search goes one ply deeper: small armies and late
	// games have few moves, and the deeper search fits the same budget.
	smallBoard int
	// qDepth bounds the battles followed at the leaves.
	qDepth int
	// inference is what the beliefs about hidden pieces draw on.
	inference inference
	// behaviour is how the beliefs read the hidden pieces' behaviour.
	behaviour behaviourModel
	// pull weighs the attraction of own pieces to targets (0: none).
	pull float64
	// noise is the most random points added to a root move's score.
	noise int32
	// nodeBudget bounds the search's work; timeCap bounds its time, as a
	// safety net only (the budget keeps it deterministic).
	nodeBudget int
	timeCap    time.Duration
	// repetition is the penalty, per earlier occurrence, for a move back to
	// a position of the last 40 plies.
	repetition int32
	// guard, when above 0, is what taking an enemy piece a few steps from
	// our Flag that can get to it is worth in the pull, on top of its rank's
	// value: a Miner (or Infiltrator) when Bombs wall the Flag in, any piece
	// that moves when they do not.
	guard float64
	// flagPull is the worth of a possible Flag in the pull (0: flagValue).
	flagPull float64
	// flagCap, when above 0, bounds what taking a piece that may be the
	// Flag is worth at the root, in that piece's Flag case.
	flagCap int32
	// spyGuard, when above 0, is the least chance the root gives a hidden
	// piece next to its known Marshal of being the Spy (see spyRisk).
	spyGuard float64
	// takeBack, when above 0, weighs the root's guard of its known Majors,
	// Colonels and Generals against hidden pieces that may take them (see
	// takeBackRisk).
	takeBack float64
	// sealedFlag, when above 0, scales the Flag danger of the enemy's known
	// pieces other than Miners (and Infiltrators) while the player's Flag
	// is walled in by its own Bombs (see newEvaluator).
	sealedFlag float64
	// cheapFlag makes pieces worth more than a Miner try an unmoved piece
	// for the Flag only at a quarter of flagCap while a Miner is left.
	cheapFlag bool
	// forks makes the side to move at a quiescence leaf stand pat at its
	// score less what the enemy's last move forks (see hanging): it saves
	// one piece by moving it, not two.
	forks bool
	// people, when above 0, weighs the model of people's moves at the root
	// (people.go): the points a root move gets for each unit of its
	// log-odds, so that of moves the search finds alike the player makes
	// the one a person would.
	people float64
}

// inference is what a level's beliefs about the hidden pieces draw on.
type inference uint8

const (
	// countsOnly: every hidden piece is only as likely as the counts left
	// make it.
	countsOnly inference = iota
	// setupsAndBehaviour: the per-square set-up prior and the reading of
	// behaviour as well.
	setupsAndBehaviour
	// recognition: and the published set-ups that agree with what the
	// opponent's pieces showed (see recognisedPrior).
	recognition
	// layouts: and the published set-ups' layouts of Bombs and Flag that
	// agree with it (see layoutPrior).
	layouts
)

// behaviourModel is how the beliefs weigh a hidden piece's ranks by how it
// behaved (with inference setupsAndBehaviour or more).
type behaviourModel uint8

const (
	// handBehaviour: the hand-set odds of behaviour.likelihood.
	handBehaviour behaviourModel = iota
	// fittedBehaviour: the model fitted on real games (behaviour.go).
	fittedBehaviour
	// noBehaviour: behaviour is not read.
	noBehaviour
)

const infinity = 1 << 30

// searcher holds one move's search.
type searcher struct {
	cfg      config
	k        *knowledge
	e        *evaluator
	me       game.Side
	known    [numIDs]bool // pieces whose rank the player knows, or nearly (see nearlyCertain)
	depth    int          // plies after each root move (see config.depth and smallBoard)
	nodes    int
	deadline time.Time
	stopped  bool
	// cheapFlag: the level tries possible Flags with its cheap pieces, and
	// it has a Miner (see flagCap).
	cheapFlag bool
	// myFlag is the player's Flag (-1: none on the board), and flagOdds the
	// chance that the enemy, offered the Flag, takes it (see
	// knowledge.flagOdds), worked out when first needed (below 0 until
	// then). The guesses' enemy sees through every other piece of the
	// player's, but cannot tell which one is the Flag.
	myFlag   int8
	flagOdds float64
	buffers  [64][]move
	// killers holds, per ply, the last quiet move that cut the search off;
	// history scores quiet moves by the cut-offs they made. Both only order moves.
	killers [64]move
	keys    []int32 // sort keys of one list of moves
	history [2][game.NumSquares][game.NumSquares]int32
}

func newSearcher(cfg config, k *knowledge, e *evaluator, start time.Time) *searcher {
	s := &searcher{cfg: cfg, k: k, e: e, me: k.me, depth: cfg.depth}
	if cfg.smallBoard > 0 && k.onBoard() <= cfg.smallBoard {
		s.depth++
	}
	for id := range s.known {
		s.known[id] = k.rank[id] != game.NoRank || k.nearlyCertain(int8(id))
		if k.present[id] && sideOf(int8(id)) == k.me && k.tracks[id].Square != game.NoSquare && k.rank[id] == game.Miner {
			s.cheapFlag = cfg.cheapFlag
		}
	}
	if cfg.timeCap > 0 {
		s.deadline = start.Add(cfg.timeCap)
	}
	s.myFlag, s.flagOdds = k.flag(), -1
	return s
}

// flag returns the player's Flag, or -1 when it is not on the board.
func (k *knowledge) flag() int8 {
	lo := int(k.me) * game.MaxPieces
	for id := lo; id < lo+game.MaxPieces; id++ {
		if k.present[id] && k.tracks[id].Square != game.NoSquare && k.rank[id] == game.Flag {
			return int8(id)
		}
	}
	return -1
}

// flagOdds returns the chance the enemy gives the player's piece flag of
// being the Flag: the per-square prior of its start square among those of
// the player's pieces the enemy has neither seen move nor fight (1 when
// nothing else is left).
func (k *knowledge) flagOdds(flag int8) float64 {
	prior := priorFor(k.rules)
	mine, total := 0.0, 0.0
	lo := int(k.me) * game.MaxPieces
	for id := lo; id < lo+game.MaxPieces; id++ {
		t := &k.tracks[id]
		if !k.present[id] || t.Square == game.NoSquare || t.Moved || t.Revealed {
			continue
		}
		row, col, ok := game.SetupCell(k.me, t.Start)
		if !ok {
			continue
		}
		p := prior[row][col][game.Flag] + 0.001
		total += p
		if int8(id) == flag {
			mine = p
		}
	}
	if total == 0 {
		return 1
	}
	return mine / total
}

// out reports whether the search must stop: budget spent or time up.
func (s *searcher) out() bool {
	if s.stopped {
		return true
	}
	s.nodes++
	if s.cfg.nodeBudget > 0 && s.nodes > s.cfg.nodeBudget {
		s.stopped = true
	} else if s.nodes&255 == 0 && !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stopped = true
	}
	return s.stopped
}

// score is the evaluation from the side to move.
func (s *searcher) score(w *world) int32 {
	v := s.e.eval(w)
	if w.toMove != s.me {
		return -v
	}
	return v
}

// moves generates the moves of the side to move into the buffer of its
// depth, best first: good battles, then the rest.
func (s *searcher) moves(w *world, capturesOnly bool) []move {
	b := s.buffers[w.ply&63][:0]
	b = w.genMoves(b, &s.known, w.toMove != s.me, capturesOnly)
	// Order: winning battles by the loser's value, then quiet moves, then losing battles.
	n := 0
	for i, m := range b {
		if d := w.board[m.to]; d >= 0 && fightTable[w.rank[w.board[m.from]]][w.rank[d]] != defenderWins {
			b[i], b[n] = b[n], b[i]
			n++
		}
	}
	good := b[:n]
	slices.SortFunc(good, func(x, y move) int {
		return int(s.gain(w, y) - s.gain(w, x))
	})
	if !capturesOnly {
		// Then the quiet moves that cut off before, then the losing
		// battles: a stable insertion sort on keys worked out once (most
		// keys are equal, so it moves little).
		rest := b[n:]
		h := &s.history[w.toMove]
		killer := s.killers[w.ply&63]
		if cap(s.keys) < len(rest) {
			s.keys = make([]int32, len(rest), 2*len(rest))
		}
		keys := s.keys[:len(rest)]
		for i, m := range rest {
			switch {
			case w.board[m.to] >= 0:
				keys[i] = -1 << 30
			case m == killer:
				keys[i] = 1 << 30
			default:
				keys[i] = h[m.from][m.to]
			}
		}
		for i := 1; i < len(rest); i++ {
			k, m := keys[i], rest[i]
			j := i
			for ; j > 0 && keys[j-1] < k; j-- {
				keys[j], rest[j] = keys[j-1], rest[j-1]
			}
			keys[j], rest[j] = k, m
		}
	}
	s.buffers[w.ply&63] = b
	return b
}

// gain is the material a battle wins for the attacker (ordering only).
func (s *searcher) gain(w *world, m move) int32 {
	a, d := w.board[m.from], w.board[m.to]
	side := sideOf(a)
	switch fightTable[w.rank[a]][w.rank[d]] {
	case attackerWins:
		if w.rank[d] == game.Flag {
			return winning
		}
		return s.e.val[side.Opponent()][w.rank[d]]
	case bothDie:
		return s.e.val[side.Opponent()][w.rank[d]] - s.e.val[side][w.rank[a]]
	}
	return -s.e.val[side][w.rank[a]]
}

// negamax searches depth plies and then the battles, from the side to move.
func (s *searcher) negamax(w *world, depth int, alpha, beta int32) int32 {
	if w.result != 0 {
		return s.score(w)
	}
	if depth <= 0 {
		return s.quiesce(w, s.cfg.qDepth, alpha, beta)
	}
	if s.out() {
		return s.score(w)
	}
	ms := s.moves(w, false)
	if len(ms) == 0 {
		if !w.hasMove() {
			// Walled in: the side to move loses.
			return -winning + int32(w.ply)
		}
		return s.score(w) // only attacks it may not choose blindly
	}
	if f := s.flagTaker(w, ms); f >= 0 {
		return s.offeredFlag(w, ms, f, alpha, beta, func(rest []move, alpha, beta int32) int32 {
			return s.negamaxMoves(w, rest, depth, alpha, beta)
		})
	}
	return s.negamaxMoves(w, ms, depth, alpha, beta)
}

// negamaxMoves is negamax over the moves ms of the side to move.
func (s *searcher) negamaxMoves(w *world, ms []move, depth int, alpha, beta int32) int32 {
	best := int32(-infinity)
	for i := 0; i < len(ms); i++ {
		m := ms[i]
		u := w.make(m)
		v := -s.negamax(w, depth-1, -beta, -alpha)
		w.unmake(u)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					if w.board[m.to] == empty {
						s.killers[w.ply&63] = m
						s.history[w.toMove][m.from][m.to] += int32(depth * depth)
					}
					break
				}
			}
		}
		if s.stopped {
			break
		}
	}
	return best
}

// quiesce follows the battles that are good for the side to move, which may
// also stand pat.
func (s *searcher) quiesce(w *world, depth int, alpha, beta int32) int32 {
	stand := s.score(w)
	if s.cfg.forks && w.result == 0 {
		stand -= s.hanging(w)
	}
	if w.result != 0 || depth <= 0 || stand >= beta {
		return stand
	}
	if s.out() {
		return stand
	}
	if stand > alpha {
		alpha = stand
	}
	ms := s.moves(w, true)
	if f := s.flagTaker(w, ms); f >= 0 {
		return s.offeredFlag(w, ms, f, alpha, beta, func(rest []move, alpha, beta int32) int32 {
			return s.quiesceMoves(w, rest, depth, stand, alpha, beta)
		})
	}
	return s.quiesceMoves(w, ms, depth, stand, alpha, beta)
}

// hanging is what the side to move in w loses if it stands pat after the
// enemy's last move put one piece next to several of its pieces that it
// beats: a fork. The side saves the greatest loss with its move, so it is the
// second greatest. A loss is the piece's worth (with its secret), less the
// attacker's when another piece of the side beside it would take the
// attacker back, or the difference when both would die. The player's own
// pieces count against every enemy piece, which in the search sees through
// them; the enemy's only when the player knows them, since the player
// attacks nothing else. Flags are left to offeredFlag.
func (s *searcher) hanging(w *world) int32 {
	if w.last == noSq {
		return 0
	}
	a := w.board[w.last]
	side := w.toMove
	if a < 0 || sideOf(a) == side || !w.rank[a].Movable() {
		return 0
	}
	opp := side.Opponent()
	var first, second int32
	for _, at := range neighbours[w.last] {
		if at == noSq {
			continue
		}
		id := w.board[at]
		if id < 0 || sideOf(id) != side || w.rank[id] == game.Flag {
			continue
		}
		if side != s.me && !s.known[id] && !w.revealed[id] {
			continue
		}
		worth := s.e.pieceWorth(w, id)
		var loss int32
		switch fightTable[w.rank[a]][w.rank[id]] {
		case attackerWins:
			loss = worth
			if s.takesBack(w, at, id, a) {
				loss -= s.e.val[opp][w.rank[a]]
			}
		case bothDie:
			loss = worth - s.e.val[opp][w.rank[a]]
		}
		if loss > first {
			first, second = loss, first
		} else if loss > second {
			second = loss
		}
	}
	return second
}

// takesBack reports whether a piece of victim's side other than victim,
// next to its square at, beats attacker a once a has taken victim there.
func (s *searcher) takesBack(w *world, at uint8, victim, a int8) bool {
	for _, n := range neighbours[at] {
		if n == noSq {
			continue
		}
		if d := w.board[n]; d >= 0 && d != victim && sideOf(d) == sideOf(victim) &&
			w.rank[d].Movable() && fightTable[w.rank[d]][w.rank[a]] == attackerWins {
			return true
		}
	}
	return false
}

// quiesceMoves is quiesce over the battles ms of the side to move, which
// may also stand pat at stand.
func (s *searcher) quiesceMoves(w *world, ms []move, depth int, stand, alpha, beta int32) int32 {
	if stand > alpha {
		alpha = stand
	}
	if stand >= beta {
		return stand
	}
	best := stand
	for i := 0; i < len(ms); i++ {
		m := ms[i]
		d := w.board[m.to]
		if fightTable[w.rank[w.board[m.from]]][w.rank[d]] == defenderWins {
			break // the losing battles come last
		}
		u := w.make(m)
		v := -s.quiesce(w, depth-1, -beta, -alpha)
		w.unmake(u)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
		if s.stopped {
			break
		}
	}
	return best
}

// flagTaker returns the index in the enemy's moves ms of the one that takes
// the player's Flag, or -1: none, or the side to move is the player's.
func (s *searcher) flagTaker(w *world, ms []move) int {
	if s.myFlag < 0 || w.toMove == s.me {
		return -1
	}
	at := w.sq[s.myFlag]
	if at == noSq {
		return -1
	}
	for i, m := range ms {
		if m.to == at {
			return i
		}
	}
	return -1
}

// offeredFlag is the value, for the enemy to move, of a node where one of
// its moves, ms[f], takes the player's Flag. The enemy does not know the
// piece is the Flag: it takes it with the Flag's odds q (a quarter of them
// for a taker worth more than a Miner), and otherwise plays its best other
// move, whose value others gives within a window. So the node is worth
// q·(the Flag) + (1−q)·(the rest), not a sure loss.
func (s *searcher) offeredFlag(w *world, ms []move, f int, alpha, beta int32, others func(rest []move, alpha, beta int32) int32) int32 {
	u := w.make(ms[f])
	flag := -s.score(w) // the game is over: the enemy has won
	w.unmake(u)
	if s.flagOdds < 0 {
		s.flagOdds = s.k.flagOdds(s.myFlag)
	}
	q := s.flagOdds
	if q >= 1 {
		return flag // nothing else is left: the enemy knows
	}
	if a := w.rank[w.board[ms[f].from]]; s.e.val[w.toMove][a] > s.e.val[w.toMove][game.Miner] {
		// A piece worth more than a Miner tries a piece that never
		// moved a quarter as often: it may be a Bomb (see flagCap).
		q /= 4
	}
	ms[f] = ms[len(ms)-1]
	// The rest's window that gives the node's window.
	lo := float64(alpha) - q*float64(flag)
	hi := float64(beta) - q*float64(flag)
	a := int32(max(-infinity, math.Floor(lo/(1-q))))
	b := int32(min(infinity, math.Ceil(hi/(1-q))))
	rest := others(ms[:len(ms)-1], a, b)
	if rest <= -infinity {
		return flag // no other move: it must take the Flag
	}
	return int32(q*float64(flag) + (1-q)*float64(rest))
}

// rootValue is the value for the player of playing m in w, searched depth
// plies further. A battle with (or an infiltration of) a piece whose rank the
// player does not know is a chance node: the value is the average over the
// ranks the piece may have, weighted by the beliefs, rather than the outcome
// in this one guess, which would make a rare Flag look like a sure win.
func (s *searcher) rootValue(w *world, m move, depth int) float64 {
	return s.chanceValue(w, m, depth, true)
}

// staticValue is rootValue with no search once the search is stopped: the
// evaluation right after m (over the ranks of the piece its battle fights),
// as the leaves stand it, at the cost of a few evaluations whatever the
// budget and the clock say.
func (s *searcher) staticValue(w *world, m move) float64 {
	stopped := s.stopped
	s.stopped = true // every leaf stands pat at once
	v := s.chanceValue(w, m, 0, false)
	s.stopped = stopped
	return v
}

// chanceValue is rootValue, which gives up on the ranks left once the
// search is stopped if stoppable.
func (s *searcher) chanceValue(w *world, m move, depth int, stoppable bool) float64 {
	d := w.board[m.to]
	if d < 0 || s.known[d] {
		u := w.make(m)
		v := -s.negamax(w, depth, -infinity, infinity)
		w.unmake(u)
		return float64(v)
	}
	dist := s.k.distribution(d)
	flagCap := s.flagCap(w, m)
	var total, weight float64
	for r, p := range dist {
		if p < 0.002 {
			continue
		}
		undo := s.setRank(w, d, game.Rank(r))
		u := w.make(m)
		v := -s.negamax(w, depth, -infinity, infinity)
		w.unmake(u)
		undo()
		if game.Rank(r) == game.Flag && flagCap > 0 {
			v = min(v, flagCap)
		}
		total += p * float64(v)
		weight += p
		if s.stopped && stoppable {
			break
		}
	}
	if weight == 0 {
		return 0
	}
	return total / weight
}

// flagCap is what taking a hidden piece with root move m is worth, at
// most, when the piece is the Flag (0: no bound). A possible Flag is a chance
// at the game, not the game: at its full worth even a rare one outweighs a
// Marshal. And a piece that never moved may be a Bomb as well as the Flag, so
// while the player has a Miner, which wins both, a piece worth more than a
// Miner gets a quarter of the chance: trying the Flag with it is throwing it
// at the Bombs around.
func (s *searcher) flagCap(w *world, m move) int32 {
	c := s.cfg.flagCap
	if c == 0 {
		return 0
	}
	a, d := w.board[m.from], w.board[m.to]
	if s.cheapFlag && !s.k.tracks[d].Moved && w.rank[a] != game.Miner &&
		s.e.val[s.me][w.rank[a]] > s.e.val[s.me][game.Miner] {
		c /= 4
	}
	return c
}

// setRank gives the hidden enemy piece id rank r in w, trading ranks with
// another hidden piece that has r when one can take id's rank, so that the
// counts stay right. It returns the function that puts things back.
func (s *searcher) setRank(w *world, id int8, r game.Rank) func() {
	old := w.rank[id]
	if old == r {
		return func() {}
	}
	score, movable := w.score, w.movable
	e := w.ev
	for _, u := range s.k.unknown {
		if u == id || w.sq[u] == noSq || w.rank[u] != r || (w.moved[u] && !old.Movable()) {
			continue
		}
		if e != nil {
			w.score -= e.contribution(w, id) + e.contribution(w, u)
		}
		w.rank[id], w.rank[u] = r, old
		if e != nil {
			w.score += e.contribution(w, id) + e.contribution(w, u)
		}
		return func() { w.rank[id], w.rank[u], w.score = old, r, score }
	}
	if e != nil {
		w.score -= e.contribution(w, id)
	}
	w.rank[id] = r
	if e != nil {
		w.score += e.contribution(w, id)
	}
	side := sideOf(id)
	if old.Movable() {
		w.movable[side]--
	}
	if r.Movable() {
		w.movable[side]++
	}
	return func() { w.rank[id], w.movable, w.score = old, movable, score }
}

// guessWorld draws a guess of the hidden pieces from the beliefs and
// returns its world, scored and ready to search.
func (s *searcher) guessWorld(rng *rand.Rand) *world {
	var guess [numIDs]game.Rank
	s.k.sample(rng, &guess)
	w := s.k.world(&guess, s.me)
	w.ev = s.e
	w.score = s.e.evalFull(w)
	return w
}

// choose picks the move to play among the legal root moves.
func (s *searcher) choose(legal []game.Move, rng *rand.Rand) game.Move {
	root := make([]move, len(legal))
	for i, m := range legal {
		root[i] = fromGame(m)
	}
	worlds := make([]*world, s.cfg.samples)
	for i := range worlds {
		worlds[i] = s.guessWorld(rng)
		if i == 0 {
			// Keep the scores of positions near material, so that no pull
			// outweighs a won game.
			s.e.base = worlds[i].score - s.e.material(worlds[i])
		}
	}
	score := s.scoreRoot(worlds, root, rng)
	best := bestOf(score)
	if score[best] <= -winning/2 && !s.stopped {
		// Every move loses against an enemy that knows where the Flag
		// is. The enemy does not: play on as if it never took the Flag,
		// rather than throw pieces away.
		odds := s.flagOdds
		s.flagOdds, s.nodes = 0, 0
		if blind := s.scoreRoot(worlds, root, rng); !s.stopped {
			best = bestOf(blind)
		}
		s.flagOdds = odds
	}
	return legal[best]
}

// scoreRoot returns each root move's value averaged over the worlds, with
// its adjustment. A search stopped in a world counts the worlds before it
// only; stopped in the first, it ranks every root move by its static value
// in that world (see staticValue), rather than the moves it searched by
// their search and the others by nothing.
func (s *searcher) scoreRoot(worlds []*world, root []move, rng *rand.Rand) []float64 {
	// Every root move, in every sample.
	sum := make([]float64, len(root))
	done := 0
	for _, w := range worlds {
		var vals []float64
		for _, m := range root {
			vals = append(vals, s.rootValue(w, m, s.depth))
			if s.stopped {
				break
			}
		}
		if s.stopped && done > 0 {
			break
		}
		if s.stopped {
			vals = vals[:0]
			for _, m := range root {
				vals = append(vals, s.staticValue(w, m))
			}
		}
		for i, v := range vals {
			sum[i] += v
		}
		done++
		if s.stopped {
			break
		}
	}
	score := make([]float64, len(root))
	for i := range root {
		v := sum[i] / float64(max(done, 1))
		noise := rng
		if math.Abs(v) >= winning/2 {
			// A won (or lost) game is no place for noise: the shortest
			// win must come first, a few points ahead of a longer one.
			noise = nil
		}
		score[i] = v + s.adjust(root[i], noise)
	}
	return score
}

// bestOf returns the index of the highest score, the first of equals.
func bestOf(score []float64) int {
	best := 0
	for i := range score {
		if score[i] > score[best] {
			best = i
		}
	}
	return best
}

// adjust is what a root move gets beyond its searched value: a penalty for
// going back to recent positions, so that the player never stalls, the
// guards of its Marshal and strong pieces, what people think of the move,
// and the level's noise (when rng is not nil).
func (s *searcher) adjust(m move, rng *rand.Rand) float64 {
	var x float64
	k := s.k
	a := k.board[m.from]
	if m.guess == game.NoRank && k.board[m.to] == empty && a >= 0 {
		h := k.hashes[len(k.hashes)-1] ^ zobristKeys[a][m.from] ^ zobristKeys[a][m.to]
		x -= float64(s.cfg.repetition) * float64(k.seen(h, 40))
		if a == k.lastMoved && m.to == k.lastMovedFrom {
			x -= float64(s.cfg.repetition) / 4
		}
	}
	x -= s.spyRisk(m)
	if s.cfg.people > 0 && k.rules.Variant == game.VariantClassic {
		// People's habits, learnt from Classic games only.
		x += s.cfg.people * k.peopleLogOdds(m)
	}
	x -= s.takeBackRisk(m)
	if rng != nil && s.cfg.noise > 0 {
		x += rng.Float64() * float64(s.cfg.noise)
	}
	return x
}

// spyRisk is the root's guard of its Marshal against the Spy: what the
// Marshal stands to lose where move m leaves it, known to the enemy, next to
// hidden pieces that may be the Spy. The search alone sees the Spy only in the
// guesses that put it there, and those are few, while people (and engines)
// keep the Spy beside the General they offer as bait: most Marshals lost to
// Demon of Ignorance fell to a Spy just after taking a piece next to it.
func (s *searcher) spyRisk(m move) float64 {
	k := s.k
	if s.cfg.spyGuard == 0 || k.pool[game.Spy] == 0 {
		return 0
	}
	marshal := int8(-1)
	lo := int(k.me) * game.MaxPieces
	for id := lo; id < lo+game.MaxPieces; id++ {
		if k.present[id] && k.tracks[id].Square != game.NoSquare && k.tracks[id].Rank == game.Marshal {
			marshal = int8(id)
		}
	}
	if marshal < 0 {
		return 0
	}
	sq, known := uint8(k.tracks[marshal].Square), k.tracks[marshal].Revealed
	floor := s.cfg.spyGuard
	if k.board[m.from] == marshal && m.guess == game.NoRank {
		sq = m.to
		if d := k.board[m.to]; d >= 0 {
			known = true
			if k.rank[d] == game.General {
				floor = min(2*floor, 1) // the bait of the textbook
			}
		}
	}
	if !known {
		return 0
	}
	// Only the Spy takes a Marshal that it attacks.
	return k.takenChance(sq, game.Marshal, m.to, floor) * float64(s.e.val[k.me][game.Marshal])
}

// takenChance is the chance that a hidden enemy piece next to sq, other than
// the one on skip, beats our rank r when it attacks: each neighbour by its
// beliefs, at least floor for one that may beat r at all.
func (k *knowledge) takenChance(sq uint8, r game.Rank, skip uint8, floor float64) float64 {
	safe := 1.0
	for _, n := range neighbours[sq] {
		if n == noSq || n == skip {
			continue
		}
		c := k.board[n]
		if c < 0 || sideOf(c) != k.opp || k.rank[c] != game.NoRank {
			continue
		}
		beats := 0.0
		for cr, p := range k.distribution(c) {
			// A Bomb or the Flag never attacks.
			if game.Rank(cr).Movable() && fightTable[cr][r] == attackerWins {
				beats += p
			}
		}
		if beats > 0 {
			safe *= 1 - max(beats, floor)
		}
	}
	return 1 - safe
}

// takeBackRisk is the root's guard of its big pieces (Major to General) that
// the enemy knows, or will know after move m's battle: what they stand to lose
// where m leaves them, next to hidden pieces that may beat them. The search
// sees such a take-back only in the guesses that put a stronger piece there,
// and it picks the moves whose few guesses happened to put none: hard's
// Colonels and Generals won their battles with hidden pieces and were taken
// back in one case of seven, Demon of Ignorance's almost never.
func (s *searcher) takeBackRisk(m move) float64 {
	k := s.k
	if s.cfg.takeBack == 0 || m.guess != game.NoRank {
		return 0
	}
	var risk float64
	lo := int(k.me) * game.MaxPieces
	for id := int8(lo); int(id) < lo+game.MaxPieces; id++ {
		t := &k.tracks[id]
		if !k.present[id] || t.Square == game.NoSquare {
			continue
		}
		r := k.rank[id]
		if r < game.Major || r > game.General {
			continue
		}
		sq, known, stands := uint8(t.Square), t.Revealed, 1.0
		if id == k.board[m.from] {
			sq = m.to
			if d := k.board[m.to]; d >= 0 {
				known = true
				stands = 0
				for dr, p := range k.distribution(d) {
					if fightTable[r][dr] == attackerWins {
						stands += p
					}
				}
			}
		}
		if !known || stands == 0 {
			continue
		}
		// The piece on m.to is the one the move fights, or ours after it.
		risk += stands * k.takenChance(sq, r, m.to, 0) * float64(s.e.val[k.me][r])
	}
	return s.cfg.takeBack * risk
}
