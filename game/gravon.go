// Game records in the Gravon XML format.
//
// This file reads and writes game records in the Gravon XML format
// (gravon/README.md), the format of the archive of real games played on
// Gravon, and replays them: see Record, ParseGravon, WriteGravon and Replay.
//
// # The Gravon format
//
//	<stratego>
//	 <game type="classic">
//	  <field content="FBEGBFBMHB…AA__AA__AA…NNRNYVNNPN"/>
//	  <move id="1" source="B4" target="B7"/>
//	  <player id="1">Red's name</player> <player id="2">Blue's name</player>
//	  <result type="1" winner="2"/>
//	 </game>
//	</stratego>
//
// The game type is classic, barrage or duell. The field is 100 characters, one
// per square in Square order (A1 first, J10 last): A empty, _ lake, B–M Red's
// Bomb, Spy, Scout, Miner, Sergeant, Lieutenant, Captain, Major, Colonel,
// General, Marshal, Flag, and N–Y Blue's pieces in the same order. Squares in
// moves use the columns A B C D E F G H I K (Gravon's K is this project's J)
// and the rows 1–9 and : for 10. Result types: 0 the loser has no movable
// piece or no legal move (counted after every move for both sides, so the
// loser may be the side that just moved), 1 flag captured, 2 neither side can
// move (a draw),
// 3 resigned or left, 4 draw agreed, 10–14 time-outs or a player missing;
// winner 1 Red, 2 Blue, 3 draw.
//
// # This project's extensions
//
// Records written by WriteGravon can hold everything a game of this project
// has. The extensions are attributes a plain Gravon reader ignores, or values
// it rejects rather than misreads:
//
//   - <game type="infiltrator"> and <game type="custom" army="10 9 3 2 2 S B F">
//     for the two variants Gravon lacks; army lists a Custom army in modern
//     numbering (Army.Format).
//   - The match options as attributes of <game>: two_squares="3|5|off",
//     more_squares="on|off", scout_strikes_at_range="on|off" and
//     max_moves="N|off". WriteGravon writes all four when the record states
//     its rules (Record.RulesStated); a file with none of them states no rules.
//   - Field letters Z for Red's Infiltrator and z for Blue's.
//   - An infiltration is a move with a guess attribute, the guessed piece in
//     modern numbering: <move id="7" source="E8" target="E10" guess="F"/>.
//   - <result method="…"> names how the game ended when the Gravon type says
//     too little: no-movable-pieces, no-legal-moves, flag-captured,
//     resignation, draw-agreed, time-forfeit or move-limit. A time forfeit is
//     written as type 11 and a move limit as type 4 (a draw), the nearest
//     Gravon types. A game still on is written without a <result>.

package game

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Record is one game as a record holds it: the rules, both set-ups, the moves,
// the players and the recorded result. Nothing in it has been checked against
// the rules; Replay does that.
type Record struct {
	// Rules holds the variant and army and, when RulesStated, the options the
	// game was played with. A plain Gravon file states no options: Rules then
	// holds DefaultRules of the variant.
	Rules Rules
	// RulesStated reports whether the record states its options (files written
	// by WriteGravon do).
	RulesStated bool
	// Setups holds Red's and Blue's set-ups (indexed by Side), each as its owner sees it.
	Setups [2]Setup
	// Moves are the moves in the order played; Red made the first.
	Moves []Move
	// Players holds the names of Red's and Blue's players.
	Players [2]string
	// Result is the recorded end. Result.Over() is false for a game still on
	// (a record without a <result>).
	Result Result
	// ResultType and Winner are the raw Gravon codes of the <result>, kept so
	// that nothing of the record is lost (several types map to one Method).
	// Winner is 0 when they are not set: WriteGravon then derives both from Result.
	ResultType, Winner int
}

// The Gravon winner codes.
const (
	gravonRed  = 1
	gravonBlue = 2
	gravonDraw = 3
)

// The Gravon result types this package writes. Types 10–14 are all read.
const (
	gravonNoMovable    = 0
	gravonFlag         = 1
	gravonNeitherMoves = 2
	gravonResigned     = 3
	gravonDrawAgreed   = 4
	gravonTimeOut      = 11
)

// ErrUnsupported is wrapped by every *UnsupportedError.
var ErrUnsupported = errors.New("record cannot be checked")

// UnsupportedError is a record that is readable but cannot be checked against
// the rules: a variant this project does not play, a game without a field, or
// moves recorded after the game had ended. Callers skip such records.
type UnsupportedError struct {
	// Reason says why, in a few words that are the same for every record
	// skipped for that reason, such as `game type "classicfree"`.
	Reason string
}

// Error reads "unsupported record: " and the reason.
func (e *UnsupportedError) Error() string { return "unsupported record: " + e.Reason }

// Unwrap lets errors.Is(err, ErrUnsupported) match.
func (e *UnsupportedError) Unwrap() error { return ErrUnsupported }

// IllegalMoveError is a recorded move that the rules engine refuses.
type IllegalMoveError struct {
	// Number counts the moves from 1 (Red's first move).
	Number int
	// Move is the refused move.
	Move Move
	// Err is the engine's reason, usually a *MoveError.
	Err error
}

// Error reads "move 12 B4-B7: " and the engine's reason.
func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("move %d %s: %v", e.Number, e.Move, e.Err)
}

// Unwrap returns the engine's error, so errors.Is(err, ErrIllegalMove) matches.
func (e *IllegalMoveError) Unwrap() error { return e.Err }

// ResultMismatchError is a game that the engine ends differently from the record.
type ResultMismatchError struct {
	// Got is the engine's result after Ply moves; Recorded is the record's.
	Got, Recorded Result
	// Ply is the number of moves played when the engine's game ended or the
	// record ran out; it is below Moves, the number of recorded moves, when
	// the engine ended the game before the record did.
	Ply, Moves int
}

// Error reads "result Red won (flag captured), recorded Blue won (resignation)",
// with "after move N of M" behind the engine's result when it came early.
func (e *ResultMismatchError) Error() string {
	if e.Ply < e.Moves {
		return fmt.Sprintf("result %s after move %d of %d, recorded %s", e.Got, e.Ply, e.Moves, e.Recorded)
	}
	return fmt.Sprintf("result %s, recorded %s", e.Got, e.Recorded)
}

// gravonGameTypes maps the game types this package reads to variants.
var gravonGameTypes = map[string]Variant{
	"classic":     VariantClassic,
	"barrage":     VariantBarrage,
	"duell":       VariantDuel,
	"infiltrator": VariantInfiltrator,
	"custom":      VariantCustom,
}

// gravonGameType returns the type attribute written for a variant.
func gravonGameType(v Variant) string {
	if v == VariantDuel {
		return "duell"
	}
	return strings.ToLower(v.String())
}

// Field letters: the Gravon order of the ranks, from Bomb (B for Red, N for Blue) to Flag.
var gravonPieceOrder = [...]Rank{Bomb, Spy, Scout, Miner, Sergeant, Lieutenant, Captain, Major, Colonel, General, Marshal, Flag}

// The extension's Infiltrator letters: Z is the only capital Gravon leaves free.
const (
	redInfiltratorLetter  = 'Z'
	blueInfiltratorLetter = 'z'
)

// gravonFieldLetter returns the field character of a piece.
func gravonFieldLetter(side Side, r Rank) byte {
	if r == Infiltrator {
		if side == Red {
			return redInfiltratorLetter
		}
		return blueInfiltratorLetter
	}
	for i, k := range gravonPieceOrder {
		if k == r {
			if side == Red {
				return byte('B' + i)
			}
			return byte('N' + i)
		}
	}
	return 'A'
}

// gravonFieldPiece reads a field character other than A and _.
func gravonFieldPiece(c byte) (Side, Rank, bool) {
	switch {
	case c == redInfiltratorLetter:
		return Red, Infiltrator, true
	case c == blueInfiltratorLetter:
		return Blue, Infiltrator, true
	case c >= 'B' && c <= 'M':
		return Red, gravonPieceOrder[c-'B'], true
	case c >= 'N' && c <= 'Y':
		return Blue, gravonPieceOrder[c-'N'], true
	}
	return Red, NoRank, false
}

// gravonColumns are the column letters of Gravon squares: no J.
const gravonColumns = "ABCDEFGHIK"

// parseGravonSquare reads a Gravon square such as "B4", "K7" (J7) or "E:" (E10).
func parseGravonSquare(text string) (Square, error) {
	if len(text) != 2 {
		return NoSquare, fmt.Errorf("%q is not a Gravon square: want a column A–I or K and a row 1–9 or : (10)", text)
	}
	col := strings.IndexByte(gravonColumns, text[0])
	if col < 0 {
		return NoSquare, fmt.Errorf("%q is not a Gravon square: the column must be one of %s", text, gravonColumns)
	}
	c := text[1]
	if c < '1' || c > ':' {
		return NoSquare, fmt.Errorf("%q is not a Gravon square: the row must be 1–9 or : (10)", text)
	}
	return SquareAt(col, int(c-'1')), nil
}

// gravonSquare writes s in Gravon notation.
func gravonSquare(s Square) string {
	return string([]byte{gravonColumns[s.Col()], byte('1' + s.Row())})
}

// The XML elements as Gravon writes them, with this package's extra attributes.
type gravonDoc struct {
	XMLName xml.Name     `xml:"stratego"`
	Games   []gravonGame `xml:"game"`
}

type gravonGame struct {
	Type         *string        `xml:"type,attr"`
	Army         *string        `xml:"army,attr"`
	TwoSquares   *string        `xml:"two_squares,attr"`
	MoreSquares  *string        `xml:"more_squares,attr"`
	ScoutStrikes *string        `xml:"scout_strikes_at_range,attr"`
	MaxMoves     *string        `xml:"max_moves,attr"`
	Fields       []gravonField  `xml:"field"`
	Moves        []gravonMove   `xml:"move"`
	Players      []gravonPlayer `xml:"player"`
	Results      []gravonResult `xml:"result"`
}

type gravonField struct {
	Content string `xml:"content,attr"`
}

type gravonMove struct {
	ID     string  `xml:"id,attr"`
	Source string  `xml:"source,attr"`
	Target string  `xml:"target,attr"`
	Guess  *string `xml:"guess,attr"`
}

type gravonPlayer struct {
	ID   string `xml:"id,attr"`
	Name string `xml:",chardata"`
}

type gravonResult struct {
	Type   *string `xml:"type,attr"`
	Winner *string `xml:"winner,attr"`
	Method *string `xml:"method,attr"`
}

// ParseGravon reads one game record in the Gravon XML format, with this
// package's extensions (see the package documentation). A readable record of a
// variant this project does not play (classicfree, ultimate lightning), or
// without a field, gives an *UnsupportedError; anything malformed gives an
// error that says what is wrong.
func ParseGravon(r io.Reader) (*Record, error) {
	var doc gravonDoc
	if err := xml.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("gravon: reading XML: %w", err)
	}
	if len(doc.Games) != 1 {
		return nil, fmt.Errorf("gravon: a record holds one <game>, this one %d", len(doc.Games))
	}
	g := &doc.Games[0]
	if g.Type == nil {
		return nil, errors.New("gravon: <game> has no type")
	}
	variant, ok := gravonGameTypes[strings.ToLower(strings.TrimSpace(*g.Type))]
	if !ok {
		return nil, &UnsupportedError{Reason: fmt.Sprintf("game type %q", *g.Type)}
	}
	rec := &Record{}
	if err := rec.readRules(g, variant); err != nil {
		return nil, fmt.Errorf("gravon: %w", err)
	}
	switch {
	case len(g.Fields) == 0 || g.Fields[0].Content == "":
		return nil, &UnsupportedError{Reason: "no field"}
	case len(g.Fields) > 1:
		return nil, fmt.Errorf("gravon: the record has %d fields, want one", len(g.Fields))
	}
	setups, err := parseGravonField(g.Fields[0].Content)
	if err != nil {
		return nil, fmt.Errorf("gravon: field: %w", err)
	}
	rec.Setups = setups
	for i, m := range g.Moves {
		mv, err := parseGravonMove(m, i+1)
		if err != nil {
			return nil, fmt.Errorf("gravon: %w", err)
		}
		rec.Moves = append(rec.Moves, mv)
	}
	if err := rec.readPlayers(g.Players); err != nil {
		return nil, fmt.Errorf("gravon: %w", err)
	}
	switch len(g.Results) {
	case 0:
	case 1:
		if err := rec.readResult(g.Results[0]); err != nil {
			return nil, fmt.Errorf("gravon: result: %w", err)
		}
	default:
		return nil, fmt.Errorf("gravon: the record has %d results, want one", len(g.Results))
	}
	return rec, nil
}

// readRules sets the variant, army and options from the <game> attributes.
func (rec *Record) readRules(g *gravonGame, v Variant) error {
	rules := DefaultRules(v)
	switch {
	case v == VariantCustom && g.Army == nil:
		return errors.New(`a custom game needs an army attribute, such as army="10 9 3 2 2 S B F"`)
	case v == VariantCustom:
		a, err := ParseArmy(*g.Army, NumberingModern)
		if err != nil {
			return fmt.Errorf("army: %w", err)
		}
		rules.Army = a
	case g.Army != nil:
		return fmt.Errorf("an army attribute belongs to custom games only, not %s", v)
	}
	if g.TwoSquares != nil {
		rec.RulesStated = true
		switch t := strings.TrimSpace(*g.TwoSquares); t {
		case "off", "0":
			rules.TwoSquares = 0
		case "3", "5":
			rules.TwoSquares = int(t[0] - '0')
		default:
			return fmt.Errorf("two_squares is 3, 5 or off, not %q", *g.TwoSquares)
		}
	}
	for _, opt := range []struct {
		name string
		attr *string
		dst  *bool
	}{
		{"more_squares", g.MoreSquares, &rules.MoreSquares},
		{"scout_strikes_at_range", g.ScoutStrikes, &rules.ScoutStrikesAtRange},
	} {
		if opt.attr == nil {
			continue
		}
		rec.RulesStated = true
		switch strings.TrimSpace(*opt.attr) {
		case "on":
			*opt.dst = true
		case "off":
			*opt.dst = false
		default:
			return fmt.Errorf("%s is on or off, not %q", opt.name, *opt.attr)
		}
	}
	if g.MaxMoves != nil {
		rec.RulesStated = true
		t := strings.TrimSpace(*g.MaxMoves)
		if t == "off" {
			t = "0"
		}
		n, err := strconv.Atoi(t)
		if err != nil {
			return fmt.Errorf("max_moves is a number or off, not %q", *g.MaxMoves)
		}
		rules.MaxMoves = n
	}
	if err := rules.Validate(); err != nil {
		return err
	}
	rec.Rules = rules
	return nil
}

// parseGravonField converts the 100 absolute squares of a field into both set-ups.
func parseGravonField(content string) ([2]Setup, error) {
	var setups [2]Setup
	if len(content) != NumSquares {
		return setups, fmt.Errorf("%d characters, want %d", len(content), NumSquares)
	}
	for i := 0; i < NumSquares; i++ {
		s, c := Square(i), content[i]
		switch {
		case s.IsLake() && c != '_':
			return setups, fmt.Errorf("%s is a lake, but the field has %q there", s, c)
		case s.IsLake() || c == 'A':
			continue
		case c == '_':
			return setups, fmt.Errorf("the field puts a lake on %s", s)
		}
		side, rank, ok := gravonFieldPiece(c)
		if !ok {
			return setups, fmt.Errorf("%q on %s is not a field character", c, s)
		}
		row, col, ok := SetupCell(side, s)
		if !ok {
			return setups, fmt.Errorf("%s's %s on %s is outside %s's set-up zone", side, rank.Name(), s, side)
		}
		setups[side][row][col] = rank
	}
	return setups, nil
}

// formatGravonField writes both set-ups as the 100 absolute squares of a field.
func formatGravonField(setups [2]Setup) string {
	var b [NumSquares]byte
	for i := range b {
		s := Square(i)
		b[i] = 'A'
		if s.IsLake() {
			b[i] = '_'
			continue
		}
		for side := Red; side <= Blue; side++ {
			if row, col, ok := SetupCell(side, s); ok && setups[side][row][col] != NoRank {
				b[i] = gravonFieldLetter(side, setups[side][row][col])
			}
		}
	}
	return string(b[:])
}

func parseGravonMove(m gravonMove, n int) (Move, error) {
	if id, err := strconv.Atoi(strings.TrimSpace(m.ID)); err != nil || id != n {
		return Move{}, fmt.Errorf("move %d has id %q; ids count 1, 2, 3 …", n, m.ID)
	}
	from, err := parseGravonSquare(m.Source)
	if err != nil {
		return Move{}, fmt.Errorf("move %d: source: %w", n, err)
	}
	to, err := parseGravonSquare(m.Target)
	if err != nil {
		return Move{}, fmt.Errorf("move %d: target: %w", n, err)
	}
	mv := Move{From: from, To: to}
	if m.Guess != nil {
		r, err := ParseRank(*m.Guess, NumberingModern)
		if err != nil {
			return Move{}, fmt.Errorf("move %d: guess: %w", n, err)
		}
		mv.Guess = r
	}
	return mv, nil
}

func (rec *Record) readPlayers(players []gravonPlayer) error {
	var seen [2]bool
	for _, p := range players {
		var side Side
		switch strings.TrimSpace(p.ID) {
		case "1":
			side = Red
		case "2":
			side = Blue
		default:
			return fmt.Errorf("player id %q: want 1 (Red) or 2 (Blue)", p.ID)
		}
		if seen[side] {
			return fmt.Errorf("two players with id %s", p.ID)
		}
		seen[side] = true
		rec.Players[side] = p.Name
	}
	return nil
}

// gravonMethods are the values of the method attribute, indexed by Method.
var gravonMethods = [...]string{
	NoMovablePieces: "no-movable-pieces",
	NoLegalMoves:    "no-legal-moves",
	FlagCaptured:    "flag-captured",
	Resignation:     "resignation",
	DrawAgreed:      "draw-agreed",
	TimeForfeit:     "time-forfeit",
	MoveLimit:       "move-limit",
	Awarded:         "awarded",
}

// gravonTypeMethods says, for each result type, the methods it may stand for; the first is the one a plain Gravon type means.
func gravonTypeMethods(typ int) []Method {
	switch typ {
	case gravonNoMovable:
		return []Method{NoMovablePieces, NoLegalMoves}
	case gravonFlag:
		return []Method{FlagCaptured}
	case gravonNeitherMoves:
		return []Method{NoMovablePieces, NoLegalMoves}
	case gravonResigned:
		return []Method{Resignation, Awarded}
	case gravonDrawAgreed:
		return []Method{DrawAgreed, MoveLimit}
	case 10, 11, 12, 13, 14:
		return []Method{TimeForfeit}
	}
	return nil
}

func (rec *Record) readResult(res gravonResult) error {
	if res.Type == nil || res.Winner == nil {
		return errors.New("a result needs a type and a winner")
	}
	typ, err := strconv.Atoi(strings.TrimSpace(*res.Type))
	if err != nil {
		return fmt.Errorf("type %q is not a number", *res.Type)
	}
	winner, err := strconv.Atoi(strings.TrimSpace(*res.Winner))
	if err != nil {
		return fmt.Errorf("winner %q is not a number", *res.Winner)
	}
	var outcome Outcome
	switch winner {
	case gravonRed:
		outcome = RedWon
	case gravonBlue:
		outcome = BlueWon
	case gravonDraw:
		outcome = Drawn
	default:
		return fmt.Errorf("winner %d: want 1 (Red), 2 (Blue) or 3 (draw)", winner)
	}
	methods := gravonTypeMethods(typ)
	if methods == nil {
		return &UnsupportedError{Reason: fmt.Sprintf("result type %d", typ)}
	}
	method := methods[0]
	if res.Method != nil {
		method = NotEnded
		for m, name := range gravonMethods {
			if name != "" && name == strings.TrimSpace(*res.Method) {
				method = Method(m)
			}
		}
		if method == NotEnded {
			return fmt.Errorf("method %q is not a way a game ends", *res.Method)
		}
		ok := false
		for _, m := range methods {
			ok = ok || m == method
		}
		if !ok {
			return fmt.Errorf("method %s does not fit result type %d", *res.Method, typ)
		}
	}
	draw := outcome == Drawn
	switch {
	case draw && (method == FlagCaptured || method == Resignation || typ == gravonNoMovable):
		return fmt.Errorf("result type %d (%s) has a winner, not a draw", typ, method)
	case !draw && (method == DrawAgreed || method == MoveLimit || typ == gravonNeitherMoves):
		return fmt.Errorf("result type %d (%s) is a draw, not a win for %s", typ, method, outcome)
	}
	rec.Result = Result{Outcome: outcome, Method: method}
	rec.ResultType, rec.Winner = typ, winner
	return nil
}

// gravonResultCodes returns the Gravon type and winner of a result that is over.
func gravonResultCodes(r Result) (typ, winner int) {
	switch r.Outcome {
	case RedWon:
		winner = gravonRed
	case BlueWon:
		winner = gravonBlue
	default:
		winner = gravonDraw
	}
	switch r.Method {
	case FlagCaptured:
		typ = gravonFlag
	case NoMovablePieces, NoLegalMoves:
		typ = gravonNoMovable
		if r.Outcome == Drawn {
			typ = gravonNeitherMoves
		}
	case Resignation, Awarded:
		typ = gravonResigned
	case TimeForfeit:
		typ = gravonTimeOut
	default: // DrawAgreed, MoveLimit
		typ = gravonDrawAgreed
	}
	return typ, winner
}

// NewRecord returns the record of a game, finished or still on, with the
// players' names. It states the game's rules (RulesStated).
func NewRecord(g *Game, red, blue string) *Record {
	rec := &Record{
		Rules:       g.Rules(),
		RulesStated: true,
		Setups:      [2]Setup{g.Setup(Red), g.Setup(Blue)},
		Players:     [2]string{red, blue},
		Result:      g.Result(),
	}
	for _, m := range g.Moves() {
		rec.Moves = append(rec.Moves, m.Move)
	}
	if rec.Result.Over() {
		rec.ResultType, rec.Winner = gravonResultCodes(rec.Result)
	}
	return rec
}

// WriteGravon writes the record in the Gravon XML format, with this package's
// extensions where the record needs them (see the package documentation).
// ParseGravon reads it back to an equal Record, except that characters XML
// cannot hold in player names are replaced by U+FFFD.
func (rec *Record) WriteGravon(w io.Writer) error {
	if err := rec.Rules.Validate(); err != nil {
		return fmt.Errorf("gravon: %w", err)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<stratego>\n <game type=\"")
	bw.WriteString(gravonGameType(rec.Rules.Variant))
	bw.WriteByte('"')
	if rec.Rules.Variant == VariantCustom {
		writeGravonAttr(bw, "army", rec.Rules.Army.Format(NumberingModern))
	}
	if rec.RulesStated {
		r := rec.Rules
		writeGravonAttr(bw, "two_squares", gravonOffOr(r.TwoSquares))
		writeGravonAttr(bw, "more_squares", gravonOnOff(r.MoreSquares))
		writeGravonAttr(bw, "scout_strikes_at_range", gravonOnOff(r.ScoutStrikesAtRange))
		writeGravonAttr(bw, "max_moves", gravonOffOr(r.MaxMoves))
	}
	bw.WriteString(">\n  <field content=\"")
	bw.WriteString(formatGravonField(rec.Setups))
	bw.WriteString("\"/>\n")
	for i, m := range rec.Moves {
		if !m.From.Valid() || !m.To.Valid() {
			return fmt.Errorf("gravon: move %d is not on the board", i+1)
		}
		fmt.Fprintf(bw, "  <move id=\"%d\" source=\"%s\" target=\"%s\"", i+1, gravonSquare(m.From), gravonSquare(m.To))
		if m.IsInfiltration() {
			if !m.Guess.Valid() {
				return fmt.Errorf("gravon: move %d guesses no piece", i+1)
			}
			writeGravonAttr(bw, "guess", m.Guess.Label(NumberingModern))
		}
		bw.WriteString("/>\n")
	}
	for side := Red; side <= Blue; side++ {
		fmt.Fprintf(bw, "  <player id=\"%d\">", side+1)
		if err := xml.EscapeText(bw, []byte(rec.Players[side])); err != nil {
			return fmt.Errorf("gravon: player name: %w", err)
		}
		bw.WriteString("</player>\n")
	}
	if rec.Result.Over() {
		typ, winner := rec.ResultType, rec.Winner
		if winner == 0 {
			typ, winner = gravonResultCodes(rec.Result)
		}
		if int(rec.Result.Method) >= len(gravonMethods) || gravonMethods[rec.Result.Method] == "" {
			return fmt.Errorf("gravon: result %s has no method", rec.Result)
		}
		fmt.Fprintf(bw, "  <result type=\"%d\" winner=\"%d\" method=\"%s\"/>\n", typ, winner, gravonMethods[rec.Result.Method])
	}
	bw.WriteString(" </game>\n</stratego>\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gravon: %w", err)
	}
	return nil
}

// writeGravonAttr writes ` name="value"` with the value escaped.
func writeGravonAttr(w *bufio.Writer, name, value string) {
	w.WriteString(" " + name + "=\"")
	xml.EscapeText(w, []byte(value)) // writes to a bufio.Writer only fail at Flush
	w.WriteByte('"')
}

func gravonOnOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func gravonOffOr(n int) string {
	if n == 0 {
		return "off"
	}
	return strconv.Itoa(n)
}

// Replay plays a record by the given rules, which must be for the record's
// variant and army (rec.Rules plays it by the rules it states). It returns the
// game as far as it got (nil when it could not start) and:
//
//   - an *IllegalMoveError for the first move the engine refuses;
//   - a *ResultMismatchError when the engine ends the game differently from
//     the record: a flag capture (type 1), no movable piece or no legal move
//     (type 0, or type 2 for the draw) or a move limit must be the engine's
//     result after the last move, with the same winner; every other ending
//     (resignation, agreed draw, time) needs a game the engine still has on;
//   - an *UnsupportedError when the engine ended the game as recorded but the
//     record goes on with more moves;
//   - another error when the set-ups do not fit the rules.
//
// When the record ends the game off the board, Replay applies that ending to
// the game: Resign by the loser; OfferDraw and AcceptDraw for an agreed draw;
// for a time-out or a missing player (types 10–14), TimeOut when the loser is
// to move, else Resign by the loser (a player who left), and an agreed draw
// when Gravon scored the game as a draw, since the engine has no other way to
// end a game drawn.
func Replay(rec *Record, rules Rules) (*Game, error) {
	if rules.Variant != rec.Rules.Variant || rules.Army != rec.Rules.Army {
		return nil, fmt.Errorf("replay: the record is a %s game (army %s); the rules are for %s (army %s)", rec.Rules.Variant, rec.Rules.Army, rules.Variant, rules.Army)
	}
	g, err := NewGame(rules, rec.Setups[Red], rec.Setups[Blue])
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	for i, m := range rec.Moves {
		if got := g.Result(); got.Over() {
			if endsAsRecorded(got, rec.Result) {
				return g, &UnsupportedError{Reason: "moves recorded after the end of the game"}
			}
			return g, &ResultMismatchError{Got: got, Recorded: rec.Result, Ply: i, Moves: len(rec.Moves)}
		}
		if _, err := g.Apply(m); err != nil {
			return g, &IllegalMoveError{Number: i + 1, Move: m, Err: err}
		}
	}
	got := g.Result()
	switch rec.Result.Method {
	case FlagCaptured, NoMovablePieces, NoLegalMoves, MoveLimit:
		if !endsAsRecorded(got, rec.Result) {
			return g, &ResultMismatchError{Got: got, Recorded: rec.Result, Ply: g.Ply(), Moves: len(rec.Moves)}
		}
		return g, nil
	}
	if got.Over() {
		return g, &ResultMismatchError{Got: got, Recorded: rec.Result, Ply: g.Ply(), Moves: len(rec.Moves)}
	}
	if err := applyRecordedEnding(g, rec.Result); err != nil {
		return g, fmt.Errorf("replay: applying the recorded end %s: %w", rec.Result, err)
	}
	return g, nil
}

// endsAsRecorded reports whether the engine's result is the recorded one, for
// endings the board decides. Gravon's type 0 does not say whether the loser had
// no movable piece or only no legal move, so those two agree with each other.
func endsAsRecorded(got, recorded Result) bool {
	if got.Outcome != recorded.Outcome {
		return false
	}
	switch recorded.Method {
	case NoMovablePieces, NoLegalMoves:
		return got.Method == NoMovablePieces || got.Method == NoLegalMoves
	case FlagCaptured, MoveLimit:
		return got.Method == recorded.Method
	}
	return false
}

// applyRecordedEnding ends a game still on the way the record says it ended off the board.
func applyRecordedEnding(g *Game, r Result) error {
	if !r.Over() {
		return nil
	}
	loser, won := Side(0), false
	if winner, ok := r.Winner(); ok {
		loser, won = winner.Opponent(), true
	}
	switch {
	case !won:
		offerer := g.ToMove().Opponent()
		if err := g.OfferDraw(offerer); err != nil {
			return err
		}
		return g.AcceptDraw(offerer.Opponent())
	case r.Method == TimeForfeit && g.ToMove() == loser:
		return g.TimeOut(loser)
	case r.Method == Awarded:
		return g.Award(loser.Opponent())
	}
	return g.Resign(loser)
}
