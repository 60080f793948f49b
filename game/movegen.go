package game

// AppendLegalMoves appends every legal move of the side to move to dst and
// returns the extended slice. Passing a slice with spare capacity avoids any
// allocation. After the game has ended there are none.
func (g *Game) AppendLegalMoves(dst []Move) []Move {
	if g.result.Over() {
		return dst
	}
	base := int(g.toMove) * MaxPieces
	for id := base; id < base+MaxPieces; id++ {
		if p := &g.pieces[id]; p.sq != NoSquare && p.rank.Movable() {
			dst = g.appendPieceMoves(dst, id)
		}
	}
	return dst
}

// LegalMoves returns every legal move of the side to move.
func (g *Game) LegalMoves() []Move { return g.AppendLegalMoves(make([]Move, 0, 64)) }

// AppendLegalMovesFrom appends the legal moves of the piece on from, if it
// belongs to the side to move.
func (g *Game) AppendLegalMovesFrom(dst []Move, from Square) []Move {
	if g.result.Over() || !from.Valid() {
		return dst
	}
	c := g.board[from]
	if c == 0 || c == cellLake || pieceSide(int(c)-1) != g.toMove {
		return dst
	}
	return g.appendPieceMoves(dst, int(c)-1)
}

// appendPieceMoves generates piece id's legal moves. It must agree exactly with Check.
func (g *Game) appendPieceMoves(dst []Move, id int) []Move {
	p := &g.pieces[id]
	if !p.rank.Movable() {
		return dst
	}
	side := pieceSide(id)
	from := p.sq
	// Most pieces are in no repetition run or chase: skip the checks for them.
	check := g.restricted(side, id)
	// Enemy pieces occupy the cells enemyLo+1 … enemyLo+MaxPieces.
	enemyLo := uint8(MaxPieces)
	if side == Blue {
		enemyLo = 0
	}
	scout, far := p.rank == Scout, g.rules.ScoutStrikesAtRange
	nb := &neighbours
	for d := 0; d < 4; d++ {
		first := true
		for to := nb[from][d]; to != NoSquare; to = nb[to][d] {
			c := g.board[to]
			if c != 0 {
				if c != cellLake && c-1-enemyLo < MaxPieces && (first || far) && (!check || g.repetition(side, id, from, to) == repetitionOK) {
					dst = append(dst, Move{From: from, To: to})
				}
				break
			}
			if !check || g.repetition(side, id, from, to) == repetitionOK {
				dst = append(dst, Move{From: from, To: to})
			}
			if !scout {
				break
			}
			first = false
		}
	}
	if p.rank == Infiltrator && InZone(side.Opponent(), from) {
		for d := 0; d < 4; d++ {
			to := neighbours[from][d]
			for steps := 1; steps <= 2 && to != NoSquare; steps++ {
				c := g.board[to]
				if c == cellLake {
					break
				}
				if c != 0 {
					if pieceSide(int(c)-1) != side {
						// Any piece type may be named (RULES.md), one
						// that a Custom army lacks too, as Check allows.
						for _, r := range Ranks {
							dst = append(dst, Move{From: from, To: to, Guess: r})
						}
					}
					break
				}
				to = neighbours[to][d]
			}
		}
	}
	return dst
}

// restricted reports whether a repetition rule may forbid some move of piece
// id of side: it is in a Two-Squares run that blocks borders, or its side is
// the chaser of a running More-Squares chase. Other pieces skip the checks.
func (g *Game) restricted(side Side, id int) bool {
	r, c := &g.runs[side], &g.chase
	return (g.rules.TwoSquares > 0 && int(r.id) == id+1 && r.blockLo <= r.blockHi) ||
		(g.rules.MoreSquares && c.active && c.chaser == side && !c.awaitingEvade)
}

// Check reports whether m is legal for the side to move: nil, ErrGameOver, or a
// *MoveError with the reason. Every reason is about the mover's own pieces or
// what both players see.
func (g *Game) Check(m Move) error { return g.check(m, true) }

// check is Check; the repetition rules are applied only when repetition is true.
func (g *Game) check(m Move, repetition bool) error {
	if g.result.Over() {
		return ErrGameOver
	}
	if !m.From.Valid() || !m.To.Valid() {
		return illegal(m, txtMoveNeedsSquares)
	}
	side := g.toMove
	c := g.board[m.From]
	switch {
	case c == cellLake:
		return illegal(m, txtFromLake, m.From)
	case c == 0:
		return illegal(m, txtNoPieceOn, m.From)
	case pieceSide(int(c)-1) != side:
		return illegal(m, txtNotYourPiece, m.From, side.Opponent(), side)
	}
	id := int(c) - 1
	rank := g.pieces[id].rank
	if m.IsInfiltration() {
		return g.checkInfiltration(m, side, rank)
	}
	switch {
	case rank == Bomb:
		return illegal(m, txtBombsCannotMove)
	case rank == Flag:
		return illegal(m, txtFlagCannotMove)
	case m.From == m.To:
		return illegal(m, txtSameSquare)
	case g.board[m.To] == cellLake:
		return illegal(m, txtIsLake, m.To)
	case m.From.Col() != m.To.Col() && m.From.Row() != m.To.Row():
		return illegal(m, txtDiagonal)
	}
	dist := distance(m.From, m.To)
	if dist > 1 {
		if rank != Scout {
			return illegal(m, txtOneSquare, rank)
		}
		if reason, blocked := g.pathBlocked(m.From, m.To); blocked {
			return illegalText(m, reason)
		}
	}
	if t := g.board[m.To]; t != 0 {
		if pieceSide(int(t)-1) == side {
			return illegal(m, txtOwnPiece, m.To)
		}
		if dist > 1 && !g.rules.ScoutStrikesAtRange {
			return illegal(m, txtScoutNextOnly)
		}
	}
	if !repetition {
		return nil
	}
	if reason, forbidden := g.repetitionReason(side, id, m.From, m.To); forbidden {
		return illegalText(m, reason)
	}
	return nil
}

// The reasons Check gives.
const (
	txtMoveNeedsSquares = "a move needs two squares on the board, like B4-B5"
	txtFromLake         = "%[1]s is a lake; there is no piece there"
	txtNoPieceOn        = "there is no piece on %[1]s"
	txtNotYourPiece     = "the piece on %[1]s is %[2]s's; it is %[3]s's turn"
	txtBombsCannotMove  = "Bombs cannot move"
	txtFlagCannotMove   = "the Flag cannot move"
	txtSameSquare       = "a move must go to another square"
	txtIsLake           = "%[1]s is a lake"
	txtDiagonal         = "pieces move in straight lines, never diagonally"
	txtOneSquare        = "a %[1]s moves one square at a time; only Scouts go further"
	txtOwnPiece         = "%[1]s holds one of your own pieces"
	txtScoutNextOnly    = "in this match a Scout attacks only a piece next to it (scout_strikes_at_range is off)"
	txtScoutLake        = "a Scout cannot cross the lake at %[1]s"
	txtScoutJump        = "a Scout cannot jump over the piece on %[1]s"
	txtNoInfiltrator    = "there is no Infiltrator in this match"
	txtOnlyInfiltrator  = "only the Infiltrator can infiltrate"
	txtNameGuess        = "name the piece you guess: Marshal … Spy, Infiltrator, Bomb or Flag"
	txtInfiltrateZone   = "the Infiltrator can infiltrate only from inside %[1]s's set-up zone (rows %[2]s)"
	txtInfiltrateReach  = "an infiltration reaches a piece one or two squares away in a straight line"
	txtInfiltrateLake   = "an infiltration cannot pass over the lake at %[1]s"
	txtInfiltrateEmpty  = "an infiltration over two squares needs %[1]s to be empty"
	txtNothingToInfil   = "there is no piece on %[1]s to infiltrate"
)

// pathBlocked returns why a Scout cannot pass between from and to (same
// line), and whether it cannot.
func (g *Game) pathBlocked(from, to Square) (Text, bool) {
	d := directionOf(from, to)
	for s := neighbours[from][d]; s != to; s = neighbours[s][d] {
		switch c := g.board[s]; {
		case c == cellLake:
			return text(txtScoutLake, s), true
		case c != 0:
			return text(txtScoutJump, s), true
		}
	}
	return Text{}, false
}

// directionOf returns the direction index from a to b, which share a row or column.
func directionOf(a, b Square) int {
	switch {
	case b.Row() > a.Row():
		return 0
	case b.Row() < a.Row():
		return 1
	case b.Col() < a.Col():
		return 2
	}
	return 3
}

func (g *Game) checkInfiltration(m Move, side Side, rank Rank) error {
	enemy := side.Opponent()
	switch {
	case g.rules.Army[Infiltrator] == 0:
		return illegal(m, txtNoInfiltrator)
	case rank != Infiltrator:
		return illegal(m, txtOnlyInfiltrator)
	case !m.Guess.Valid():
		return illegal(m, txtNameGuess)
	case !InZone(enemy, m.From):
		return illegal(m, txtInfiltrateZone, enemy, zoneRows(enemy))
	case m.From.Col() != m.To.Col() && m.From.Row() != m.To.Row(), m.From == m.To:
		return illegal(m, txtInfiltrateReach)
	}
	switch dist := distance(m.From, m.To); {
	case dist > 2:
		return illegal(m, txtInfiltrateReach)
	case dist == 2:
		between := neighbours[m.From][directionOf(m.From, m.To)]
		if g.board[between] == cellLake {
			return illegal(m, txtInfiltrateLake, between)
		}
		if g.board[between] != 0 {
			return illegal(m, txtInfiltrateEmpty, between)
		}
	}
	switch t := g.board[m.To]; {
	case t == cellLake:
		return illegal(m, txtIsLake, m.To)
	case t == 0:
		return illegal(m, txtNothingToInfil, m.To)
	case pieceSide(int(t)-1) == side:
		return illegal(m, txtOwnPiece, m.To)
	}
	return nil
}

// zoneRows names the rows of a side's set-up zone: "1–4".
func zoneRows(side Side) string {
	if side == Red {
		return "1–4"
	}
	return "7–10"
}
