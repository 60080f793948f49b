package tournament

import (
	"container/heap"
	"errors"
	"iter"
	"slices"
)

// Float is how a player was paired in a round against their own score, as
// FIDE's Dutch system counts floats (A.4).
type Float uint8

const (
	// NotFloated: the player met an equal score, or was not paired.
	NotFloated Float = iota
	// FloatedDown: the player met a lower score, or scored without playing
	// (a bye, a forfeit win).
	FloatedDown
	// FloatedUp: the player met a higher score.
	FloatedUp
)

// lastFloat returns the player's float of the round back rounds before the
// one being paired (1: the previous round).
func (e *swissEntry) lastFloat(back int) Float {
	if k := len(e.Floats) - back; k >= 0 {
		return e.Floats[k]
	}
	return NotFloated
}

// Pairing bracket by bracket. The Dutch system pairs the score groups from
// the top: each bracket — the players left over from the brackets above it
// (moved down) and the players of its score group — is paired by its own
// criteria before the next is looked at, as long as the players still
// unpaired can be paired at all. refine does the same with one matching per
// bracket: the players still unpaired are matched whole (so that they can
// always be completed), with weights that count only what the bracket
// decides; the pairs within the bracket are then kept and the players it
// left over move down to the next.

// stepFull is the most players still unpaired that a bracket's matching
// takes whole; in a larger field it takes the bracket, the players of the
// next score groups and the partners they have in the pairing so far, the
// rest of that pairing standing (see window). It is also the most vertices
// a bracket's matching may have for its pairs to be put in the Dutch order
// by forcing pairs one by one (orderBracket).
const stepFull = 64

// dutch is the state of pairing bracket by bracket.
type dutch struct {
	es       []*swissEntry
	bye      int // the bye's vertex, -1 when the number is even
	vertices int
	groups   int
	ahead    unmetGraph // the pairs not yet met, for the look-ahead; nil for none
	later    int
	look     *lookahead
}

// refine pairs bracket by bracket, starting from mate, a perfect matching
// of the vertices (which the later rounds can follow, when looking ahead),
// or from nothing when mate is nil. It returns nil when the vertices have
// no perfect matching.
func (d *dutch) refine(mate []int) []int {
	known := mate != nil
	mate = slices.Clone(mate)
	if !known {
		mate = filled(d.vertices, -1)
	}
	fixed := make([]bool, d.vertices)
	var moved []int // players moved down into the bracket, by rank
	n := len(d.es)
	for g, first := 0, 0; g < d.groups; g++ {
		bracket := moved
		for first < n && d.es[first].group == g {
			bracket = append(bracket, first)
			first++
		}
		if known && g == d.groups-1 && len(bracket) < 2 {
			break // a single player left: the bye is theirs
		}
		var vs []int
		if known {
			vs = d.window(bracket, g, fixed, mate)
		} else {
			vs = d.window(bracket, g, fixed, nil)
		}
		local := d.pairBracket(vs, bracket, g, mate)
		switch {
		case local != nil:
			for i, v := range vs {
				mate[v] = vs[local[i]]
			}
			known = true
		case !known:
			return nil
		}
		in := make(map[int]bool, len(bracket))
		for _, v := range bracket {
			in[v] = true
		}
		moved = nil
		for _, v := range bracket {
			if in[mate[v]] {
				fixed[v] = true
			} else {
				moved = append(moved, v)
			}
		}
	}
	return mate
}

// window returns the vertices a bracket's matching takes, in order: every
// vertex not yet fixed when there are at most stepFull, else the bracket,
// the score groups below it until they hold twice the bracket and more, and
// whoever mate pairs with them (every vertex when mate is nil).
func (d *dutch) window(bracket []int, g int, fixed []bool, mate []int) []int {
	var all []int
	for v := range d.vertices {
		if !fixed[v] {
			all = append(all, v)
		}
	}
	if len(all) <= stepFull || mate == nil {
		return all
	}
	take := make([]bool, d.vertices)
	for _, v := range bracket {
		take[v] = true
	}
	below, need := 0, 4
	for v := bracket[len(bracket)-1] + 1; v < len(d.es); v++ {
		if d.es[v].group > g+1 && below >= need {
			break
		}
		take[v] = true
		below++
	}
	for _, v := range all {
		if take[v] {
			take[mate[v]] = true
		}
	}
	var vs []int
	for _, v := range all {
		if take[v] {
			vs = append(vs, v)
		}
	}
	return vs
}

// The costs of a bracket's matching, most important first. The levels are
// the score groups of the players of the bracket (and, for the next bracket,
// of the group below it), the highest first.
type bracketLayout struct {
	group              int         // the bracket's score group
	levels, nextLevels map[int]int // score group → its place among the levels
	digits             int
	// first digit of each criterion
	colourRule, byeAgain, byeScore, floaters, floaterScores   int
	nextFloaters, nextScores, beyond2, thrice, colour, strong int
	down1, up1, down2, up2                                    int
	down1Scores, up1Scores, down2Scores, up2Scores            int
	order, tail                                               int
}

func newBracketLayout(es []*swissEntry, bracket []int, g int) *bracketLayout {
	l := &bracketLayout{group: g, levels: map[int]int{}, nextLevels: map[int]int{}}
	var groups []int
	for _, v := range bracket {
		if !slices.Contains(groups, es[v].group) {
			groups = append(groups, es[v].group)
		}
	}
	slices.Sort(groups)
	for i, grp := range groups {
		l.levels[grp] = i
		l.nextLevels[grp] = i
	}
	l.nextLevels[g+1] = len(groups)
	k := 0
	next := func(width int) int { k += width; return k - width }
	l.colourRule, l.byeAgain, l.byeScore = next(1), next(1), next(1)
	l.floaters, l.floaterScores = next(1), next(len(groups))
	l.nextFloaters, l.nextScores = next(1), next(len(groups)+1)
	l.beyond2, l.thrice, l.colour, l.strong = next(1), next(1), next(1), next(1)
	l.down1, l.up1, l.down2, l.up2 = next(1), next(1), next(1), next(1)
	l.down1Scores, l.up1Scores = next(len(groups)), next(len(groups))
	l.down2Scores, l.up2Scores = next(len(groups)), next(len(groups))
	l.order, l.tail = next(1), next(1)
	l.digits = k
	return l
}

// pairBracket matches the vertices vs (indices into the vertices, in
// order) by the criteria of the bracket of score group g, whose players
// are bracket. It returns the partner of each as an index into vs, nil to
// keep mate's pairs.
func (d *dutch) pairBracket(vs, bracket []int, g int, mate []int) []int {
	l := newBracketLayout(d.es, bracket, g)
	pos := make(map[int]int, len(bracket)) // place in the bracket
	moved := 0
	for i, v := range bracket {
		pos[v] = i
		if d.es[v].group < g {
			moved++
		}
	}
	inBracket := func(v int) bool { _, ok := pos[v]; return ok }
	inNext := func(v int) bool { return v != d.bye && (inBracket(v) || d.es[v].group == g+1) }
	edges := make([]chargedEdge, 0, len(vs)*(len(vs)-1)/2)
	costs := make([]int64, 0, l.digits*len(vs)*(len(vs)-1)/2)
	for i, u := range vs {
		for j := i + 1; j < len(vs); j++ {
			v := vs[j]
			costs = costs[:len(costs)+l.digits]
			c := costs[len(costs)-l.digits:]
			if v == d.bye {
				d.byeCosts(c, l, u, pos, inBracket(u), inNext(u))
			} else {
				a, b := d.es[u], d.es[v]
				if a.met[b.ID] || b.met[a.ID] {
					costs = costs[:len(costs)-l.digits]
					continue
				}
				d.pairCosts(c, l, u, v, pos, moved, len(bracket), inBracket, inNext)
			}
			edges = append(edges, chargedEdge{i, j, i, c})
			if v == d.bye {
				edges[len(edges)-1].charge = j
			}
		}
	}
	weighed, wt, err := weighDigits(edges, len(vs))
	if err != nil {
		return nil
	}
	if len(vs) <= stepFull {
		if m := d.orderBracket(vs, bracket, weighed, wt, l.order); m != nil && d.follows(vs, m, mate) {
			return m
		}
	}
	if d.ahead == nil || d.later <= 0 {
		m := maxWeightMatching(len(vs), weighed)
		if slices.Contains(m, -1) {
			return nil
		}
		return m
	}
	// Looking ahead: the best matching the later rounds can follow.
	c := newCandidates(len(vs), weighed)
	best := c.solve(nil, nil)
	if best == nil {
		return nil
	}
	c.push(best)
	full := slices.Clone(mate)
	for tried := 0; tried < maxCandidates && c.queue.Len() > 0; tried++ {
		next := heap.Pop(&c.queue).(*candidate)
		same := true
		for i, v := range vs {
			full[v] = vs[next.mate[i]]
			same = same && full[v] == mate[v]
		}
		if same {
			return next.mate
		}
		if ok, _ := d.look.pairable(d.ahead.without(full), d.later); ok {
			return next.mate
		}
		c.branch(next)
	}
	return nil
}

// follows reports whether the later rounds can follow mate with the
// vertices vs matched as local says (true when not looking ahead).
func (d *dutch) follows(vs, local, mate []int) bool {
	if d.ahead == nil || d.later <= 0 {
		return true
	}
	full := slices.Clone(mate)
	same := true
	for i, v := range vs {
		full[v] = vs[local[i]]
		same = same && full[v] == mate[v]
	}
	if same {
		return true
	}
	ok, _ := d.look.pairable(d.ahead.without(full), d.later)
	return ok
}

// orderBracket returns the best matching of the vertices vs (edges
// weighed as wt says) whose pairs in the bracket come first in the Dutch
// order among those as good by every criterion before the order (digit
// order): the players moved down, from the top, each meet the
// highest-ranked player of the score group they can; then the rest of the
// group is split into S1, its top as many as it pairs, and S2, players of
// each exchanged in the Dutch order until S1 can meet only S2 in a matching
// as good, and each of S1 from the top meets the first of S2 it can. When
// no exchange tried will do, each of S1 from the top meets the first of S2
// it can, else the last of S1 below it it can, else floats. Each "can" is
// a matching with the pair forced. nil when there is no perfect matching.
func (d *dutch) orderBracket(vs, bracket []int, edges []wedge, wt weighing, order int) []int {
	c := newCandidates(len(vs), edges)
	cur := c.solve(nil, nil)
	if cur == nil {
		return nil
	}
	pairs := len(vs) / 2
	best := wt.above(order, pairs, cur.weight)
	local := make(map[int]int, len(vs))
	for i, v := range vs {
		local[v] = i
	}
	var moved, residents []int // local indices, by rank
	for _, v := range bracket {
		if d.es[v].group < d.es[bracket[len(bracket)-1]].group {
			moved = append(moved, local[v])
		} else {
			residents = append(residents, local[v])
		}
	}
	var forced, banned []int
	decided := make(map[int]bool, len(bracket))
	edge := func(p, q int) (int, bool) {
		k, ok := c.index[[2]int{min(p, q), max(p, q)}]
		return k, ok
	}
	// pair gives p the first partner of the list that keeps the matching
	// as good; none: p floats, and meets nobody in the bracket.
	pair := func(p int, partners []int) {
		decided[p] = true
		for _, q := range partners {
			if decided[q] {
				continue
			}
			k, ok := edge(p, q)
			if !ok {
				continue
			}
			if cur.mate[p] != q {
				x := c.solve(append(slices.Clone(forced), k), banned)
				if x == nil || wt.above(order, pairs, x.weight) != best {
					continue
				}
				cur = x
			}
			forced = append(forced, k)
			decided[q] = true
			return
		}
		for _, v := range bracket {
			if q := local[v]; !decided[q] {
				if k, ok := edge(p, q); ok {
					banned = append(banned, k)
				}
			}
		}
		if x := c.solve(forced, banned); x != nil {
			cur = x
		}
	}
	for i, p := range moved {
		pair(p, append(slices.Clone(residents), moved[i+1:]...))
	}
	var rest []int
	for _, p := range residents {
		if !decided[p] {
			rest = append(rest, p)
		}
	}
	in := make(map[int]bool, len(rest))
	for _, p := range rest {
		in[p] = true
	}
	s1 := 0
	for _, p := range rest {
		if in[cur.mate[p]] {
			s1++
		}
	}
	s1 /= 2
	// The split: S1 and S2 as they are, else with players of each
	// exchanged, in the Dutch order of exchanges (D.2, see exchanges); the
	// first with which S1 meets only S2 in a matching as good.
	tries := 0
	for ex := range exchanges(s1, len(rest)-s1) {
		top, bottom := slices.Clone(rest[:s1]), slices.Clone(rest[s1:])
		for i, a := range ex.s1 {
			b := ex.s2[i]
			top[a], bottom[b] = bottom[b], top[a]
		}
		slices.Sort(top) // local indices follow the rank within the bracket
		slices.Sort(bottom)
		if !c.canMeet(top, bottom, banned) {
			continue
		}
		if tries++; tries > maxExchangeTries {
			break
		}
		split := slices.Clone(banned)
		for _, half := range [][]int{top, bottom} {
			for i, p := range half {
				for _, q := range half[i+1:] {
					if k, ok := edge(p, q); ok {
						split = append(split, k)
					}
				}
			}
		}
		x := cur
		if !keeps(cur.mate, top, bottom) {
			x = c.solve(forced, split)
			if x == nil || wt.above(order, pairs, x.weight) != best {
				continue
			}
		}
		cur, banned = x, split
		for _, p := range top {
			if !decided[p] {
				pair(p, bottom)
			}
		}
		return cur.mate
	}
	for i, p := range rest[:s1] {
		if !decided[p] {
			// An exchange: the lowest of S1 first, the smallest difference.
			below := slices.Clone(rest[i+1 : s1])
			slices.Reverse(below)
			pair(p, append(slices.Clone(rest[s1:]), below...))
		}
	}
	return cur.mate
}

// maxExchangeTries bounds the matchings a bracket tries for its exchanges
// (those that pass canMeet) before it chooses player by player.
const maxExchangeTries = 64

// maxExchanges bounds how many exchanges of one size a bracket lists: when
// there are more, it lists no more sizes.
const maxExchanges = 4096

// exchange is an exchange of players between S1 and S2: s1[i], a place in
// S1, with s2[i], a place in S2 (from 0), each in increasing order.
type exchange struct{ s1, s2 []int }

// exchanges yields the exchanges of a bracket whose S1 has n1 players and
// S2 n2 in the Dutch order (FIDE C.04.3 D.2), none first: the fewest
// players exchanged; then the smallest difference between the sums of the
// places (bracket sequence numbers) moved from S2 and from S1; then the
// highest place that differs among those moved from S1 the higher; then
// the lowest that differs among those moved from S2 the lower. Each size
// is listed only when the ones before it are used up.
func exchanges(n1, n2 int) iter.Seq[exchange] {
	return func(yield func(exchange) bool) {
		if !yield(exchange{}) {
			return
		}
		for k := 1; k <= min(n1, n2); k++ {
			level := exchangesOf(n1, n2, k)
			if level == nil {
				return
			}
			for _, ex := range level {
				if !yield(ex) {
					return
				}
			}
		}
	}
}

// exchangesOf lists the exchanges of k players each side in the Dutch
// order, nil when there are more than maxExchanges.
func exchangesOf(n1, n2, k int) []exchange {
	if binomial(n1, k)*binomial(n2, k) > maxExchanges {
		return nil
	}
	from1, from2 := combinations(n1, k), combinations(n2, k)
	level := make([]exchange, 0, len(from1)*len(from2))
	for _, a := range from1 {
		for _, b := range from2 {
			level = append(level, exchange{a, b})
		}
	}
	sum := func(xs []int) int {
		t := 0
		for _, x := range xs {
			t += x
		}
		return t
	}
	slices.SortStableFunc(level, func(x, y exchange) int {
		// places in S2 count from n1, as bracket sequence numbers do
		dx := sum(x.s2) + k*n1 - sum(x.s1)
		dy := sum(y.s2) + k*n1 - sum(y.s1)
		if dx != dy {
			return dx - dy
		}
		for i := k - 1; i >= 0; i-- {
			if x.s1[i] != y.s1[i] {
				return y.s1[i] - x.s1[i]
			}
		}
		for i := range k {
			if x.s2[i] != y.s2[i] {
				return x.s2[i] - y.s2[i]
			}
		}
		return 0
	})
	return level
}

// binomial returns n choose k, or more than maxExchanges when it is.
func binomial(n, k int) int {
	b := 1
	for i := range k {
		b = b * (n - i) / (i + 1)
		if b > maxExchanges {
			return maxExchanges + 1
		}
	}
	return b
}

// combinations returns the k-element subsets of 0..n-1, each in increasing
// order.
func combinations(n, k int) [][]int {
	var out [][]int
	cur := make([]int, 0, k)
	var rec func(from int)
	rec = func(from int) {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := from; i <= n-(k-len(cur)); i++ {
			cur = append(cur, i)
			rec(i + 1)
			cur = cur[:len(cur)-1]
		}
	}
	rec(0)
	return out
}

// canMeet reports whether every player of top can meet a different one of
// bottom by an edge not banned (a bipartite matching): a split that fails
// it needs no matching tried.
func (c *candidates) canMeet(top, bottom, banned []int) bool {
	skip := make(map[int]bool, len(banned))
	for _, k := range banned {
		skip[k] = true
	}
	partner := make(map[int]int, len(bottom)) // bottom → its top partner
	var try func(p int, seen map[int]bool) bool
	try = func(p int, seen map[int]bool) bool {
		for _, q := range bottom {
			k, ok := c.index[[2]int{min(p, q), max(p, q)}]
			if !ok || skip[k] || seen[q] {
				continue
			}
			seen[q] = true
			if r, taken := partner[q]; !taken || try(r, seen) {
				partner[q] = p
				return true
			}
		}
		return false
	}
	for _, p := range top {
		if !try(p, map[int]bool{}) {
			return false
		}
	}
	return true
}

// keeps reports whether mate pairs nobody of top with top, nor of bottom
// with bottom.
func keeps(mate, top, bottom []int) bool {
	for _, half := range [][]int{top, bottom} {
		for _, p := range half {
			if slices.Contains(half, mate[p]) {
				return false
			}
		}
	}
	return true
}

// pairCosts fills c with what pairing u with v costs (u ranks above v).
func (d *dutch) pairCosts(c []int64, l *bracketLayout, u, v int, pos map[int]int, moved, size int, inBracket, inNext func(int) bool) {
	a, b := d.es[u], d.es[v]
	if breaksColourRule(a, b) {
		c[l.colourRule] = 1
	}
	switch {
	case inBracket(u) && inBracket(v):
		beyond2, thrice := topscorerColours(a, b)
		if beyond2 {
			c[l.beyond2] = 1
		}
		if thrice {
			c[l.thrice] = 1
		}
		_, unmet := allocate(a, b)
		if unmet >= Mild {
			c[l.colour] = 1
		}
		if unmet == Strong {
			c[l.strong] = 1
		}
		if a.Score > b.Score {
			// b floats up again; C.17 and C.19 weigh it by a's score.
			if b.lastFloat(1) == FloatedUp {
				c[l.up1] = 1
				c[l.up1Scores+l.levels[a.group]] = 1
			}
			if b.lastFloat(2) == FloatedUp {
				c[l.up2] = 1
				c[l.up2Scores+l.levels[a.group]] = 1
			}
		}
		c[l.order] = bracketOrder(pos[u], pos[v], moved, size)
	case inBracket(u):
		d.leaves(c, l, u, pos[u], size, b.group > l.group+1)
	case inNext(u) && !inNext(v):
		c[l.nextFloaters] = 1
		c[l.nextScores+l.nextLevels[a.group]] = 1
		c[l.tail] = int64(a.Score - b.Score)
	default:
		c[l.tail] = int64(a.Score - b.Score)
	}
}

// leaves fills in what it costs that u, at place p of a bracket of size
// players, leaves it (floats down, or has the bye); through says whether
// they float past the next score group as well.
func (d *dutch) leaves(c []int64, l *bracketLayout, u, p, size int, through bool) {
	a := d.es[u]
	c[l.floaters] = 1
	c[l.floaterScores+l.levels[a.group]] = 1
	if through {
		c[l.nextFloaters] = 1
		c[l.nextScores+l.nextLevels[a.group]] = 1
	}
	if a.group == l.group {
		// A player of the bracket's own score group floats down again; one
		// moved down into it floated already.
		if a.lastFloat(1) == FloatedDown {
			c[l.down1] = 1
		}
		if a.lastFloat(2) == FloatedDown {
			c[l.down2] = 1
		}
	}
	// C.16 and C.18 weigh who floats down again by their score, those moved
	// down into the bracket too (as bbpPairings does).
	if a.lastFloat(1) == FloatedDown {
		c[l.down1Scores+l.levels[a.group]] = 1
	}
	if a.lastFloat(2) == FloatedDown {
		c[l.down2Scores+l.levels[a.group]] = 1
	}
	c[l.order] = int64(size - 1 - p)
}

// byeCosts fills c with what giving u the bye costs.
func (d *dutch) byeCosts(c []int64, l *bracketLayout, u int, pos map[int]int, inBracket, inNext bool) {
	a := d.es[u]
	if a.HadBye {
		c[l.byeAgain] += 2
	}
	if a.ForfeitWin {
		c[l.byeAgain]++
	}
	c[l.byeScore] = int64(d.groups - 1 - a.group)
	switch {
	case inBracket:
		d.leaves(c, l, u, pos[u], len(pos), l.group+1 < d.groups)
	case inNext:
		c[l.nextFloaters] = 1
		c[l.nextScores+l.nextLevels[a.group]] = 1
	}
}

// bracketOrder is how far a pair of the bracket, the players at places p <
// q, is from the Dutch order: the moved-down players meet the top of the
// score group in order, and the rest of the group its top half against its
// bottom half, 1 v 1+n/2, 2 v 2+n/2 …
func bracketOrder(p, q, moved, size int) int64 {
	if p < moved && q < moved {
		return int64(size) // two moved-down players meeting
	}
	if p < moved {
		return int64(abs(q - moved - p))
	}
	residents := size - moved
	paired := min(moved, residents) // residents who meet the moved-down players
	rest := residents - paired
	half := rest / 2
	x, y := p-moved-paired, q-moved-paired
	c := abs(y - (x + half))
	if x >= half {
		c += half // two of the bottom half meeting
	}
	if x < 0 {
		c += rest // a player who should meet a moved-down one
	}
	return int64(c)
}

// chargedEdge is an edge with its costs, most important first, and the
// vertex it is charged to for bounding the sums of the costs.
type chargedEdge struct {
	u, v, charge int
	cost         []int64
}

// weighDigits turns costs into weights as weigh does, the costs being
// digits of a mixed-radix number; each digit's radix is above what a
// matching can add up in it (at most what each vertex's edges charged to it
// cost at most, summed). Digits that would not fit, the least important
// first, are left out.
func weighDigits(costed []chargedEdge, vertices int) ([]wedge, weighing, error) {
	if len(costed) == 0 {
		return nil, weighing{}, nil
	}
	digits := len(costed[0].cost)
	maxCost := make([]int64, digits)
	charged := make([][]int64, digits)
	for k := range charged {
		charged[k] = make([]int64, vertices)
	}
	for _, e := range costed {
		for k, c := range e.cost {
			maxCost[k] = max(maxCost[k], c)
			charged[k][e.charge] = max(charged[k][e.charge], c)
		}
	}
	pairs := int64(vertices / 2)
	radix := make([]int64, digits)
	for k := range digits {
		var sum int64
		for _, c := range charged[k] {
			sum += c
		}
		radix[k] = min(pairs*maxCost[k], sum) + 1
	}
	// Keep the most important digits whose product stays within limit.
	limit := float64(int64(1)<<62) / float64(pairs+1)
	limit = min(limit, 1<<59)
	kept, scale := 0, 1.0
	for kept < digits && scale*float64(radix[kept]) <= limit {
		scale *= float64(radix[kept])
		kept++
	}
	if kept == 0 {
		return nil, weighing{}, errors.New("too many players or rounds to pair")
	}
	base := make([]int64, digits)
	total := int64(1)
	for k := kept - 1; k >= 0; k-- {
		base[k] = total
		total *= radix[k]
	}
	edges := make([]wedge, len(costed))
	for i, e := range costed {
		w := total
		for k := range kept {
			w -= e.cost[k] * base[k]
		}
		edges[i] = wedge{e.u, e.v, w}
	}
	return edges, weighing{total: total, base: base}, nil
}

// weighing is what weighDigits made of the costs: every edge's weight is
// total less its costs, each digit k counting base[k] (0 for a digit left
// out).
type weighing struct {
	total int64
	base  []int64
}

// above returns what a perfect matching of the given number of pairs and
// weight costs in the digits before digit k: equal for two matchings when
// they are as good by every criterion before k.
func (w weighing) above(k int, pairs int, weight int64) int64 {
	cost := int64(pairs)*w.total - weight
	if k > 0 && k < len(w.base) && w.base[k] > 0 {
		return cost / w.base[k-1]
	}
	return cost
}
