package ai

import "github.com/strategobot/strategobot/game"

// baseValue is what a piece is worth in the middle of a game, in points.
// Spies, Miners and Scouts are valued by what is left (pieceValues).
var baseValue = [game.NumRanks]int32{
	game.Spy: 10, game.Scout: 15, game.Miner: 40, game.Sergeant: 22, game.Lieutenant: 35,
	game.Captain: 60, game.Major: 90, game.Colonel: 140, game.General: 250, game.Marshal: 400,
	game.Infiltrator: 60, game.Bomb: 20, game.Flag: 0,
}

// worth is what the evaluation counts a piece of rank r at the start of a
// game, before it weighs Spies, Miners and Scouts by what is left.
func worth(r game.Rank) int {
	if int(r) >= len(baseValue) {
		return 0
	}
	return int(baseValue[r])
}

// BattleMaterial is the material a battle won its attacker's side, less what
// it cost (negative: a loss), pieces weighed as the evaluation weighs them
// at the start of a game: the yardstick of strategolab compare -battles.
// A move that was no battle is 0.
func BattleMaterial(r game.MoveRecord) int {
	switch r.Outcome {
	case game.AttackerWon:
		return worth(r.Defender)
	case game.DefenderWon:
		return -worth(r.Attacker)
	case game.BothRemoved:
		return worth(r.Defender) - worth(r.Attacker)
	}
	return 0
}

// hiddenValue is what it is worth to a side that the enemy does not know a
// piece's rank: a hidden Marshal is feared, a hidden Bomb guards.
var hiddenValue = [game.NumRanks]int32{
	game.Spy: 25, game.Scout: 2, game.Miner: 4, game.Sergeant: 3, game.Lieutenant: 4,
	game.Captain: 8, game.Major: 12, game.Colonel: 18, game.General: 35, game.Marshal: 50,
	game.Infiltrator: 10, game.Bomb: 8, game.Flag: 0,
}

// flagValue is, by default, what the pull of a possible Flag is worth.
const flagValue = 1500

// flagDanger is the penalty for an enemy piece 1 to 5 steps from our Flag.
var flagDanger = [6]int32{0, 150, 60, 25, 10, 4}

// openFlagSide is the penalty for each empty square next to our Flag.
const openFlagSide = 40

// evaluator scores worlds from the player's side: material by rank value,
// the worth of staying hidden, a pull of each piece towards enemy pieces it
// expects to beat, and the danger to its Flag.
type evaluator struct {
	me  game.Side
	val [2][game.NumRanks]int32
	hid [2][game.NumRanks]int32
	// field gives each piece a score by square: for own pieces the pull
	// towards targets, for enemy pieces the danger to our Flag (negative).
	// nil: none.
	field [numIDs]*[game.NumSquares]int16
	flag  uint8 // our Flag's square, noSq if unknown
	// flagPull is the worth of a possible Flag in the pull.
	flagPull float64
	// base is taken off the score kept by the world: the root's score less
	// its material, so that scores stay near material (see searcher.choose).
	base int32
}

// newEvaluator sets the piece values from what is left on the board and
// works out each own piece's pull from the beliefs. pullWeight 0 turns the
// pull off.
func newEvaluator(k *knowledge, v *game.View, cfg config) *evaluator {
	pullWeight := cfg.pull
	e := &evaluator{me: k.me, flag: noSq, flagPull: flagValue}
	if cfg.flagPull > 0 {
		e.flagPull = cfg.flagPull
	}
	for side := game.Red; side <= game.Blue; side++ {
		own, enemy := v.Remaining[side], v.Remaining[side.Opponent()]
		e.val[side] = baseValue
		e.hid[side] = hiddenValue
		if enemy[game.Marshal] > 0 {
			e.val[side][game.Spy] = 150
		} else {
			e.hid[side][game.Spy] = 0
		}
		switch miners := own[game.Miner]; {
		case enemy[game.Bomb] == 0:
			e.val[side][game.Miner] = 20
		case miners <= 1:
			e.val[side][game.Miner] = 110
		case miners == 2:
			e.val[side][game.Miner] = 75
		case miners == 3:
			e.val[side][game.Miner] = 55
		}
		if own[game.Scout] <= 2 {
			e.val[side][game.Scout] = 25
		}
	}
	if f := k.flag(); f >= 0 {
		e.flag = uint8(k.tracks[f].Square)
	}
	// Behind its own Bombs only a Miner (or an Infiltrator) gets to the Flag.
	walled := e.flag != noSq && k.walledIn(e.flag)
	if pullWeight > 0 {
		guard := 0.0
		if e.flag != noSq {
			guard = cfg.guard
		}
		e.setPull(k, pullWeight, guard, !walled)
	}
	if e.flag != noSq {
		var danger [game.NumSquares]int16
		for s := range danger {
			if d := distances[s][e.flag]; int(d) < len(flagDanger) {
				danger[s] = -int16(flagDanger[d])
			}
		}
		// Behind its own Bombs the Flag fears only the pieces that can get
		// through them: a known enemy piece of another rank near it is a
		// lesser danger.
		lesser := danger
		sealed := cfg.sealedFlag > 0 && walled
		if sealed {
			for s := range lesser {
				lesser[s] = int16(float64(lesser[s]) * cfg.sealedFlag)
			}
		}
		for id := int(k.opp) * game.MaxPieces; id < int(k.opp+1)*game.MaxPieces; id++ {
			if k.present[id] && k.tracks[id].Square != game.NoSquare {
				switch r := k.rank[id]; {
				case r == game.NoRank:
					e.field[id] = &danger
				case !r.Movable():
					// Pieces known not to move never come closer.
				case sealed && r != game.Miner && r != game.Infiltrator:
					e.field[id] = &lesser
				default:
					e.field[id] = &danger
				}
			}
		}
	}
	return e
}

// walledIn reports whether every square next to the player's Flag on sq that
// a piece could stand on holds one of the player's Bombs: only a Miner (or an
// Infiltrator) gets to such a Flag.
func (k *knowledge) walledIn(sq uint8) bool {
	for _, n := range neighbours[sq] {
		if n == noSq || k.board[n] == lake {
			continue
		}
		if c := k.board[n]; c < 0 || sideOf(c) != k.me || k.rank[c] != game.Bomb {
			return false
		}
	}
	return true
}

// maxPull bounds a piece's pull, well below a won game's score.
const maxPull = 800

// pullRange is how far (in weighted steps, see routeLengths) an enemy piece still pulls.
const pullRange = 20

// Extra route costs of passing a square held by an own movable piece (it
// must make way) or by an enemy piece (it must be beaten first).
const (
	passOwn   = 3
	passEnemy = 5
)

// routeLengths returns, for every square, the length of the way from there
// to target for one of the player's pieces: steps, plus passOwn for every own
// movable piece and passEnemy for every other enemy piece on the way. Lakes
// and the player's Bombs and Flag cannot be passed. Unreachable squares get 0xFF.
func routeLengths(k *knowledge, target uint8) *[game.NumSquares]uint8 {
	var d [game.NumSquares]uint8
	for s := range d {
		d[s] = 0xFF
	}
	d[target] = 0
	// Dial's algorithm: buckets by length.
	var buckets [pullRange + passEnemy + 2][]uint8
	buckets[0] = append(buckets[0], target)
	for length := 0; length < pullRange; length++ {
		for i := 0; i < len(buckets[length]); i++ {
			x := buckets[length][i]
			if int(d[x]) != length {
				continue
			}
			extra := 0
			if x != target {
				switch c := k.board[x]; {
				case c == empty:
				case sideOf(c) == k.me:
					if !k.tracks[c].Rank.Movable() {
						continue
					}
					extra = passOwn
				default:
					extra = passEnemy
				}
			}
			for _, y := range neighbours[x] {
				if y == noSq || k.board[y] == lake {
					continue
				}
				if l := length + 1 + extra; l < int(d[y]) && l < len(buckets) {
					d[y] = uint8(l)
					buckets[l] = append(buckets[l], y)
				}
			}
		}
	}
	return &d
}

// setPull gives each own movable piece a field over the board: the best
// expected gain of attacking an enemy piece, times how close the square is to
// it. The search then prefers moves towards good targets, which is what makes
// the player get on with the game when no battle is in sight.
//
// guard, when above 0, is what taking an enemy piece near the player's Flag
// that can get to it adds (see config.guard): a Miner (or an Infiltrator)
// when the Flag is walled in by its Bombs, and any piece that moves when
// open, the Flag having a side no Bomb of ours guards.
func (e *evaluator) setPull(k *knowledge, weight, guard float64, open bool) {
	me, opp := k.me, k.opp
	var targets []pullTarget
	for id := int(opp) * game.MaxPieces; id < int(opp+1)*game.MaxPieces; id++ {
		t := &k.tracks[id]
		if !k.present[id] || t.Square == game.NoSquare {
			continue
		}
		tg := pullTarget{sq: uint8(t.Square), dist: k.distribution(int8(id)), route: routeLengths(k, uint8(t.Square))}
		if guard > 0 {
			// A piece near the Flag that can get to it threatens the
			// game: taking it is worth what it threatens.
			if d := int(distances[t.Square][e.flag]); d < len(guardShare) {
				tg.guard = guard * guardShare[d]
				tg.open = open
			}
		}
		if k.rank[id] == game.NoRank {
			// Finding out what it is is worth something too.
			for r, p := range tg.dist {
				tg.info += p * float64(e.hid[opp][r]+e.val[opp][r]/10)
			}
		}
		targets = append(targets, tg)
	}
	// A piece's field depends only on its rank and on whether the enemy
	// knows it, so pieces alike share one.
	type kind struct {
		rank     game.Rank
		revealed bool
	}
	fields := map[kind]*[game.NumSquares]int16{}
	lo := int(me) * game.MaxPieces
	for id := lo; id < lo+game.MaxPieces; id++ {
		t := &k.tracks[id]
		if !k.present[id] || t.Square == game.NoSquare || !t.Rank.Movable() {
			continue
		}
		kd := kind{t.Rank, t.Revealed}
		f, done := fields[kd]
		if !done {
			f = e.pullField(kd.rank, kd.revealed, targets, weight)
			fields[kd] = f
		}
		e.field[id] = f
	}
}

// pullTarget is an enemy piece as a target of the pull: its square, what it
// may be, what finding out is worth and the route lengths to it.
type pullTarget struct {
	sq    uint8
	dist  [game.NumRanks]float64
	info  float64
	route *[game.NumSquares]uint8
	// guard is what taking it is worth on top of its rank's value if it can
	// get to our Flag near it: a Miner or an Infiltrator, or while open any
	// piece that moves.
	guard float64
	// open: our Flag has a side no Bomb of ours guards.
	open bool
}

// guardShare is the share of a level's guard worth that taking a piece 1 to
// 5 steps from our Flag that can get to it adds: the walk lies beyond the
// search.
var guardShare = [6]float64{0, 1, 1, 1, 0.6, 0.3}

// pullField is the pull on a piece of rank a (known to the enemy or not)
// towards the targets it expects to gain from, by square; nil when it
// expects to gain from none.
func (e *evaluator) pullField(a game.Rank, revealed bool, targets []pullTarget, weight float64) *[game.NumSquares]int16 {
	me, opp := e.me, e.me.Opponent()
	cost := 0.0
	if !revealed {
		cost = float64(e.hid[me][a])
	}
	var field [game.NumSquares]int16
	any := false
	for _, tg := range targets {
		gain := tg.info - cost
		for r, p := range tg.dist {
			if p == 0 {
				continue
			}
			d := game.Rank(r)
			switch fightTable[a][d] {
			case attackerWins:
				g := float64(e.val[opp][d])
				switch {
				case d == game.Flag:
					g = e.flagPull
				case d == game.Miner, d == game.Infiltrator, tg.open && d.Movable():
					g += tg.guard
				}
				gain += p * g
			case defenderWins:
				gain -= p * float64(e.val[me][a])
			case bothDie:
				gain += p * float64(e.val[opp][d]-e.val[me][a])
			}
		}
		if gain <= 0 {
			continue
		}
		any = true
		for s := range field {
			dist := int(tg.route[s])
			if dist >= pullRange {
				continue
			}
			if x := int16(min(gain*weight*float64(pullRange-dist)/pullRange, maxPull)); x > field[s] {
				field[s] = x
			}
		}
	}
	if !any {
		return nil
	}
	return &field
}

// eval scores w for the player: positive is good for it. The world keeps
// the score up to date as it makes moves (see world.make); evalFull
// computes it from scratch.
func (e *evaluator) eval(w *world) int32 {
	switch w.result {
	case 0:
		return w.score - e.base
	case 3:
		return 0
	case 1 + int8(e.me):
		return winning - int32(w.ply)
	}
	return -winning + int32(w.ply)
}

// evalFull is the score of w without its result: every piece's
// contribution and the open sides of the Flag.
func (e *evaluator) evalFull(w *world) int32 {
	var s int32
	for id := int8(0); id < numIDs; id++ {
		s += e.contribution(w, id)
	}
	return s + e.flagSides(w)
}

// contribution is what piece id adds to the score: its value (plus its
// worth while hidden) for the player's pieces, minus that for the enemy's,
// and its square's entry in the piece's field (pull or Flag danger).
func (e *evaluator) contribution(w *world, id int8) int32 {
	sq := w.sq[id]
	if sq == noSq {
		return 0
	}
	v := e.pieceValue(w, id)
	if f := e.field[id]; f != nil {
		v += int32(f[sq])
	}
	return v
}

// pieceValue is what piece id (on the board) is worth to the player: its
// rank's value, plus its worth while hidden, negative for the enemy's.
func (e *evaluator) pieceValue(w *world, id int8) int32 {
	if sideOf(id) != e.me {
		return -e.pieceWorth(w, id)
	}
	return e.pieceWorth(w, id)
}

// pieceWorth is what piece id is worth to its own side: its rank's value,
// plus its worth while hidden.
func (e *evaluator) pieceWorth(w *world, id int8) int32 {
	side, r := sideOf(id), w.rank[id]
	v := e.val[side][r]
	if !w.revealed[id] {
		v += e.hid[side][r]
	}
	return v
}

// material is the score of the pieces' values alone (with their worth while
// hidden), without fields or Flag sides.
func (e *evaluator) material(w *world) int32 {
	var s int32
	for id := int8(0); id < numIDs; id++ {
		if w.sq[id] == noSq {
			continue
		}
		s += e.pieceValue(w, id)
	}
	return s
}

// flagSides is the penalty for the empty squares next to the player's Flag.
func (e *evaluator) flagSides(w *world) int32 {
	if e.flag == noSq {
		return 0
	}
	var s int32
	for _, n := range neighbours[e.flag] {
		if n != noSq && w.board[n] == empty {
			s -= openFlagSide
		}
	}
	return s
}
