package game

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

const gvSampleDir = "testdata/gravon"

// gvField is the field of testdata/gravon/barrage-2004.11-104.xml.
const gvField = "AAAAAAEMCDAAAAAABKLDAAAAAAAAAAAAAAAAAAAAAA__AA__AAAA__AA__AAXAAAAAAAAOAAWAAAANQAAAAAYAPAAAAAAAPAAAAA"

// gvDoc builds a one-game record; attrs go on <game>, body inside it.
func gvDoc(attrs, body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><stratego><game ` + attrs + `>` + body + `</game></stratego>`
}

func gvParse(t testing.TB, doc string) *Record {
	t.Helper()
	rec, err := ParseGravon(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("ParseGravon: %v", err)
	}
	return rec
}

func gvSampleNames(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(gvSampleDir, "*.xml"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no sample games in %s: %v", gvSampleDir, err)
	}
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

func gvRoundTrip(t testing.TB, rec *Record) *Record {
	t.Helper()
	var buf bytes.Buffer
	if err := rec.WriteGravon(&buf); err != nil {
		t.Fatalf("WriteGravon: %v", err)
	}
	back, err := ParseGravon(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("re-import: %v\n%s", err, buf.String())
	}
	if !reflect.DeepEqual(back, rec) {
		t.Fatalf("re-import differs:\n got %+v\nwant %+v\n%s", back, rec, buf.String())
	}
	return back
}

func TestParseGravonSquare(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // this project's notation, or "" for an error
	}{
		{"A1", "A1"}, {"B4", "B4"}, {"I9", "I9"},
		{"K1", "J1"}, {"K7", "J7"}, // Gravon skips J
		{"E:", "E10"}, {"K:", "J10"}, {"A:", "A10"},
		{"J1", ""}, {"L1", ""}, {"a1", ""}, {"A0", ""}, {"A;", ""},
		{"A10", ""}, {"", ""}, {"B", ""}, {"ÄB", ""},
	} {
		got, err := parseGravonSquare(tc.in)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%q: got %s, want an error", tc.in, got)
		case tc.want != "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.want != "" && got.String() != tc.want:
			t.Errorf("%q: got %s, want %s", tc.in, got, tc.want)
		}
		if err == nil {
			if back := gravonSquare(got); back != tc.in {
				t.Errorf("%q: written back as %q", tc.in, back)
			}
		}
	}
}

func TestParseGravonField(t *testing.T) {
	rec := gvParse(t, gvDoc(`type="barrage"`, `<field content="`+gvField+`"/>`))
	if rec.Rules.Variant != VariantBarrage || rec.RulesStated {
		t.Fatalf("rules %+v stated %v", rec.Rules, rec.RulesStated)
	}
	for _, tc := range []struct {
		side Side
		sq   string
		rank Rank
	}{
		// Red: G1 Miner, H1 Flag, I1 Spy, J1 Scout, G2 Bomb, H2 General, I2 Marshal, J2 Scout.
		{Red, "G1", Miner}, {Red, "H1", Flag}, {Red, "I1", Spy}, {Red, "J1", Scout},
		{Red, "G2", Bomb}, {Red, "H2", General}, {Red, "I2", Marshal}, {Red, "J2", Scout},
		{Red, "A1", NoRank}, {Red, "A4", NoRank},
		// Blue: A7 Marshal, J7 Spy, C8 General, H8 Bomb, I8 Miner, E9 Flag, G9 Scout, E10 Scout.
		{Blue, "A7", Marshal}, {Blue, "J7", Spy}, {Blue, "C8", General}, {Blue, "H8", Bomb},
		{Blue, "I8", Miner}, {Blue, "E9", Flag}, {Blue, "G9", Scout}, {Blue, "E10", Scout},
		{Blue, "J10", NoRank},
	} {
		s, err := ParseSquare(tc.sq)
		if err != nil {
			t.Fatal(err)
		}
		row, col, ok := SetupCell(tc.side, s)
		if !ok {
			t.Fatalf("%s is not in %s's zone", tc.sq, tc.side)
		}
		if got := rec.Setups[tc.side][row][col]; got != tc.rank {
			t.Errorf("%s %s: got %v, want %v", tc.side, tc.sq, got, tc.rank)
		}
	}
	// Blue's set-up is seen from Blue's side: A7, Blue's right-hand front corner,
	// is the last column of its front row.
	if got := rec.Setups[Blue][0][9]; got != Marshal {
		t.Errorf("Blue front row, right: %v, want Marshal", got)
	}
	if got := rec.Setups[Red][3][7]; got != Flag {
		t.Errorf("Red back row, column H: %v, want Flag", got)
	}
	for side := Red; side <= Blue; side++ {
		if err := rec.Setups[side].Validate(DefaultRules(VariantBarrage)); err != nil {
			t.Errorf("%s set-up: %v", side, err)
		}
	}
	if got := formatGravonField(rec.Setups); got != gvField {
		t.Errorf("field written back:\n got %s\nwant %s", got, gvField)
	}
}

func TestParseGravonResults(t *testing.T) {
	for _, tc := range []struct {
		typ, winner string
		want        Result
	}{
		{"0", "1", Result{RedWon, NoMovablePieces}},
		{"0", "2", Result{BlueWon, NoMovablePieces}},
		{"1", "1", Result{RedWon, FlagCaptured}},
		{"1", "2", Result{BlueWon, FlagCaptured}},
		{"2", "3", Result{Drawn, NoMovablePieces}},
		{"3", "1", Result{RedWon, Resignation}},
		{"3", "2", Result{BlueWon, Resignation}},
		{"4", "3", Result{Drawn, DrawAgreed}},
		{"10", "3", Result{Drawn, TimeForfeit}},
		{"11", "1", Result{RedWon, TimeForfeit}},
		{"12", "3", Result{Drawn, TimeForfeit}},
		{"13", "2", Result{BlueWon, TimeForfeit}},
		{"14", "1", Result{RedWon, TimeForfeit}},
	} {
		rec := gvParse(t, gvDoc(`type="barrage"`, `<field content="`+gvField+`"/><result type="`+tc.typ+`" winner="`+tc.winner+`"/>`))
		if rec.Result != tc.want {
			t.Errorf("type %s winner %s: %v, want %v", tc.typ, tc.winner, rec.Result, tc.want)
		}
		if got := []string{strconv.Itoa(rec.ResultType), strconv.Itoa(rec.Winner)}; got[0] != tc.typ || got[1] != tc.winner {
			t.Errorf("type %s winner %s: raw codes %v", tc.typ, tc.winner, got)
		}
		gvRoundTrip(t, rec)
	}
	rec := gvParse(t, gvDoc(`type="barrage"`, `<field content="`+gvField+`"/>`))
	if rec.Result.Over() || rec.Winner != 0 {
		t.Errorf("no <result>: %v, winner %d", rec.Result, rec.Winner)
	}
}

func TestParseGravonErrors(t *testing.T) {
	field := `<field content="` + gvField + `"/>`
	for _, tc := range []struct {
		name, doc   string
		unsupported bool
		want        string
	}{
		{"malformed XML", `<stratego><game type="classic">`, false, "reading XML"},
		{"not XML", `hello`, false, "reading XML"},
		{"empty", ``, false, "reading XML"},
		{"wrong root", `<chess><game type="classic"/></chess>`, false, "reading XML"},
		{"no game", `<stratego></stratego>`, false, "one <game>"},
		{"two games", `<stratego><game type="classic"/><game type="classic"/></stratego>`, false, "one <game>"},
		{"no type", gvDoc(``, field), false, "no type"},
		{"classicfree", gvDoc(`type="classicfree"`, field), true, `game type "classicfree"`},
		{"ultimate lightning", gvDoc(`type="ultimate lightning"`, field), true, `game type "ultimate lightning"`},
		{"no field", gvDoc(`type="classic"`, `<move id="1" source="A4" target="A5"/>`), true, "no field"},
		{"empty field", gvDoc(`type="classic"`, `<field content=""/>`), true, "no field"},
		{"two fields", gvDoc(`type="barrage"`, field+field), false, "fields"},
		{"short field", gvDoc(`type="barrage"`, `<field content="`+gvField[:99]+`"/>`), false, "99 characters"},
		{"long field", gvDoc(`type="barrage"`, `<field content="`+gvField+`A"/>`), false, "101 characters"},
		{"bad letter", gvDoc(`type="barrage"`, `<field content="`+"0"+gvField[1:]+`"/>`), false, `'0' on A1`},
		{"no lake", gvDoc(`type="barrage"`, `<field content="`+gvField[:42]+"A"+gvField[43:]+`"/>`), false, "C5 is a lake"},
		{"extra lake", gvDoc(`type="barrage"`, `<field content="`+"_"+gvField[1:]+`"/>`), false, "lake on A1"},
		{"red in blue zone", gvDoc(`type="barrage"`, `<field content="`+gvField[:99]+"L"+`"/>`), false, "Red's Marshal on J10 is outside"},
		{"blue in the middle", gvDoc(`type="barrage"`, `<field content="`+gvField[:40]+"X"+gvField[41:]+`"/>`), false, "Blue's Marshal on A5"},
		{"bad source", gvDoc(`type="barrage"`, field+`<move id="1" source="J2" target="J3"/>`), false, "move 1: source"},
		{"bad target", gvDoc(`type="barrage"`, field+`<move id="1" source="K2" target="K0"/>`), false, "move 1: target"},
		{"bad id", gvDoc(`type="barrage"`, field+`<move id="2" source="K2" target="K3"/>`), false, "move 1 has id"},
		{"bad guess", gvDoc(`type="barrage"`, field+`<move id="1" source="K2" target="K3" guess="Q"/>`), false, "guess"},
		{"player 3", gvDoc(`type="barrage"`, field+`<player id="3">x</player>`), false, "player id"},
		{"player twice", gvDoc(`type="barrage"`, field+`<player id="1">x</player><player id="1">y</player>`), false, "two players"},
		{"result type", gvDoc(`type="barrage"`, field+`<result type="7" winner="1"/>`), true, "result type 7"},
		{"result winner", gvDoc(`type="barrage"`, field+`<result type="1" winner="0"/>`), false, "winner 0"},
		{"result no winner", gvDoc(`type="barrage"`, field+`<result type="1"/>`), false, "needs a type and a winner"},
		{"result not a number", gvDoc(`type="barrage"`, field+`<result type="one" winner="1"/>`), false, "not a number"},
		{"flag capture drawn", gvDoc(`type="barrage"`, field+`<result type="1" winner="3"/>`), false, "has a winner"},
		{"agreed draw won", gvDoc(`type="barrage"`, field+`<result type="4" winner="1"/>`), false, "is a draw"},
		{"neither moves won", gvDoc(`type="barrage"`, field+`<result type="2" winner="2"/>`), false, "is a draw"},
		{"no movable piece drawn", gvDoc(`type="barrage"`, field+`<result type="0" winner="3"/>`), false, "has a winner"},
		{"no legal move drawn as type 0", gvDoc(`type="barrage"`, field+`<result type="0" winner="3" method="no-legal-moves"/>`), false, "has a winner"},
		{"two results", gvDoc(`type="barrage"`, field+`<result type="1" winner="1"/><result type="1" winner="1"/>`), false, "results"},
		{"method unknown", gvDoc(`type="barrage"`, field+`<result type="1" winner="1" method="luck"/>`), false, `method "luck"`},
		{"method misfit", gvDoc(`type="barrage"`, field+`<result type="1" winner="1" method="resignation"/>`), false, "does not fit"},
		{"two_squares", gvDoc(`type="barrage" two_squares="4"`, field), false, "two_squares"},
		{"more_squares", gvDoc(`type="barrage" more_squares="yes"`, field), false, "more_squares"},
		{"max_moves", gvDoc(`type="barrage" max_moves="many"`, field), false, "max_moves"},
		{"max_moves negative", gvDoc(`type="barrage" max_moves="-1"`, field), false, "max_moves"},
		{"custom without army", gvDoc(`type="custom"`, field), false, "army attribute"},
		{"custom bad army", gvDoc(`type="custom" army="10 9"`, field), false, "army"},
		{"army on classic", gvDoc(`type="classic" army="10 F"`, field), false, "custom games only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := ParseGravon(strings.NewReader(tc.doc))
			if err == nil {
				t.Fatalf("accepted: %+v", rec)
			}
			if got := errors.Is(err, ErrUnsupported); got != tc.unsupported {
				t.Errorf("errors.Is(ErrUnsupported) = %v for %v", got, err)
			}
			var ue *UnsupportedError
			if errors.As(err, &ue) != tc.unsupported {
				t.Errorf("errors.As(*UnsupportedError) disagrees with errors.Is for %v", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestParseGravonExtensions(t *testing.T) {
	// A Custom army with an Infiltrator: Z is Red's, z Blue's.
	b := []byte(strings.Repeat("A", NumSquares))
	for i := range b {
		if Square(i).IsLake() {
			b[i] = '_'
		}
	}
	b[0], b[4], b[9] = 'M', 'Z', 'L'    // A1 Flag, E1 Infiltrator, J1 Marshal
	b[99], b[95], b[90] = 'Y', 'z', 'X' // J10 Flag, F10 Infiltrator, A10 Marshal
	doc := gvDoc(`type="custom" army="10 I F" two_squares="off" more_squares="off" scout_strikes_at_range="off" max_moves="200"`,
		`<field content="`+string(b)+`"/><move id="1" source="E1" target="E2"/><move id="2" source="F:" target="F9" guess="10"/>`+
			`<player id="2">Blue &amp; co</player><player id="1">Red</player><result type="11" winner="1" method="time-forfeit"/>`)
	rec := gvParse(t, doc)
	want := Rules{Variant: VariantCustom, Army: Army{Marshal: 1, Infiltrator: 1, Flag: 1}, MaxMoves: 200}
	if rec.Rules != want || !rec.RulesStated {
		t.Errorf("rules %+v (stated %v), want %+v", rec.Rules, rec.RulesStated, want)
	}
	if rec.Setups[Red][3][4] != Infiltrator || rec.Setups[Blue][3][4] != Infiltrator {
		t.Errorf("Infiltrators not read: %v / %v", rec.Setups[Red][3], rec.Setups[Blue][0])
	}
	if rec.Moves[1].Guess != Marshal || !rec.Moves[1].IsInfiltration() || rec.Moves[0].IsInfiltration() {
		t.Errorf("moves %v", rec.Moves)
	}
	if rec.Players != [2]string{"Red", "Blue & co"} {
		t.Errorf("players %q", rec.Players)
	}
	if rec.Result != (Result{RedWon, TimeForfeit}) {
		t.Errorf("result %v", rec.Result)
	}
	gvRoundTrip(t, rec)

	// The method attribute tells a type 0 by no legal move from one by no movable piece.
	rec = gvParse(t, gvDoc(`type="barrage"`, `<field content="`+gvField+`"/><result type="0" winner="2" method="no-legal-moves"/>`))
	if rec.Result != (Result{BlueWon, NoLegalMoves}) {
		t.Errorf("result %v", rec.Result)
	}
	// Both sides stuck, one of them by the repetition rules: type 2, a draw.
	rec = gvParse(t, gvDoc(`type="barrage"`, `<field content="`+gvField+`"/><result type="2" winner="3" method="no-legal-moves"/>`))
	if rec.Result != (Result{Drawn, NoLegalMoves}) {
		t.Errorf("result %v", rec.Result)
	}
	gvRoundTrip(t, rec)
	if typ, winner := gravonResultCodes(Result{Drawn, NoLegalMoves}); typ != gravonNeitherMoves || winner != gravonDraw {
		t.Errorf("a draw by no legal moves is written as type %d winner %d, want 2 and 3", typ, winner)
	}
	// A moderator's award is written as a resignation, with its method.
	rec = gvParse(t, gvDoc(`type="barrage"`, `<field content="`+gvField+`"/><result type="3" winner="1" method="awarded"/>`))
	if rec.Result != (Result{RedWon, Awarded}) {
		t.Errorf("result %v", rec.Result)
	}
	gvRoundTrip(t, rec)
	if typ, winner := gravonResultCodes(Result{BlueWon, Awarded}); typ != gravonResigned || winner != 2 {
		t.Errorf("an award is written as type %d winner %d, want 3 and 2", typ, winner)
	}
	// A move limit is written as an agreed draw for plain Gravon readers.
	rec = gvParse(t, gvDoc(`type="duell" max_moves="10"`, `<field content="`+gvField+`"/><result type="4" winner="3" method="move-limit"/>`))
	if rec.Result != (Result{Drawn, MoveLimit}) || rec.Rules.Variant != VariantDuel || rec.Rules.MaxMoves != 10 {
		t.Errorf("result %v rules %+v", rec.Result, rec.Rules)
	}
}

// TestGravonSampleRoundTrip exports and re-imports every sample game.
func TestGravonSampleRoundTrip(t *testing.T) {
	for _, name := range gvSampleNames(t) {
		data, err := os.ReadFile(filepath.Join(gvSampleDir, name))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := ParseGravon(bytes.NewReader(data))
		if errors.Is(err, ErrUnsupported) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		gvRoundTrip(t, rec)
		if rec.RulesStated || rec.Players != [2]string{"Player 1", "Player 2"} || !rec.Result.Over() {
			t.Errorf("%s: stated %v players %q result %v", name, rec.RulesStated, rec.Players, rec.Result)
		}
	}
}

// The sample's expected replay: "" agrees, anything else is the error's text.
// Under the loose rules (Two-Squares 5) every game agrees, the type-0 games
// whose loser is walled in by its own pieces included (classic-2004.11-38,
// classic-2014.2-1205, classic-2014.2-2603); under the ISF defaults the games
// below cross a border a 4th time in a row.
var (
	// Each of these moves is a piece's 4th move in a row between the same two
	// squares: allowed with Two-Squares 5, refused with 3.
	gvFourthMove = map[string]string{
		"barrage-2013.10-1649.xml": "move 188 I9-I8: the Two-Squares rule forbids a 4th move between I8 and I9",
		"classic-2005.2-16.xml":    "move 70 B7-A7: the Two-Squares rule forbids a 4th move between A7 and B7",
		"classic-2014.0-1754.xml":  "move 37 B3-A3: the Two-Squares rule forbids a 4th move between A3 and B3",
		// The first of the four is an attack (I9xJ9), which counts as a move.
		"classic-2014.0-346.xml": "move 62 J9-I9: the Two-Squares rule forbids a 4th move between I9 and J9",
		"classic-2014.3-330.xml": "move 219 B7-C7: the Two-Squares rule forbids a 4th move between B7 and C7",
	}
	gvSkipped = map[string]string{
		"classicfree-2004.11-15.xml":         `unsupported record: game type "classicfree"`,
		"ultimate lightning-2014.3-1123.xml": `unsupported record: game type "ultimate lightning"`,
	}
)

func gvReplaySample(t *testing.T, name string, twoSquares int) (*Record, *Game, error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(gvSampleDir, name))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseGravon(bytes.NewReader(data))
	if err != nil {
		return nil, nil, err
	}
	rules := DefaultRules(rec.Rules.Variant)
	rules.TwoSquares = twoSquares
	g, err := Replay(rec, rules)
	return rec, g, err
}

func TestReplayGravonSample(t *testing.T) {
	for _, setting := range []struct {
		name       string
		twoSquares int
	}{{"loose", 5}, {"ISF", 3}} {
		t.Run(setting.name, func(t *testing.T) {
			for _, name := range gvSampleNames(t) {
				want := ""
				if setting.twoSquares == 3 {
					want = gvFourthMove[name]
				}
				if s, ok := gvSkipped[name]; ok {
					want = s
				}
				_, _, err := gvReplaySample(t, name, setting.twoSquares)
				got := ""
				if err != nil {
					got = err.Error()
				}
				if got != want {
					t.Errorf("%s: got %q, want %q", name, got, want)
				}
				var illegal *IllegalMoveError
				if gvFourthMove[name] != "" && setting.twoSquares == 3 {
					if !errors.As(err, &illegal) || !errors.Is(err, ErrIllegalMove) {
						t.Errorf("%s: %T is no *IllegalMoveError wrapping ErrIllegalMove", name, err)
					}
				}
			}
		})
	}
}

// TestReplayGravonEndings checks the endings Replay applies for the results the board does not decide.
func TestReplayGravonEndings(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Result
	}{
		{"barrage-2004.11-104.xml", Result{BlueWon, FlagCaptured}},
		{"duell-2014.3-51.xml", Result{RedWon, FlagCaptured}},
		{"classic-2005.1-38.xml", Result{BlueWon, FlagCaptured}},
		{"barrage-2014.0-1739.xml", Result{RedWon, NoMovablePieces}},
		{"barrage-2014.1-2335.xml", Result{Drawn, NoMovablePieces}},
		{"classic-2005.1-25.xml", Result{BlueWon, Resignation}},
		{"classic-2013.10-3297.xml", Result{BlueWon, Resignation}}, // no moves at all
		{"classic-2014.2-2184.xml", Result{Drawn, DrawAgreed}},
		{"classic-2004.11-23.xml", Result{Drawn, DrawAgreed}},   // type 10, scored a draw
		{"classic-2013.10-3012.xml", Result{Drawn, DrawAgreed}}, // type 12, scored a draw
		{"classic-2013.11-186.xml", Result{RedWon, TimeForfeit}},
		{"barrage-2014.2-2235.xml", Result{BlueWon, TimeForfeit}}, // type 14 before Red's first move
		{"classic-2013.11-2009.xml", Result{RedWon, Resignation}}, // type 11 on the winner's turn: the loser left
	} {
		_, g, err := gvReplaySample(t, tc.name, 5)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if g.Result() != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, g.Result(), tc.want)
		}
	}
}

// gvInfiltratorGame plays a short Custom game in which Red's Infiltrator names Blue's Flag.
func gvInfiltratorGame(t *testing.T, rules Rules) *Game {
	t.Helper()
	var red, blue Setup
	red[3][0], red[0][4], red[3][9] = Flag, Infiltrator, Marshal    // A1, E4, J1
	blue[2][5], blue[3][0], blue[3][9] = Flag, Marshal, Infiltrator // E9, J10, A10 (Blue's view)
	g, err := NewGame(rules, red, blue)
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, "E4-E5", "J10-J9", "E5-E6", "J9-I9", "E6-E7", "I9-H9", "E7~E9=B", "H9-G9", "E7~E9=F")
	return g
}

func TestGravonInfiltration(t *testing.T) {
	rules := DefaultRules(VariantCustom)
	rules.Army = Army{Marshal: 1, Infiltrator: 1, Flag: 1}
	rules.MaxMoves = 500
	g := gvInfiltratorGame(t, rules)
	if g.Result() != (Result{RedWon, FlagCaptured}) {
		t.Fatalf("result %v", g.Result())
	}
	rec := NewRecord(g, "red", "blue")
	var buf bytes.Buffer
	if err := rec.WriteGravon(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<game type="custom" army="10 I F" two_squares="3" more_squares="on" scout_strikes_at_range="on" max_moves="500">`,
		`<move id="7" source="E7" target="E9" guess="B"/>`,
		`<move id="9" source="E7" target="E9" guess="F"/>`,
		`<move id="2" source="K:" target="K9"/>`,
		`<result type="1" winner="1" method="flag-captured"/>`,
		"ZAAAA", // E4 holds Red's Infiltrator
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("export lacks %s:\n%s", want, buf.String())
		}
	}
	back := gvRoundTrip(t, rec)
	replayed, err := Replay(back, back.Rules)
	if err != nil || replayed.Result() != g.Result() {
		t.Fatalf("replay: %v, %v", replayed.Result(), err)
	}

	// A running game is written without a result and replays to a game still on.
	g2 := gvInfiltratorGame(t, rules)
	rec = NewRecord(g2, "", "")
	rec.Moves = rec.Moves[:4]
	rec.Result, rec.ResultType, rec.Winner = Result{}, 0, 0
	buf.Reset()
	if err := rec.WriteGravon(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<result") {
		t.Errorf("a running game has a result:\n%s", buf.String())
	}
	back = gvRoundTrip(t, rec)
	if replayed, err := Replay(back, back.Rules); err != nil || replayed.Result().Over() || replayed.Ply() != 4 {
		t.Errorf("replay of a running game: %v, %v", replayed.Result(), err)
	}
}

func TestReplayErrors(t *testing.T) {
	rules := DefaultRules(VariantCustom)
	rules.Army = Army{Marshal: 1, Infiltrator: 1, Flag: 1}
	g := gvInfiltratorGame(t, rules)
	base := NewRecord(g, "", "")

	t.Run("moves after the end", func(t *testing.T) {
		rec := *base
		rec.Moves = append(append([]Move(nil), base.Moves...), Move{From: SquareAt(6, 8), To: SquareAt(5, 8)})
		_, err := Replay(&rec, rules)
		var ue *UnsupportedError
		if !errors.As(err, &ue) || ue.Reason != "moves recorded after the end of the game" {
			t.Errorf("got %v", err)
		}
	})
	t.Run("ended before the record says", func(t *testing.T) {
		rec := *base
		rec.Moves = append(append([]Move(nil), base.Moves...), Move{From: SquareAt(6, 8), To: SquareAt(5, 8)})
		rec.Result, rec.ResultType, rec.Winner = Result{BlueWon, Resignation}, 3, 2
		_, err := Replay(&rec, rules)
		var me *ResultMismatchError
		if !errors.As(err, &me) || me.Ply != 9 || me.Moves != 10 || err.Error() != "result Red won (flag captured) after move 9 of 10, recorded Blue won (resignation)" {
			t.Errorf("got %v (%+v)", err, me)
		}
	})
	t.Run("wrong winner", func(t *testing.T) {
		rec := *base
		rec.Result, rec.Winner = Result{BlueWon, FlagCaptured}, 2
		_, err := Replay(&rec, rules)
		var me *ResultMismatchError
		if !errors.As(err, &me) || err.Error() != "result Red won (flag captured), recorded Blue won (flag captured)" {
			t.Errorf("got %v", err)
		}
	})
	t.Run("still on but recorded captured", func(t *testing.T) {
		rec := *base
		rec.Moves = base.Moves[:8]
		_, err := Replay(&rec, rules)
		if err == nil || err.Error() != "result ongoing, recorded Red won (flag captured)" {
			t.Errorf("got %v", err)
		}
	})
	t.Run("illegal move", func(t *testing.T) {
		rec := *base
		rec.Moves = append([]Move(nil), base.Moves...)
		rec.Moves[2] = Move{From: SquareAt(4, 4), To: SquareAt(4, 6)} // E5-E7: not a Scout
		_, err := Replay(&rec, rules)
		var ie *IllegalMoveError
		if !errors.As(err, &ie) || ie.Number != 3 || ie.Move != rec.Moves[2] || !errors.Is(err, ErrIllegalMove) ||
			!strings.HasPrefix(err.Error(), "move 3 E5-E7: ") || !strings.Contains(err.Error(), "one square") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("rules of another variant", func(t *testing.T) {
		_, err := Replay(base, DefaultRules(VariantClassic))
		var ie *IllegalMoveError
		var me *ResultMismatchError
		if err == nil || errors.As(err, &ie) || errors.As(err, &me) || errors.Is(err, ErrUnsupported) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("set-up that does not fit", func(t *testing.T) {
		rec := *base
		rec.Setups[Red][0][0] = Bomb
		_, err := Replay(&rec, rules)
		var se *SetupError
		if !errors.As(err, &se) {
			t.Errorf("got %v", err)
		}
	})
}

func FuzzParseGravon(f *testing.F) {
	for _, name := range []string{"barrage-2004.11-104.xml", "duell-2014.3-51.xml", "classic-2005.1-38.xml", "classic-2013.10-3297.xml"} {
		data, err := os.ReadFile(filepath.Join(gvSampleDir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(gvDoc(`type="custom" army="10 I F" two_squares="5" max_moves="9"`, `<field content="`+gvField+`"/><move id="1" source="E1" target="E3" guess="F"/><result type="0" winner="2" method="no-legal-moves"/>`)))
	f.Add([]byte(gvDoc(`type="classicfree"`, ``)))
	f.Add([]byte(`<stratego><game type="duell"><field content=""/></game></stratego>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ParseGravon(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := rec.WriteGravon(&buf); err != nil {
			t.Fatalf("WriteGravon of a parsed record: %v", err)
		}
		back, err := ParseGravon(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("re-import: %v\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(back, rec) {
			t.Fatalf("re-import differs:\n got %+v\nwant %+v", back, rec)
		}
		// Replaying never panics, whatever the record holds.
		Replay(rec, rec.Rules)
	})
}
