package bot

import (
	"strings"
	"unicode/utf8"
)

// The lines that end a list answer with what it left out, and how to see it.
const (
	txtGamesMore       = "… and %[1]d more: `match:` (in `/stratego board`, for one) finds any of them as you type."
	txtSetupsMore      = "… and %[1]d more saved set-ups: `delete_setup:` and `default_setup:` find any of them as you type."
	txtTournamentsMore = "… and %[1]d older: `/stratego tournament standings tournament:NUMBER` shows any of them."
	txtLeaderboardMore = "… and %[1]d more: `/stratego stats member:` shows anyone's results."
)

// listText is the one rule by which a list answer fits in a message:
// head (empty for none), then as many of lines as fit, whole and in order,
// and, when some of the total items are left out (those of lines that did
// not fit, and those the caller wrote no line for), the line more(n) says
// of the n left out. It has at most maxMessage characters, counted as
// Discord counts them (code points, not bytes), so it is never refused nor
// cut: no line ends mid-word, and none leaves its markup (bold, code)
// open. Lines hold no line break; a line too long for the message alone is
// left out and counted.
func listText(head string, lines []string, total int, more func(n int) string) string {
	return fitList(maxMessage, head, lines, total, more)
}

// fitList is listText within limit characters.
func fitList(limit int, head string, lines []string, total int, more func(n int) string) string {
	total = max(total, len(lines))
	all := lines
	if head != "" {
		all = append([]string{head}, lines...)
	}
	if whole := strings.Join(all, "\n"); total == len(lines) && chars(whole) <= limit {
		return whole // nothing left out, no room kept for saying so
	}
	var out []string
	size := 0
	add := func(line string) {
		out = append(out, line)
		size += chars(line)
		if len(out) > 1 {
			size++ // the line break before it
		}
	}
	// fits reports whether line fits after what is in out, with the line
	// of the left items after it when left > 0.
	fits := func(line string, left int) bool {
		n := size + chars(line)
		if len(out) > 0 {
			n++
		}
		if left > 0 {
			n += 1 + chars(more(left))
		}
		return n <= limit
	}
	if head != "" {
		for _, h := range strings.Split(head, "\n") {
			if !fits(h, total) {
				break // a head too long: what of it fits
			}
			add(h)
		}
	}
	listed := 0
	for _, line := range lines {
		if !fits(line, total-listed-1) {
			break
		}
		add(line)
		listed++
	}
	if left := total - listed; left > 0 {
		if m := more(left); fits(m, 0) {
			add(m)
		}
	}
	return strings.Join(out, "\n")
}

// chars counts s's characters as Discord counts a message's: code points.
func chars(s string) int { return utf8.RuneCountInString(s) }
