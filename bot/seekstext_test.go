package bot

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// TestSeeksText: the queue lists its first 25 seeks, as many of them as one
// message of Discord's 2000 characters holds, and says how many more there
// are: 25 seekers of Barrage at 3 days a move within a rating range (89
// characters a line with a short name), or with names of 32 characters,
// twice as long once their markdown is escaped, do not make an answer
// Discord refuses, in any language.
func TestSeeksText(t *testing.T) {
	t.Parallel()
	seeks := func(n int, name string) []*storage.Seek {
		var q []*storage.Seek
		for k := range n {
			q = append(q, &storage.Seek{Player: storage.Player{UserID: strconv.Itoa(k), Name: name}, Rating: 1500,
				Rules: game.DefaultRules(game.VariantBarrage), MoveTime: 72 * time.Hour, RatingMin: 1200, RatingMax: 1800,
				Expires: T0.Add(7 * 24 * time.Hour)})
		}
		return q
	}
	tests := []struct {
		name         string
		q            []*storage.Seek
		listed, more int // in English
	}{
		{"a few", seeks(3, "alice"), 3, 0},
		{"21 short names", seeks(21, "al"), 21, 0},
		{"25 short names", seeks(25, "al"), 21, 4}, // 89 characters a line
		{"30 short names", seeks(30, "al"), 21, 9},
		{"25 names of markdown", seeks(25, strings.Repeat("_*", 16)), 12, 13},
		{"30 names of markdown", seeks(30, strings.Repeat("_*", 16)), 12, 18},
	}
	for _, tc := range tests {
		for _, l := range lang.Languages() {
			text := seeksText(lang.For(l.Code), tc.q)
			if n := utf8.RuneCountInString(text); n > maxMessage {
				t.Errorf("%s, %s: %d characters", tc.name, l.Code, n)
			}
			listed := strings.Count(text, "\n- ")
			more := ""
			if listed < len(tc.q) {
				more = lang.For(l.Code).Sprintf(txtSeeksMore, len(tc.q)-listed)
			}
			if !strings.HasSuffix(text, "\n"+more) && more != "" || listed == 0 {
				t.Errorf("%s, %s: %d listed, not followed by %q:\n%s", tc.name, l.Code, listed, more, text)
			}
			if l.Code == "en" && (listed != tc.listed || len(tc.q)-listed != tc.more) {
				t.Errorf("%s: %d listed and %d more, want %d and %d", tc.name, listed, len(tc.q)-listed, tc.listed, tc.more)
			}
		}
	}
}
