package bot

import (
	"strconv"
	"strings"
	"testing"
)

// TestFitList: a list answer is its head, then its lines, whole and in
// order, as many as fit with the line of how many are left out, in at most
// the limit's characters, counted as Discord counts them: a name of
// multi-byte letters takes its letters' room, not its bytes'; a line too
// long alone is left out and counted, and so is every line after it.
func TestFitList(t *testing.T) {
	t.Parallel()
	more := func(n int) string { return "… and " + strconv.Itoa(n) + " more." }
	repeat := func(n int, line string) []string {
		out := make([]string, n)
		for k := range out {
			out[k] = line
		}
		return out
	}
	tests := []struct {
		name   string
		limit  int
		head   string
		lines  []string
		total  int
		listed int  // lines kept
		more   int  // the number the last line says left out; 0: no such line
		noHead bool // the head does not fit
	}{
		{"all fit", 100, "**Head**", []string{"a", "b", "c"}, 3, 3, 0, false},
		{"no head", 100, "", []string{"a", "b"}, 2, 2, 0, false},
		{"exactly the limit", 8 + 3*10, "**Head**", repeat(3, "123456789"), 3, 3, 0, false},
		{"one character over", 8 + 3*10 - 1, "**Head**", repeat(3, "123456789"), 3, 1, 2, false},
		{"the last fits without the more line", 5 + 2*5, "Head:", repeat(2, "abcd"), 2, 2, 0, false},
		{"more items than lines", 100, "Head:", []string{"a", "b"}, 30, 2, 28, false},
		{"more line's room kept", 40, "Head:", repeat(10, "- line"), 10, 3, 7, false},
		{"one less for the more line", 39, "Head:", repeat(10, "- line"), 10, 2, 8, false},
		{"multi-byte names count as letters", 5 + 4*11, "Head:", repeat(4, "- éééééééé"), 4, 4, 0, false},
		{"multi-byte names over", 5 + 4*11 - 1, "Head:", repeat(4, "- 名名名名名名名名"), 4, 2, 2, false},
		{"emoji count one each", 5 + 2*6, "Head:", repeat(2, "- 🙂🙂🙂"), 2, 2, 0, false},
		{"a line too long alone", 50, "Head:", []string{strings.Repeat("x", 60), "short"}, 2, 0, 2, false},
		{"a line too long later", 50, "Head:", []string{"short", strings.Repeat("x", 60), "short"}, 3, 1, 2, false},
		{"a head too long", 20, strings.Repeat("h", 30), []string{"a"}, 1, 1, 0, true},
		{"a multi-line head", 100, "Saved.\n**Settings**", []string{"• a", "• b"}, 2, 2, 0, false},
	}
	for _, tc := range tests {
		got := fitList(tc.limit, tc.head, tc.lines, tc.total, more)
		if n := chars(got); n > tc.limit {
			t.Errorf("%s: %d characters, limit %d:\n%s", tc.name, n, tc.limit, got)
		}
		rest := got
		if !tc.noHead {
			if !strings.HasPrefix(got, tc.head) {
				t.Errorf("%s: does not begin with the head:\n%s", tc.name, got)
				continue
			}
			rest = strings.TrimPrefix(strings.TrimPrefix(got, tc.head), "\n")
		} else if strings.Contains(got, "h") {
			t.Errorf("%s: a cut head:\n%s", tc.name, got)
		}
		var kept []string
		if rest != "" {
			kept = strings.Split(rest, "\n")
		}
		left := 0
		if len(kept) > 0 && strings.HasPrefix(kept[len(kept)-1], "… and ") {
			left, _ = strconv.Atoi(strings.Fields(kept[len(kept)-1])[2])
			kept = kept[:len(kept)-1]
		}
		if len(kept) != tc.listed || left != tc.more {
			t.Errorf("%s: %d lines and %d more, want %d and %d:\n%s", tc.name, len(kept), left, tc.listed, tc.more, got)
		}
		for k, line := range kept {
			if k >= len(tc.lines) || line != tc.lines[k] {
				t.Errorf("%s: line %d is %q, not a whole line in order", tc.name, k+1, line)
			}
		}
	}
}

// TestAnnouncementsCountCharacters: a tournament's announcement and its
// standings' table are cut into messages by Discord's count, characters,
// not bytes: names of accented or CJK letters fill a message as far as
// ASCII ones do, not half as far.
func TestAnnouncementsCountCharacters(t *testing.T) {
	t.Parallel()
	row := func(k int, letter string) string { return strconv.Itoa(k) + " " + strings.Repeat(letter, 600) }
	for _, letter := range []string{"e", "é", "名"} {
		text := strings.Join([]string{row(1, letter), row(2, letter), row(3, letter)}, "\n")
		if parts := splitMessage(text, maxMessage); len(parts) != 1 {
			t.Errorf("%s: an announcement of %d characters in %d messages", letter, chars(text), len(parts))
		}
		table := "```\n#  Player\n" + text + "\n```"
		if blocks := tableBlocks(table, maxMessage); len(blocks) != 1 || blocks[0] != table {
			t.Errorf("%s: a table of %d characters in %d blocks", letter, chars(table), len(blocks))
		}
		if parts := appendStandings([]string{"**Cup** is over."}, table); len(parts) != 1 {
			t.Errorf("%s: an announcement and a table of %d characters in %d messages", letter, chars(table), len(parts))
		}
	}
}
