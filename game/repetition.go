package game

// The Two-Squares rule: a piece may not cross the same square border more than
// N times in a row. A run is the unbroken series of one side's moves with one
// piece along one axis; borders are numbered along the line, border k lying
// between squares k and k+1 of the row or column.
type run struct {
	id       int16 // piece index + 1; 0 for no run
	vertical bool
	n        int8    // moves in the run, at most maxRun
	lo, hi   [5]int8 // the border intervals crossed, newest first
	// blockLo..blockHi are the borders crossed by each of the last N moves: the
	// next move of the run may not cross any of them. blockLo > blockHi: none.
	blockLo, blockHi int8
}

const maxRun = 5

// The More-Squares rule: a continuous chase is an unbroken run of threaten and
// evade pairs; while it lasts, the chaser may not make a chasing move that
// leads to a position already seen during the chase. As RULES.md says (the
// ISF's "one or more pieces"), the pairs need not be about one piece: a threat
// to any of the opponent's pieces, answered by that piece moving away, keeps
// the chase going, so two pieces chased in turn are one chase.
type chase struct {
	active bool
	chaser Side
	// awaitingEvade: the chaser just threatened; the chased side is to move.
	awaitingEvade bool
	threatened    [4]int8 // enemy pieces next to the threatening piece
	nThreatened   int8
	target        int8     // the piece that evaded last
	positions     []uint64 // positions (Zobrist hashes) seen during the chase
}

// borders returns the axis and the interval of borders a move from a to b crosses.
func borders(a, b Square) (vertical bool, lo, hi int8) {
	if a.Col() == b.Col() {
		x, y := a.Row(), b.Row()
		if x > y {
			x, y = y, x
		}
		return true, int8(x), int8(y - 1)
	}
	x, y := a.Col(), b.Col()
	if x > y {
		x, y = y, x
	}
	return false, int8(x), int8(y - 1)
}

// repetitionKind says which rule forbids a move, if any.
type repetitionKind uint8

const (
	repetitionOK repetitionKind = iota
	twoSquaresForbids
	moreSquaresForbids
)

// repetition checks a move (or attack) of piece id from a to b against both
// repetition rules. It is on the hot path of move generation: no allocation.
func (g *Game) repetition(side Side, id int, a, b Square) repetitionKind {
	if r := &g.runs[side]; g.rules.TwoSquares > 0 && int(r.id) == id+1 && r.blockLo <= r.blockHi {
		vertical, lo, hi := borders(a, b)
		if vertical == r.vertical && lo <= r.blockHi && hi >= r.blockLo {
			return twoSquaresForbids
		}
	}
	if c := &g.chase; g.rules.MoreSquares && c.active && c.chaser == side && !c.awaitingEvade && g.board[b] == 0 {
		if g.chasingMoveRepeats(side, id, a, b) {
			return moreSquaresForbids
		}
	}
	return repetitionOK
}

// chasingMoveRepeats reports whether moving id from a to the empty square b
// threatens an enemy piece and leads to a position seen in the chase, without
// being the allowed step back to where the piece came from.
func (g *Game) chasingMoveRepeats(side Side, id int, a, b Square) bool {
	if g.threatenedFrom(b, side) < 0 {
		return false
	}
	if n := len(g.moves); n >= 2 {
		prev := g.moves[n-2] // the chaser's previous move
		if prev.Side == side && prev.Move.To == a && prev.Move.From == b && !prev.Move.IsInfiltration() {
			return false
		}
	}
	h := g.hash ^ zobrist(id, a) ^ zobrist(id, b)
	for _, p := range g.chase.positions {
		if p == h {
			return true
		}
	}
	return false
}

// threatenedFrom returns the enemy piece a piece of side on s would threaten,
// or -1 if there is none next to s. Of several it prefers the one that evaded
// last, the piece the chase is most plainly about.
func (g *Game) threatenedFrom(s Square, side Side) int {
	found := -1
	for d := 0; d < 4; d++ {
		n := neighbours[s][d]
		if n == NoSquare {
			continue
		}
		if v := g.board[n]; v != 0 && v != cellLake && pieceSide(int(v)-1) != side {
			if id := int(v) - 1; id == int(g.chase.target) || found < 0 {
				found = id
			}
		}
	}
	return found
}

// The reasons of the repetition rules.
const (
	txtTwoSquaresMove  = "the Two-Squares rule forbids a %[1]s move between %[2]s and %[3]s"
	txtTwoSquaresCross = "the Two-Squares rule forbids crossing between %[2]s and %[3]s a %[1]s time in a row"
	txtMoreSquares     = "the More-Squares rule forbids chasing the piece on %[1]s into a position that was already on the board"
)

// repetitionReason explains why a move breaks a repetition rule, and
// reports whether it does.
func (g *Game) repetitionReason(side Side, id int, a, b Square) (Text, bool) {
	switch g.repetition(side, id, a, b) {
	case twoSquaresForbids:
		r := &g.runs[side]
		n := Ordinal(g.rules.TwoSquares + 1)
		x, y := lineSquare(a, r.vertical, int(r.blockLo)), lineSquare(a, r.vertical, int(r.blockHi)+1)
		if r.blockLo == r.blockHi && distance(a, b) == 1 {
			return text(txtTwoSquaresMove, n, x, y), true
		}
		return text(txtTwoSquaresCross, n, x, y), true
	case moreSquaresForbids:
		return text(txtMoreSquares, g.pieces[g.threatenedFrom(b, side)].sq), true
	}
	return Text{}, false
}

// lineSquare returns the square at index k along the line through a (its column when vertical, else its row).
func lineSquare(a Square, vertical bool, k int) Square {
	if vertical {
		return SquareAt(a.Col(), k)
	}
	return SquareAt(k, a.Row())
}

// recordRepetition updates both rules' state after side played rec with piece id.
func (g *Game) recordRepetition(side Side, id int, rec MoveRecord) {
	g.recordRun(side, id, rec)
	if g.rules.MoreSquares {
		g.recordChase(side, id, rec)
	}
}

func (g *Game) recordRun(side Side, id int, rec MoveRecord) {
	r := &g.runs[side]
	if rec.Move.IsInfiltration() {
		*r = run{}
		return
	}
	vertical, lo, hi := borders(rec.Move.From, rec.Move.To)
	if int(r.id) == id+1 && r.vertical == vertical {
		copy(r.lo[1:], r.lo[:maxRun-1])
		copy(r.hi[1:], r.hi[:maxRun-1])
		if r.n < maxRun {
			r.n++
		}
	} else {
		*r = run{id: int16(id + 1), vertical: vertical, n: 1}
	}
	r.lo[0], r.hi[0] = lo, hi
	r.blockLo, r.blockHi = 1, 0
	if n := g.rules.TwoSquares; n > 0 && int(r.n) >= n {
		r.blockLo, r.blockHi = r.lo[0], r.hi[0]
		for i := 1; i < n; i++ {
			r.blockLo = max(r.blockLo, r.lo[i])
			r.blockHi = min(r.blockHi, r.hi[i])
		}
	}
	if g.pieces[id].sq == NoSquare {
		// The piece died in its attack: the run cannot continue.
		*r = run{}
	}
}

func (g *Game) recordChase(side Side, id int, rec MoveRecord) {
	c := &g.chase
	if rec.Outcome != NoBattle {
		// A battle or an infiltration changes the material: no earlier position can come back.
		c.reset()
		return
	}
	to := rec.Move.To
	if c.active {
		switch {
		case side != c.chaser && c.awaitingEvade && c.isThreatened(id):
			c.awaitingEvade = false
			c.target = int8(id)
			c.positions = append(c.positions, g.hash)
			return
		case side == c.chaser && !c.awaitingEvade && g.setThreatened(to, side) > 0:
			// A threat to any piece, not only the one that evaded, continues the chase.
			c.awaitingEvade = true
			c.positions = append(c.positions, g.hash)
			return
		}
		c.reset()
	}
	if g.setThreatened(to, side) > 0 {
		c.active = true
		c.chaser = side
		c.awaitingEvade = true
		before := g.hash ^ zobrist(id, rec.Move.From) ^ zobrist(id, to)
		c.positions = append(c.positions, before, g.hash)
	}
}

// setThreatened records the enemy pieces next to s and returns how many there are.
func (g *Game) setThreatened(s Square, side Side) int {
	c := &g.chase
	c.nThreatened = 0
	for d := 0; d < 4; d++ {
		n := neighbours[s][d]
		if n == NoSquare {
			continue
		}
		if v := g.board[n]; v != 0 && v != cellLake && pieceSide(int(v)-1) != side {
			c.threatened[c.nThreatened] = int8(v - 1)
			c.nThreatened++
		}
	}
	return int(c.nThreatened)
}

func (c *chase) isThreatened(id int) bool {
	for i := int8(0); i < c.nThreatened; i++ {
		if int(c.threatened[i]) == id {
			return true
		}
	}
	return false
}

func (c *chase) reset() {
	c.active = false
	c.awaitingEvade = false
	c.nThreatened = 0
	c.positions = c.positions[:0]
}
