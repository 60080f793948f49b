package tournament

import (
	"container/heap"
	"math/bits"
)

// Looking ahead: a Swiss round is paired so that the rounds after it can
// still be paired. Whether they can depends only on who has not met whom
// (colours can always give way, see PairSwissRound): the later rounds need as
// many edge-disjoint perfect matchings of the graph of pairs not yet met,
// the bye a vertex of its own joined to the players who had none.

// maxLookaheadVertices is the largest field searched exactly; beyond it
// (more than 64 players) a field is taken as pairable ahead.
const maxLookaheadVertices = 64

// lookaheadBudget bounds the search of one pairing's look-ahead, in steps
// (a pair added to a matching); a search that runs out takes the rounds as
// pairable. Small fields, where dead ends happen, rarely come near it.
const lookaheadBudget = 20000

// unmetGraph is the graph of pairs still free to meet, as bitsets.
type unmetGraph []uint64

// clone returns a copy of g.
func (g unmetGraph) clone() unmetGraph { return append(unmetGraph(nil), g...) }

// without returns g less the edges of mate (mate[v] is v's partner).
func (g unmetGraph) without(mate []int) unmetGraph {
	out := g.clone()
	for v, w := range mate {
		if w >= 0 {
			out[v] &^= 1 << uint(w)
		}
	}
	return out
}

// minDegree returns the least number of partners any vertex has left.
func (g unmetGraph) minDegree() int {
	least := len(g)
	for _, adj := range g {
		least = min(least, bits.OnesCount64(adj))
	}
	return least
}

// lookahead searches for rounds that can still be paired.
type lookahead struct {
	budget int
	failed map[string]bool // graphs (with their number of rounds) that cannot be paired
}

func newLookahead() *lookahead {
	return &lookahead{budget: lookaheadBudget, failed: map[string]bool{}}
}

// pairable reports whether g holds rounds edge-disjoint perfect matchings,
// and returns the first of them (nil when rounds is 0 or the answer is
// taken for granted).
func (l *lookahead) pairable(g unmetGraph, rounds int) (bool, []int) {
	n := len(g)
	switch {
	case rounds <= 0 || n == 0:
		return true, nil
	case n > maxLookaheadVertices || n%2 == 1:
		return n%2 == 0 || n > maxLookaheadVertices, nil
	case g.minDegree() < rounds:
		return false, nil
	case g.minDegree()-(rounds-1) >= n/2:
		// Dirac: a graph with every degree at least n/2 has a perfect
		// matching, and stays so after each of the rounds takes one.
		return true, nil
	}
	key := graphKey(g, rounds)
	if l.failed[key] {
		return false, nil
	}
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	var first []int
	ok := l.match(g, rounds, mate, func(m []int) bool {
		if ok, _ := l.pairable(g.without(m), rounds-1); ok {
			first = append([]int(nil), m...)
			return true
		}
		return false
	})
	if !ok {
		l.failed[key] = true
	}
	return ok, first
}

// match enumerates the perfect matchings of g that extend mate, calling
// done with each until it returns true; it reports whether one did. It
// pairs first the vertex with the fewest partners left (none: a dead end).
// Each step spends the budget; when it runs out the search gives up as if
// a matching had done.
func (l *lookahead) match(g unmetGraph, rounds int, mate []int, done func([]int) bool) bool {
	if l.budget <= 0 {
		return true
	}
	l.budget--
	var free uint64
	for v, w := range mate {
		if w < 0 {
			free |= 1 << uint(v)
		}
	}
	if free == 0 {
		return done(mate)
	}
	v, fewest := -1, len(g)+1
	for rest := free; rest != 0; rest &= rest - 1 {
		u := bits.TrailingZeros64(rest)
		if c := bits.OnesCount64(g[u] & free); c < fewest {
			v, fewest = u, c
		}
	}
	if fewest == 0 {
		return false
	}
	for adj := g[v] & free; adj != 0; adj &= adj - 1 {
		w := bits.TrailingZeros64(adj)
		mate[v], mate[w] = w, v
		ok := l.match(g, rounds, mate, done)
		mate[v], mate[w] = -1, -1
		if ok {
			return true
		}
	}
	return false
}

// graphKey identifies a graph and a number of rounds for the memo.
func graphKey(g unmetGraph, rounds int) string {
	b := make([]byte, 0, 8*len(g)+1)
	b = append(b, byte(rounds))
	for _, adj := range g {
		for k := range 8 {
			b = append(b, byte(adj>>(8*k)))
		}
	}
	return string(b)
}

// bestPairable returns the perfect matching of greatest weight after which
// g (the pairs free to meet, nil for a field too large to search) still
// holds later rounds: the best matching when it does, else the next best
// ones in turn (Murty's method) up to maxCandidates, else the first round
// of a search of all the rounds, else the best matching anyway, reporting
// whether the later rounds can follow it (true when not looking ahead).
// nil when there is no perfect matching.
func bestPairable(vertices int, edges []wedge, g unmetGraph, later int) ([]int, bool) {
	c := newCandidates(vertices, edges)
	best := c.solve(nil, nil)
	if best == nil {
		return nil, false
	}
	if g == nil || later <= 0 {
		return best.mate, true
	}
	l := newLookahead()
	c.push(best)
	for tried := 0; tried < maxCandidates && c.queue.Len() > 0; tried++ {
		next := heap.Pop(&c.queue).(*candidate)
		if ok, _ := l.pairable(g.without(next.mate), later); ok {
			return next.mate, true
		}
		c.branch(next)
	}
	if ok, first := newLookahead().pairable(g, later+1); ok && first != nil {
		return first, true
	}
	return best.mate, false
}

// candidate is a perfect matching found under constraints: edges it must
// have and edges it must not (indices into the edges).
type candidate struct {
	mate           []int
	weight         int64
	forced, banned []int
	order          int // order of finding, to break ties the same way every time
}

// candidates enumerates perfect matchings best first.
type candidates struct {
	vertices int
	edges    []wedge
	index    map[[2]int]int
	queue    candidateQueue
	found    int
}

func newCandidates(vertices int, edges []wedge) *candidates {
	c := &candidates{vertices: vertices, edges: edges, index: make(map[[2]int]int, len(edges))}
	for k, e := range edges {
		c.index[[2]int{min(e.u, e.v), max(e.u, e.v)}] = k
	}
	return c
}

func (c *candidates) push(x *candidate) { heap.Push(&c.queue, x) }

// solve returns the best perfect matching with every forced edge and no
// banned one, nil when there is none.
func (c *candidates) solve(forced, banned []int) *candidate {
	taken := make([]bool, c.vertices)
	for _, k := range forced {
		taken[c.edges[k].u], taken[c.edges[k].v] = true, true
	}
	skip := make(map[int]bool, len(banned))
	for _, k := range banned {
		skip[k] = true
	}
	var sub []wedge
	for k, e := range c.edges {
		if skip[k] || taken[e.u] || taken[e.v] {
			continue
		}
		sub = append(sub, e)
	}
	mate := maxWeightMatching(c.vertices, sub)
	for _, k := range forced {
		e := c.edges[k]
		mate[e.u], mate[e.v] = e.v, e.u
	}
	x := &candidate{mate: mate, forced: forced, banned: banned, order: c.found}
	c.found++
	for v, w := range mate {
		if w < 0 {
			return nil
		}
		if v < w {
			x.weight += c.edges[c.index[[2]int{v, w}]].w
		}
	}
	return x
}

// branch splits what is left of x's part of the search among its edges
// not forced, as Murty's method does, and queues the best of each part.
func (c *candidates) branch(x *candidate) {
	isForced := make(map[int]bool, len(x.forced))
	for _, k := range x.forced {
		isForced[k] = true
	}
	forced := append([]int(nil), x.forced...)
	for v, w := range x.mate {
		k := c.index[[2]int{v, w}]
		if v > w || isForced[k] {
			continue
		}
		banned := append(append([]int(nil), x.banned...), k)
		if y := c.solve(append([]int(nil), forced...), banned); y != nil {
			c.push(y)
		}
		forced = append(forced, k)
	}
}

// candidateQueue is a heap of candidates, the greatest weight first.
type candidateQueue []*candidate

func (q candidateQueue) Len() int { return len(q) }
func (q candidateQueue) Less(i, j int) bool {
	if q[i].weight != q[j].weight {
		return q[i].weight > q[j].weight
	}
	return q[i].order < q[j].order
}
func (q candidateQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *candidateQueue) Push(x any)   { *q = append(*q, x.(*candidate)) }
func (q *candidateQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
