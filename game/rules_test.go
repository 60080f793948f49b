package game

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestParseSquare(t *testing.T) {
	tests := []struct {
		in   string
		want Square
		err  bool
	}{
		{"A1", 0, false}, {"a1", 0, false}, {"J1", 9, false}, {"A10", 90, false},
		{"j10", 99, false}, {" b4 ", SquareAt(1, 3), false}, {"E7", SquareAt(4, 6), false},
		{"K1", NoSquare, true}, {"A0", NoSquare, true}, {"A11", NoSquare, true},
		{"", NoSquare, true}, {"4B", NoSquare, true}, {"B", NoSquare, true}, {"B4x", NoSquare, true},
	}
	for _, tc := range tests {
		got, err := ParseSquare(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseSquare(%q) = %v, %v; want %v, err %v", tc.in, got, err, tc.want, tc.err)
		}
		if err == nil && !strings.EqualFold(got.String(), strings.TrimSpace(tc.in)) {
			t.Errorf("%q formats as %q", tc.in, got)
		}
	}
	for s := Square(0); s < NumSquares; s++ {
		back, err := ParseSquare(s.String())
		if err != nil || back != s {
			t.Fatalf("round trip of %d: %v %v", s, back, err)
		}
	}
}

func TestLakes(t *testing.T) {
	var got []string
	for s := Square(0); s < NumSquares; s++ {
		if s.IsLake() {
			got = append(got, s.String())
		}
	}
	if want := "C5 D5 G5 H5 C6 D6 G6 H6"; strings.Join(got, " ") != want {
		t.Fatalf("lakes %v, want %s", got, want)
	}
}

func TestRankLabels(t *testing.T) {
	tests := []struct {
		r                Rank
		modern, classic_ string
	}{
		{Marshal, "10", "1"}, {General, "9", "2"}, {Colonel, "8", "3"}, {Major, "7", "4"},
		{Captain, "6", "5"}, {Lieutenant, "5", "6"}, {Sergeant, "4", "7"}, {Miner, "3", "8"},
		{Scout, "2", "9"}, {Spy, "S", "S"}, {Infiltrator, "I", "I"}, {Bomb, "B", "B"}, {Flag, "F", "F"},
	}
	for _, tc := range tests {
		if got := tc.r.Label(NumberingModern); got != tc.modern {
			t.Errorf("%v modern label %q, want %q", tc.r, got, tc.modern)
		}
		if got := tc.r.Label(NumberingClassic); got != tc.classic_ {
			t.Errorf("%v classic label %q, want %q", tc.r, got, tc.classic_)
		}
		for _, n := range []Numbering{NumberingModern, NumberingClassic} {
			if back, err := ParseRank(tc.r.Label(n), n); err != nil || back != tc.r {
				t.Errorf("ParseRank(%q, %v) = %v, %v", tc.r.Label(n), n, back, err)
			}
			if back, err := ParseRank(strings.ToUpper(tc.r.Name()), n); err != nil || back != tc.r {
				t.Errorf("ParseRank(%q) = %v, %v", tc.r.Name(), back, err)
			}
		}
	}
	for _, bad := range []string{"1", "11", "0", "x", ""} {
		if _, err := ParseRank(bad, NumberingModern); err == nil {
			t.Errorf("ParseRank(%q, modern) accepted", bad)
		}
	}
	for _, bad := range []string{"10", "0", "Q"} {
		if _, err := ParseRank(bad, NumberingClassic); err == nil {
			t.Errorf("ParseRank(%q, classic) accepted", bad)
		}
	}
	if got := Captain.Describe(NumberingModern); got != "Captain (6)" {
		t.Errorf("Describe = %q", got)
	}
}

func TestArmies(t *testing.T) {
	tests := []struct {
		v     Variant
		total int
	}{{VariantClassic, 40}, {VariantBarrage, 8}, {VariantDuel, 10}, {VariantInfiltrator, 40}}
	for _, tc := range tests {
		if got := tc.v.Army().Total(); got != tc.total {
			t.Errorf("%v army has %d pieces, want %d", tc.v, got, tc.total)
		}
		if err := DefaultRules(tc.v).Validate(); err != nil {
			t.Errorf("%v default rules: %v", tc.v, err)
		}
	}
	a, err := ParseArmy("10 9 8 8 3 3 2 2 2 S B B F", NumberingModern)
	if err != nil {
		t.Fatal(err)
	}
	if a[Colonel] != 2 || a[Scout] != 3 || a[Bomb] != 2 || a.Total() != 13 {
		t.Fatalf("parsed army %v", a)
	}
	if got := a.String(); got != "10 9 8 8 3 3 2 2 2 S B B F" {
		t.Fatalf("army formats as %q", got)
	}
	if b, err := ParseArmy("Marshal, 3x Scout, 2x bomb, flag, I", NumberingModern); err != nil || b[Scout] != 3 || b[Bomb] != 2 || b[Infiltrator] != 1 {
		t.Fatalf("named army: %v %v", b, err)
	}
	for _, bad := range []struct{ text, want string }{
		{"10 9 B", "exactly one Flag"},
		{"B B F", "at least one piece that can move"},
		{"10 F F", "exactly one Flag"},
		{"", "empty"},
		{"40x 2 F", "at most 40"},
		{"10 Z F", "not a piece"},
	} {
		if _, err := ParseArmy(bad.text, NumberingModern); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseArmy(%q) = %v, want error with %q", bad.text, err, bad.want)
		}
	}
}

func TestRulesValidate(t *testing.T) {
	custom := DefaultRules(VariantCustom)
	custom.Army = Army{Scout: 2, Flag: 1}
	tests := []struct {
		name string
		edit func(*Rules)
		want string
	}{
		{"classic defaults", func(r *Rules) {}, ""},
		{"two squares 5", func(r *Rules) { r.TwoSquares = 5 }, ""},
		{"two squares off", func(r *Rules) { r.TwoSquares = 0 }, ""},
		{"two squares 4", func(r *Rules) { r.TwoSquares = 4 }, "3, 5 or off"},
		{"negative max moves", func(r *Rules) { r.MaxMoves = -1 }, "max_moves"},
		{"foreign army", func(r *Rules) { r.Army = Army{Scout: 1, Flag: 1} }, "choose Custom"},
	}
	for _, tc := range tests {
		r := DefaultRules(VariantClassic)
		tc.edit(&r)
		err := r.Validate()
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if err := custom.Validate(); err != nil {
		t.Errorf("custom: %v", err)
	}
	custom.Army = Army{Scout: 2}
	if err := custom.Validate(); err == nil {
		t.Error("custom army without a flag accepted")
	}
}

func TestSetupValidate(t *testing.T) {
	classic := DefaultRules(VariantClassic)
	full := func() Setup {
		var s Setup
		i := 0
		for _, r := range Ranks {
			for k := 0; k < int(classicArmy[r]); k++ {
				s[i/10][i%10] = r
				i++
			}
		}
		return s
	}
	s := full()
	if err := s.Validate(classic); err != nil {
		t.Fatalf("full classic set-up: %v", err)
	}
	s[0][0] = Bomb // the Marshal becomes a seventh Bomb
	err := s.Validate(classic)
	if err == nil || err.Error() != "Missing: 1 Marshal. Extra: 1 Bomb." {
		t.Fatalf("seven bombs: %v", err)
	}
	s = full()
	s[3][9] = NoRank
	if err := s.Validate(classic); err == nil || !strings.Contains(err.Error(), "Flag") {
		t.Fatalf("missing flag: %v", err)
	}
	var duel Setup
	duel[3][0], duel[3][1], duel[2][0], duel[0][5], duel[0][6], duel[1][1], duel[1][2], duel[1][3], duel[2][4], duel[2][7] = Flag, Bomb, Bomb, Marshal, General, Miner, Miner, Scout, Scout, Spy
	if err := duel.Validate(DefaultRules(VariantDuel)); err != nil {
		t.Fatalf("duel: %v", err)
	}
	duel[0][0] = Colonel
	if err := duel.Validate(DefaultRules(VariantDuel)); err == nil || err.Error() != "Extra: 1 Colonel." {
		t.Fatalf("duel with a colonel: %v", err)
	}
}

func TestSetupSquares(t *testing.T) {
	tests := []struct {
		side     Side
		row, col int
		want     string
	}{
		{Red, 0, 0, "A4"}, {Red, 3, 0, "A1"}, {Red, 3, 9, "J1"}, {Red, 0, 9, "J4"},
		{Blue, 0, 0, "J7"}, {Blue, 3, 0, "J10"}, {Blue, 3, 9, "A10"}, {Blue, 0, 9, "A7"},
	}
	for _, tc := range tests {
		s := SetupSquare(tc.side, tc.row, tc.col)
		if s.String() != tc.want {
			t.Errorf("%v row %d col %d = %v, want %s", tc.side, tc.row, tc.col, s, tc.want)
		}
		row, col, ok := SetupCell(tc.side, s)
		if !ok || row != tc.row || col != tc.col {
			t.Errorf("SetupCell(%v, %v) = %d %d %v", tc.side, s, row, col, ok)
		}
	}
	if _, _, ok := SetupCell(Red, sq(t, "A5")); ok {
		t.Error("A5 is in Red's zone")
	}
}

// battleMatrix is RULES.md's attack table written out in full: one row per
// attacker, one column per defender (10 9 8 7 6 5 4 3 2 S I B F).
// A: the attacker wins, D: the defender wins, =: both are removed.
var battleMatrix = map[Rank]string{
	Marshal:     "=AAAAAAAAAADA",
	General:     "D=AAAAAAAAADA",
	Colonel:     "DD=AAAAAAAADA",
	Major:       "DDD=AAAAAAADA",
	Captain:     "DDDD=AAAAAADA",
	Lieutenant:  "DDDDD=AAAAADA",
	Sergeant:    "DDDDDD=AAAADA",
	Miner:       "DDDDDDD=AAAAA",
	Scout:       "DDDDDDDD=AADA",
	Spy:         "ADDDDDDDD==DA",
	Infiltrator: "DDDDDDDDD==DA",
}

func TestBattleMatrix(t *testing.T) {
	defenders := []Rank{Marshal, General, Colonel, Major, Captain, Lieutenant, Sergeant, Miner, Scout, Spy, Infiltrator, Bomb, Flag}
	rules := DefaultRules(VariantCustom)
	rules.Army = Army{Flag: 1, Scout: 1}
	for attacker, row := range battleMatrix {
		for i, defender := range defenders {
			want := map[byte]BattleOutcome{'A': AttackerWon, 'D': DefenderWon, '=': BothRemoved}[row[i]]
			if got := Fight(attacker, defender); got != want {
				t.Errorf("%v attacks %v: %v, want %v", attacker, defender, got, want)
			}
			// The same battle played on the board: E4 attacks E5. Each side keeps
			// a Flag and a spare Scout so the game goes on unless a Flag falls.
			g := position(t, rules, Red,
				red("E4", attacker), blue("E5", defender),
				red("A1", Flag), red("J1", Scout), blue("A10", Flag), blue("J10", Scout))
			rec, err := g.Apply(Move{From: sq(t, "E4"), To: sq(t, "E5")})
			if err != nil {
				t.Fatalf("%v attacks %v: %v", attacker, defender, err)
			}
			if rec.Outcome != want || rec.Attacker != attacker || rec.Defender != defender {
				t.Fatalf("%v attacks %v: record %+v", attacker, defender, rec)
			}
			_, onFrom, fromTaken := g.PieceAt(sq(t, "E4"))
			side, onTo, toTaken := g.PieceAt(sq(t, "E5"))
			switch want {
			case AttackerWon:
				if fromTaken || !toTaken || side != Red || onTo != attacker {
					t.Errorf("%v beats %v: E4 %v/%v, E5 %v %v", attacker, defender, fromTaken, onFrom, side, onTo)
				}
			case DefenderWon:
				if fromTaken || !toTaken || side != Blue || onTo != defender {
					t.Errorf("%v loses to %v: E5 holds %v %v", attacker, defender, side, onTo)
				}
			case BothRemoved:
				if fromTaken || toTaken {
					t.Errorf("%v and %v should both be removed", attacker, defender)
				}
			}
			if defender == Flag {
				if r := g.Result(); r.Outcome != RedWon || r.Method != FlagCaptured {
					t.Errorf("%v took the Flag: result %v", attacker, r)
				}
			}
			// Both ranks are now known to both players while the pieces live.
			for _, viewer := range []Viewer{RedViewer, BlueViewer, PublicViewer} {
				v := g.View(viewer)
				if c := v.Board[sq(t, "E5")]; c.Occupied && c.Rank != onTo {
					t.Errorf("%v sees E5 as %v after the battle, want %v", viewer, c.Rank, onTo)
				}
			}
		}
	}
}

func TestMovement(t *testing.T) {
	classic := DefaultRules(VariantClassic)
	noRange := classic
	noRange.ScoutStrikesAtRange = false
	base := []at{red("A1", Flag), blue("J10", Flag), blue("J9", Sergeant)}
	tests := []struct {
		name   string
		rules  Rules
		pieces []at
		move   string
		want   string // "" = legal
	}{
		{"step forward", classic, []at{red("B4", Sergeant)}, "B4-B5", ""},
		{"step back", classic, []at{red("B4", Sergeant)}, "B4-B3", ""},
		{"step sideways", classic, []at{red("B4", Sergeant)}, "B4-A4", ""},
		{"diagonal", classic, []at{red("B4", Sergeant)}, "B4-C3", "never diagonally"},
		{"two squares", classic, []at{red("B4", Sergeant)}, "B4-B6", "only Scouts go further"},
		{"onto own piece", classic, []at{red("B4", Sergeant), red("B5", Miner)}, "B4-B5", "one of your own pieces"},
		{"onto a lake", classic, []at{red("C4", Sergeant)}, "C4-C5", "C5 is a lake"},
		{"bomb", classic, []at{red("B4", Bomb), red("E4", Sergeant)}, "B4-B5", "Bombs cannot move"},
		{"flag", classic, []at{red("B4", Miner)}, "A1-A2", "the Flag cannot move"},
		{"empty square", classic, []at{red("B4", Miner)}, "E4-E5", "there is no piece on E4"},
		{"from a lake", classic, []at{red("B4", Miner)}, "C5-C4", "C5 is a lake"},
		{"opponent's piece", classic, []at{red("B4", Miner)}, "J9-J8", "the piece on J9 is Blue's; it is Red's turn"},
		{"same square", classic, []at{red("B4", Miner)}, "B4-B4", "another square"},
		{"attack", classic, []at{red("B4", Miner), blue("B5", Scout)}, "B4xB5", ""},
		{"scout far", classic, []at{red("A2", Scout)}, "A2-A9", ""},
		{"scout sideways far", classic, []at{red("A4", Scout)}, "A4-J4", ""},
		{"scout over a piece", classic, []at{red("A2", Scout), red("A5", Miner)}, "A2-A7", "cannot jump over the piece on A5"},
		{"scout over an enemy", classic, []at{red("A2", Scout), blue("A5", Miner)}, "A2-A7", "cannot jump over the piece on A5"},
		{"scout over a lake", classic, []at{red("C4", Scout)}, "C4-C7", "cannot cross the lake at C5"},
		{"scout across row 5", classic, []at{red("A5", Scout)}, "A5-J5", "cannot cross the lake at C5"},
		{"scout diagonal", classic, []at{red("A2", Scout)}, "A2-C4", "never diagonally"},
		{"scout strikes at range", classic, []at{red("A2", Scout), blue("A8", Miner)}, "A2xA8", ""},
		{"scout strikes at range, option off", noRange, []at{red("A2", Scout), blue("A8", Miner)}, "A2xA8", "scout_strikes_at_range is off"},
		{"scout adjacent attack, option off", noRange, []at{red("A7", Scout), blue("A8", Miner)}, "A7xA8", ""},
		{"scout moves far, option off", noRange, []at{red("A2", Scout), blue("A8", Miner)}, "A2-A7", ""},
		{"scout strikes past target", classic, []at{red("A2", Scout), blue("A8", Miner)}, "A2-A9", "cannot jump over the piece on A8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, tc.rules, Red, append(append([]at{}, base...), tc.pieces...)...)
			if tc.want == "" {
				play(t, g, tc.move)
				return
			}
			refused(t, g, tc.move, tc.want)
		})
	}
}

func TestScoutStrikeAtRangeCapturesFlag(t *testing.T) {
	g := position(t, DefaultRules(VariantClassic), Red, red("A1", Flag), red("E2", Scout), blue("E9", Flag), blue("J9", Sergeant))
	play(t, g, "E2xE9")
	if r := g.Result(); r.Outcome != RedWon || r.Method != FlagCaptured {
		t.Fatalf("result %v", r)
	}
	if !g.View(BlueViewer).Board[sq(t, "E9")].KnownScout {
		t.Fatal("a Scout that struck from range is not known as a Scout")
	}
}

func TestInfiltration(t *testing.T) {
	rules := DefaultRules(VariantInfiltrator)
	setup := func() *Game {
		return position(t, rules, Red,
			red("A1", Flag), red("E7", Infiltrator), red("A4", Sergeant),
			blue("E9", Bomb), blue("E8", Captain), blue("F7", Flag), blue("J10", Sergeant), blue("B7", Miner), blue("B8", Scout))
	}
	tests := []struct {
		name string
		move string
		want string // "" = legal
	}{
		{"guess right one away", "E7~E8=6", ""},
		{"guess wrong one away", "E7~E8=Major", ""},
		{"two away needs an empty square between", "E7~E9=B", "needs E8 to be empty"},
		{"sideways adjacent", "E7~F7=F", ""},
		{"own piece", "A4~A5=F", "only the Infiltrator"},
		{"no target", "E7~D7=F", "no piece on D7"},
		{"too far", "E7~E10=F", "one or two squares away"},
		{"diagonal", "E7~F8=F", "one or two squares away"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := setup()
			if tc.want != "" {
				refused(t, g, tc.move, tc.want)
				return
			}
			play(t, g, tc.move)
		})
	}

	t.Run("right guess removes and reveals", func(t *testing.T) {
		g := setup()
		rec, err := g.Apply(mv(t, "E7~E8=6"))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Outcome != GuessedRight || rec.Defender != Captain || rec.Attacker != Infiltrator {
			t.Fatalf("record %+v", rec)
		}
		if _, _, ok := g.PieceAt(sq(t, "E8")); ok {
			t.Fatal("the Captain is still on E8")
		}
		if side, r, _ := g.PieceAt(sq(t, "E7")); side != Red || r != Infiltrator {
			t.Fatal("the Infiltrator left its square")
		}
		if c := g.View(BlueViewer).Board[sq(t, "E7")]; c.Rank != Infiltrator {
			t.Fatalf("Blue does not know the Infiltrator: %+v", c)
		}
		if v := g.View(PublicViewer); v.Captured[Blue][Captain] != 1 {
			t.Fatalf("captured %v", v.Captured[Blue])
		}
		if rec.String() != "E7~E8=6" {
			t.Fatalf("notation %q", rec.String())
		}
	})
	t.Run("wrong guess reveals only the Infiltrator", func(t *testing.T) {
		g := setup()
		rec, err := g.Apply(mv(t, "E7~E8=7"))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Outcome != GuessedWrong || rec.Defender != NoRank {
			t.Fatalf("record %+v", rec)
		}
		if c := g.View(RedViewer).Board[sq(t, "E8")]; c.Rank != NoRank || !c.Occupied {
			t.Fatalf("a wrong guess revealed the target: %+v", c)
		}
		if c := g.View(PublicViewer).Board[sq(t, "E7")]; c.Rank != Infiltrator {
			t.Fatalf("the public does not see the Infiltrator: %+v", c)
		}
	})
	t.Run("naming the flag wins", func(t *testing.T) {
		g := setup()
		play(t, g, "E7~F7=F")
		if r := g.Result(); r.Outcome != RedWon || r.Method != FlagCaptured {
			t.Fatalf("result %v", r)
		}
	})
	t.Run("only in the enemy zone", func(t *testing.T) {
		g := position(t, rules, Red, red("A1", Flag), red("E6", Infiltrator), blue("E7", Bomb), blue("J10", Flag), blue("J9", Scout))
		refused(t, g, "E6~E7=B", "only from inside Blue's set-up zone (rows 7–10)")
	})
	t.Run("not in other variants", func(t *testing.T) {
		g := position(t, DefaultRules(VariantClassic), Red, red("A1", Flag), red("E7", Scout), blue("E8", Bomb), blue("J10", Flag), blue("J9", Scout))
		refused(t, g, "E7~E8=B", "no Infiltrator in this match")
	})
	t.Run("spy and infiltrator remove each other", func(t *testing.T) {
		if Fight(Spy, Infiltrator) != BothRemoved || Fight(Infiltrator, Spy) != BothRemoved {
			t.Fatal("spy and infiltrator")
		}
	})
}

// TestInfiltrationNamesAnyPieceType: an infiltration may name any piece
// type (RULES.md: Marshal … Spy, Infiltrator, Bomb or Flag), one that a
// Custom army lacks too; every such guess is a legal move and listed among
// the legal moves, which must agree with Check.
func TestInfiltrationNamesAnyPieceType(t *testing.T) {
	rules := DefaultRules(VariantCustom)
	rules.Army = Army{Marshal: 1, Scout: 2, Spy: 1, Infiltrator: 1, Bomb: 1, Flag: 1}
	for _, guess := range Ranks {
		t.Run(guess.Name(), func(t *testing.T) {
			g := position(t, rules, Red, red("A1", Flag), red("E7", Infiltrator), red("J1", Scout),
				blue("E8", Scout), blue("J10", Flag), blue("A10", Scout))
			m := Move{From: sq(t, "E7"), To: sq(t, "E8"), Guess: guess}
			listed := false
			for _, l := range g.LegalMoves() {
				listed = listed || l == m
			}
			if !listed {
				t.Errorf("%v is not listed among the legal moves", m)
			}
			rec, err := g.Apply(m)
			if err != nil {
				t.Fatalf("%v: %v", m, err)
			}
			if want := map[bool]BattleOutcome{true: GuessedRight, false: GuessedWrong}[guess == Scout]; rec.Outcome != want {
				t.Fatalf("%v: %v, want %v", m, rec.Outcome, want)
			}
		})
	}
}

func TestTwoSquaresRule(t *testing.T) {
	// Red's Sergeant shuttles between B4 and B5; Blue shuffles a far piece.
	pieces := []at{red("A1", Flag), red("B4", Sergeant), blue("J10", Flag), blue("A10", Scout), blue("A7", Sergeant)}
	blueMoves := []string{"A10-B10", "B10-C10", "C10-D10", "D10-E10", "E10-F10", "F10-G10", "G10-H10", "H10-I10"}
	shuttle := []string{"B4-B5", "B5-B4", "B4-B5", "B5-B4", "B4-B5", "B5-B4"}
	for _, n := range []int{3, 5, 0} {
		rules := DefaultRules(VariantClassic)
		rules.TwoSquares = n
		g := position(t, rules, Red, pieces...)
		limit := n
		if n == 0 {
			limit = len(shuttle)
		}
		for i := 0; i < limit; i++ {
			play(t, g, shuttle[i], blueMoves[i])
		}
		if n == 0 {
			continue
		}
		refused(t, g, shuttle[n], "the Two-Squares rule forbids a "+Ordinal(n+1).String()+" move between B4 and B5")
		// Moving on along the same line, or along the other axis, is allowed.
		alt := g.Clone()
		if n%2 == 1 { // the Sergeant is on B5
			play(t, alt, "B5-B6")
			play(t, g, "B5-A5")
		} else {
			play(t, alt, "B4-B3")
			play(t, g, "B4-A4")
		}
	}

	t.Run("another piece starts a new count", func(t *testing.T) {
		g := position(t, DefaultRules(VariantClassic), Red, append(pieces, red("J4", Sergeant))...)
		play(t, g, "B4-B5", blueMoves[0], "B5-B4", blueMoves[1], "B4-B5", blueMoves[2], "J4-J3", blueMoves[3])
		play(t, g, "B5-B4", blueMoves[4], "B4-B5", blueMoves[5], "B5-B4", blueMoves[6])
		refused(t, g, "B4-B5", "Two-Squares")
	})
	t.Run("the scout example of RULES.md", func(t *testing.T) {
		g := position(t, DefaultRules(VariantClassic), Red, red("A1", Flag), red("D4", Scout), red("A3", Sergeant), blue("J10", Flag), blue("A10", Scout))
		play(t, g, "D4-H4", "A10-B10", "H4-B4", "B10-C10", "B4-J4", "C10-D10")
		refused(t, g, "J4-G4", "the Two-Squares rule forbids crossing between D4 and H4 a 4th time in a row")
		refused(t, g, "J4-A4", "Two-Squares")
		play(t, g, "J4-H4")
	})
	t.Run("a scout crossing one shared border", func(t *testing.T) {
		// From a real game (classic-2005.2-6, move 237): D3-D2, D2-D4, D4-D2
		// all cross the D2|D3 border, so D2-D4 may not cross it a 4th time.
		g := position(t, DefaultRules(VariantClassic), Red, red("A1", Flag), red("D3", Scout), blue("J10", Flag), blue("A10", Scout))
		play(t, g, "D3-D2", "A10-B10", "D2-D4", "B10-C10", "D4-D2", "C10-D10")
		refused(t, g, "D2-D4", "the Two-Squares rule forbids crossing between D2 and D3 a 4th time in a row")
		play(t, g, "D2-D1")
	})
}

func TestTwoSquaresAttackCounts(t *testing.T) {
	// Red's Miner shuttles B4-B5 three times; then a Blue Scout lands on B4.
	// The 4th crossing of the B4|B5 border is forbidden even as an attack.
	pieces := []at{red("A1", Flag), red("B4", Miner), red("J1", Sergeant), blue("J10", Flag), blue("A10", Scout), blue("E4", Scout)}
	g := position(t, DefaultRules(VariantClassic), Red, pieces...)
	play(t, g, "B4-B5", "A10-B10", "B5-B4", "B10-C10", "B4-B5", "E4-B4")
	refused(t, g, "B5xB4", "the Two-Squares rule forbids a 4th move between B4 and B5")

	// Had Red moved another piece in between, the count would start again.
	g = position(t, DefaultRules(VariantClassic), Red, pieces...)
	play(t, g, "B4-B5", "A10-B10", "B5-B4", "B10-C10", "J1-J2", "C10-D10", "B4-B5", "E4-B4")
	play(t, g, "B5xB4")
}

func TestMoreSquaresRule(t *testing.T) {
	// Red's General X chases Blue's Captain Y around the square E3 F3 F4 E4.
	pieces := []at{red("A1", Flag), red("E2", General), red("J1", Scout), blue("J10", Flag), blue("E4", Captain), blue("A10", Scout)}
	chase := []string{"E2-E3", "E4-F4", "E3-E4", "F4-F3", "E4-F4", "F3-E3", "F4-F3", "E3-E4"}
	t.Run("a chasing move into an earlier position is refused", func(t *testing.T) {
		g := position(t, DefaultRules(VariantClassic), Red, pieces...)
		play(t, g, chase...)
		refused(t, g, "F3-E3", "the More-Squares rule forbids chasing the piece on E4")
		play(t, g, "F3-F4") // threatens E4 from a new position: allowed
	})
	t.Run("off", func(t *testing.T) {
		rules := DefaultRules(VariantClassic)
		rules.MoreSquares = false
		g := position(t, rules, Red, pieces...)
		play(t, g, chase...)
		play(t, g, "F3-E3")
	})
	t.Run("a move that does not chase is free", func(t *testing.T) {
		g := position(t, DefaultRules(VariantClassic), Red, pieces...)
		play(t, g, chase...)
		play(t, g, "J1-J2")
	})
	t.Run("the chased side is never restricted", func(t *testing.T) {
		g := position(t, DefaultRules(VariantClassic), Red, pieces...)
		play(t, g, chase...)
		play(t, g, "F3-F4", "E4-E5", "F4-E4", "E5-F5", "E4-E5", "F5-F4")
		if len(g.chase.positions) == 0 || g.chase.chaser != Red {
			t.Fatal("the chase should still be running with Red as the chaser")
		}
	})
	t.Run("back to the square it came from is always allowed", func(t *testing.T) {
		g := position(t, DefaultRules(VariantClassic), Red,
			red("A1", Flag), red("E1", General), red("J1", Scout), blue("J10", Flag), blue("E3", Captain), blue("A10", Scout))
		play(t, g, "E1-E2", "E3-F3", "E2-F2", "F3-E3")
		// F2-E2 leads back to the position after E1-E2, but E2 is where the General came from.
		m := mv(t, "F2-E2")
		h := g.hash ^ zobrist(1, m.From) ^ zobrist(1, m.To)
		seen := false
		for _, p := range g.chase.positions {
			seen = seen || p == h
		}
		if !seen {
			t.Fatal("test set-up: F2-E2 should repeat a position of the chase")
		}
		play(t, g, "F2-E2")
	})
	t.Run("a battle ends the chase", func(t *testing.T) {
		g := position(t, DefaultRules(VariantClassic), Red, append(pieces, blue("B3", Spy))...)
		play(t, g, chase[:7]...)
		play(t, g, "B3-B2") // Blue does not evade: the chase is broken
		play(t, g, "F3-E3") // the same move is no longer a chasing move into a repeated chase
		if g.chase.active && g.chase.chaser == Red && len(g.chase.positions) > 2 {
			t.Fatal("the chase survived a move that was no evasion")
		}
	})
}

// TestMoreSquaresSeveralPieces: RULES.md forbids endlessly chasing "one or
// more pieces". Red's General chases Blue's Captain around E3 F3 F4 E4 and
// Red's Colonel chases Blue's Major around H3 I3 I4 H4, turn about: each
// threat answered by the threatened piece moving away, one continuous chase.
// The Two-Squares rule never applies: Red never moves one piece twice in a row.
func TestMoreSquaresSeveralPieces(t *testing.T) {
	two := []at{red("A1", Flag), red("E2", General), red("I2", Colonel), red("A4", Scout),
		blue("J10", Flag), blue("E4", Captain), blue("I4", Major), blue("A10", Scout)}
	inTurn := []string{"E2-E3", "E4-F4", "I2-I3", "I4-H4", "E3-E4", "F4-F3", "I3-I4", "H4-H3",
		"E4-F4", "F3-E3", "I4-H4", "H3-I3", "F4-F3", "E3-E4", "H4-H3", "I3-I4", "F3-E3", "E4-F4"}
	// One more H3-I3 leads back to the position after move 3.
	const repeats = "the More-Squares rule forbids chasing the piece on I4 into a position that was already on the board"
	off := DefaultRules(VariantClassic)
	off.MoreSquares = false
	tests := []struct {
		name   string
		rules  Rules
		pieces []at
		moves  []string // played first, each allowed
		refuse string   // then refused, with reason (if refuse is given)
		reason string
		allow  []string // then played, each allowed
		again  int      // if > 0: refuse, or else allow[0], leads back to the position after move again
	}{
		{"two pieces chased in turn: the repeating chasing move is refused", DefaultRules(VariantClassic), two, inTurn, "H3-I3", repeats,
			[]string{"H3-H4"}, 3}, // H3-H4 threatens the Major from a new position
		{"the rule off", off, two, inTurn, "", "", []string{"H3-I3"}, 3},
		{"a move that does not chase is free", DefaultRules(VariantClassic), two, inTurn, "H3-I3", repeats, []string{"H3-H2"}, 3},
		{"back to the square the chasing piece came from on the directly preceding turn",
			DefaultRules(VariantClassic), []at{red("A1", Flag), red("E1", General), red("I2", Colonel), blue("J10", Flag), blue("E3", Captain), blue("I4", Major)},
			// The Colonel's threat starts the chase, the General's continue it;
			// F2-E2 leads back to the position after E1-E2, and is allowed.
			[]string{"I2-I3", "I4-H4", "E1-E2", "E3-F3", "E2-F2", "F3-E3"}, "", "", []string{"F2-E2"}, 3},
		{"the chased side is never restricted", DefaultRules(VariantClassic), two,
			// E3-F3 is the General's step back; the Captain's F4-E4 then
			// leads back to the position after move 16.
			append(inTurn[:18:18], "E3-F3"), "", "", []string{"F4-E4"}, 16},
		{"a reply that does not evade breaks the chase", DefaultRules(VariantClassic), two,
			// Move 16 is the Captain's (next to the General), not the
			// threatened Major's: the chase ends there, and the same three
			// moves as above in another order lead to the same position,
			// where H3-I3 now starts a new chase.
			append(inTurn[:15:15], "E4-F4", "F3-E3", "I3-I4"), "", "", []string{"H3-I3"}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, tc.rules, Red, tc.pieces...)
			seen := []uint64{g.hash}
			for _, m := range tc.moves {
				play(t, g, m)
				seen = append(seen, g.hash)
			}
			if tc.again > 0 {
				m := tc.refuse
				if m == "" {
					m = tc.allow[0]
				}
				c := g.Clone()
				c.apply(mv(t, m))
				if c.hash != seen[tc.again] {
					t.Fatalf("test set-up: %s does not lead back to the position after move %d", m, tc.again)
				}
			}
			if tc.refuse != "" {
				refused(t, g, tc.refuse, tc.reason)
			}
			play(t, g, tc.allow...)
		})
	}
}

// TestApplyRecorded: a recorded move is not judged again by the repetition
// rules, which may have grown stricter since it was accepted: a log of two
// pieces chased in turn (as in TestMoreSquaresSeveralPieces, from set-ups),
// stored when the rule counted only the chase of one piece, ends with a move
// the rule now refuses. The game plays on from it under the rules, and its
// views rebuild. Every other rule still holds.
func TestApplyRecorded(t *testing.T) {
	rules := customRules(t, "9 8 7 6 2 F")
	var setups [2]Setup
	for _, p := range []at{red("A1", Flag), red("A2", Scout), red("B1", Major), red("C1", Captain), red("E4", General), red("I4", Colonel),
		blue("J10", Flag), blue("A9", Scout), blue("A10", General), blue("B10", Colonel), blue("E7", Captain), blue("I7", Major)} {
		row, col, _ := SetupCell(p.side, sq(t, p.sq))
		setups[p.side][row][col] = p.rank
	}
	g, err := NewGame(rules, setups[Red], setups[Blue])
	if err != nil {
		t.Fatal(err)
	}
	logged := []string{"A2-A3", "E7-E6", "A3-A2", "I7-I6",
		"E4-E5", "E6-F6", "I4-I5", "I6-J6", "E5-E6", "F6-F5", "I5-I6", "J6-J5",
		"E6-F6", "F5-E5", "I6-J6", "J5-I5", "F6-F5", "E5-E6", "J6-J5", "I5-I6", "F5-E5", "E6-F6", "J5-I5"}
	strict := g.Clone()
	play(t, strict, logged[:len(logged)-1]...)
	refused(t, strict, "J5-I5", "the More-Squares rule forbids chasing the piece on I6")
	for _, m := range logged {
		if _, err := g.ApplyRecorded(mv(t, m)); err != nil {
			t.Fatalf("recorded %s: %v", m, err)
		}
	}
	if g.Ply() != len(logged) || g.Result().Over() {
		t.Fatalf("after the log: ply %d, %v", g.Ply(), g.Result())
	}
	// The chase goes on: E5-E6 would lead back to the position after move 9.
	play(t, g, "I6-J6")
	for _, viewer := range []Viewer{RedViewer, BlueViewer, PublicViewer} {
		if _, err := GameFromView(g.View(viewer)); err != nil {
			t.Fatalf("the %v view does not rebuild: %v", viewer, err)
		}
	}
	v := g.View(RedViewer)
	if got, err := v.LegalMoves(); err != nil || !slices.Equal(got, g.LegalMoves()) {
		t.Fatalf("legal moves from Red's view %v, %v; want %v", got, err, g.LegalMoves())
	}
	refused(t, g, "E5-E6", "the More-Squares rule forbids chasing the piece on F6")
	if _, err := g.Clone().ApplyRecorded(mv(t, "E5-E6")); err != nil {
		t.Fatalf("recorded E5-E6: %v", err)
	}
	for _, tc := range []struct{ move, want string }{
		{"E5-F6", "diagonally"}, {"A1-A2", "the Flag cannot move"}, {"J6-J7", "the piece on J6 is Blue's"},
		{"I5-I7", "one square at a time"}, {"A2-A1", "your own pieces"},
	} {
		if _, err := g.Clone().ApplyRecorded(mv(t, tc.move)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("recorded %s: %v, want a refusal with %q", tc.move, err, tc.want)
		}
	}
	if err := g.Resign(Red); err != nil {
		t.Fatal(err)
	}
	if _, err := g.ApplyRecorded(mv(t, "E5-E4")); !errors.Is(err, ErrGameOver) {
		t.Fatalf("recorded move after the end: %v", err)
	}
}

// TestMoreSquaresGenerationAgreesWithCheck plays games that keep chases going
// and, wherever the More-Squares rule forbids a move, compares the generated
// moves with Check on every pair of squares; a refusal names an enemy piece
// next to the square the chasing move goes to.
func TestMoreSquaresGenerationAgreesWithCheck(t *testing.T) {
	buf := make([]Move, 0, 256)
	restricted, refusals := 0, 0
	for _, v := range []Variant{VariantClassic, VariantBarrage, VariantDuel} {
		rules := DefaultRules(v)
		for seed := uint64(0); seed < 12; seed++ {
			r := rand.New(rand.NewPCG(seed, 5))
			g, err := NewGame(rules, RandomSetup(rules, seed), RandomSetup(rules, seed+500))
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 400 && !g.Result().Over(); ply++ {
				loose := g.Clone()
				loose.rules.MoreSquares = false
				if len(loose.LegalMoves()) != len(g.LegalMoves()) {
					restricted++
					legal := map[Move]bool{}
					for _, m := range g.LegalMoves() {
						legal[m] = true
					}
					for a := Square(0); a < NumSquares; a++ {
						for b := Square(0); b < NumSquares; b++ {
							m := Move{From: a, To: b}
							err := g.Check(m)
							if (err == nil) != legal[m] {
								t.Fatalf("%v seed %d ply %d: %v: Check says %v, generated %v", v, seed, ply, m, err, legal[m])
							}
							var me *MoveError
							if errors.As(err, &me) && me.Text.Key == txtMoreSquares {
								refusals++
								named := me.Text.Args[0].(Square)
								if side, _, ok := g.PieceAt(named); !ok || side == g.toMove || !Adjacent(named, b) {
									t.Fatalf("%v seed %d ply %d: %v refused naming %v", v, seed, ply, m, named)
								}
							}
						}
					}
				}
				if _, err := g.Apply(pushyMove(g, r, buf)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("%d positions restricted by More-Squares, %d refusals", restricted, refusals)
	if restricted < 10 {
		t.Errorf("only %d positions restricted by More-Squares: the test does not exercise the rule", restricted)
	}
}

func TestEndOfGame(t *testing.T) {
	classic := DefaultRules(VariantClassic)
	tests := []struct {
		name   string
		rules  Rules
		toMove Side
		pieces []at
		moves  []string
		want   Result
	}{
		{"flag captured", classic, Red, []at{red("A1", Flag), red("E5", Miner), blue("E6", Flag), blue("J10", Scout)}, []string{"E5xE6"}, Result{RedWon, FlagCaptured}},
		{"last movable piece lost", classic, Red, []at{red("A1", Flag), red("E5", Miner), blue("E6", Marshal), blue("J10", Flag), blue("J9", Bomb)}, []string{"E5xE6"}, Result{BlueWon, NoMovablePieces}},
		{"loser without movable pieces even on the winner's turn", classic, Red, []at{red("A1", Flag), red("E5", General), red("J1", Scout), blue("E6", Sergeant), blue("J10", Flag)}, []string{"E5xE6"}, Result{RedWon, NoMovablePieces}},
		{"both without movable pieces", classic, Red, []at{red("A1", Flag), red("E5", Sergeant), blue("E6", Sergeant), blue("J10", Flag)}, []string{"E5xE6"}, Result{Drawn, NoMovablePieces}},
		{"walled in by its own bombs", classic, Red, []at{red("A1", Flag), red("E4", Miner), blue("J10", Sergeant), blue("I10", Bomb), blue("J9", Bomb), blue("E5", Scout), blue("A10", Flag)}, []string{"E4xE5"}, Result{RedWon, NoMovablePieces}},
		{"walled in on the winner's turn", classic, Red, []at{red("A1", Flag), red("A2", Sergeant), red("B2", Bomb), red("A3", Bomb), red("E4", Scout), blue("E5", Marshal), blue("J10", Flag)}, []string{"E4xE5"}, Result{BlueWon, NoMovablePieces}},
		{"a piece next to an enemy can still attack", classic, Blue, []at{red("A1", Flag), red("A2", Sergeant), red("B1", Bomb), red("B2", Bomb), blue("J10", Flag), blue("J9", Scout), blue("A5", Scout)}, []string{"A5-A3"}, Result{}},
		{"both walled in", classic, Red, []at{red("A1", Flag), red("A2", Sergeant), red("B2", Bomb), red("A3", Bomb), red("E4", Sergeant), blue("J10", Sergeant), blue("I10", Bomb), blue("J9", Bomb), blue("E5", Sergeant), blue("A10", Flag)}, []string{"E4xE5"}, Result{Drawn, NoMovablePieces}},
		{"move limit", Rules{Variant: VariantClassic, Army: classicArmy, ScoutStrikesAtRange: true, TwoSquares: 3, MoreSquares: true, MaxMoves: 2}, Red, []at{red("A1", Flag), red("E4", Scout), blue("J10", Flag), blue("J7", Scout)}, []string{"E4-E3", "J7-J6"}, Result{Drawn, MoveLimit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, tc.rules, tc.toMove, tc.pieces...)
			play(t, g, tc.moves...)
			if g.Result() != tc.want {
				t.Fatalf("result %v, want %v", g.Result(), tc.want)
			}
			if !tc.want.Over() {
				return
			}
			if len(g.LegalMoves()) != 0 {
				t.Fatal("moves are listed after the end")
			}
			if _, err := g.Apply(Move{From: 0, To: 10}); !errors.Is(err, ErrGameOver) {
				t.Fatalf("a move after the end: %v", err)
			}
		})
	}
	t.Run("resign", func(t *testing.T) {
		g := position(t, classic, Red, red("A1", Flag), red("E4", Scout), blue("J10", Flag), blue("J7", Scout))
		if err := g.Resign(Blue); err != nil {
			t.Fatal(err)
		}
		if g.Result() != (Result{RedWon, Resignation}) {
			t.Fatalf("result %v", g.Result())
		}
		if err := g.Resign(Red); !errors.Is(err, ErrGameOver) {
			t.Fatalf("second resignation: %v", err)
		}
	})
	t.Run("time forfeit", func(t *testing.T) {
		g := position(t, classic, Red, red("A1", Flag), red("E4", Scout), blue("J10", Flag), blue("J7", Scout))
		if err := g.TimeOut(Blue); !errors.Is(err, ErrNotYourTurn) {
			t.Fatalf("Blue timed out on Red's turn: %v", err)
		}
		if err := g.TimeOut(Red); err != nil || g.Result() != (Result{BlueWon, TimeForfeit}) {
			t.Fatalf("time out: %v %v", err, g.Result())
		}
	})
	t.Run("draw offers", func(t *testing.T) {
		g := position(t, classic, Red, red("A1", Flag), red("E4", Scout), blue("J10", Flag), blue("J7", Scout))
		if err := g.AcceptDraw(Blue); !errors.Is(err, ErrNoDrawOffer) {
			t.Fatalf("accept without offer: %v", err)
		}
		if err := g.OfferDraw(Red); err != nil {
			t.Fatal(err)
		}
		if err := g.AcceptDraw(Red); !errors.Is(err, ErrNoDrawOffer) {
			t.Fatalf("accepting one's own offer: %v", err)
		}
		play(t, g, "E4-E3", "J7-J6") // Red moved, but Blue has not yet answered: the offer stands
		if by, ok := g.DrawOffer(); !ok || by != Red {
			t.Fatal("the offer lapsed too early")
		}
		play(t, g, "E3-E4") // Red moves again after Blue's turn: the offer lapses
		if _, ok := g.DrawOffer(); ok {
			t.Fatal("the offer did not lapse")
		}
		if err := g.OfferDraw(Blue); err != nil {
			t.Fatal(err)
		}
		if err := g.DeclineDraw(Red); err != nil {
			t.Fatal(err)
		}
		if err := g.OfferDraw(Blue); err != nil {
			t.Fatal(err)
		}
		if err := g.AcceptDraw(Red); err != nil || g.Result() != (Result{Drawn, DrawAgreed}) {
			t.Fatalf("accept: %v %v", err, g.Result())
		}
	})
}

// TestEndOfGameByRepetition: after every move both sides' legal moves are
// counted, each as if it were that side's turn, with the repetition rules.
// A side whose only movable piece has just made its last allowed Two-Squares
// shuttle loses right after that move, without waiting for the reply.
func TestEndOfGameByRepetition(t *testing.T) {
	withTwoSquares := func(n int) Rules {
		r := DefaultRules(VariantClassic)
		r.TwoSquares = n
		return r
	}
	// Red's only movable piece is a Sergeant walled in on A2 and A3.
	pocket := []at{red("A1", Flag), red("A2", Sergeant), red("B2", Bomb), red("B3", Bomb), red("A4", Bomb),
		blue("J10", Flag), blue("A10", Scout)}
	// Red's only movable piece is a Scout in the lane A2–A4.
	lane := []at{red("A1", Flag), red("A2", Scout), red("B2", Bomb), red("B3", Bomb), red("B4", Bomb), red("A5", Bomb),
		blue("J10", Flag), blue("A10", Scout)}
	// Blue's Scout is walled in on J10 and J9 by its own Bombs; its Sergeant
	// on E6 is the piece that keeps Blue able to move.
	deadEnd := func(attacker Rank) []at {
		return []at{red("A1", Flag), red("E2", attacker),
			blue("J10", Scout), blue("I10", Bomb), blue("I9", Bomb), blue("J8", Bomb), blue("E6", Sergeant), blue("A10", Flag)}
	}
	blueWalk := []string{"A10-B10", "B10-C10", "C10-D10", "D10-E10", "E10-F10", "F10-G10"}
	// Red walks up to E5 while Blue's Scout crosses J9|J10 a 3rd time.
	approach := []string{"E2-E3", "J10-J9", "E3-E4", "J9-J10", "E4-E5", "J10-J9"}
	tests := []struct {
		name   string
		rules  Rules
		pieces []at
		moves  []string // alternating, Red first
		want   Result   // the result after the last move
	}{
		{"N=3: two shuttles leave a move", withTwoSquares(3), pocket,
			[]string{"A2-A3", blueWalk[0], "A3-A2", blueWalk[1]}, Result{}},
		{"N=3: the 3rd shuttle of the last movable piece loses at once", withTwoSquares(3), pocket,
			[]string{"A2-A3", blueWalk[0], "A3-A2", blueWalk[1], "A2-A3"}, Result{BlueWon, NoLegalMoves}},
		{"N=5: the 3rd shuttle leaves a move", withTwoSquares(5), pocket,
			[]string{"A2-A3", blueWalk[0], "A3-A2", blueWalk[1], "A2-A3", blueWalk[2]}, Result{}},
		{"N=5: the 5th shuttle loses at once", withTwoSquares(5), pocket,
			[]string{"A2-A3", blueWalk[0], "A3-A2", blueWalk[1], "A2-A3", blueWalk[2], "A3-A2", blueWalk[3], "A2-A3"}, Result{BlueWon, NoLegalMoves}},
		{"off: shuttling never ends the game", withTwoSquares(0), pocket,
			[]string{"A2-A3", blueWalk[0], "A3-A2", blueWalk[1], "A2-A3", blueWalk[2], "A3-A2", blueWalk[3], "A2-A3", blueWalk[4]}, Result{}},
		{"Scout: three crossings of the same borders lose at once", withTwoSquares(3), lane,
			[]string{"A2-A4", blueWalk[0], "A4-A2", blueWalk[1], "A2-A4"}, Result{BlueWon, NoLegalMoves}},
		{"Scout: a border not crossed every time stays open", withTwoSquares(3), lane,
			// A2-A4, A4-A2 and A2-A3 share only the A2|A3 border: A3-A4 is still allowed.
			[]string{"A2-A4", blueWalk[0], "A4-A2", blueWalk[1], "A2-A3", blueWalk[2], "A3-A4"}, Result{}},
		{"a blocked piece is no loss while another can move", withTwoSquares(3), deadEnd(General), approach, Result{}},
		{"the side to move loses when its last free piece is taken", withTwoSquares(3), deadEnd(General),
			append(approach, "E5xE6"), Result{RedWon, NoLegalMoves}},
		{"both sides stuck at once: a draw", withTwoSquares(3), deadEnd(Sergeant),
			// Equal ranks: both Sergeants go. Red has no movable piece left; Blue's
			// Scout may not cross J9|J10 a 4th time.
			append(approach, "E5xE6"), Result{Drawn, NoLegalMoves}},
		{"the same exchange after two shuttles: Red, without a movable piece, loses", withTwoSquares(3), deadEnd(Sergeant),
			[]string{"E2-E3", "J10-J9", "E3-E4", "J9-J10", "E4-E5", "E6-F6", "E5-E6", "F6-F7", "E6-F6", "J10-J9", "F6xF7"}, Result{BlueWon, NoMovablePieces}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, tc.rules, Red, tc.pieces...)
			last := len(tc.moves) - 1
			play(t, g, tc.moves[:last]...)
			if g.Result().Over() {
				t.Fatalf("ended before the last move: %v", g.Result())
			}
			play(t, g, tc.moves[last])
			if g.Result() != tc.want {
				t.Fatalf("result %v, want %v", g.Result(), tc.want)
			}
			if tc.want.Over() && len(g.LegalMoves()) != 0 {
				t.Fatal("moves are listed after the end")
			}
			if !tc.want.Over() && len(g.LegalMoves()) == 0 {
				t.Fatalf("the game goes on, but %s has no legal move", g.ToMove())
			}
		})
	}
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		in   string
		want string
		err  string
	}{
		{"B4-B5", "B4-B5", ""}, {"b4-b5", "B4-B5", ""}, {"B4xB5", "B4-B5", ""}, {"b4 b5", "B4-B5", ""},
		{"b4b5", "B4-B5", ""}, {"B4 x B5", "B4-B5", ""}, {" B4 - B5 ", "B4-B5", ""}, {"a10a9", "A10-A9", ""},
		{"A1-A10", "A1-A10", ""}, {"b4 to b5", "B4-B5", ""}, {"E8~E10=F", "E8~E10=F", ""},
		{"e8~e10=flag", "E8~E10=F", ""}, {"E8~E9=10", "E8~E9=10", ""},
		{"", "", "no move given"}, {"B4", "", "not a move"}, {"B4-K5", "", "not a move"},
		{"B4-B5-B6", "", "not a move"}, {"E8~E10", "", "names no guess"}, {"E8~E10=Z", "", "not a piece"},
		{"hello", "", "not a move"},
	}
	for _, tc := range tests {
		m, err := ParseMove(tc.in, NumberingModern)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseMove(%q) = %v, %v; want error %q", tc.in, m, err, tc.err)
			}
			continue
		}
		if err != nil || m.String() != tc.want {
			t.Errorf("ParseMove(%q) = %v, %v; want %s", tc.in, m, err, tc.want)
		}
	}
	if m, err := ParseMove("E8~E9=1", NumberingClassic); err != nil || m.Guess != Marshal {
		t.Errorf("classic guess: %v %v", m, err)
	}
}

// TestApplyRecordedGoesOnPastAnEndItsRecordContradicts: after move 24 of this
// log, recorded when the More-Squares rule counted only the chase of one
// piece, each of Red's steps chases a piece into a position seen before:
// today's reading leaves Red no legal move. The record goes on, so that was
// not the end when the moves were played, and the replay goes on with it;
// a game rebuilt to move 24 is under way when its store says so.
func TestApplyRecordedGoesOnPastAnEndItsRecordContradicts(t *testing.T) {
	rules := DefaultRules(VariantCustom)
	rules.Army = Army{General: 1, Colonel: 1, Captain: 1, Major: 1, Bomb: 6, Flag: 1}
	start := func() *Game {
		return position(t, rules, Red,
			red("A1", Flag), red("E5", General), red("I5", Colonel), red("E4", Bomb), red("F4", Bomb), red("I4", Bomb), red("J4", Bomb),
			blue("J10", Flag), blue("F6", Captain), blue("J6", Major), blue("E7", Bomb), blue("F7", Bomb), blue("I7", Bomb), blue("J7", Bomb))
	}
	log := []string{"E5-E6", "F6-F5", "E6-F6", "F5-E5", "F6-E6", "E5-F5", "E6-E5", "F5-F6", "E5-F5", "F6-E6", "F5-E5", "E6-F6",
		"I5-J5", "J6-I6", "J5-J6", "I6-I5", "J6-I6", "I5-J5", "I6-I5", "J5-J6", "I5-I6", "J6-J5", "I6-I5", "J5-J6", "E5-F5"}
	g := start()
	for i, text := range log {
		if _, err := g.ApplyRecorded(mv(t, text)); err != nil {
			t.Fatalf("recorded move %d %s: %v (after move %d: %v)", i+1, text, err, i, g.Result())
		}
	}
	if g.Ply() != len(log) || g.Result().Over() {
		t.Fatalf("after the log: ply %d, %v", g.Ply(), g.Result())
	}

	g = start()
	for _, text := range log[:24] {
		if _, err := g.ApplyRecorded(mv(t, text)); err != nil {
			t.Fatal(err)
		}
	}
	if r := g.Result(); r.Outcome != BlueWon || r.Method != NoLegalMoves {
		t.Fatalf("after move 24 by today's reading: %v, want Blue's win, Red having no legal move", r)
	}
	g.ResumeRecorded() // the store holds the match as under way
	if g.Result().Over() || len(g.LegalMoves()) != 0 {
		t.Fatalf("resumed: %v, Red's legal moves %v; want a game under way in which Red has none", g.Result(), g.LegalMoves())
	}
	if err := g.Clone().Resign(Red); err != nil {
		t.Errorf("Red resigns: %v", err)
	}
	if err := g.TimeOut(Red); err != nil || g.Result().Outcome != BlueWon {
		t.Errorf("Red's time runs out: %v, %v", err, g.Result())
	}
	g.ResumeRecorded() // an end on time stands
	if !g.Result().Over() {
		t.Error("ResumeRecorded took back an end on time")
	}
}
