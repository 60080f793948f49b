package ai

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/strategobot/strategobot/game"
)

// knowledge is everything the player draws from its view: every piece's
// story, what the opponent's hidden pieces may be, and the positions seen.
type knowledge struct {
	me, opp game.Side
	rules   game.Rules
	tracks  [numIDs]game.PieceTrack
	present [numIDs]bool // the id is a piece of this game
	// rank is each piece's rank when the player knows it: its own pieces,
	// revealed ones, known Scouts and ranks that only one candidate is left for.
	rank [numIDs]game.Rank
	// unknown lists the opponent's pieces on the board of unknown rank, and
	// belief[i] the probability of each rank for unknown[i].
	unknown []int8
	belief  [][game.NumRanks]float64
	// pool counts the ranks the unknown pieces have among them.
	pool game.Army
	// hashes holds the position after each ply, the start first.
	hashes []uint64
	// board maps the squares to piece ids now.
	board [game.NumSquares]int8
	// lastMoved is the piece the player moved last and where it came from.
	lastMoved     int8
	lastMovedFrom uint8
	beh           [numIDs]behaviour
	stats         [numIDs]behaviourStats
	// startAt maps the squares to the pieces that began on them.
	startAt [game.NumSquares]int8
	// oppMoves counts the opponent's moves in the history.
	oppMoves int
	// readFeatures: the replay gathers what the fitted behaviour model reads
	// (the levels that do not read it skip that work).
	readFeatures bool
}

// behaviour is what an opponent's piece did that hints at its rank. Ranks are
// compared by strength: the threat values hold the strongest rank seen.
type behaviour struct {
	approached game.Rank // it stepped next to a piece of ours it knew
	// bold counts its steps next to pieces of ours it did not know: players
	// go at unknown pieces with strong pieces.
	bold  int
	fled  game.Rank // it ran from a known piece of ours that threatened it
	stood game.Rank // it stayed next to a known piece of ours that threatened it
}

// zobristKeys give every piece on every square a key for position hashes.
var zobristKeys = game.ZobristTable(0x243F6A8885A308D3)

// newKnowledge reads the view of the side to move, with beliefs about the
// hidden pieces that draw on what inf says, reading behaviour as hard does.
func newKnowledge(v *game.View, inf inference) (*knowledge, error) {
	return newKnowledgeWith(v, inf, configs[Hard].behaviour)
}

// newKnowledgeWith is newKnowledge with behaviour read by model.
func newKnowledgeWith(v *game.View, inf inference, model behaviourModel) (*knowledge, error) {
	me, ok := v.Viewer.IsPlayer()
	if !ok {
		return nil, fmt.Errorf("the public view has no side to play: %w", game.ErrNotYourTurn)
	}
	tracks, err := v.Tracks()
	if err != nil {
		return nil, err
	}
	k := &knowledge{me: me, opp: me.Opponent(), rules: v.Rules, lastMoved: -1, readFeatures: model == fittedBehaviour}
	var next [2]int
	for _, t := range tracks {
		id := int(t.Side)*game.MaxPieces + next[t.Side]
		next[t.Side]++
		if next[t.Side] > game.MaxPieces {
			return nil, fmt.Errorf("more than %d pieces on a side: %w", game.MaxPieces, game.ErrInconsistentView)
		}
		k.tracks[id], k.present[id] = t, true
		k.rank[id] = t.Rank
		if t.Rank == game.NoRank && t.KnownScout {
			k.rank[id] = game.Scout
		}
	}
	k.replay(v)
	k.pool = v.Rules.Army
	for id := game.MaxPieces * int(k.opp); id < game.MaxPieces*int(k.opp+1); id++ {
		if !k.present[id] {
			continue
		}
		if r := k.rank[id]; r != game.NoRank {
			if k.pool[r] == 0 {
				return nil, fmt.Errorf("more %s than the army holds: %w", r.Plural(), game.ErrInconsistentView)
			}
			k.pool[r]--
		} else {
			k.unknown = append(k.unknown, int8(id))
		}
	}
	k.believe(inf, model)
	return k, nil
}

// replay walks through the history from the start squares, hashing every
// position and noting how the opponent's pieces behaved.
func (k *knowledge) replay(v *game.View) {
	for s := range k.board {
		k.board[s] = empty
		if game.Square(s).IsLake() {
			k.board[s] = lake
		}
	}
	var h uint64
	for id := range k.tracks {
		if k.present[id] {
			k.board[k.tracks[id].Start] = int8(id)
			h ^= zobristKeys[id][k.tracks[id].Start]
		}
	}
	k.hashes = append(k.hashes, h)
	var revealed [numIDs]bool // revealed so far
	var sqOf [numIDs]uint8    // where each piece stands
	for s := range k.startAt {
		k.startAt[s] = empty
	}
	for id := range sqOf {
		sqOf[id] = noSq
		if k.present[id] {
			sqOf[id] = uint8(k.tracks[id].Start)
			k.startAt[k.tracks[id].Start] = int8(id)
		}
		k.stats[id].firstMove = -1
	}
	remove := func(id int8, sq uint8) {
		h ^= zobristKeys[id][sq]
		k.board[sq] = empty
		sqOf[id] = noSq
	}
	prevOpp := int8(-1) // the piece the opponent moved last, when it still stands
	for i, rec := range v.History {
		from, to := uint8(rec.Move.From), uint8(rec.Move.To)
		a, d := k.board[from], k.board[to]
		if a < 0 {
			continue // Tracks has checked the history; this cannot happen.
		}
		if rec.Side == k.opp {
			k.oppMoves++
			if k.readFeatures {
				k.noteSpared(&sqOf, &revealed, from, to)
				k.noteIdle(&sqOf)
			}
			if rec.Outcome == game.NoBattle {
				k.noteOpponentMove(v, i, a, from, to, &revealed)
				k.noteOpponentStep(&sqOf, i, a, prevOpp, from, to)
			}
			prevOpp = a
		}
		if rec.Side == k.me && !rec.Move.IsInfiltration() {
			k.lastMoved, k.lastMovedFrom = a, from
		}
		switch rec.Outcome {
		case game.NoBattle:
			k.board[from], k.board[to] = empty, a
			sqOf[a] = to
			h ^= zobristKeys[a][from] ^ zobristKeys[a][to]
		case game.AttackerWon:
			revealed[a], revealed[d] = true, true
			remove(d, to)
			k.board[from], k.board[to] = empty, a
			sqOf[a] = to
			h ^= zobristKeys[a][from] ^ zobristKeys[a][to]
		case game.DefenderWon:
			revealed[a], revealed[d] = true, true
			remove(a, from)
		case game.BothRemoved:
			revealed[a], revealed[d] = true, true
			remove(a, from)
			remove(d, to)
		case game.GuessedRight:
			revealed[a], revealed[d] = true, true
			remove(d, to)
		case game.GuessedWrong:
			revealed[a] = true
		}
		if rec.Side == k.me && k.board[to] != a && rec.Outcome != game.GuessedRight && rec.Outcome != game.GuessedWrong {
			k.lastMoved = -1
		}
		k.hashes = append(k.hashes, h)
	}
}

// noteOpponentMove records what the opponent's move of piece a from→to hints.
func (k *knowledge) noteOpponentMove(v *game.View, i int, a int8, from, to uint8, revealed *[numIDs]bool) {
	b := &k.beh[a]
	// Did it step next to one of our pieces whose rank it knew?
	st := &k.stats[a]
	for _, n := range neighbours[to] {
		if n == noSq || n == from {
			continue
		}
		if p := k.board[n]; p >= 0 && sideOf(p) == k.me {
			if revealed[p] {
				b.approached = stronger(b.approached, k.rank[p])
				if c := strengthClass(k.rank[p]); c >= 0 {
					st.approached |= 1 << c
				}
			} else {
				b.bold++
				st.bold++
			}
		}
	}
	// Our previous move brought a piece next to its pieces: which stayed put
	// beside a hidden one, and did they run from a known one?
	if i == 0 {
		return
	}
	prev := v.History[i-1]
	if prev.Side != k.me || prev.Outcome != game.NoBattle {
		return
	}
	p := k.board[prev.Move.To]
	if p < 0 {
		return
	}
	c := strengthClass(k.rank[p])
	for _, n := range neighbours[prev.Move.To] {
		if n == noSq {
			continue
		}
		x := k.board[n]
		if x < 0 || sideOf(x) != k.opp {
			continue
		}
		switch {
		case !revealed[p]:
			if x != a {
				k.stats[x].stoodHidden++
			}
		case x == a:
			if !game.Adjacent(game.Square(to), game.Square(prev.Move.To)) {
				k.beh[x].fled = stronger(k.beh[x].fled, k.rank[p])
				if c >= 0 && c < 3 {
					k.stats[x].fled |= 1 << c
				}
			}
		default:
			k.beh[x].stood = stronger(k.beh[x].stood, k.rank[p])
			if c >= 0 && c < 3 {
				k.stats[x].stood |= 1 << c
			}
		}
	}
}

// stronger returns the stronger of two known ranks (NoRank for none).
func stronger(a, b game.Rank) game.Rank {
	if a == game.NoRank || (b != game.NoRank && strength(b) > strength(a)) {
		return b
	}
	return a
}

// strength is the battle strength of a rank, with the Infiltrator at 1.
func strength(r game.Rank) int {
	if r == game.Infiltrator {
		return 1
	}
	return int(r)
}

// believe fills belief: for each unknown piece a distribution over the ranks
// left, consistent with what the piece showed (moved: not Bomb or Flag; no
// rank an Infiltrator guessed wrongly), weighted by the set-up prior (and
// the published set-ups it recognises) and its behaviour as inf says, and
// scaled (Sinkhorn) so that the expected count of every rank matches the
// pool.
func (k *knowledge) believe(inf inference, model behaviourModel) {
	n := len(k.unknown)
	k.belief = make([][game.NumRanks]float64, n)
	var prior *setupPrior
	recognised := 0.0 // the share of the prior that recognised set-ups make
	floorKept := 1.0  // the share of the floor the per-square prior keeps
	if inf >= setupsAndBehaviour {
		prior = priorFor(k.rules)
		own := prior
		if idx := layoutsFor(k.rules); inf >= layouts && idx != nil {
			own = k.layoutPrior(prior, idx)
		}
		if idx := indexFor(k.rules); inf >= recognition && idx != nil {
			prior, recognised = k.recognisedPrior(prior, own, idx)
			if !idx.keepFloor {
				floorKept = 1 - recognised
			}
		} else {
			prior = own
		}
	}
	// The per-square prior gets a floor, as no set-up is impossible, but a
	// floor in proportion to the rank's share of the hidden pieces: a flat
	// one made every unmoved piece a 1-in-20 Flag and sent Marshals against
	// Bombs. A recognised set-up needs none: its slips are in the mixture,
	// but in Barrage, where a wrongly recognised set-up is likelier (see
	// barrageIndex), the floor stays whole.
	var floor [game.NumRanks]float64
	if n > 0 {
		for r, c := range k.pool {
			floor[r] = floorKept * priorFloor * float64(c) / float64(n)
		}
	}
	ply := len(k.hashes) - 1
	// The fitted model's exponent sharpens the per-square prior, not the
	// published set-ups recognised.
	exponent := 1 + (behaviourPriorExponent-1)*(1-recognised)
	for i, id := range k.unknown {
		t := &k.tracks[id]
		w := &k.belief[i]
		row, col, _ := game.SetupCell(k.opp, t.Start)
		var fitted [game.NumRanks]float64
		if prior != nil && model == fittedBehaviour {
			x := k.features(id, ply, k.oppMoves)
			fitted = fittedLikelihood(&x)
		}
		for _, r := range game.Ranks {
			if k.pool[r] == 0 || (t.Moved && !r.Movable()) {
				continue
			}
			x := 1.0
			if prior != nil {
				x = floor[r] + prior[row][col][r]
				switch model {
				case handBehaviour:
					x *= k.beh[id].likelihood(r)
				case fittedBehaviour:
					x = math.Pow(x, exponent) * fitted[r]
				}
			}
			w[r] = x
		}
		for _, r := range t.NotRanks {
			w[r] = 0
		}
	}
	// Sinkhorn: alternately make each piece's probabilities sum to 1 and
	// each rank's sum to its count.
	for iter := 0; iter < 40; iter++ {
		var col [game.NumRanks]float64
		for i := range k.belief {
			sum := 0.0
			for _, x := range k.belief[i] {
				sum += x
			}
			if sum == 0 {
				continue
			}
			for r := range k.belief[i] {
				k.belief[i][r] /= sum
				col[r] += k.belief[i][r]
			}
		}
		if iter == 39 {
			break
		}
		for r := range col {
			if col[r] > 0 {
				f := float64(k.pool[r]) / col[r]
				for i := range k.belief {
					k.belief[i][r] *= f
				}
			}
		}
	}
	// A piece with one possible rank is as good as known.
	for i, id := range k.unknown {
		only, count := game.NoRank, 0
		for r, x := range k.belief[i] {
			if x > 1e-9 {
				only, count = game.Rank(r), count+1
			}
		}
		if count == 1 {
			k.rank[id] = only
		}
	}
}

// priorFloor is the share of a rank's average odds that every square keeps
// in the set-up prior.
const priorFloor = 0.1

// likelihood weighs rank r by how a piece of that rank would have behaved so.
func (b *behaviour) likelihood(r game.Rank) float64 {
	x := 1.0
	if b.approached != game.NoRank {
		// Stepping next to a known piece: it beats that piece, or bluffs.
		switch fightTable[r][b.approached] {
		case attackerWins:
			x *= 3
		case bothDie:
			x *= 1.5
		}
	}
	if b.fled != game.NoRank && fightTable[b.fled][r] == attackerWins {
		x *= 3 // it ran from a piece that beats it
	}
	if b.stood != game.NoRank && fightTable[b.stood][r] != attackerWins {
		x *= 2.5 // it did not run: the threat was empty (or it was a Bomb)
	}
	for i := 0; i < min(b.bold, 3); i++ {
		x *= 1 + float64(strength(r))/10
	}
	return x
}

// sample fills the ranks of the unknown pieces with one guess drawn from the
// beliefs, respecting the counts: the nearly certain pieces first, each
// given its likeliest rank, then the moved pieces (they need movable ranks),
// then the others. The search takes a nearly certain piece's rank in the
// guess as known (see nearlyCertain), so the guess must give it that rank:
// drawn at random, once the pieces drawn before had taken the Bombs, a
// near-certain Bomb came out the Flag in 2 of 16 guesses, and hard threw its
// General at it for the sure win it saw there.
func (k *knowledge) sample(rng *rand.Rand, ranks *[numIDs]game.Rank) {
	left := k.pool
	order := make([]int, 0, len(k.unknown))
	var still []int
	for i, id := range k.unknown {
		if r, p := likeliest(&k.belief[i]); p >= certainBelief {
			if left[r] > 0 { // else drawn below, as counts allow
				left[r]--
				ranks[id] = r
				continue
			}
		}
		if k.tracks[id].Moved {
			order = append(order, i)
		} else {
			still = append(still, i)
		}
	}
	rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	rng.Shuffle(len(still), func(a, b int) { still[a], still[b] = still[b], still[a] })
	order = append(order, still...)
	for _, i := range order {
		id := k.unknown[i]
		moved := k.tracks[id].Moved
		total := 0.0
		for r, x := range k.belief[i] {
			if left[r] > 0 {
				total += x
			}
		}
		pick := game.NoRank
		if total > 0 {
			u := rng.Float64() * total
			for r, x := range k.belief[i] {
				if left[r] == 0 || x == 0 {
					continue
				}
				pick = game.Rank(r)
				if u -= x; u < 0 {
					break
				}
			}
		}
		if pick == game.NoRank {
			// The beliefs leave nothing that is still free: take any rank left
			// that fits a moved piece, or any at all.
			for _, r := range game.Ranks {
				if left[r] > 0 && (!moved || r.Movable()) {
					pick = r
					break
				}
			}
			if pick == game.NoRank {
				for _, r := range game.Ranks {
					if left[r] > 0 {
						pick = r
						break
					}
				}
			}
		}
		left[pick]--
		ranks[id] = pick
	}
}

// world builds the position with the given guesses for the unknown pieces.
func (k *knowledge) world(guess *[numIDs]game.Rank, toMove game.Side) *world {
	w := &world{toMove: toMove, scoutRange: k.rules.ScoutStrikesAtRange, last: noSq}
	for s := range w.board {
		w.board[s] = empty
		if game.Square(s).IsLake() {
			w.board[s] = lake
		}
	}
	for id := range w.sq {
		w.sq[id] = noSq
		t := &k.tracks[id]
		if !k.present[id] || t.Square == game.NoSquare {
			continue
		}
		r := k.rank[id]
		if r == game.NoRank {
			r = guess[id]
		}
		w.sq[id] = uint8(t.Square)
		w.board[t.Square] = int8(id)
		w.rank[id] = r
		w.revealed[id] = t.Revealed
		w.moved[id] = t.Moved
		if r.Movable() {
			w.movable[sideOf(int8(id))]++
		}
	}
	return w
}

// distribution returns the probabilities of each rank for piece id: one rank
// for a known piece, its belief otherwise.
func (k *knowledge) distribution(id int8) [game.NumRanks]float64 {
	var d [game.NumRanks]float64
	if r := k.rank[id]; r != game.NoRank {
		d[r] = 1
		return d
	}
	for i, u := range k.unknown {
		if u == id {
			return k.belief[i]
		}
	}
	return d
}

// nearlyCertain reports whether the beliefs give hidden piece id one rank
// with at least the chance of certainBelief: the search may then attack it
// inside the tree, as it does a known piece, and every guess gives it that
// rank (see sample and searcher.known).
func (k *knowledge) nearlyCertain(id int8) bool {
	if k.rank[id] != game.NoRank {
		return false
	}
	d := k.distribution(id)
	_, p := likeliest(&d)
	return p >= certainBelief
}

// likeliest returns the likeliest rank of distribution d and its chance.
func likeliest(d *[game.NumRanks]float64) (game.Rank, float64) {
	p := slices.Max(d[:])
	return game.Rank(slices.Index(d[:], p)), p
}

// certainBelief is the least chance of one rank that makes a hidden piece as
// good as known to the search.
const certainBelief = 0.95

// onBoard counts the pieces of both sides on the board.
func (k *knowledge) onBoard() int {
	n := 0
	for id := range k.tracks {
		if k.present[id] && k.tracks[id].Square != game.NoSquare {
			n++
		}
	}
	return n
}

// seen counts how often the position with hash h occurred in the last plies.
func (k *knowledge) seen(h uint64, plies int) int {
	n := 0
	for i := len(k.hashes) - 1; i >= 0 && i >= len(k.hashes)-plies; i-- {
		if k.hashes[i] == h {
			n++
		}
	}
	return n
}
