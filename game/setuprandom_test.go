package game

import (
	"fmt"
	"testing"
)

func TestEmbeddedSetups(t *testing.T) {
	rs := loadRealSetups()
	tests := []struct {
		v       Variant
		n       int
		skipped int
	}{
		{VariantClassic, 2029, rs.skippedClassic},
		{VariantBarrage, 3944, rs.skippedBarrage},
	}
	for _, tt := range tests {
		if tt.skipped != 0 {
			t.Errorf("%s: %d embedded lines are not valid set-ups", tt.v, tt.skipped)
		}
		got := RealSetups(tt.v)
		if len(got) != tt.n {
			t.Errorf("%s: %d real set-ups, want %d", tt.v, len(got), tt.n)
		}
		for i, s := range got {
			if err := s.Validate(DefaultRules(tt.v)); err != nil {
				t.Fatalf("%s set-up %d: %v", tt.v, i, err)
			}
		}
		// The caller gets a copy: changing it changes nothing for the next caller.
		got[0] = Setup{}
		if RealSetups(tt.v)[0] == (Setup{}) {
			t.Errorf("%s: RealSetups hands out its own slice", tt.v)
		}
	}
	for _, v := range []Variant{VariantDuel, VariantInfiltrator, VariantCustom} {
		if got := RealSetups(v); got != nil {
			t.Errorf("%s: %d real set-ups, want none", v, len(got))
		}
	}
}

func TestDecodeSetups(t *testing.T) {
	data := "# comment\n" +
		"BDGFDFDDDBHFLJGKDIFGEHEMCEHBDDIBJEIBHEBG\n" + // valid
		"\n" +
		"BDGFDFDDDBHFLJGKDIFGEHEMCEHBDDIBJEIBHEB\n" + // 39 letters
		"BDGFDFDDDBHFLJGKDIFGEHEMCEHBDDIBJEIBHEBZ\n" + // unknown letter
		"BDGFDFDDDBHFLJGKDIFGEHEMCEHBDDIBJEIBHEBB\n" + // a Lieutenant turned Bomb
		"]\n" // the stray line of the Barrage file
	setups, skipped := decodeSetups(data, DefaultRules(VariantClassic))
	if len(setups) != 1 || skipped != 4 {
		t.Fatalf("decoded %d, skipped %d; want 1 and 4", len(setups), skipped)
	}
	want := [SetupRows]string{"BDGFDFDDDB", "HFLJGKDIFG", "EHEMCEHBDD", "IBJEIBHEBG"}
	for row := range want {
		for col := range 10 {
			if got := setups[0][row][col]; got != ataraxosRanks[want[row][col]] {
				t.Errorf("row %d col %d: %v, want letter %c", row, col, got, want[row][col])
			}
		}
	}
}

// rulesName names rules in messages: the variant, and the army for Custom.
func rulesName(rules Rules) string {
	if rules.Variant == VariantCustom {
		return fmt.Sprintf("Custom %q", rules.Army.String())
	}
	return rules.Variant.String()
}

func TestRandomSetupIsValid(t *testing.T) {
	for _, rules := range testRules(t) {
		for seed := range uint64(500) {
			s := RandomSetup(rules, seed)
			if err := s.Validate(rules); err != nil {
				t.Fatalf("%s seed %d: %v\n%s", rulesName(rules), seed, err, FormatSetup(s, NumberingModern))
			}
			if _, err := NewGame(rules, s, RandomSetup(rules, seed+1)); err != nil {
				t.Fatalf("%s seed %d: NewGame: %v", rulesName(rules), seed, err)
			}
		}
	}
}

func TestRandomSetupIsReproducible(t *testing.T) {
	tests := []struct {
		rules Rules
		// minDistinct is how many of 200 seeds must give different set-ups.
		minDistinct int
	}{
		{DefaultRules(VariantClassic), 190},
		{DefaultRules(VariantBarrage), 190},
		{DefaultRules(VariantDuel), 199},
		{DefaultRules(VariantInfiltrator), 190},
		{customRules(t, "10 9 8 8 3 3 2 2 2 S B B F"), 199},
		{customRules(t, "2 F"), 20},
	}
	for _, tt := range tests {
		seen := map[Setup]bool{}
		for seed := range uint64(200) {
			s := RandomSetup(tt.rules, seed)
			if again := RandomSetup(tt.rules, seed); again != s {
				t.Fatalf("%s seed %d: two different set-ups", rulesName(tt.rules), seed)
			}
			seen[s] = true
		}
		if len(seen) < tt.minDistinct {
			t.Errorf("%s: 200 seeds gave only %d different set-ups, want at least %d", rulesName(tt.rules), len(seen), tt.minDistinct)
		}
		if RandomSetup(tt.rules, 1) == RandomSetup(tt.rules, 2) {
			t.Errorf("%s: seeds 1 and 2 give the same set-up", rulesName(tt.rules))
		}
	}
}

// setupFlagAt returns the row (0 = front) and column of the first Flag, or -1, -1.
func setupFlagAt(s Setup) (row, col int) {
	for r := range s {
		for c, k := range s[r] {
			if k == Flag {
				return r, c
			}
		}
	}
	return -1, -1
}

func TestRandomSetupFromRealPlayers(t *testing.T) {
	// In the embedded sample 95.4% of the Classic flags stand in the back two
	// rows (96.0% of all 64,920) and 81.0% of the Barrage ones.
	tests := []struct {
		rules   Rules
		minBack float64
	}{
		{DefaultRules(VariantClassic), 0.92},
		{DefaultRules(VariantInfiltrator), 0.92},
		{DefaultRules(VariantBarrage), 0.75},
	}
	const seeds = 4000
	for _, tt := range tests {
		back, mirrored := 0, 0
		known := map[Setup]bool{}
		base := tt.rules.Variant
		if base == VariantInfiltrator {
			base = VariantClassic
		}
		for _, s := range RealSetups(base) {
			known[s] = true
		}
		for seed := range uint64(seeds) {
			s := RandomSetup(tt.rules, seed)
			if row, _ := setupFlagAt(s); row >= SetupRows-2 {
				back++
			}
			if tt.rules.Variant == VariantInfiltrator {
				s = infiltratorToScout(t, s)
			}
			switch {
			case known[s]:
			case known[s.Mirror()]:
				mirrored++
			default:
				t.Fatalf("%s seed %d: not a real player's set-up:\n%s", tt.rules.Variant, seed, FormatSetup(s, NumberingModern))
			}
		}
		if f := float64(back) / seeds; f < tt.minBack {
			t.Errorf("%s: %.1f%% of the flags in the back two rows, want at least %.0f%%", tt.rules.Variant, 100*f, 100*tt.minBack)
		}
		// About half are mirrored; symmetric set-ups count as not mirrored.
		if f := float64(mirrored) / seeds; f < 0.4 || f > 0.6 {
			t.Errorf("%s: %.1f%% mirrored, want about half", tt.rules.Variant, 100*f)
		}
	}
}

// infiltratorToScout turns an Infiltrator set-up back into the Classic one it was made
// from, checking that the Infiltrator replaced a Scout near the front.
func infiltratorToScout(t *testing.T, s Setup) Setup {
	t.Helper()
	found := 0
	for r := range s {
		for c, k := range s[r] {
			if k == Infiltrator {
				found++
				s[r][c] = Scout
			}
		}
	}
	if found != 1 {
		t.Fatalf("%d Infiltrators", found)
	}
	return s
}

func TestInfiltratorNearTheFront(t *testing.T) {
	rules := DefaultRules(VariantInfiltrator)
	front := 0
	const seeds = 1000
	for seed := range uint64(seeds) {
		s := RandomSetup(rules, seed)
		for r := range 2 {
			for _, k := range s[r] {
				if k == Infiltrator {
					front++
				}
			}
		}
	}
	// 40 of the 2,029 sampled Classic set-ups have no Scout in the front two rows.
	if front < seeds*95/100 {
		t.Errorf("Infiltrator in the front two rows in %d of %d set-ups, want 95%%", front, seeds)
	}
}

// neighbourCells lists the squares of a Setup beside, in front of and behind (row, col).
func neighbourCells(row, col int) [][2]int {
	var out [][2]int
	for _, d := range [...][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
		r, c := row+d[0], col+d[1]
		if r >= 0 && r < SetupRows && c >= 0 && c < 10 {
			out = append(out, [2]int{r, c})
		}
	}
	return out
}

// setupFind lists the squares of s that hold rank k.
func setupFind(s Setup, k Rank) [][2]int {
	var out [][2]int
	for r := range s {
		for c, x := range s[r] {
			if x == k {
				out = append(out, [2]int{r, c})
			}
		}
	}
	return out
}

func TestGeneratedSetupsLookHuman(t *testing.T) {
	var rulesList []Rules
	rulesList = append(rulesList, DefaultRules(VariantDuel))
	for _, army := range testArmies {
		r := customRules(t, army)
		if r.Army != classicArmy && r.Army != barrageArmy {
			rulesList = append(rulesList, r)
		}
	}
	const seeds = 500
	for _, rules := range rulesList {
		army := rules.Army
		spyNextToGeneral, spies, minersBack, miners := 0, 0, 0, 0
		for seed := range uint64(seeds) {
			s := RandomSetup(rules, seed)
			fail := func(format string, args ...any) {
				t.Helper()
				t.Fatalf("%s seed %d: %s\n%s", rulesName(rules), seed, fmt.Sprintf(format, args...), FormatSetup(s, NumberingModern))
			}
			row, col := setupFlagAt(s)
			if row != SetupRows-1 {
				fail("the Flag is on row %d from the front, not the back row", row+1)
			}
			if army[Bomb] > 0 {
				bombed := false
				for _, n := range neighbourCells(row, col) {
					bombed = bombed || s[n[0]][n[1]] == Bomb
				}
				if !bombed {
					fail("no Bomb next to the Flag")
				}
			}
			// Marshal and General in the front two rows, in different columns,
			// whenever the army leaves room for it (at most 20 pieces).
			if army.Total() <= 20 {
				for _, k := range []Rank{Marshal, General} {
					for _, at := range setupFind(s, k) {
						if at[0] > 1 {
							fail("a %s on row %d from the front", k, at[0]+1)
						}
					}
				}
				if len(setupFind(s, Marshal)) == 1 && len(setupFind(s, General)) == 1 && setupFind(s, Marshal)[0][1] == setupFind(s, General)[0][1] {
					fail("Marshal and General in the same column")
				}
				// A small army stays together: about two squares a piece.
				lo, hi := 10, -1
				for r := range s {
					for c, k := range s[r] {
						if k != NoRank {
							lo, hi = min(lo, c), max(hi, c)
						}
					}
				}
				if span, most := hi-lo+1, max(3, (2*army.Total()+3)/4); span > most {
					fail("the army spans %d columns, want at most %d", span, most)
				}
			}
			if army[General] > 0 {
				for _, at := range setupFind(s, Spy) {
					spies++
					for _, n := range neighbourCells(at[0], at[1]) {
						if s[n[0]][n[1]] == General {
							spyNextToGeneral++
							break
						}
					}
				}
			}
			for _, at := range setupFind(s, Miner) {
				miners++
				if at[0] >= 2 {
					minersBack++
				}
			}
		}
		if spies > 0 && spyNextToGeneral < spies*85/100 {
			t.Errorf("%s: %d of %d Spies next to a General, want 85%%", rulesName(rules), spyNextToGeneral, spies)
		}
		if miners > 0 && army.Total() <= 20 && minersBack < miners*70/100 {
			t.Errorf("%s: %d of %d Miners in the back two rows, want 70%%", rulesName(rules), minersBack, miners)
		}
	}
}

func TestRandomSetupFillsFullArmies(t *testing.T) {
	for _, army := range []string{"39x 2 F", "2 38x B F", "10 9 2x 8 3x 7 4x 6 4x 5 4x 4 6x 3 6x 2 S I 6x B F"} {
		rules := customRules(t, army)
		if rules.Army.Total() != MaxPieces {
			t.Fatalf("army %q has %d pieces, want %d", army, rules.Army.Total(), MaxPieces)
		}
		for seed := range uint64(100) {
			s := RandomSetup(rules, seed)
			if n := s.Counts().Total(); n != MaxPieces {
				t.Fatalf("%s seed %d: %d pieces placed", army, seed, n)
			}
		}
	}
}

func TestRandomSetupNeverPanics(t *testing.T) {
	var huge Army
	for r := range huge {
		huge[r] = 255
	}
	tests := []struct {
		name string
		army Army
	}{
		{"every rank 255 times", huge},
		{"nothing", Army{}},
		{"two Flags", Army{Flag: 2, Scout: 1}},
		{"41 Scouts and a Flag", Army{Scout: 41, Flag: 1}},
		{"empty squares listed", Army{NoRank: 10, Scout: 1, Flag: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := DefaultRules(VariantCustom)
			rules.Army = tt.army
			for seed := range uint64(20) {
				s := RandomSetup(rules, seed)
				if n := s.Counts().Total(); n > MaxPieces || n > tt.army.Total()-int(tt.army[NoRank]) {
					t.Fatalf("seed %d: %d pieces placed", seed, n)
				}
			}
		})
	}
}
