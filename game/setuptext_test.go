package game

import (
	"errors"
	"strings"
	"testing"
)

// classicFixture is a real Classic set-up (the first line of the Ataraxos data)
// written in both numberings, front row first.
var classicFixture = struct {
	modern, classic, compact string
}{
	modern: `B  2  5  4  2  4  2  2  2  B
6  4  10 8  5  9  2  7  4  5
3  6  3  F  S  3  6  B  2  2
7  B  8  3  7  B  6  3  B  5`,
	classic: `B 9 6 7 9 7 9 9 9 B
5 7 1 3 6 2 9 4 7 6
8 5 8 F S 8 5 B 9 9
4 B 3 8 4 B 5 8 B 6`,
	compact: "B96797999B\n5713629476\n858FS85B99\n4B384B58B6",
}

func fixtureSetup(t testing.TB) Setup {
	t.Helper()
	s, ok := decodeSetupLine("BDGFDFDDDBHFLJGKDIFGEHEMCEHBDDIBJEIBHEBG")
	if !ok {
		t.Fatal("fixture does not decode")
	}
	return s
}

// customRules returns Custom rules for an army in modern numbering.
func customRules(t testing.TB, army string) Rules {
	t.Helper()
	a, err := ParseArmy(army, NumberingModern)
	if err != nil {
		t.Fatalf("army %q: %v", army, err)
	}
	r := DefaultRules(VariantCustom)
	r.Army = a
	return r
}

// barrageFixture is a Barrage set-up with empty squares written three ways.
const barrageFixture = `. . . . . Marshal . . General .
- - - - - Miner - - Spy -
_ _ _ _ _ _ _ _ 2 B
2 . . . . . . . . F`

func barrageFixtureSetup() Setup {
	var s Setup
	s[0][5], s[0][8] = Marshal, General
	s[1][5], s[1][8] = Miner, Spy
	s[2][8], s[2][9] = Scout, Bomb
	s[3][0], s[3][9] = Scout, Flag
	return s
}

func TestParseSetupAccepts(t *testing.T) {
	classic := DefaultRules(VariantClassic)
	fixture := fixtureSetup(t)
	noMarshal := customRules(t, "9 2 2 B F")
	var noMarshalSetup Setup
	noMarshalSetup[0][0], noMarshalSetup[0][1], noMarshalSetup[0][2] = General, Scout, Scout
	noMarshalSetup[3][0], noMarshalSetup[3][1] = Bomb, Flag

	tests := []struct {
		name      string
		text      string
		rules     Rules
		preferred Numbering
		want      Setup
		wantN     Numbering
	}{
		{"modern, spaces", classicFixture.modern, classic, NumberingModern, fixture, NumberingModern},
		{"modern found by its 10, classic preferred", classicFixture.modern, classic, NumberingClassic, fixture, NumberingModern},
		{"classic found by its 1, modern preferred", classicFixture.classic, classic, NumberingModern, fixture, NumberingClassic},
		{"classic, 10 characters a line", classicFixture.compact, classic, NumberingModern, fixture, NumberingClassic},
		{"commas and tabs", strings.NewReplacer("  ", ",", " ", "\t").Replace(classicFixture.modern), classic, NumberingModern, fixture, NumberingModern},
		{"commas with spaces", strings.ReplaceAll(classicFixture.classic, " ", ", "), classic, NumberingModern, fixture, NumberingClassic},
		{
			"names and abbreviations",
			"bomb Scout Lt Sgt 2 4 scouts 2 2 B\nCapt sergeant Marshal Col 5 Gen 2 Maj 4 5\nMiner 6 Min Flag spy 3 6 B 2 2\n7 B 8 3 Major bombs 6 3 B 5",
			classic, NumberingModern, fixture, NumberingModern,
		},
		{"lower-case letters", strings.ToLower(classicFixture.compact), classic, NumberingModern, fixture, NumberingClassic},
		{"line named classic wins", "classic\n" + classicFixture.compact, classic, NumberingModern, fixture, NumberingClassic},
		{"numbering: classic at the end", classicFixture.classic + "\nNumbering: Classic", classic, NumberingModern, fixture, NumberingClassic},
		{"numbering = modern", "numbering = modern\n" + classicFixture.modern, classic, NumberingClassic, fixture, NumberingModern},
		{"same line twice", "modern\n" + classicFixture.modern + "\nmodern", classic, NumberingClassic, fixture, NumberingModern},
		{
			"code fence, comments, blank lines",
			"```text\n# my set-up\n\n// front row first\n" + strings.Replace(classicFixture.modern, "\n", "  # the front row\n", 1) + "\n```\n",
			classic, NumberingModern, fixture, NumberingModern,
		},
		{"plain code fence", "```\n" + classicFixture.classic + "\n```", classic, NumberingModern, fixture, NumberingClassic},
		{"fence on the row lines", "```" + classicFixture.compact + "```", classic, NumberingModern, fixture, NumberingClassic},
		{"inline code", "`" + strings.ReplaceAll(classicFixture.compact, "\n", "`\n`") + "`", classic, NumberingModern, fixture, NumberingClassic},
		{"Windows line ends", strings.ReplaceAll(classicFixture.modern, "\n", "\r\n") + "\r\n", classic, NumberingModern, fixture, NumberingModern},
		{"Barrage, three ways to write empty", barrageFixture, DefaultRules(VariantBarrage), NumberingModern, barrageFixtureSetup(), NumberingModern},
		{"no 10 and no 1: preferred modern", "9 2 2 . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\nB F . . . . . . . .", noMarshal, NumberingModern, noMarshalSetup, NumberingModern},
		{"no 10 and no 1: preferred classic", "2 9 9 . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\nB F . . . . . . . .", noMarshal, NumberingClassic, noMarshalSetup, NumberingClassic},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n, err := ParseSetup(tt.text, tt.rules, tt.preferred)
			if err != nil {
				t.Fatalf("ParseSetup: %v\ntext:\n%s", err, tt.text)
			}
			if got != tt.want {
				t.Errorf("set-up\n%s\nwant\n%s", FormatSetup(got, NumberingModern), FormatSetup(tt.want, NumberingModern))
			}
			if n != tt.wantN {
				t.Errorf("numbering %v, want %v", n, tt.wantN)
			}
		})
	}
}

func TestParseSetupErrors(t *testing.T) {
	classic := DefaultRules(VariantClassic)
	rows := strings.Split(classicFixture.modern, "\n")
	with := func(i int, row string) string {
		r := append([]string(nil), rows...)
		r[i] = row
		return strings.Join(r, "\n")
	}
	tests := []struct {
		name      string
		text      string
		rules     Rules
		preferred Numbering
		want      string // the whole message
		wantN     Numbering
	}{
		// Classic leaves no square empty: its reasons speak of none, as
		// Barrage's, whose set-ups have empty squares, do.
		{"empty", "", classic, NumberingModern,
			"no set-up found: write 4 rows of 10 squares, front row first", NumberingModern},
		{"empty in Barrage", "", DefaultRules(VariantBarrage), NumberingModern,
			"no set-up found: write 4 rows of 10 squares, front row first (use . for an empty square)", NumberingModern},
		{"only comments and fences", "```\n# nothing\n// here\n```", classic, NumberingClassic,
			"no set-up found: write 4 rows of 10 squares, front row first", NumberingClassic},
		{"row too long", with(1, rows[1]+" 2"), classic, NumberingModern,
			"row 2 from the front has 11 pieces; each row has 10 squares", NumberingModern},
		{"row too short", with(3, "7 B 8 3 7 B 6 3 B"), classic, NumberingModern,
			"row 4 from the front has 9 pieces; each row has 10 squares", NumberingModern},
		{"one piece in a row", with(0, "Marshal"), classic, NumberingModern,
			"row 1 from the front has 1 piece; each row has 10 squares", NumberingModern},
		{"row too short in Barrage", strings.Replace(barrageFixture, "2 . . . . . . . . F", "2 . . . . . . . F", 1), DefaultRules(VariantBarrage), NumberingModern,
			"row 4 from the front has 9 pieces; each row has 10 squares (use . for an empty square)", NumberingModern},
		{"compact row of 9", "B96797999\n5713629476\n858FS85B99\n4B384B58B6", classic, NumberingClassic,
			`row 1 from the front has 9 characters ("B96797999"); write 10, one for each square, or separate the squares with spaces`, NumberingClassic},
		{"compact row of 11", "B96797999B\n5713629476\n858FS85B99\n4B384B58B6.", classic, NumberingModern,
			`row 4 from the front has 11 characters ("4B384B58B6."); write 10, one for each square, or separate the squares with spaces`, NumberingClassic},
		{"misspelt name alone", strings.Join(rows[:3], "\n") + "\nGenral", classic, NumberingModern,
			`row 4 from the front, column 1: "Genral" is not a piece; write one of 10 (Marshal), 9 (General), 8 (Colonel), 7 (Major), 6 (Captain), 5 (Lieutenant), 4 (Sergeant), 3 (Miner), 2 (Scout), S (Spy), B (Bomb), F (Flag)`, NumberingModern},
		{"not a piece", with(2, "3 6 3 Z S 3 6 B 2 2"), classic, NumberingModern,
			`row 3 from the front, column 4: "Z" is not a piece; write one of 10 (Marshal), 9 (General), 8 (Colonel), 7 (Major), 6 (Captain), 5 (Lieutenant), 4 (Sergeant), 3 (Miner), 2 (Scout), S (Spy), B (Bomb), F (Flag)`, NumberingModern},
		{"not a piece in a compact row", "B96797999B\n5713629476\n858FS85B99\n4B384B5ZB6", classic, NumberingModern,
			`row 4 from the front, column 8: "Z" is not a piece; write one of 1 (Marshal), 2 (General), 3 (Colonel), 4 (Major), 5 (Captain), 6 (Lieutenant), 7 (Sergeant), 8 (Miner), 9 (Scout), S (Spy), B (Bomb), F (Flag)`, NumberingClassic},
		{"not a piece in Barrage, which has empty squares", strings.Replace(barrageFixture, "Miner", "Minor", 1), DefaultRules(VariantBarrage), NumberingModern,
			`row 2 from the front, column 6: "Minor" is not a piece; write one of 10 (Marshal), 9 (General), 3 (Miner), 2 (Scout), S (Spy), B (Bomb), F (Flag), or . for an empty square`, NumberingModern},
		{"not a piece in a Custom army", "10 2 Q . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. F . . . . . . . B", customRules(t, "10 2 B F"), NumberingModern,
			`row 1 from the front, column 3: "Q" is not a piece; write one of 10 (Marshal), 2 (Scout), B (Bomb), F (Flag), or . for an empty square`, NumberingModern},
		{"x for an empty square", "x . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .", DefaultRules(VariantBarrage), NumberingModern,
			`row 1 from the front, column 1: "x" is not a piece; write . for an empty square`, NumberingModern},
		// In Classic, which leaves no square empty, an X is a piece mistyped.
		{"an X in Classic", with(1, "X 3 7 3 8 2 2 8 9 2"), classic, NumberingModern,
			`row 2 from the front, column 1: "X" is not a piece; write one of 10 (Marshal), 9 (General), 8 (Colonel), 7 (Major), 6 (Captain), 5 (Lieutenant), 4 (Sergeant), 3 (Miner), 2 (Scout), S (Spy), B (Bomb), F (Flag)`, NumberingModern},
		{"a 1 in modern numbering", "modern\n" + strings.Replace(classicFixture.modern, "10", "1", 1), classic, NumberingModern,
			`row 2 from the front, column 3: "1" is not a piece in modern numbering: use 10 (Marshal) to 2 (Scout), S, I, B or F`, NumberingModern},
		{"a 10 in classic numbering", "classic\n" + classicFixture.modern, classic, NumberingModern,
			`row 2 from the front, column 3: "10" is not a piece in classic numbering: use 1 (Marshal) to 9 (Scout), S, I, B or F`, NumberingClassic},
		{"three rows", strings.Join(rows[:3], "\n"), classic, NumberingModern,
			"3 rows given; a set-up has 4 rows, front row first", NumberingModern},
		{"one row", rows[1], classic, NumberingModern,
			"1 row given; a set-up has 4 rows, front row first", NumberingModern},
		{"five rows", classicFixture.modern + "\n" + rows[0], classic, NumberingModern,
			"5 rows given; a set-up has 4 rows, front row first", NumberingModern},
		{"both 10 and 1", strings.Replace(classicFixture.classic, "9", "10", 1), classic, NumberingModern,
			`the set-up has both a 10 (the Marshal in modern numbering) and a 1 (the Marshal in classic numbering): ` +
				`use one numbering, and write "modern" or "classic" on a line of its own to say which`, NumberingModern},
		{"both directives", "modern\nclassic\n" + classicFixture.compact, classic, NumberingModern,
			`the set-up says both "modern" and "classic"; keep one of the two lines`, NumberingModern},
		{"seven Bombs", with(0, "B 2 5 4 2 4 2 2 B B"), classic, NumberingModern,
			"Missing: 1 Scout. Extra: 1 Bomb.", NumberingModern},
		{"an empty square in Classic", with(0, "B 2 5 4 2 4 2 2 . B"), classic, NumberingModern,
			"Missing: 1 Scout.", NumberingModern},
		{"Infiltrator in Classic", with(0, "B I 5 4 2 4 2 2 2 B"), classic, NumberingModern,
			"Missing: 1 Scout. Extra: 1 Infiltrator.", NumberingModern},
		{"Barrage read in the wrong numbering", "classic\n" + barrageFixture, DefaultRules(VariantBarrage), NumberingModern,
			"Missing: 2 Scouts. Extra: 2 Generals.", NumberingClassic},
		{"Custom army short of a piece", "10 2 . . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\n. F . . . . . . . .", customRules(t, "10 2 B F"), NumberingModern,
			"Missing: 1 Bomb.", NumberingModern},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, n, err := ParseSetup(tt.text, tt.rules, tt.preferred)
			if err == nil {
				t.Fatalf("no error; want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n  %q\nwant\n  %q", err, tt.want)
			}
			var se *SetupError
			if !errors.As(err, &se) {
				t.Errorf("error %T is not a *SetupError", err)
			}
			if n != tt.wantN {
				t.Errorf("numbering %v, want %v", n, tt.wantN)
			}
		})
	}
}

func TestParseSetupReturnsWhatItReadOnRuleErrors(t *testing.T) {
	text := strings.Replace(classicFixture.modern, "B  2  5", "B  B  5", 1)
	s, _, err := ParseSetup(text, DefaultRules(VariantClassic), NumberingModern)
	if err == nil {
		t.Fatal("no error for 7 Bombs")
	}
	if s[0][1] != Bomb || s[1][2] != Marshal {
		t.Errorf("set-up not returned as read:\n%s", FormatSetup(s, NumberingModern))
	}
}

func TestFormatSetup(t *testing.T) {
	tests := []struct {
		name string
		s    Setup
		n    Numbering
		want string
	}{
		{"Classic, modern", fixtureSetup(t), NumberingModern, classicFixture.modern},
		{"Classic, classic", fixtureSetup(t), NumberingClassic, classicFixture.classic},
		{"Barrage, modern", barrageFixtureSetup(), NumberingModern, strings.Join([]string{
			".  .  .  .  .  10 .  .  9  .",
			".  .  .  .  .  3  .  .  S  .",
			".  .  .  .  .  .  .  .  2  B",
			"2  .  .  .  .  .  .  .  .  F",
		}, "\n")},
		{"Barrage, classic", barrageFixtureSetup(), NumberingClassic, `. . . . . 1 . . 2 .
. . . . . 8 . . S .
. . . . . . . . 9 B
9 . . . . . . . . F`},
		{"empty", Setup{}, NumberingModern, ".  .  .  .  .  .  .  .  .  .\n.  .  .  .  .  .  .  .  .  .\n.  .  .  .  .  .  .  .  .  .\n.  .  .  .  .  .  .  .  .  ."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatSetup(tt.s, tt.n); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// testRules lists rules of every variant and some Custom armies, odd ones included.
func testRules(t testing.TB) []Rules {
	t.Helper()
	var out []Rules
	for _, v := range Variants {
		if v != VariantCustom {
			out = append(out, DefaultRules(v))
		}
	}
	for _, army := range testArmies {
		out = append(out, customRules(t, army))
	}
	return out
}

// testArmies are Custom armies for the tests, in modern numbering.
var testArmies = []string{
	"10 9 8 8 3 3 2 2 2 S B B F",  // the example of RULES.md
	"2 F",                         // one movable piece and the Flag
	"10 F",                        // a Marshal alone
	"S B F",                       // a Spy and no General
	"I I I B F",                   // Infiltrators only
	"39x 2 F",                     // all Scouts, 40 pieces
	"2 38x B F",                   // one Scout and 38 Bombs
	"10 9 9 9 S S 7x B F",         // several Generals and Spies, many Bombs
	"2x 10 2x 9 3x 3 29x 2 S B F", // 39 pieces
	"10 9 2x 8 3x 7 4x 6 4x 5 4x 4 6x 3 6x 2 S I 6x B F", // 40, not a standard army
	"10 9 2x 8 3x 7 4x 6 4x 5 4x 4 5x 3 8x 2 S 6x B F",   // Classic's own army, as Custom
	"10 9 3 2 2 S B F", // Barrage's own army, as Custom
}

func TestFormatSetupRoundTrips(t *testing.T) {
	check := func(t *testing.T, rules Rules, s Setup) {
		t.Helper()
		for _, n := range []Numbering{NumberingModern, NumberingClassic} {
			text := FormatSetup(s, n)
			got, gotN, err := ParseSetup(text, rules, n)
			if err != nil || got != s || gotN != n {
				t.Fatalf("%s, %v: round trip gave %v, %v for\n%s", rules.Variant, n, gotN, err, text)
			}
		}
	}
	for _, rules := range testRules(t) {
		for seed := range uint64(50) {
			check(t, rules, RandomSetup(rules, seed))
		}
	}
	for _, v := range []Variant{VariantClassic, VariantBarrage} {
		for _, s := range RealSetups(v) {
			check(t, DefaultRules(v), s)
		}
	}
}

func TestSetupTemplate(t *testing.T) {
	for _, rules := range testRules(t) {
		for _, n := range []Numbering{NumberingModern, NumberingClassic} {
			tpl := SetupTemplate(rules, n)
			// Whatever the player's preference, the template says its numbering.
			for _, preferred := range []Numbering{NumberingModern, NumberingClassic} {
				s, gotN, err := ParseSetup(tpl, rules, preferred)
				if err != nil {
					t.Fatalf("%s %v: template does not parse: %v\n%s", rules.Variant, n, err, tpl)
				}
				if gotN != n {
					t.Errorf("%s %v: template read as %v", rules.Variant, n, gotN)
				}
				if s != RandomSetup(rules, templateSeed) {
					t.Errorf("%s %v: the example is not RandomSetup(rules, templateSeed)", rules.Variant, n)
				}
			}
			if tpl != SetupTemplate(rules, n) {
				t.Errorf("%s %v: template changes between calls", rules.Variant, n)
			}
			lines := strings.Split(strings.TrimSuffix(tpl, "\n"), "\n")
			if len(lines) < 2+SetupRows || !strings.HasPrefix(lines[0], "#") {
				t.Fatalf("%s %v: template lacks a comment header:\n%s", rules.Variant, n, tpl)
			}
			for _, l := range lines {
				if strings.HasPrefix(l, "#") && len(l) > 72 {
					t.Errorf("%s %v: comment line of %d bytes: %q", rules.Variant, n, len(l), l)
				}
			}
		}
	}

	// The header counts the army in the chosen numbering.
	tests := []struct {
		rules Rules
		n     Numbering
		want  []string
	}{
		{DefaultRules(VariantClassic), NumberingModern, []string{
			"front row (next to the lakes) first", "40 pieces:", "1 Marshal (10)", "8 Scouts (2)", "1 Spy (S)", "6 Bombs (B)", "1 Flag (F)",
			"Every square holds a piece", "numbering: modern"}},
		{DefaultRules(VariantClassic), NumberingClassic, []string{"1 Marshal (1)", "8 Scouts (9)", "5 Miners (8)", "numbering: classic"}},
		{DefaultRules(VariantBarrage), NumberingModern, []string{"8 pieces:", "2 Scouts (2)", "Write . for each of the 32 empty squares"}},
		{DefaultRules(VariantInfiltrator), NumberingClassic, []string{"1 Infiltrator (I)", "7 Scouts (9)"}},
		{customRules(t, "2 F"), NumberingClassic, []string{"Your Custom set-up", "2 pieces: 1 Scout (9), 1 Flag (F).", "38 empty squares"}},
	}
	for _, tt := range tests {
		tpl := SetupTemplate(tt.rules, tt.n)
		for _, w := range tt.want {
			if !strings.Contains(tpl, w) {
				t.Errorf("%s %v template lacks %q:\n%s", tt.rules.Variant, tt.n, w, tpl)
			}
		}
	}
}

func FuzzParseSetup(f *testing.F) {
	f.Add(classicFixture.modern, uint8(0), false)
	f.Add(classicFixture.classic, uint8(0), true)
	f.Add(classicFixture.compact, uint8(3), false)
	f.Add("```text\n"+barrageFixture+"\n```", uint8(1), false)
	f.Add("numbering: classic\n2 9 9 . . . . . . .\n. . . . . . . . . .\n. . . . . . . . . .\nB F . . . . . . . .", uint8(4), true)
	f.Add(SetupTemplate(DefaultRules(VariantDuel), NumberingModern), uint8(2), false)
	f.Add("``` ```\n`10`\n# x\n1,,10\t\r\n", uint8(4), false)
	custom, err := ParseArmy("10 9 8 8 3 3 2 2 2 S B B F", NumberingModern)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, variant uint8, classic bool) {
		rules := DefaultRules(Variants[int(variant)%len(Variants)])
		if rules.Variant == VariantCustom {
			rules.Army = custom
		}
		preferred := NumberingModern
		if classic {
			preferred = NumberingClassic
		}
		s, n, err := ParseSetup(text, rules, preferred)
		if err != nil {
			var se *SetupError
			if !errors.As(err, &se) || err.Error() == "" {
				t.Fatalf("error %T %q is not a *SetupError with a message", err, err)
			}
			return
		}
		if err := s.Validate(rules); err != nil {
			t.Fatalf("accepted a set-up that does not validate: %v", err)
		}
		back, n2, err := ParseSetup(FormatSetup(s, n), rules, n)
		if err != nil || back != s || n2 != n {
			t.Fatalf("round trip failed: %v, %v\n%s", err, n2, FormatSetup(s, n))
		}
	})
}
