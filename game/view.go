package game

// Viewer is who looks at the board: one of the players, or the public (the channel).
type Viewer uint8

// The three viewers.
const (
	RedViewer    = Viewer(Red)
	BlueViewer   = Viewer(Blue)
	PublicViewer = Viewer(2)
)

// ViewerOf returns the viewer that is side's player.
func ViewerOf(side Side) Viewer { return Viewer(side) }

// IsPlayer reports whether the viewer is one of the two players, and which.
func (v Viewer) IsPlayer() (Side, bool) { return Side(v), v <= BlueViewer }

// String returns "Red", "Blue" or "public".
func (v Viewer) String() string {
	if s, ok := v.IsPlayer(); ok {
		return s.String()
	}
	return "public"
}

// Cell is one square as a viewer knows it.
type Cell struct {
	// Occupied is false for an empty square or a lake.
	Occupied bool
	Side     Side
	// Rank is the piece's rank when the viewer knows it, NoRank otherwise.
	Rank Rank
	// Moved: the piece is known to have moved, so it is no Bomb or Flag.
	Moved bool
	// KnownScout: the piece moved more than one square, so it is a Scout.
	KnownScout bool
	// Revealed: the rank was shown to both players in a battle or an infiltration.
	Revealed bool
}

// View is everything one viewer knows of a game, and nothing more: the complete
// input for a picture or a message. Two games that differ only in pieces the
// viewer cannot know give equal views.
type View struct {
	Viewer Viewer
	Rules  Rules
	Board  [NumSquares]Cell
	ToMove Side
	// History is every move played, with the ranks battles revealed (public knowledge).
	History []MoveRecord
	// Captured counts, per side, the pieces that side has lost.
	Captured [2]Army
	// Remaining counts, per side, the pieces still on the board (the army minus Captured).
	Remaining [2]Army
	Result    Result
	// DrawOfferBy is the side whose draw offer stands, when DrawOffered.
	DrawOfferBy Side
	DrawOffered bool
}

// Ply returns the number of moves played.
func (v *View) Ply() int { return len(v.History) }

// LastMove returns the last move played, and false before the first.
func (v *View) LastMove() (MoveRecord, bool) {
	if len(v.History) == 0 {
		return MoveRecord{}, false
	}
	return v.History[len(v.History)-1], true
}

// View returns what viewer knows. Once the game is over, players and public
// still see only what they learned in play; use Reveal for the final picture.
func (g *Game) View(viewer Viewer) View {
	v := View{
		Viewer:      viewer,
		Rules:       g.rules,
		ToMove:      g.toMove,
		History:     append([]MoveRecord(nil), g.moves...),
		Result:      g.result,
		DrawOfferBy: g.drawOffer.by,
		DrawOffered: g.drawOffer.pending,
	}
	own, isPlayer := viewer.IsPlayer()
	for id := range g.pieces {
		p := &g.pieces[id]
		side := pieceSide(id)
		if p.sq == NoSquare {
			if p.rank != NoRank {
				v.Captured[side][p.rank]++
			}
			continue
		}
		v.Remaining[side][p.rank]++
		c := Cell{Occupied: true, Side: side, Moved: p.moved, KnownScout: p.scout, Revealed: p.revealed}
		if p.revealed || (isPlayer && side == own) {
			c.Rank = p.rank
		}
		v.Board[p.sq] = c
	}
	return v
}

// Reveal returns the view at the end of the game with every piece shown, for
// the final picture. It is the only view that shows hidden ranks to everyone,
// so it refuses while the game is on.
func (g *Game) Reveal() (View, bool) {
	if !g.result.Over() {
		return View{}, false
	}
	v := g.View(PublicViewer)
	for s := range v.Board {
		if c := &v.Board[s]; c.Occupied {
			_, c.Rank, _ = g.PieceAt(Square(s))
		}
	}
	return v, true
}
