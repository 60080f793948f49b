package ucc

import (
	"errors"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// The set-up of the manager's manual, RED's, top row (its back row) first.
var manualRows = [4]string{"FB8sB479B8", "BB31555583", "6724898974", "967B669999"}

func sq(t *testing.T, name string) game.Square {
	t.Helper()
	s, err := game.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPieces(t *testing.T) {
	tests := []struct {
		c    byte
		rank game.Rank
	}{
		{'1', game.Marshal}, {'2', game.General}, {'3', game.Colonel}, {'4', game.Major},
		{'5', game.Captain}, {'6', game.Lieutenant}, {'7', game.Sergeant}, {'8', game.Miner},
		{'9', game.Scout}, {'s', game.Spy}, {'B', game.Bomb}, {'F', game.Flag},
	}
	for _, tc := range tests {
		if r, ok := ParsePiece(tc.c); !ok || r != tc.rank {
			t.Errorf("ParsePiece(%q) = %v, %v; want %v", tc.c, r, ok, tc.rank)
		}
		if c, ok := PieceChar(tc.rank); !ok || c != tc.c {
			t.Errorf("PieceChar(%v) = %q, %v; want %q", tc.rank, c, ok, tc.c)
		}
	}
	for _, c := range []byte{'0', 'S', 'b', '#', '.', '+', '*'} {
		if r, ok := ParsePiece(c); ok {
			t.Errorf("ParsePiece(%q) = %v, want no piece", c, r)
		}
	}
	for _, r := range []game.Rank{game.NoRank, game.Infiltrator} {
		if _, ok := PieceChar(r); ok {
			t.Errorf("PieceChar(%v) has a character", r)
		}
	}
}

func TestHello(t *testing.T) {
	tests := []struct {
		line    string
		want    Hello
		wantErr string
	}{
		{line: "RED ../../agents/vixen/vixen.py 10 10", want: Hello{game.Red, "../../agents/vixen/vixen.py", 10, 10}},
		{line: "BLUE hard 10 10", want: Hello{game.Blue, "hard", 10, 10}},
		{line: "BLUE x 8 8", want: Hello{game.Blue, "x", 8, 8}},
		{line: "GREEN x 10 10", wantErr: "RED or BLUE"},
		{line: "RED 10 10", wantErr: "RED|BLUE OPPONENT WIDTH HEIGHT"},
		{line: "RED x ten 10", wantErr: "two positive numbers"},
		{line: "RED x 0 10", wantErr: "two positive numbers"},
	}
	for _, tc := range tests {
		got, err := ParseHello(tc.line)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, ErrProtocol) {
				t.Errorf("ParseHello(%q) error %v, want one with %q", tc.line, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseHello(%q) = %+v, %v; want %+v", tc.line, got, err, tc.want)
		}
		if got.String() != tc.line {
			t.Errorf("%+v formats as %q, want %q", got, got.String(), tc.line)
		}
	}
	if got := NewHello(game.Blue, " Demon of  Ignorance ").String(); got != "BLUE Demon_of_Ignorance 10 10" {
		t.Errorf("NewHello with spaces: %q", got)
	}
	if got := NewHello(game.Red, "").String(); got != "RED unknown 10 10" {
		t.Errorf("NewHello without a name: %q", got)
	}
}

func TestSetupLines(t *testing.T) {
	red, err := ParseSetup(game.Red, manualRows)
	if err != nil {
		t.Fatal(err)
	}
	rules := game.DefaultRules(game.VariantClassic)
	if err := red.Validate(rules); err != nil {
		t.Fatalf("the manual's set-up: %v", err)
	}
	// Where pieces land: RED's top line is its back row, BLUE's its front row.
	tests := []struct {
		side   game.Side
		square string
		rank   game.Rank
	}{
		{game.Red, "A1", game.Flag},     // X 0 Y 0
		{game.Red, "D1", game.Spy},      // X 3 Y 0
		{game.Red, "A4", game.Scout},    // X 0 Y 3, the front row
		{game.Red, "D4", game.Bomb},     // X 3 Y 3
		{game.Red, "D2", game.Marshal},  // X 3 Y 1
		{game.Blue, "A7", game.Flag},    // X 0 Y 6, Blue's front row
		{game.Blue, "D10", game.Bomb},   // X 3 Y 9, Blue's back row
		{game.Blue, "D8", game.Marshal}, // X 3 Y 7
	}
	blue, err := ParseSetup(game.Blue, manualRows)
	if err != nil {
		t.Fatal(err)
	}
	setups := [2]game.Setup{red, blue}
	g, err := game.NewGame(rules, red, blue)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		side, rank, ok := g.PieceAt(sq(t, tc.square))
		if !ok || side != tc.side || rank != tc.rank {
			t.Errorf("%s: %v %v %v, want %v %v", tc.square, ok, side, rank, tc.side, tc.rank)
		}
	}
	for side, s := range setups {
		rows, err := FormatSetup(game.Side(side), s)
		if err != nil || rows != manualRows {
			t.Errorf("%s set-up formats as %q, %v; want %q", game.Side(side), rows, err, manualRows)
		}
	}

	bad := []struct {
		rows    [4]string
		wantErr string
	}{
		{[4]string{"FB8sB479B", manualRows[1], manualRows[2], manualRows[3]}, "should have 10 pieces"},
		{[4]string{"FB8SB479B8", manualRows[1], manualRows[2], manualRows[3]}, `'S' is no piece`},
		{[4]string{"FB8sB479B8", manualRows[1], manualRows[2], "967B66999#"}, `'#' is no piece`},
	}
	for _, tc := range bad {
		if _, err := ParseSetup(game.Red, tc.rows); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("ParseSetup(%q) error %v, want %q", tc.rows, err, tc.wantErr)
		}
	}
	// Gaps are read; the rules refuse them in Classic.
	gap, err := ParseSetup(game.Red, [4]string{"FB8sB479B.", manualRows[1], manualRows[2], manualRows[3]})
	if err != nil || gap[3][9] != game.NoRank || gap.Validate(rules) == nil {
		t.Errorf("a gap: %v, %v, valid %v", gap[3][9], err, gap.Validate(rules))
	}
}

func TestMoves(t *testing.T) {
	tests := []struct {
		line     string
		from, to string
		canon    string // the formatted move, when not line
	}{
		{line: "0 3 DOWN", from: "A4", to: "A5"},
		{line: "9 6 UP 3", from: "J7", to: "J4"},
		{line: "9 2 DOWN", from: "J3", to: "J4"},
		{line: "4 9 LEFT 4", from: "E10", to: "A10"},
		{line: "0 0 RIGHT 9", from: "A1", to: "J1"},
		{line: "5 5 RIGHT 1", from: "F6", to: "G6", canon: "5 5 RIGHT"},
		{line: "  1   2  UP ", from: "B3", to: "B2", canon: "1 2 UP"},
	}
	for _, tc := range tests {
		m, err := ParseMove(tc.line)
		want := game.Move{From: sq(t, tc.from), To: sq(t, tc.to)}
		if err != nil || m != want {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", tc.line, m, err, want)
			continue
		}
		canon := tc.canon
		if canon == "" {
			canon = tc.line
		}
		if got, err := FormatMove(m); err != nil || got != canon {
			t.Errorf("FormatMove(%v) = %q, %v; want %q", m, got, err, canon)
		}
	}
	bad := []struct{ line, wantErr string }{
		{"", "should be"},
		{"0 3", "should be"},
		{"0 3 DOWN 2 3", "should be"},
		{"0 3 down", "direction"},
		{"0 3 NORTH", "direction"},
		{"a 3 DOWN", "X and Y"},
		{"10 3 DOWN", "X and Y"},
		{"0 -1 DOWN", "X and Y"},
		{"0 3 DOWN 0", "1 or more"},
		{"0 3 DOWN x", "1 or more"},
		{"0 0 UP", "leaves the board"},
		{"9 9 RIGHT", "leaves the board"},
		{"0 3 DOWN 7", "leaves the board"},
		{"SURRENDER", "should be"},
	}
	for _, tc := range bad {
		if m, err := ParseMove(tc.line); err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, ErrProtocol) {
			t.Errorf("ParseMove(%q) = %v, %v; want an error with %q", tc.line, m, err, tc.wantErr)
		}
	}
	for _, m := range []game.Move{
		{From: sq(t, "A1"), To: sq(t, "B2")},
		{From: sq(t, "A1"), To: sq(t, "A1")},
		{From: sq(t, "A1"), To: sq(t, "A2"), Guess: game.Marshal},
		{From: game.NoSquare, To: sq(t, "A2")},
	} {
		if s, err := FormatMove(m); err == nil {
			t.Errorf("FormatMove(%+v) = %q, want an error", m, s)
		}
	}
}

func TestReports(t *testing.T) {
	tests := []struct {
		line string
		want Report
	}{
		{"0 3 DOWN OK", Report{Move: game.Move{From: 30, To: 40}}},
		{"9 6 UP 3 BOTHDIE 9 9", Report{Move: game.Move{From: 69, To: 39}, Outcome: BothDie, Attacker: game.Scout, Defender: game.Scout}},
		{"3 6 UP KILLS 1 4", Report{Move: game.Move{From: 63, To: 53}, Outcome: Kills, Attacker: game.Marshal, Defender: game.Major}},
		{"3 6 UP DIES s 2", Report{Move: game.Move{From: 63, To: 53}, Outcome: Dies, Attacker: game.Spy, Defender: game.General}},
		{"3 6 UP KILLS 8 B", Report{Move: game.Move{From: 63, To: 53}, Outcome: Kills, Attacker: game.Miner, Defender: game.Bomb}},
		{"3 6 UP VICTORY_FLAG", Report{Move: game.Move{From: 63, To: 53}, Outcome: VictoryFlag}},
		{"3 6 UP ILLEGAL", Report{Move: game.Move{From: 63, To: 53}, Outcome: Illegal}},
	}
	for _, tc := range tests {
		got, err := ParseReport(tc.line)
		if err != nil || got != tc.want {
			t.Errorf("ParseReport(%q) = %+v, %v; want %+v", tc.line, got, err, tc.want)
		}
		if got.String() != tc.line {
			t.Errorf("%+v formats as %q, want %q", got, got.String(), tc.line)
		}
	}
	bad := []struct{ line, wantErr string }{
		{"0 3 DOWN", "should be"},
		{"0 3 DOWN 2", "no outcome"},
		{"0 3 DOWN FINE", "OK, KILLS, DIES or BOTHDIE"},
		{"0 3 DOWN OK 9 9", "words after OK"},
		{"0 3 DOWN KILLS 9", "two ranks"},
		{"0 3 DOWN KILLS 9 10", "two ranks"},
		{"0 3 DOWN KILLS 9 X", "1–9, s, B or F"},
		{"0 3 SIDEWAYS OK", "direction"},
	}
	for _, tc := range bad {
		if r, err := ParseReport(tc.line); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("ParseReport(%q) = %+v, %v; want an error with %q", tc.line, r, err, tc.wantErr)
		}
	}
	// ReportOf speaks of the game's records.
	recs := []struct {
		rec  game.MoveRecord
		want string
	}{
		{game.MoveRecord{Move: game.Move{From: 30, To: 40}}, "0 3 DOWN OK"},
		{game.MoveRecord{Move: game.Move{From: 69, To: 39}, Outcome: game.BothRemoved, Attacker: game.Scout, Defender: game.Scout}, "9 6 UP 3 BOTHDIE 9 9"},
		{game.MoveRecord{Move: game.Move{From: 63, To: 53}, Outcome: game.AttackerWon, Attacker: game.Spy, Defender: game.Marshal}, "3 6 UP KILLS s 1"},
		{game.MoveRecord{Move: game.Move{From: 63, To: 53}, Outcome: game.DefenderWon, Attacker: game.General, Defender: game.Bomb}, "3 6 UP DIES 2 B"},
	}
	for _, tc := range recs {
		r, err := ReportOf(tc.rec)
		if err != nil || r.String() != tc.want {
			t.Errorf("ReportOf(%+v) = %q, %v; want %q", tc.rec, r, err, tc.want)
		}
	}
	if _, err := ReportOf(game.MoveRecord{Move: game.Move{From: 63, To: 53, Guess: game.Spy}, Outcome: game.GuessedWrong, Attacker: game.Infiltrator}); err == nil {
		t.Error("ReportOf an infiltration: no error")
	}
}

// TestManualExample follows the manager manual's example: RED's first two
// turns, and the boards it is shown.
func TestManualExample(t *testing.T) {
	red, err := ParseSetup(game.Red, manualRows)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewView(game.DefaultRules(game.VariantClassic), game.Red, red)
	if err != nil {
		t.Fatal(err)
	}
	wantBoard := func(want ...string) {
		t.Helper()
		got, err := FormatBoard(&v)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got[:], "\n") != strings.Join(want, "\n") {
			t.Errorf("board\n%s\nwant\n%s", strings.Join(got[:], "\n"), strings.Join(want, "\n"))
		}
	}
	wantBoard(
		"FB8sB479B8", "BB31555583", "6724898974", "967B669999",
		"..++..++..", "..++..++..",
		"##########", "##########", "##########", "##########")
	for _, line := range []string{"0 3 DOWN OK", "9 6 UP 3 BOTHDIE 9 9"} {
		r, err := ParseReport(line)
		if err != nil {
			t.Fatal(err)
		}
		if err := Follow(&v, r); err != nil {
			t.Fatal(err)
		}
	}
	wantBoard(
		"FB8sB479B8", "BB31555583", "6724898974", ".67B66999.",
		"9.++..++..", "..++..++..",
		"#########.", "##########", "##########", "##########")
	if v.ToMove != game.Red || v.Ply() != 2 || v.Captured[game.Red][game.Scout] != 1 || v.Captured[game.Blue][game.Scout] != 1 || v.Remaining[game.Blue][game.Scout] != 7 {
		t.Errorf("after two moves: to move %v, ply %d, captured %v, remaining %v", v.ToMove, v.Ply(), v.Captured, v.Remaining)
	}
	if _, err := FormatBoard(&game.View{Viewer: game.PublicViewer}); err == nil {
		t.Error("a public board: no error")
	}
}

func TestQuitAndResult(t *testing.T) {
	tests := []struct {
		line   string
		result string
		ok     bool
	}{
		{"QUIT", "", true},
		{"QUIT vixen RED VICTORY 12 80 71", "vixen RED VICTORY 12 80 71", true},
		{"QUITE", "", false},
		{"0 3 DOWN OK", "", false},
		{"", "", false},
	}
	for _, tc := range tests {
		if result, ok := IsQuit(tc.line); ok != tc.ok || result != tc.result {
			t.Errorf("IsQuit(%q) = %q, %v; want %q, %v", tc.line, result, ok, tc.result, tc.ok)
		}
	}
	if QuitLine("") != "QUIT" || QuitLine("x") != "QUIT x" {
		t.Errorf("QuitLine: %q %q", QuitLine(""), QuitLine("x"))
	}
	army := game.DefaultRules(game.VariantClassic).Army
	if got := PieceValue(army); got != 10+9+2*8+3*7+4*6+4*5+4*4+5*3+8*2+1 {
		t.Errorf("PieceValue(Classic) = %d", got)
	}
	r := Result{Name: "demon of ignorance", Side: game.Blue, Outcome: IllegalMove, Turn: TurnOf(5), Values: [2]int{148, 130}}
	if got := r.String(); got != "demon_of_ignorance BLUE ILLEGAL 3 148 130" {
		t.Errorf("Result = %q", got)
	}
}
