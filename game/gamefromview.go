package game

import (
	"errors"
	"fmt"
)

// ErrInconsistentView is wrapped by the errors of View.Tracks, GameFromView and
// View.LegalMoves when a view cannot come from any game: its board and its
// history disagree.
var ErrInconsistentView = errors.New("the view is inconsistent")

// PieceTrack is what a viewer knows of one piece over the whole game: where it
// started, where it stands, and what its moves and battles showed.
type PieceTrack struct {
	Side Side
	// Start is the square the piece stood on when the game began.
	Start Square
	// Square is where it stands now; NoSquare once it was captured.
	Square Square
	// Rank is the piece's rank when the viewer knows it, NoRank otherwise.
	// The ranks of captured pieces are always known: a battle showed them.
	Rank Rank
	// Moved: the piece has moved, so it is no Bomb or Flag.
	Moved bool
	// KnownScout: the piece moved more than one square, so it is a Scout.
	KnownScout bool
	// Revealed: a battle or an infiltration showed its rank to both players.
	Revealed bool
	// NotRanks lists ranks an Infiltrator guessed wrongly for this piece.
	NotRanks []Rank
}

// Tracks follows every piece that stood on the board back through the history
// to its start square, using only what the view holds. The tracks come in the
// order the game numbers pieces: Red's by start square, then Blue's; the
// index within a side is the piece's number in the game.
//
// It fails, wrapping ErrInconsistentView, when the history does not lead to
// the board.
func (v *View) Tracks() ([]PieceTrack, error) {
	var tracks []PieceTrack
	var at [NumSquares]int // 1 + track index, 0 for none
	for s := range v.Board {
		c := v.Board[s]
		if !c.Occupied {
			continue
		}
		tracks = append(tracks, PieceTrack{Side: c.Side, Start: Square(s), Square: Square(s),
			Rank: c.Rank, Moved: c.Moved, KnownScout: c.KnownScout, Revealed: c.Revealed})
		at[s] = len(tracks)
	}
	bad := func(i int, format string, args ...any) error {
		return fmt.Errorf("move %d (%s): %s: %w", i+1, v.History[i].Move, fmt.Sprintf(format, args...), ErrInconsistentView)
	}
	// take returns the track on s, which must belong to side.
	take := func(i int, s Square, side Side) (int, error) {
		if !s.Valid() || at[s] == 0 {
			return 0, bad(i, "no piece on %s", s)
		}
		t := at[s] - 1
		if tracks[t].Side != side {
			return 0, bad(i, "the piece on %s is not %s's", s, side)
		}
		return t, nil
	}
	// revive puts a captured piece back on the empty square s.
	revive := func(i int, s Square, side Side, r Rank) error {
		if !s.Valid() || at[s] != 0 || s.IsLake() {
			return bad(i, "%s is not free for the piece it lost", s)
		}
		tracks = append(tracks, PieceTrack{Side: side, Start: s, Square: NoSquare, Rank: r, Revealed: true})
		at[s] = len(tracks)
		return nil
	}
	// back moves track t from to back to from.
	back := func(t int, from, to Square) {
		at[to], at[from] = 0, t+1
		tracks[t].Start = from
		tracks[t].Moved = true
		if distance(from, to) > 1 {
			tracks[t].KnownScout = true
		}
	}
	learn := func(t int, r Rank) {
		if tracks[t].Rank == NoRank {
			tracks[t].Rank = r
		}
	}
	for i := len(v.History) - 1; i >= 0; i-- {
		rec := v.History[i]
		m, side, enemy := rec.Move, rec.Side, rec.Side.Opponent()
		if !m.From.Valid() || !m.To.Valid() {
			return nil, bad(i, "a square is off the board")
		}
		switch rec.Outcome {
		case NoBattle, AttackerWon:
			t, err := take(i, m.To, side)
			if err != nil {
				return nil, err
			}
			if at[m.From] != 0 {
				return nil, bad(i, "%s is not empty before the move", m.From)
			}
			back(t, m.From, m.To)
			if rec.Outcome == AttackerWon {
				learn(t, rec.Attacker)
				if err := revive(i, m.To, enemy, rec.Defender); err != nil {
					return nil, err
				}
			}
		case DefenderWon, BothRemoved:
			if rec.Outcome == DefenderWon {
				d, err := take(i, m.To, enemy)
				if err != nil {
					return nil, err
				}
				learn(d, rec.Defender)
			} else if err := revive(i, m.To, enemy, rec.Defender); err != nil {
				return nil, err
			}
			if err := revive(i, m.From, side, rec.Attacker); err != nil {
				return nil, err
			}
			a := len(tracks) - 1
			tracks[a].Moved = true
			if distance(m.From, m.To) > 1 {
				tracks[a].KnownScout = true
			}
		case GuessedRight, GuessedWrong:
			t, err := take(i, m.From, side)
			if err != nil {
				return nil, err
			}
			learn(t, Infiltrator)
			if rec.Outcome == GuessedRight {
				if err := revive(i, m.To, enemy, rec.Defender); err != nil {
					return nil, err
				}
			} else {
				d, err := take(i, m.To, enemy)
				if err != nil {
					return nil, err
				}
				tracks[d].NotRanks = append(tracks[d].NotRanks, m.Guess)
			}
		default:
			return nil, bad(i, "unknown outcome %d", rec.Outcome)
		}
	}
	// Order as the game numbers pieces: by side, then start square.
	var ordered []PieceTrack
	for side := Red; side <= Blue; side++ {
		for s := Square(0); s < NumSquares; s++ {
			if at[s] != 0 && tracks[at[s]-1].Side == side {
				t := tracks[at[s]-1]
				if !InZone(side, s) {
					return nil, fmt.Errorf("a %s piece started on %s, outside its set-up zone: %w", side, s, ErrInconsistentView)
				}
				ordered = append(ordered, t)
			}
		}
	}
	return ordered, nil
}

// GameFromView builds a game that v's viewer cannot tell from the real one:
// the same position, history, repetition state (Two-Squares runs and
// More-Squares chases), result and standing draw offer, with the same piece
// numbers. Pieces whose rank the viewer does not know get stand-in ranks
// consistent with everything known: counts left, moved pieces movable, known
// Scouts Scouts, no rank an Infiltrator guessed wrongly.
//
// The viewer's own legal moves therefore equal the real game's when it is the
// viewer's turn (View.LegalMoves). The opponent's stand-in ranks are guesses:
// do not show them. The draw offer's lapse point is approximate: it is
// considered made just before the offerer's next move.
func GameFromView(v View) (*Game, error) {
	tracks, err := v.Tracks()
	if err != nil {
		return nil, err
	}
	if err := v.Rules.Validate(); err != nil {
		return nil, err
	}
	var setups [2]Setup
	for side := Red; side <= Blue; side++ {
		var mine []*PieceTrack
		for i := range tracks {
			if tracks[i].Side == side {
				mine = append(mine, &tracks[i])
			}
		}
		ranks, err := standInRanks(v.Rules.Army, mine)
		if err != nil {
			return nil, fmt.Errorf("%s's pieces: %w", side, err)
		}
		for i, t := range mine {
			row, col, _ := SetupCell(side, t.Start)
			setups[side][row][col] = ranks[i]
		}
	}
	g, err := NewGame(v.Rules, setups[Red], setups[Blue])
	if err != nil {
		return nil, fmt.Errorf("rebuilding the set-ups: %v: %w", err, ErrInconsistentView)
	}
	for i, rec := range v.History {
		// Stand-in ranks may make the rebuilt game look over (a side walled
		// in); the real one was not, or it would have no more moves.
		g.result = Result{}
		if g.toMove != rec.Side {
			return nil, fmt.Errorf("move %d (%s) is %s's, but it was %s's turn: %w", i+1, rec.Move, rec.Side, g.toMove, ErrInconsistentView)
		}
		// A recorded move, which the repetition rules judged when it was
		// played (see ApplyRecorded).
		if err := g.check(rec.Move, false); err != nil {
			return nil, fmt.Errorf("move %d (%s): %v: %w", i+1, rec.Move, err, ErrInconsistentView)
		}
		if got := g.apply(rec.Move); got != rec {
			return nil, fmt.Errorf("move %d (%s) replays as %+v, recorded %+v: %w", i+1, rec.Move, got, rec, ErrInconsistentView)
		}
	}
	if g.toMove != v.ToMove {
		return nil, fmt.Errorf("after the history it is %s's turn, the view says %s's: %w", g.toMove, v.ToMove, ErrInconsistentView)
	}
	g.result = v.Result
	g.drawOffer = drawOffer{}
	if v.DrawOffered && !v.Result.Over() {
		ply := len(g.moves)
		if v.DrawOfferBy != g.toMove {
			ply--
		}
		g.drawOffer = drawOffer{pending: true, by: v.DrawOfferBy, ply: ply}
	}
	for s := range v.Board {
		c, real := v.Board[s], g.board[s]
		if c.Occupied != (real != 0 && real != cellLake) || (c.Occupied && pieceSide(int(real)-1) != c.Side) {
			return nil, fmt.Errorf("the history leads to another board at %s: %w", Square(s), ErrInconsistentView)
		}
	}
	return g, nil
}

// LegalMoves returns the legal moves of the viewer when it is the viewer's
// turn: exactly the moves the real game allows, found from what the viewer
// knows (see GameFromView). It fails with ErrNotYourTurn for the public
// viewer or when the other side is to move, and wraps ErrInconsistentView for
// a view no game can give. After the end of the game there are none.
func (v *View) LegalMoves() ([]Move, error) {
	side, ok := v.Viewer.IsPlayer()
	if !ok || side != v.ToMove {
		return nil, fmt.Errorf("%s cannot list %s's moves: %w", v.Viewer, v.ToMove, ErrNotYourTurn)
	}
	g, err := GameFromView(*v)
	if err != nil {
		return nil, err
	}
	return g.LegalMoves(), nil
}

// standInRanks gives every track a rank: its known rank, or for unknown ones
// a rank of what is left of the army that fits what the track showed. It
// matches unknown pieces to the ranks left (Kuhn's augmenting paths), so it
// finds an assignment whenever one exists.
func standInRanks(army Army, tracks []*PieceTrack) ([]Rank, error) {
	left := army
	ranks := make([]Rank, len(tracks))
	var unknown []int
	for i, t := range tracks {
		if t.Rank == NoRank {
			unknown = append(unknown, i)
			continue
		}
		if left[t.Rank] == 0 {
			return nil, fmt.Errorf("more %s than the army holds: %w", t.Rank.Plural(), ErrInconsistentView)
		}
		left[t.Rank]--
		ranks[i] = t.Rank
	}
	var slots []Rank // one per piece left to place
	for _, r := range Ranks {
		for k := 0; k < int(left[r]); k++ {
			slots = append(slots, r)
		}
	}
	if len(slots) != len(unknown) {
		return nil, fmt.Errorf("%d pieces of unknown rank, but the army has %d left: %w", len(unknown), len(slots), ErrInconsistentView)
	}
	fits := func(t *PieceTrack, r Rank) bool {
		switch {
		case t.KnownScout && r != Scout:
			return false
		case t.Moved && !r.Movable():
			return false
		}
		for _, n := range t.NotRanks {
			if n == r {
				return false
			}
		}
		return true
	}
	owner := make([]int, len(slots)) // slot -> index into unknown, or -1
	for i := range owner {
		owner[i] = -1
	}
	var seen []bool
	var augment func(u int) bool
	augment = func(u int) bool {
		t := tracks[unknown[u]]
		for s, r := range slots {
			if seen[s] || !fits(t, r) {
				continue
			}
			seen[s] = true
			if owner[s] < 0 || augment(owner[s]) {
				owner[s] = u
				return true
			}
		}
		return false
	}
	for u := range unknown {
		seen = make([]bool, len(slots))
		if !augment(u) {
			t := tracks[unknown[u]]
			return nil, fmt.Errorf("no rank left fits the piece that started on %s: %w", t.Start, ErrInconsistentView)
		}
	}
	for s, u := range owner {
		ranks[unknown[u]] = slots[s]
	}
	return ranks, nil
}
