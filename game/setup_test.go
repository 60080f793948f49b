package game

import "testing"

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
