// Package game holds the rules of Stratego as RULES.md settles them: the board,
// pieces and variants, set-ups, legal moves, battles, the repetition rules, the
// end of the game, what each viewer knows, and the notations for moves and
// records. It opens no files or connections and knows nothing of Discord.
//
// The package reads and writes only through the io.Reader and io.Writer its
// callers hand it (game records).
//
// A Game is the full truth, hidden ranks included. Anything shown to a person
// must go through a View, which holds only what that viewer may know.
package game

import (
	"errors"
	"fmt"
)

// Move is one turn: a move or attack from From to To, or, when Guess is not
// NoRank, an infiltration of the piece on To by the Infiltrator on From.
type Move struct {
	From, To Square
	Guess    Rank
}

// IsInfiltration reports whether the move is an infiltration.
func (m Move) IsInfiltration() bool { return m.Guess != NoRank }

// BattleOutcome tells what happened when a move met an enemy piece.
type BattleOutcome uint8

// The outcomes of a move.
const (
	NoBattle     BattleOutcome = iota // a plain move onto an empty square
	AttackerWon                       // the defender was removed and the attacker moved in
	DefenderWon                       // the attacker was removed
	BothRemoved                       // equal ranks: both were removed
	GuessedRight                      // infiltration: the target was removed
	GuessedWrong                      // infiltration: nothing was removed
)

// MoveRecord is a played move with what it revealed. Everything in it is known
// to both players and the public.
type MoveRecord struct {
	Side Side
	Move Move
	// Outcome says whether there was a battle or an infiltration and how it ended.
	Outcome BattleOutcome
	// Attacker and Defender are the ranks revealed by a battle. After an
	// infiltration Attacker is Infiltrator and Defender is the target's rank
	// only when the guess was right (NoRank otherwise).
	Attacker, Defender Rank
}

// IsAttack reports whether the move was a battle (not a plain move, not an infiltration).
func (r MoveRecord) IsAttack() bool {
	return r.Outcome == AttackerWon || r.Outcome == DefenderWon || r.Outcome == BothRemoved
}

// Outcome is who won: the game may still be on, or won by a side, or drawn.
type Outcome uint8

// The outcomes of a game.
const (
	Ongoing Outcome = iota
	RedWon
	BlueWon
	Drawn
)

// String returns a short description such as "Red won".
func (o Outcome) String() string {
	switch o {
	case Ongoing:
		return "ongoing"
	case RedWon:
		return "Red won"
	case BlueWon:
		return "Blue won"
	case Drawn:
		return "draw"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// WinFor returns the outcome in which side wins.
func WinFor(side Side) Outcome {
	if side == Red {
		return RedWon
	}
	return BlueWon
}

// Method is how a game ended.
type Method uint8

// The ways a game ends.
const (
	NotEnded        Method = iota
	FlagCaptured           // a piece took the Flag (or an Infiltrator named it)
	NoMovablePieces        // the loser, or both players, have no piece that can move (none left, or all walled in)
	NoLegalMoves           // the player to move is blocked by pieces, lakes or the repetition rules
	Resignation
	DrawAgreed
	TimeForfeit
	MoveLimit // max_moves was reached
	Awarded   // a moderator gave the game to one side
)

var methodNames = [...]string{"not ended", "flag captured", "no movable pieces", "no legal moves", "resignation", "draw agreed", "time forfeit", "move limit reached", "awarded"}

// String describes the method, such as "flag captured".
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("Method(%d)", uint8(m))
}

// Result is the outcome of a game and how it came about.
type Result struct {
	Outcome Outcome
	Method  Method
}

// Over reports whether the game has ended.
func (r Result) Over() bool { return r.Outcome != Ongoing }

// Winner returns the winning side and true, or false for a draw or a game still on.
func (r Result) Winner() (Side, bool) {
	switch r.Outcome {
	case RedWon:
		return Red, true
	case BlueWon:
		return Blue, true
	}
	return Red, false
}

// String describes the result: "Blue won (flag captured)".
func (r Result) String() string {
	if !r.Over() {
		return "ongoing"
	}
	return r.Outcome.String() + " (" + r.Method.String() + ")"
}

// Errors callers can test with errors.Is.
var (
	// ErrIllegalMove is wrapped by every *MoveError.
	ErrIllegalMove = errors.New("illegal move")
	// ErrGameOver is returned for any action after the game has ended.
	ErrGameOver = errors.New("the game is over")
	// ErrNotYourTurn is returned when a side acts out of turn.
	ErrNotYourTurn = errors.New("it is not your turn")
	// ErrNoDrawOffer is returned when accepting or declining a draw nobody offered.
	ErrNoDrawOffer = errors.New("there is no draw offer to answer")
	// ErrDrawOffered is returned when a side offers a draw while its own
	// offer stands.
	ErrDrawOffered = errors.New("you have already offered a draw; wait for the answer")
	// ErrDrawOfferedToYou is returned when a side offers a draw while the
	// opponent's offer stands: it is that offer's to answer.
	ErrDrawOfferedToYou = errors.New("your opponent has offered a draw: accept or decline it")
)

// MoveError is an illegal move with a reason a player understands. The reason
// speaks only of the mover's own pieces and of what both players can see, so it
// never reveals a hidden rank of the opponent.
type MoveError struct {
	Move   Move
	Reason string // in English
	Text   Text   // the reason, for its translations
}

func (e *MoveError) Error() string { return e.Reason }

// Unwrap lets errors.Is(err, ErrIllegalMove) match.
func (e *MoveError) Unwrap() error { return ErrIllegalMove }

// illegal refuses m for the reason key says, a txt constant.
func illegal(m Move, key string, args ...any) *MoveError { return illegalText(m, text(key, args...)) }

func illegalText(m Move, t Text) *MoveError { return &MoveError{Move: m, Reason: t.String(), Text: t} }

// piece is one piece's full state, hidden rank included.
type piece struct {
	rank     Rank
	sq       Square // NoSquare once captured
	moved    bool   // the piece has moved: it is no Bomb or Flag
	scout    bool   // it moved more than one square: it is a Scout
	revealed bool   // its rank was shown in a battle or an infiltration
}

// Board cells hold 0 for an empty square, cellLake for a lake, or 1 + a piece index.
// Red's pieces are indices 0–39, Blue's 40–79.
const cellLake = 0xFF

func pieceSide(id int) Side { return Side(id / MaxPieces) }

// Game is a match in play: the position, whose turn it is, the moves so far and
// the repetition state. Its methods are not safe for concurrent use.
type Game struct {
	rules  Rules
	setups [2]Setup

	board   [NumSquares]uint8
	pieces  [2 * MaxPieces]piece
	movable [2]int // live movable pieces per side
	toMove  Side
	moves   []MoveRecord
	result  Result

	hash  uint64
	runs  [2]run // Two-Squares state per side
	chase chase  // More-Squares state

	drawOffer drawOffer
	stepHint  [2]uint8 // per side, the piece canStep found able to move last time
}

type drawOffer struct {
	pending bool
	by      Side
	ply     int // number of moves played when it was made
}

// NewGame starts a game from the two set-ups, which must both be valid for the rules.
func NewGame(rules Rules, red, blue Setup) (*Game, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	g := &Game{rules: rules, setups: [2]Setup{red, blue}}
	for s := Square(0); s < NumSquares; s++ {
		if s.IsLake() {
			g.board[s] = cellLake
		}
	}
	for side := Red; side <= Blue; side++ {
		setup := g.setups[side]
		if err := setup.Validate(rules); err != nil {
			return nil, fmt.Errorf("%s set-up: %w", side, err)
		}
		next := int(side) * MaxPieces
		// Pieces are numbered in square order, so a piece's number follows from
		// where it started: public knowledge.
		for s := Square(0); s < NumSquares; s++ {
			row, col, ok := SetupCell(side, s)
			if !ok || setup[row][col] == NoRank {
				continue
			}
			r := setup[row][col]
			g.pieces[next] = piece{rank: r, sq: s}
			g.board[s] = uint8(next + 1)
			g.hash ^= zobrist(next, s)
			if r.Movable() {
				g.movable[side]++
			}
			next++
		}
		for ; next < int(side+1)*MaxPieces; next++ {
			g.pieces[next] = piece{sq: NoSquare}
		}
	}
	g.checkEnd()
	return g, nil
}

// Rules returns the rules the game is played by.
func (g *Game) Rules() Rules { return g.rules }

// Setup returns a side's starting set-up. It is hidden information: show it only
// to its owner, or to everyone once the game is over.
func (g *Game) Setup(side Side) Setup { return g.setups[side] }

// ToMove returns the side whose turn it is.
func (g *Game) ToMove() Side { return g.toMove }

// Ply returns the number of moves played so far.
func (g *Game) Ply() int { return len(g.moves) }

// Moves returns the moves played so far. The slice must not be modified.
func (g *Game) Moves() []MoveRecord { return g.moves }

// LastMove returns the last move played, and false before the first move.
func (g *Game) LastMove() (MoveRecord, bool) {
	if len(g.moves) == 0 {
		return MoveRecord{}, false
	}
	return g.moves[len(g.moves)-1], true
}

// Result returns the result; Result().Over() is false while the game is on.
func (g *Game) Result() Result { return g.result }

// PieceAt returns the side and rank of the piece on s, and false for an empty
// square or a lake. The rank is the truth: use it only where the viewer may know it.
func (g *Game) PieceAt(s Square) (Side, Rank, bool) {
	if !s.Valid() {
		return Red, NoRank, false
	}
	c := g.board[s]
	if c == 0 || c == cellLake {
		return Red, NoRank, false
	}
	id := int(c) - 1
	return pieceSide(id), g.pieces[id].rank, true
}

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	c := *g
	c.moves = append([]MoveRecord(nil), g.moves...)
	c.chase.positions = append([]uint64(nil), g.chase.positions...)
	return &c
}

// Apply plays m for the side to move, or returns an error saying why it is not
// allowed (a *MoveError wrapping ErrIllegalMove, or ErrGameOver) and changes nothing.
func (g *Game) Apply(m Move) (MoveRecord, error) {
	if err := g.Check(m); err != nil {
		return MoveRecord{}, err
	}
	return g.apply(m), nil
}

// ApplyRecorded plays m, a move of a recorded game that was legal when it was
// played, for the side to move. It checks m as Apply does, except by the
// repetition rules: they judge a move by the game's history, and their reading
// may have grown stricter since the move was accepted (the More-Squares rule
// now counts a chase of several pieces in turn as one chase, as RULES.md
// says), which must not make a stored match stop loading. For the same
// reason it first takes back an end by no legal moves (ResumeRecorded): a
// move recorded after it shows that the end was not judged so when the move
// was played. Rebuild a game from its recorded moves with ApplyRecorded; judge
// new moves with Apply. The repetition state is updated as by Apply, so the
// rules apply again from the next new move.
func (g *Game) ApplyRecorded(m Move) (MoveRecord, error) {
	g.ResumeRecorded()
	if err := g.check(m, false); err != nil {
		return MoveRecord{}, err
	}
	return g.apply(m), nil
}

// ResumeRecorded takes back an end by no legal moves (the repetition rules
// forbade every step of a side) in a game rebuilt from its record, where the
// record says the game went on: an action recorded after that end, or a
// store that holds the game as still under way. Such an end is the only one
// a stricter reading of the repetition rules can bring that the record did
// not have; the side to move then has no legal move, and the game ends as
// the record goes on (a resignation, a time-out). It does nothing to a game
// that is under way or ended otherwise.
func (g *Game) ResumeRecorded() {
	if g.result.Method == NoLegalMoves {
		g.result = Result{}
	}
}

// apply plays a move already known to be legal.
func (g *Game) apply(m Move) MoveRecord {
	side := g.toMove
	id := int(g.board[m.From]) - 1
	rec := MoveRecord{Side: side, Move: m}
	p := &g.pieces[id]
	if m.IsInfiltration() {
		g.infiltrate(&rec, id)
	} else {
		target := g.board[m.To]
		dist := distance(m.From, m.To)
		p.moved = true
		if dist > 1 {
			p.scout = true
		}
		if target == 0 {
			g.relocate(id, m.To)
		} else {
			g.battle(&rec, id, int(target)-1)
		}
	}
	g.moves = append(g.moves, rec)
	g.recordRepetition(side, id, rec)
	if g.drawOffer.pending && g.drawOffer.by == side && g.drawOffer.ply < len(g.moves)-1 {
		// The offerer moved again after the opponent had a turn to answer.
		g.drawOffer.pending = false
	}
	g.toMove = side.Opponent()
	g.checkEnd()
	return rec
}

func (g *Game) relocate(id int, to Square) {
	p := &g.pieces[id]
	g.board[p.sq] = 0
	g.hash ^= zobrist(id, p.sq) ^ zobrist(id, to)
	p.sq = to
	g.board[to] = uint8(id + 1)
}

func (g *Game) remove(id int) {
	p := &g.pieces[id]
	g.board[p.sq] = 0
	g.hash ^= zobrist(id, p.sq)
	p.sq = NoSquare
	if p.rank.Movable() {
		g.movable[pieceSide(id)]--
	}
}

// Fight returns the outcome of a piece of rank attacker attacking one of rank defender.
func Fight(attacker, defender Rank) BattleOutcome {
	switch {
	case defender == Flag:
		return AttackerWon
	case defender == Bomb:
		if attacker == Miner {
			return AttackerWon
		}
		return DefenderWon
	case attacker == Spy && defender == Marshal:
		return AttackerWon
	}
	a, d := attacker.strength(), defender.strength()
	switch {
	case a > d:
		return AttackerWon
	case a < d:
		return DefenderWon
	}
	return BothRemoved
}

func (g *Game) battle(rec *MoveRecord, attacker, defender int) {
	a, d := &g.pieces[attacker], &g.pieces[defender]
	a.revealed, d.revealed = true, true
	rec.Attacker, rec.Defender = a.rank, d.rank
	rec.Outcome = Fight(a.rank, d.rank)
	to := d.sq
	switch rec.Outcome {
	case AttackerWon:
		g.remove(defender)
		g.relocate(attacker, to)
		if d.rank == Flag {
			g.result = Result{Outcome: WinFor(pieceSide(attacker)), Method: FlagCaptured}
		}
	case DefenderWon:
		g.remove(attacker)
	case BothRemoved:
		g.remove(attacker)
		g.remove(defender)
	}
}

func (g *Game) infiltrate(rec *MoveRecord, id int) {
	target := int(g.board[rec.Move.To]) - 1
	g.pieces[id].revealed = true
	rec.Attacker = Infiltrator
	if g.pieces[target].rank != rec.Move.Guess {
		rec.Outcome = GuessedWrong
		return
	}
	rec.Outcome = GuessedRight
	rec.Defender = g.pieces[target].rank
	g.pieces[target].revealed = true
	g.remove(target)
	if rec.Defender == Flag {
		g.result = Result{Outcome: WinFor(pieceSide(id)), Method: FlagCaptured}
	}
}

// checkEnd applies the end-of-game rules that follow a move. As RULES.md says,
// both sides' moves are counted after every move, each as if it were that
// side's turn: a side left without a legal move loses at once, even right
// after its own move (its only piece has just made its last allowed
// Two-Squares shuttle), and a game in which neither side can move is drawn.
func (g *Game) checkEnd() {
	if g.result.Over() {
		return
	}
	redStep, redLegal := g.canMove(Red)
	blueStep, blueLegal := g.canMove(Blue)
	// A side that cannot step at all has no movable piece; one whose steps the
	// repetition rules all forbid has no legal move.
	method := func(step bool) Method {
		if step {
			return NoLegalMoves
		}
		return NoMovablePieces
	}
	switch {
	case !redLegal && !blueLegal:
		m := NoMovablePieces
		if redStep || blueStep {
			m = NoLegalMoves
		}
		g.result = Result{Outcome: Drawn, Method: m}
	case !redLegal:
		g.result = Result{Outcome: BlueWon, Method: method(redStep)}
	case !blueLegal:
		g.result = Result{Outcome: RedWon, Method: method(blueStep)}
	case g.rules.MaxMoves > 0 && len(g.moves) >= g.rules.MaxMoves:
		g.result = Result{Outcome: Drawn, Method: MoveLimit}
	}
	if g.result.Over() {
		g.drawOffer.pending = false
	}
}

// canMove reports whether side has a piece that can step at all (a piece of a
// movable rank next to an empty square or an enemy piece), and whether it has
// a legal move were it its turn, the repetition rules applied. Pieces walled
// in by their own side, lakes and the edge do not count, as Gravon scores it
// (a player "cannot move anything" when Bombs block the last moving pieces).
// It runs after every move: no allocation, and only the pieces a repetition
// rule restricts (at most a few) have their moves generated.
func (g *Game) canMove(side Side) (step, legal bool) {
	if g.movable[side] == 0 {
		return false, false
	}
	enemyLo := uint8(MaxPieces)
	if side == Blue {
		enemyLo = 0
	}
	base := int(side) * MaxPieces
	var buf [128]Move
	// Start with the piece found last time: it usually still can.
	start := int(g.stepHint[side])
	for k := 0; k < MaxPieces; k++ {
		id := base + (start+k)%MaxPieces
		p := &g.pieces[id]
		if p.sq == NoSquare || !p.rank.Movable() {
			continue
		}
		free := false
		for _, n := range neighbours[p.sq] {
			if n == NoSquare {
				continue
			}
			if c := g.board[n]; c == 0 || (c != cellLake && c-1-enemyLo < MaxPieces) {
				free = true
				break
			}
		}
		if !free {
			continue
		}
		step = true
		// A step that no repetition rule restricts is a legal move; a Scout's
		// longer moves and an Infiltrator's infiltrations only add to the
		// moves of a piece that can step, so only restricted pieces need all
		// their moves generated.
		if !g.restricted(side, id) || len(g.appendPieceMoves(buf[:0], id)) > 0 {
			g.stepHint[side] = uint8(id - base)
			return true, true
		}
	}
	return step, false
}

// Resign ends the game: side loses.
func (g *Game) Resign(side Side) error {
	if g.result.Over() {
		return ErrGameOver
	}
	g.result = Result{Outcome: WinFor(side.Opponent()), Method: Resignation}
	g.drawOffer.pending = false
	return nil
}

// TimeOut ends the game because side, which is to move, let its move time run out.
func (g *Game) TimeOut(side Side) error {
	if g.result.Over() {
		return ErrGameOver
	}
	if side != g.toMove {
		return fmt.Errorf("%s cannot lose on time while it is %s's turn: %w", side, g.toMove, ErrNotYourTurn)
	}
	g.result = Result{Outcome: WinFor(side.Opponent()), Method: TimeForfeit}
	g.drawOffer.pending = false
	return nil
}

// Award ends the game as won by winner, by a decision outside the board (a
// moderator's): the result the players get when one of them cannot or will
// not finish the game.
func (g *Game) Award(winner Side) error {
	if g.result.Over() {
		return ErrGameOver
	}
	if winner > Blue {
		return fmt.Errorf("no side %d to award the game to", winner)
	}
	g.result = Result{Outcome: WinFor(winner), Method: Awarded}
	g.drawOffer.pending = false
	return nil
}

// OfferDraw records side's offer of a draw. It stands until the opponent
// accepts or declines it, or until side moves again after the opponent's turn.
func (g *Game) OfferDraw(side Side) error {
	if g.result.Over() {
		return ErrGameOver
	}
	if g.drawOffer.pending {
		if g.drawOffer.by == side {
			return ErrDrawOffered
		}
		return ErrDrawOfferedToYou
	}
	g.drawOffer = drawOffer{pending: true, by: side, ply: len(g.moves)}
	return nil
}

// DrawOffer returns the side that offered a draw still standing, and false when there is none.
func (g *Game) DrawOffer() (Side, bool) { return g.drawOffer.by, g.drawOffer.pending }

// AcceptDraw ends the game in a draw when the opponent of side has an offer standing.
func (g *Game) AcceptDraw(side Side) error {
	if g.result.Over() {
		return ErrGameOver
	}
	if !g.drawOffer.pending || g.drawOffer.by == side {
		return ErrNoDrawOffer
	}
	g.result = Result{Outcome: Drawn, Method: DrawAgreed}
	g.drawOffer.pending = false
	return nil
}

// DeclineDraw withdraws a standing offer: side declines the opponent's offer, or takes back its own.
func (g *Game) DeclineDraw(side Side) error {
	if g.result.Over() {
		return ErrGameOver
	}
	if !g.drawOffer.pending {
		return ErrNoDrawOffer
	}
	g.drawOffer.pending = false
	return nil
}

func distance(a, b Square) int {
	dc, dr := a.Col()-b.Col(), a.Row()-b.Row()
	if dc < 0 {
		dc = -dc
	}
	if dr < 0 {
		dr = -dr
	}
	return dc + dr
}

// zobristKeys gives every piece on every square a random 64-bit key, so a
// position hashes to the XOR of its pieces' keys. It is built once and never changed.
var zobristKeys = ZobristTable(0x9E3779B97F4A7C15)

// ZobristTable returns a key for every piece id (0 to 2*MaxPieces-1) on every
// square, drawn by splitmix64 from seed: the same seed, the same keys. Each
// hash of positions (the game's repetition rules, the computer's search)
// builds its table here with a seed of its own.
func ZobristTable(seed uint64) (k [2 * MaxPieces][NumSquares]uint64) {
	x := seed
	for i := range k {
		for s := range k[i] {
			x += 0x9E3779B97F4A7C15
			z := x
			z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
			z = (z ^ (z >> 27)) * 0x94D049BB133111EB
			k[i][s] = z ^ (z >> 31)
		}
	}
	return k
}

func zobrist(id int, s Square) uint64 { return zobristKeys[id][s] }
