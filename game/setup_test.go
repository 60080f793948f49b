package game

import (
	"errors"
	"reflect"
	"testing"
)

func TestSetupCanMove(t *testing.T) {
	classic := DefaultRules(VariantClassic)
	custom := DefaultRules(VariantCustom)
	custom.Army[Scout], custom.Army[Bomb], custom.Army[Flag] = 1, 2, 1
	// full fills a Classic zone in rank order, with some cells fixed first.
	full := func(fixed map[[2]int]Rank) Setup {
		var s Setup
		left := classic.Army
		for c, r := range fixed {
			s[c[0]][c[1]] = r
			left[r]--
		}
		k := 0
		for row := SetupRows - 1; row >= 0; row-- {
			for col := range 10 {
				if s[row][col] != NoRank {
					continue
				}
				for left[Ranks[k]] == 0 {
					k++
				}
				s[row][col] = Ranks[k]
				left[Ranks[k]]--
			}
		}
		return s
	}
	frontBombs := map[[2]int]Rank{}
	for _, col := range []int{0, 1, 4, 5, 8, 9} {
		frontBombs[[2]int{0, col}] = Bomb
	}
	tests := []struct {
		name  string
		rules Rules
		setup Setup
		want  bool
	}{
		{"a Sergeant in front of A4", classic, full(map[[2]int]Rank{{0, 0}: Sergeant}), true},
		{"Bombs on A4 B4 E4 F4 I4 J4, the lakes in front of the rest", classic, full(frontBombs), false},
		{"a Scout in a corner behind two Bombs", custom, Setup{2: {0: Bomb}, 3: {0: Scout, 1: Bomb, 9: Flag}}, false},
		{"the same Scout with room beside it", custom, Setup{2: {0: Bomb}, 3: {0: Scout, 2: Bomb, 9: Flag}}, true},
	}
	for _, tc := range tests {
		if err := tc.setup.Validate(tc.rules); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := tc.setup.CanMove(tc.rules); got != tc.want {
			t.Errorf("%s: CanMove %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestValidateListsWhatIsWrong: a set-up with the wrong pieces is refused
// with at most two short lines, what is missing and what is extra, each
// naming its pieces with their counts, the strongest first.
func TestValidateListsWhatIsWrong(t *testing.T) {
	classic := DefaultRules(VariantClassic)
	full := func(change func(*Setup)) Setup {
		s := fullClassic(t)
		change(&s)
		return s
	}
	tests := []struct {
		name  string
		setup Setup
		want  Lines
	}{
		{"a Marshal become a Bomb", full(func(s *Setup) { replaceFirst(s, Marshal, Bomb) }),
			Lines{text(txtMissing, Counts{{1, Marshal}}), text(txtExtra, Counts{{1, Bomb}})}},
		{"two ranks short, one over", full(func(s *Setup) { replaceFirst(s, Marshal, Scout); replaceFirst(s, General, Scout) }),
			Lines{text(txtMissing, Counts{{1, Marshal}, {1, General}}), text(txtExtra, Counts{{2, Scout}})}},
		{"only missing", full(func(s *Setup) { replaceFirst(s, Spy, NoRank) }),
			Lines{text(txtMissing, Counts{{1, Spy}})}},
		{"a rank the variant has not", full(func(s *Setup) { replaceFirst(s, Scout, Infiltrator) }),
			Lines{text(txtMissing, Counts{{1, Scout}}), text(txtExtra, Counts{{1, Infiltrator}})}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.setup.Validate(classic)
			var se *SetupError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SetupError", err)
			}
			got, ok := se.Text.Args[0].(Lines)
			if se.Text.Key != txtProblems || !ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("reason %#v, want %#v", se.Text, tc.want)
			}
			if want := tc.want.String(); err.Error() != want {
				t.Errorf("English %q, want %q", err, want)
			}
		})
	}
	if got := (Lines{text(txtMissing, Counts{{1, Marshal}, {1, General}}), text(txtExtra, Counts{{2, Scout}})}).String(); got != "Missing: 1 Marshal, 1 General. Extra: 2 Scouts." {
		t.Errorf("English of a list: %q", got)
	}
}

// TestValidateUnknownPiece: a set-up holding a value that is no piece (a
// stored set-up gone bad, say) is refused with a reason, never a panic.
func TestValidateUnknownPiece(t *testing.T) {
	for _, rules := range []Rules{DefaultRules(VariantClassic), DefaultRules(VariantDuel)} {
		s := fullClassic(t)
		s[1][3] = Rank(NumRanks + 16)
		var se *SetupError
		if err := s.Validate(rules); !errors.As(err, &se) || se.Text.Key != txtUnknownPiece {
			t.Errorf("%v: %v, want %q", rules.Variant, err, txtUnknownPiece)
		}
	}
}

// fullClassic returns a valid Classic set-up.
func fullClassic(t *testing.T) Setup {
	t.Helper()
	var s Setup
	var ranks []Rank
	army := VariantClassic.Army()
	for _, r := range Ranks {
		for range army[r] {
			ranks = append(ranks, r)
		}
	}
	for i, r := range ranks {
		s[i/10][i%10] = r
	}
	if err := s.Validate(DefaultRules(VariantClassic)); err != nil {
		t.Fatal(err)
	}
	return s
}

// replaceFirst puts to in place of the first piece of rank from.
func replaceFirst(s *Setup, from, to Rank) {
	for row := range s {
		for col := range s[row] {
			if s[row][col] == from {
				s[row][col] = to
				return
			}
		}
	}
}
