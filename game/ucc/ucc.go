// Package ucc speaks the text protocol of the 2012 UCC Stratego programming
// competition (Sam Moore's "stratego" manager program, University Computer
// Club), which engines such as Demon of Ignorance speak on stdin and stdout.
// It is a codec: it formats and parses the protocol's lines and follows a
// game from a player's side. It starts no programs and keeps no time; the
// caller reads and writes the lines, over an io.Reader and io.Writer or
// otherwise.
//
// # The board
//
// The protocol's board is 10 by 10. X runs 0 to 9 from left to right and Y
// 0 to 9 from top to bottom. RED sets up at the top (Y 0 to 3, its front row
// Y 3), BLUE at the bottom (Y 6 to 9, its front row Y 6), and RED moves
// first. The lakes are X 2, 3, 6, 7 of Y 4 and 5. This package maps X to
// the game's column (0 is A) and Y to its row index (0 is row 1), so Red's
// zone is rows 1 to 4 in both, and UP (Y minus one) is towards row 1.
//
// Pieces are one character each: '1' Marshal, '2' General, '3' Colonel, '4'
// Major, '5' Captain, '6' Lieutenant, '7' Sergeant, '8' Miner, '9' Scout, 's'
// Spy, 'B' Bomb, 'F' Flag. On a board '.' is an empty square, '+' a lake and
// '#' an enemy piece: the manager never shows an enemy rank on the board, even
// one a battle showed; a player learns those from the move reports.
//
// # The conversation
//
// Lines end with '\n'. ">>" is what the manager sends, "<<" what the program answers.
//
// Set-up, once, at the start:
//
//	>> RED|BLUE OPPONENT 10 10
//	<< ROW1
//	<< ROW2
//	<< ROW3
//	<< ROW4
//
// OPPONENT is a name without spaces. The rows are the program's four rows of
// ten pieces from the top down: for RED its back row first, for BLUE its front
// row first. All 40 pieces of the Classic army must be placed.
//
// Each turn of the program:
//
//	>> START | REPORT
//	>> BOARD ROW 1 (Y 0)
//	>> …
//	>> BOARD ROW 10 (Y 9)
//	<< X Y UP|DOWN|LEFT|RIGHT [N]
//
// START opens RED's first turn; every other turn opens with the report of the
// opponent's last move. The program may answer SURRENDER instead of a move. N
// is the number of squares a Scout moves (1 when left out).
//
// After every move, the manager sends both programs the report of the move:
//
//	>> X Y DIR [N] OK | KILLS A D | DIES A D | BOTHDIE A D
//
// OK is a move onto an empty square. KILLS: the moving piece (the attacker)
// won the battle; DIES: it lost; BOTHDIE: both were removed. A and D are the
// ranks of the attacker and the defender, shown to both players. The manager's
// own program also has ILLEGAL, VICTORY_FLAG and VICTORY_ATTRITION outcomes,
// but it ends the game instead of sending them.
//
// The end, instead of a report:
//
//	>> QUIT [RESULT]
//
// The game is over (a Flag taken, no piece left to move, the move limit, an
// illegal move, a timeout, a surrender); the program should exit. The UCC
// manager's RESULT is "NAME COLOUR OUTCOME TURN RED_VALUE BLUE_VALUE", with
// OUTCOME VICTORY, DEFEAT, SURRENDER, DRAW, DRAW_DEFAULT, ILLEGAL or DEFAULT,
// seen from the player NAME on whose turn the game ended; the values add up
// 11 minus the rank number of every piece left (a Marshal 10, a Spy 1).
// The manager gives a program 2 seconds for each answer by default.
package ucc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/strategobot/strategobot/game"
)

// Size is the width and the height of the protocol's board.
const Size = 10

// The fixed lines.
const (
	Start     = "START"
	Surrender = "SURRENDER"
	quit      = "QUIT"
)

// ErrProtocol is wrapped by every error about a line that breaks the protocol.
var ErrProtocol = errors.New("not the UCC Stratego protocol")

func protocolError(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), ErrProtocol)
}

// pieceChars maps ranks to the protocol's characters; 0 for ranks it has no
// character for (the Infiltrator).
var pieceChars = [game.NumRanks]byte{
	game.Marshal: '1', game.General: '2', game.Colonel: '3', game.Major: '4',
	game.Captain: '5', game.Lieutenant: '6', game.Sergeant: '7', game.Miner: '8',
	game.Scout: '9', game.Spy: 's', game.Bomb: 'B', game.Flag: 'F',
}

// PieceChar returns the protocol's character for rank r, and false for
// NoRank and the Infiltrator, which the protocol does not know.
func PieceChar(r game.Rank) (byte, bool) {
	if int(r) >= len(pieceChars) || pieceChars[r] == 0 {
		return 0, false
	}
	return pieceChars[r], true
}

// ParsePiece returns the rank of a protocol character, and false for any
// other character.
func ParsePiece(c byte) (game.Rank, bool) {
	for r, pc := range pieceChars {
		if pc != 0 && pc == c {
			return game.Rank(r), true
		}
	}
	return game.NoRank, false
}

// sideName is the protocol's name of a side.
func sideName(s game.Side) string {
	if s == game.Red {
		return "RED"
	}
	return "BLUE"
}

// Hello is the first line the manager sends a program.
type Hello struct {
	Side game.Side
	// Opponent names the other player; it holds no spaces.
	Opponent string
	// Width and Height are the board's, always 10 in the competition.
	Width, Height int
}

// NewHello is the hello for side on a 10 by 10 board. Spaces in the
// opponent's name become underscores, and an empty name becomes "unknown".
func NewHello(side game.Side, opponent string) Hello {
	name := strings.Join(strings.Fields(opponent), "_")
	if name == "" {
		name = "unknown"
	}
	return Hello{Side: side, Opponent: name, Width: Size, Height: Size}
}

// String formats the line, such as "RED vixen 10 10".
func (h Hello) String() string {
	return fmt.Sprintf("%s %s %d %d", sideName(h.Side), h.Opponent, h.Width, h.Height)
}

// ParseHello reads the first line. It accepts any board size; the caller
// refuses the ones it cannot play.
func ParseHello(line string) (Hello, error) {
	f := strings.Fields(line)
	if len(f) != 4 {
		return Hello{}, protocolError("the first line %q should be \"RED|BLUE OPPONENT WIDTH HEIGHT\"", line)
	}
	var h Hello
	switch f[0] {
	case "RED":
		h.Side = game.Red
	case "BLUE":
		h.Side = game.Blue
	default:
		return Hello{}, protocolError("the first line %q should start with RED or BLUE", line)
	}
	h.Opponent = f[1]
	var err1, err2 error
	h.Width, err1 = strconv.Atoi(f[2])
	h.Height, err2 = strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || h.Width < 1 || h.Height < 1 {
		return Hello{}, protocolError("the board size in %q should be two positive numbers", line)
	}
	return h, nil
}

// zoneTop is the Y of the first of side's four set-up rows.
func zoneTop(side game.Side) int {
	if side == game.Red {
		return 0
	}
	return Size - game.SetupRows
}

// FormatSetup returns the four lines of side's set-up, top row first. It
// fails for a rank the protocol has no character for.
func FormatSetup(side game.Side, s game.Setup) ([game.SetupRows]string, error) {
	var lines [game.SetupRows]string
	for i := range lines {
		var b [Size]byte
		for x := range b {
			row, col, _ := game.SetupCell(side, game.SquareAt(x, zoneTop(side)+i))
			r := s[row][col]
			if r == game.NoRank {
				b[x] = '.'
				continue
			}
			c, ok := PieceChar(r)
			if !ok {
				return lines, fmt.Errorf("the protocol has no piece for the %s", r)
			}
			b[x] = c
		}
		lines[i] = string(b[:])
	}
	return lines, nil
}

// ParseSetup reads the four set-up lines of side, top row first. It checks
// the characters and the length of the lines, not the army: validate the
// set-up against the rules for that.
func ParseSetup(side game.Side, lines [game.SetupRows]string) (game.Setup, error) {
	var s game.Setup
	for i, line := range lines {
		if len(line) != Size {
			return s, protocolError("set-up line %d %q should have %d pieces, not %d characters", i+1, line, Size, len(line))
		}
		for x := 0; x < Size; x++ {
			r := game.NoRank
			if c := line[x]; c != '.' {
				var ok bool
				if r, ok = ParsePiece(c); !ok {
					return s, protocolError("set-up line %d %q: %q is no piece; use 1–9, s, B, F", i+1, line, c)
				}
			}
			row, col, _ := game.SetupCell(side, game.SquareAt(x, zoneTop(side)+i))
			s[row][col] = r
		}
	}
	return s, nil
}

// directions are the protocol's, with their steps in X and Y.
var directions = [...]struct {
	name   string
	dx, dy int
}{{"UP", 0, -1}, {"DOWN", 0, 1}, {"LEFT", -1, 0}, {"RIGHT", 1, 0}}

// FormatMove writes m as "X Y DIR" with the number of squares after it when
// more than one. It fails for an infiltration or a move that is not along a
// row or a column.
func FormatMove(m game.Move) (string, error) {
	if m.IsInfiltration() {
		return "", fmt.Errorf("the protocol has no infiltrations (%s)", m)
	}
	if !m.From.Valid() || !m.To.Valid() || m.From == m.To {
		return "", fmt.Errorf("%s is no move", m)
	}
	dx, dy := m.To.Col()-m.From.Col(), m.To.Row()-m.From.Row()
	if dx != 0 && dy != 0 {
		return "", fmt.Errorf("%s is not along a row or a column", m)
	}
	n := max(dx, -dx, dy, -dy)
	for _, d := range directions {
		if d.dx*n == dx && d.dy*n == dy {
			s := fmt.Sprintf("%d %d %s", m.From.Col(), m.From.Row(), d.name)
			if n > 1 {
				s += " " + strconv.Itoa(n)
			}
			return s, nil
		}
	}
	panic("unreachable: a straight move has a direction")
}

// ParseMove reads a program's move, "X Y DIR [N]". Whether the move is legal
// is for the referee; ParseMove only checks that it starts and ends on the
// board. SURRENDER is not a move: compare the line with Surrender first.
func ParseMove(line string) (game.Move, error) {
	f := strings.Fields(line)
	if len(f) < 3 || len(f) > 4 {
		return game.Move{}, protocolError("the move %q should be \"X Y UP|DOWN|LEFT|RIGHT [N]\"", line)
	}
	return parseMoveFields(line, f)
}

// parseMoveFields reads the three or four fields of a move.
func parseMoveFields(line string, f []string) (game.Move, error) {
	x, errX := strconv.Atoi(f[0])
	y, errY := strconv.Atoi(f[1])
	if errX != nil || errY != nil || x < 0 || x >= Size || y < 0 || y >= Size {
		return game.Move{}, protocolError("the move %q should start with X and Y, each from 0 to 9", line)
	}
	n := 1
	if len(f) == 4 {
		var err error
		if n, err = strconv.Atoi(f[3]); err != nil || n < 1 {
			return game.Move{}, protocolError("the number of squares in %q should be 1 or more", line)
		}
	}
	for _, d := range directions {
		if d.name != f[2] {
			continue
		}
		tx, ty := x+d.dx*n, y+d.dy*n
		if tx < 0 || tx >= Size || ty < 0 || ty >= Size {
			return game.Move{}, protocolError("the move %q leaves the board", line)
		}
		return game.Move{From: game.SquareAt(x, y), To: game.SquareAt(tx, ty)}, nil
	}
	return game.Move{}, protocolError("the direction in %q should be UP, DOWN, LEFT or RIGHT", line)
}

// Outcome is what a report says came of a move.
type Outcome uint8

// The outcomes of a report.
const (
	OK      Outcome = iota // onto an empty square
	Kills                  // the attacker won
	Dies                   // the attacker lost
	BothDie                // both pieces were removed
	// The UCC manager knows these three but ends the game instead of sending them.
	VictoryFlag
	VictoryAttrition
	Illegal
)

var outcomeNames = [...]string{"OK", "KILLS", "DIES", "BOTHDIE", "VICTORY_FLAG", "VICTORY_ATTRITION", "ILLEGAL"}

// String returns the protocol's word, such as "KILLS".
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// battle reports whether the outcome carries the two ranks of a battle.
func (o Outcome) battle() bool { return o == Kills || o == Dies || o == BothDie }

// Report is the line the manager sends both programs after a move.
type Report struct {
	Move    game.Move
	Outcome Outcome
	// Attacker and Defender are the ranks a battle showed (Kills, Dies, BothDie).
	Attacker, Defender game.Rank
}

// ReportOf returns the report of a played move. It fails for an infiltration.
func ReportOf(rec game.MoveRecord) (Report, error) {
	r := Report{Move: rec.Move, Attacker: rec.Attacker, Defender: rec.Defender}
	switch rec.Outcome {
	case game.NoBattle:
		r.Attacker, r.Defender = game.NoRank, game.NoRank
	case game.AttackerWon:
		r.Outcome = Kills
	case game.DefenderWon:
		r.Outcome = Dies
	case game.BothRemoved:
		r.Outcome = BothDie
	default:
		return Report{}, fmt.Errorf("the protocol has no infiltrations (%s)", rec.Move)
	}
	return r, nil
}

// String formats the report, such as "9 6 UP 3 BOTHDIE 9 9".
func (r Report) String() string {
	m, err := FormatMove(r.Move)
	if err != nil {
		m = "? ? ?"
	}
	s := m + " " + r.Outcome.String()
	if r.Outcome.battle() {
		a, _ := PieceChar(r.Attacker)
		d, _ := PieceChar(r.Defender)
		s += " " + string(a) + " " + string(d)
	}
	return s
}

// ParseReport reads a report line, "X Y DIR [N] OUTCOME [A D]".
func ParseReport(line string) (Report, error) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return Report{}, protocolError("the report %q should be \"X Y DIR [N] OUTCOME [ATTACKER DEFENDER]\"", line)
	}
	moveFields := 3
	if _, err := strconv.Atoi(f[3]); err == nil {
		moveFields = 4
	}
	m, err := parseMoveFields(line, f[:moveFields])
	if err != nil {
		return Report{}, err
	}
	r := Report{Move: m}
	rest := f[moveFields:]
	if len(rest) == 0 {
		return Report{}, protocolError("the report %q has no outcome", line)
	}
	found := false
	for o, name := range outcomeNames {
		if name == rest[0] {
			r.Outcome, found = Outcome(o), true
		}
	}
	if !found {
		return Report{}, protocolError("the outcome %q in %q should be OK, KILLS, DIES or BOTHDIE", rest[0], line)
	}
	if !r.Outcome.battle() {
		if len(rest) != 1 {
			return Report{}, protocolError("the report %q has words after %s", line, r.Outcome)
		}
		return r, nil
	}
	if len(rest) != 3 || len(rest[1]) != 1 || len(rest[2]) != 1 {
		return Report{}, protocolError("the report %q should give the two ranks of the battle", line)
	}
	var okA, okD bool
	r.Attacker, okA = ParsePiece(rest[1][0])
	r.Defender, okD = ParsePiece(rest[2][0])
	if !okA || !okD {
		return Report{}, protocolError("the ranks in %q should be 1–9, s, B or F", line)
	}
	return r, nil
}

// FormatBoard returns the ten board lines of a player's view, top row first:
// its own pieces by rank, every enemy piece as '#', lakes as '+' and empty
// squares as '.'. It fails for the public view and for an own piece whose
// rank the protocol does not know.
func FormatBoard(v *game.View) ([Size]string, error) {
	var lines [Size]string
	own, ok := v.Viewer.IsPlayer()
	if !ok {
		return lines, errors.New("the protocol shows a board to a player only, not to the public")
	}
	for y := range lines {
		var b [Size]byte
		for x := range b {
			s := game.SquareAt(x, y)
			c := v.Board[s]
			switch {
			case s.IsLake():
				b[x] = '+'
			case !c.Occupied:
				b[x] = '.'
			case c.Side != own:
				b[x] = '#'
			default:
				pc, ok := PieceChar(c.Rank)
				if !ok {
					return lines, fmt.Errorf("the protocol has no piece for the %s on %s", c.Rank, s)
				}
				b[x] = pc
			}
		}
		lines[y] = string(b[:])
	}
	return lines, nil
}

// QuitLine returns "QUIT" with the result after it, if any.
func QuitLine(result string) string {
	result = strings.TrimSpace(result)
	if result == "" {
		return quit
	}
	return quit + " " + result
}

// IsQuit reports whether line is a QUIT line, and returns its result.
func IsQuit(line string) (result string, ok bool) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != quit {
		return "", false
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), quit)), true
}

// The outcomes of a game's result, seen from the player on whose turn it ended.
const (
	Victory     = "VICTORY"      // that player won
	Defeat      = "DEFEAT"       // that player lost
	Surrendered = "SURRENDER"    // that player resigned
	Draw        = "DRAW"         // neither side can move
	DrawDefault = "DRAW_DEFAULT" // the move limit was reached
	IllegalMove = "ILLEGAL"      // that player broke the rules or the protocol, or ran out of time
)

// Result is what the UCC manager puts after QUIT when a game ends.
type Result struct {
	// Name and Side are the player on whose turn the game ended.
	Name string
	Side game.Side
	// Outcome is Victory, Defeat, Surrendered, Draw, DrawDefault or IllegalMove.
	Outcome string
	// Turn counts the turns begun, a turn being a move of each side.
	Turn int
	// Values are Red's and Blue's PieceValue.
	Values [2]int
}

// String formats the result, such as "vixen RED VICTORY 120 44 37".
func (r Result) String() string {
	return fmt.Sprintf("%s %s %s %d %d %d", NewHello(r.Side, r.Name).Opponent, sideName(r.Side), r.Outcome, r.Turn, r.Values[game.Red], r.Values[game.Blue])
}

// PieceValue adds up what the manager counts of an army: 11 minus the rank
// number of each piece that can move (a Marshal 10, a Scout 2, a Spy 1).
func PieceValue(a game.Army) int {
	v := 0
	for r := game.Spy; r <= game.Marshal; r++ {
		v += int(a[r]) * int(r) // the modern rank number is 11 minus the protocol's
	}
	return v
}

// TurnOf returns the manager's turn number of a game after ply moves: the
// turn of the next move, a turn being a move of Red and one of Blue.
func TurnOf(ply int) int { return ply/2 + 1 }
