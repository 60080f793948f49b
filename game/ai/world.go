package ai

import "github.com/strategobot/strategobot/game"

// The search plays on its own small board, a world: one guess of the whole
// position (the opponent's hidden ranks filled in by a sample), with
// make/unmake moves and none of the repetition rules (the root's moves come
// from the real rules; a few plies below it the repetition rules matter
// little). Pieces carry the game's numbers: Red's 0–39, Blue's 40–79, each
// side's in start-square order.

const (
	numIDs  = 2 * game.MaxPieces
	noSq    = 0xFF
	empty   = -1
	lake    = -2
	winning = 4000 // score of a won game, less the plies it takes: about a whole army
)

func sideOf(id int8) game.Side { return game.Side(int(id) / game.MaxPieces) }

// move is a move on a world: From→To, or an infiltration guessing Guess.
type move struct {
	from, to uint8
	guess    game.Rank
}

func fromGame(m game.Move) move {
	return move{from: uint8(m.From), to: uint8(m.To), guess: m.Guess}
}

// outcome is the result of a battle for the attacker.
type outcome int8

const (
	attackerWins outcome = iota
	defenderWins
	bothDie
)

// fightTable[a][d] is the outcome of rank a attacking rank d (game.Fight).
var fightTable = func() (t [game.NumRanks][game.NumRanks]outcome) {
	for a := range t {
		for d := range t[a] {
			switch game.Fight(game.Rank(a), game.Rank(d)) {
			case game.AttackerWon:
				t[a][d] = attackerWins
			case game.DefenderWon:
				t[a][d] = defenderWins
			default:
				t[a][d] = bothDie
			}
		}
	}
	return t
}()

// neighbours[s] lists the squares next to s, with noSq off the board.
var neighbours = func() (n [game.NumSquares][4]uint8) {
	dc := [4]int{0, 0, -1, 1}
	dr := [4]int{1, -1, 0, 0}
	for s := 0; s < game.NumSquares; s++ {
		for d := 0; d < 4; d++ {
			c, r := s%10+dc[d], s/10+dr[d]
			if c < 0 || c > 9 || r < 0 || r > 9 {
				n[s][d] = noSq
			} else {
				n[s][d] = uint8(r*10 + c)
			}
		}
	}
	return n
}()

// world is one full-information guess of the position.
type world struct {
	board    [game.NumSquares]int8 // piece id, empty or lake
	sq       [numIDs]uint8         // noSq once captured or absent
	rank     [numIDs]game.Rank
	revealed [numIDs]bool // both players know the rank
	moved    [numIDs]bool
	movable  [2]int8
	toMove   game.Side
	ply      int16 // plies played in the search
	// result: 0 while on, 1 + the winner, or 3 for a draw.
	result     int8
	scoutRange bool
	// last is the square the last move went to (noSq before any).
	last uint8
	// ev scores the world; score is its evaluation (evaluator.evalFull),
	// kept up to date by make and unmake when ev is set.
	ev    *evaluator
	score int32
}

// undo is what unmake needs to take a move back.
type undo struct {
	m          move
	a, d       int8
	aRev, dRev bool
	aMoved     bool
	movable    [2]int8
	result     int8
	aSq, dSq   uint8
	last       uint8
	score      int32
}

// make plays m and returns what unmake needs.
func (w *world) make(m move) undo {
	a := w.board[m.from]
	u := undo{m: m, a: a, d: w.board[m.to], aRev: w.revealed[a], aMoved: w.moved[a],
		movable: w.movable, result: w.result, aSq: m.from, last: w.last}
	w.last = m.to
	if u.d >= 0 {
		u.dRev, u.dSq = w.revealed[u.d], m.to
	}
	e := w.ev
	if e != nil {
		u.score = w.score
		w.score -= e.contribution(w, a) + e.flagSides(w)
		if u.d >= 0 {
			w.score -= e.contribution(w, u.d)
		}
	}
	if m.guess != game.NoRank {
		w.revealed[a] = true
		if d := u.d; d >= 0 && w.rank[d] == m.guess {
			w.revealed[d] = true
			w.remove(d)
			if w.rank[d] == game.Flag {
				w.result = 1 + int8(sideOf(a))
			}
		}
	} else {
		w.moved[a] = true
		if u.d < 0 {
			w.board[m.from], w.board[m.to] = empty, a
			w.sq[a] = m.to
		} else {
			d := u.d
			w.revealed[a], w.revealed[d] = true, true
			switch fightTable[w.rank[a]][w.rank[d]] {
			case attackerWins:
				w.remove(d)
				w.board[m.from], w.board[m.to] = empty, a
				w.sq[a] = m.to
				if w.rank[d] == game.Flag {
					w.result = 1 + int8(sideOf(a))
				}
			case defenderWins:
				w.remove(a)
			case bothDie:
				w.remove(a)
				w.remove(d)
			}
		}
	}
	if e != nil {
		w.score += e.contribution(w, a) + e.flagSides(w)
		if u.d >= 0 {
			w.score += e.contribution(w, u.d)
		}
	}
	if w.result == 0 {
		switch red, blue := w.movable[game.Red] > 0, w.movable[game.Blue] > 0; {
		case !red && !blue:
			w.result = 3
		case !red:
			w.result = 1 + int8(game.Blue)
		case !blue:
			w.result = 1 + int8(game.Red)
		}
	}
	w.toMove ^= 1
	w.ply++
	return u
}

func (w *world) remove(id int8) {
	w.board[w.sq[id]] = empty
	w.sq[id] = noSq
	if w.rank[id].Movable() {
		w.movable[sideOf(id)]--
	}
}

// unmake takes back the move u was made for.
func (w *world) unmake(u undo) {
	w.toMove ^= 1
	w.ply--
	w.result, w.movable, w.score, w.last = u.result, u.movable, u.score, u.last
	a, d := u.a, u.d
	w.revealed[a], w.moved[a] = u.aRev, u.aMoved
	if w.sq[a] != noSq {
		w.board[w.sq[a]] = empty
	}
	w.sq[a] = u.aSq
	w.board[u.aSq] = a
	if d >= 0 {
		w.revealed[d] = u.dRev
		w.sq[d] = u.dSq
		w.board[u.dSq] = d
	}
}

// genMoves appends the moves of the side to move. Attacks on pieces whose
// rank the mover does not know are left out when blindAttacks is false:
// inside the search, a side must not decide to attack on knowledge of the
// sample that it does not have. Infiltrations are only generated at the root.
// It is most of the search's time, so pieces that step one square look only
// at the squares they may step to (steps); Scouts walk their lines.
func (w *world) genMoves(dst []move, known *[numIDs]bool, blindAttacks, capturesOnly bool) []move {
	if capturesOnly && !blindAttacks {
		return w.genKnownCaptures(dst, known)
	}
	lo := int8(int(w.toMove) * game.MaxPieces)
	hi := lo + game.MaxPieces
	for id := lo; id < hi; id++ {
		from := w.sq[id]
		if from == noSq {
			continue
		}
		switch r := w.rank[id]; {
		case !r.Movable():
			continue
		case r == game.Scout:
			dst = w.genScout(dst, from, lo, known, blindAttacks, capturesOnly)
			continue
		}
		st := &steps[from]
		for _, to := range st.sq[:st.n] {
			c := w.board[to]
			if c == empty {
				if !capturesOnly {
					dst = append(dst, move{from: from, to: to})
				}
			} else if (c < lo || c >= lo+game.MaxPieces) && (blindAttacks || known[c] || w.revealed[c]) {
				dst = append(dst, move{from: from, to: to})
			}
		}
	}
	return dst
}

// genKnownCaptures appends the battles of the side to move against the enemy
// pieces whose rank it knows: genMoves(dst, known, false, true), found from
// those few targets instead of from every own piece (the search's quiescence
// asks for them at most of its nodes), then put in genMoves' order: by
// attacker, then by direction.
func (w *world) genKnownCaptures(dst []move, known *[numIDs]bool) []move {
	lo := int8(int(w.toMove) * game.MaxPieces)
	enemy := int8(int(w.toMove.Opponent()) * game.MaxPieces)
	type found struct {
		key uint16 // attacker id × 4 + its direction to the target
		to  uint8
	}
	var list [4 * game.MaxPieces]found
	n := 0
	for id := enemy; id < enemy+game.MaxPieces; id++ {
		t := w.sq[id]
		if t == noSq || !(known[id] || w.revealed[id]) {
			continue
		}
		for d := 0; d < 4; d++ {
			first := true
			for s := neighbours[t][d]; s != noSq; s = neighbours[s][d] {
				c := w.board[s]
				if c == empty && w.scoutRange {
					first = false
					continue
				}
				if c >= lo && c < lo+game.MaxPieces && w.rank[c].Movable() && (first || w.rank[c] == game.Scout) {
					list[n] = found{key: uint16(c)*4 + uint16(d^1), to: t} // d^1: the way back
					n++
				}
				break
			}
		}
	}
	for i := 1; i < n; i++ {
		f := list[i]
		j := i
		for ; j > 0 && list[j-1].key > f.key; j-- {
			list[j] = list[j-1]
		}
		list[j] = f
	}
	for _, f := range list[:n] {
		dst = append(dst, move{from: w.sq[f.key/4], to: f.to})
	}
	return dst
}

// genScout appends the moves of the Scout on from (see genMoves).
func (w *world) genScout(dst []move, from uint8, lo int8, known *[numIDs]bool, blindAttacks, capturesOnly bool) []move {
	for d := 0; d < 4; d++ {
		first := true
		for to := neighbours[from][d]; to != noSq; to = neighbours[to][d] {
			c := w.board[to]
			if c == lake {
				break
			}
			if c >= 0 {
				if (c < lo || c >= lo+game.MaxPieces) && (first || w.scoutRange) && (blindAttacks || known[c] || w.revealed[c]) {
					dst = append(dst, move{from: from, to: to})
				}
				break
			}
			if !capturesOnly {
				dst = append(dst, move{from: from, to: to})
			}
			first = false
		}
	}
	return dst
}

// steps[s] lists the squares a piece on s may step to, lakes left out, in
// the order of neighbours.
var steps = func() (st [game.NumSquares]struct {
	sq [4]uint8
	n  uint8
}) {
	for s := range st {
		for _, n := range neighbours[s] {
			if n != noSq && !game.Square(n).IsLake() {
				st[s].sq[st[s].n] = n
				st[s].n++
			}
		}
	}
	return st
}()

// hasMove reports whether the side to move can move at all (ignoring repetition).
func (w *world) hasMove() bool {
	side := w.toMove
	lo := int8(int(side) * game.MaxPieces)
	for id := lo; id < lo+game.MaxPieces; id++ {
		from := w.sq[id]
		if from == noSq || !w.rank[id].Movable() {
			continue
		}
		st := &steps[from]
		for _, n := range st.sq[:st.n] {
			if c := w.board[n]; c == empty || (c >= 0 && sideOf(c) != side) {
				return true
			}
		}
	}
	return false
}

// distances[a][b] is the number of steps from a to b around the lakes.
var distances = func() (d [game.NumSquares][game.NumSquares]uint8) {
	for a := 0; a < game.NumSquares; a++ {
		for b := range d[a] {
			d[a][b] = 0xFF
		}
		if game.Square(a).IsLake() {
			continue
		}
		queue := []int{a}
		d[a][a] = 0
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			for _, n := range neighbours[s] {
				if n == noSq || game.Square(n).IsLake() || d[a][n] != 0xFF {
					continue
				}
				d[a][n] = d[a][s] + 1
				queue = append(queue, int(n))
			}
		}
	}
	return d
}()
