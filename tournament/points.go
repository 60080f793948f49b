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
