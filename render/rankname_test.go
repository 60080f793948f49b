package render

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// TestRankNamedIsOneRank: every name of a piece, one or many, in every
// language, reads back as that piece, and no name stands for two ranks in
// two languages.
func TestRankNamedIsOneRank(t *testing.T) {
	seen := map[string]string{}
	for _, l := range lang.Languages() {
		p := lang.For(l.Code)
		for _, r := range game.Ranks {
			for _, name := range []string{RankName(p, r), strings.TrimSpace(strings.TrimPrefix(RankCount(p, 2, r), "2"))} {
				if got, ok := RankNamed(name); !ok || got != r {
					t.Errorf("%s: %q reads as %v, %v; want %v", l.Code, name, got, ok, r)
				}
				if got, _ := RankNamed(strings.ToUpper(name)); got != r {
					t.Errorf("%s: %q in capitals reads as %v, want %v", l.Code, strings.ToUpper(name), got, r)
				}
				key := strings.ToLower(name)
				if other, ok := seen[key]; ok && other != r.String() {
					t.Errorf("%s: %q names %v here and %v elsewhere", l.Code, name, r, other)
				}
				seen[key] = r.String()
			}
		}
	}
	for _, name := range []string{"", "Q", "Kolonelz", "2"} {
		if r, ok := RankNamed(name); ok {
			t.Errorf("%q reads as %v", name, r)
		}
	}
}
