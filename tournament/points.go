package tournament

import "strconv"

// Points are a score counted in half points: 2 is one point, 1 is half a
// point. Rules say how many a win, a draw, a loss, a bye and a forfeit give.
type Points int

// String writes the score the way a cross-table does: "0", "½", "2", "3½".
func (p Points) String() string {
	if p < 0 {
		return "-" + (-p).String()
	}
	whole, half := int(p)/2, p%2 == 1
	switch {
	case !half:
		return strconv.Itoa(whole)
	case whole == 0:
		return "½"
	}
	return strconv.Itoa(whole) + "½"
}

// FormatSonnebornBerger writes a Sonneborn-Berger sum (Standing's, in
// Points×Points, a win being 2) the way a cross-table does, in points to
// the quarter: "0", "¼", "3½", "12¾".
func FormatSonnebornBerger(sb int) string {
	if sb < 0 {
		return "-" + FormatSonnebornBerger(-sb)
	}
	whole, quarters := sb/4, sb%4
	fraction := [...]string{"", "¼", "½", "¾"}[quarters]
	if whole == 0 && fraction != "" {
		return fraction
	}
	return strconv.Itoa(whole) + fraction
}
