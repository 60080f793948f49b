package tournament

// This file finds a maximum-weight matching among the maximum-cardinality
// matchings of a general graph: Edmonds' blossom method with the primal-dual
// method for weights, as Zvi Galil describes them in "Efficient Algorithms for
// Finding Maximum Matching in Graphs" (ACM Computing Surveys, 1986), arranged
// after Joris van Rantwijk's well-known O(n³) formulation. Weights are
// integers, and so are all the dual variables, which are kept doubled.
//
// Vertices are 0 … n-1; non-trivial blossoms are n … 2n-1. Edge k has the
// endpoints 2k (its first vertex) and 2k+1 (its second), so p^1 is the other
// end of endpoint p and p/2 is its edge.

// wedge is an undirected edge between two distinct vertices with a weight.
type wedge struct {
	u, v int
	w    int64
}

// Labels of top-level blossoms during a stage. labelCrumb marks a blossom on
// the path being traced back by scanBlossom.
const (
	labelFree  = 0
	labelS     = 1
	labelT     = 2
	labelCrumb = 5
)

type matcher struct {
	n     int
	edges []wedge

	endpoint  []int   // endpoint[p]: the vertex at endpoint p
	neighbend [][]int // neighbend[v]: the remote endpoints of v's edges

	mate []int // mate[v]: the remote endpoint of v's matched edge, or -1

	label    []int // label of a top-level blossom (and of T-reachable vertices)
	labelend []int // remote endpoint of the edge that gave the label, or -1

	inblossom     []int   // inblossom[v]: v's top-level blossom
	blossomparent []int   // parent blossom, or -1 at the top
	blossomchilds [][]int // sub-blossoms, base first, in cycle order
	blossombase   []int   // base vertex, or -1 for an unused blossom number
	blossomendps  [][]int // blossomendps[b][i] joins childs[i] to childs[i+1]

	bestedge         []int   // least-slack edge to an S-blossom, or -1
	blossombestedges [][]int // a top-level S-blossom's least-slack edges
	hasBestEdges     []bool  // whether blossombestedges[b] was computed

	unused    []int   // free blossom numbers
	dual      []int64 // doubled vertex duals, then blossom duals
	allowedge []bool  // edge known to have zero slack
	queue     []int   // S-vertices still to scan
}

// maxWeightMatching returns mate, where mate[v] is the vertex matched to v or
// -1. Among the matchings with the most edges it has the greatest total
// weight. Weights must be small enough that twice their sum fits an int64.
func maxWeightMatching(n int, edges []wedge) []int {
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	if len(edges) == 0 || n == 0 {
		return mate
	}
	m := newMatcher(n, edges)
	m.solve()
	for v := range n {
		if m.mate[v] >= 0 {
			mate[v] = m.endpoint[m.mate[v]]
		}
	}
	return mate
}

func newMatcher(n int, edges []wedge) *matcher {
	m := &matcher{n: n, edges: edges}
	var maxw int64
	for _, e := range edges {
		maxw = max(maxw, e.w)
	}
	m.endpoint = make([]int, 2*len(edges))
	m.neighbend = make([][]int, n)
	for k, e := range edges {
		m.endpoint[2*k], m.endpoint[2*k+1] = e.u, e.v
		m.neighbend[e.u] = append(m.neighbend[e.u], 2*k+1)
		m.neighbend[e.v] = append(m.neighbend[e.v], 2*k)
	}
	m.mate = filled(n, -1)
	m.label = make([]int, 2*n)
	m.labelend = filled(2*n, -1)
	m.inblossom = make([]int, n)
	for v := range n {
		m.inblossom[v] = v
	}
	m.blossomparent = filled(2*n, -1)
	m.blossomchilds = make([][]int, 2*n)
	m.blossombase = filled(2*n, -1)
	for v := range n {
		m.blossombase[v] = v
	}
	m.blossomendps = make([][]int, 2*n)
	m.bestedge = filled(2*n, -1)
	m.blossombestedges = make([][]int, 2*n)
	m.hasBestEdges = make([]bool, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		m.unused = append(m.unused, b)
	}
	m.dual = make([]int64, 2*n)
	for v := range n {
		m.dual[v] = maxw
	}
	m.allowedge = make([]bool, len(edges))
	return m
}

func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// slack returns twice the slack of edge k (not meaningful inside a blossom).
func (m *matcher) slack(k int) int64 {
	e := m.edges[k]
	return m.dual[e.u] + m.dual[e.v] - 2*e.w
}

// leaves appends the vertices of blossom b to dst.
func (m *matcher) leaves(dst []int, b int) []int {
	if b < m.n {
		return append(dst, b)
	}
	for _, c := range m.blossomchilds[b] {
		dst = m.leaves(dst, c)
	}
	return dst
}

// assignLabel labels the top-level blossom of w with t, reached through the
// edge whose remote endpoint is p.
func (m *matcher) assignLabel(w, t, p int) {
	b := m.inblossom[w]
	m.label[w], m.label[b] = t, t
	m.labelend[w], m.labelend[b] = p, p
	m.bestedge[w], m.bestedge[b] = -1, -1
	switch t {
	case labelS:
		m.queue = m.leaves(m.queue, b)
	case labelT:
		base := m.blossombase[b]
		m.assignLabel(m.endpoint[m.mate[base]], labelS, m.mate[base]^1)
	}
}

// scanBlossom traces back from v and w; it returns the base of a new blossom,
// or -1 when the two paths end at distinct single vertices (an augmenting path).
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.blossombase[b]
			break
		}
		path = append(path, b)
		m.label[b] = labelCrumb
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelend[b]]
			b = m.inblossom[v]
			v = m.endpoint[m.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = labelS
	}
	return base
}

// addBlossom makes a new S-blossom with the given base through edge k, which
// joins two S-vertices.
func (m *matcher) addBlossom(base, k int) {
	v, w := m.edges[k].u, m.edges[k].v
	bb, bv, bw := m.inblossom[base], m.inblossom[v], m.inblossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.blossombase[b] = base
	m.blossomparent[b] = -1
	m.blossomparent[bb] = b
	var path, endps []int
	for bv != bb {
		m.blossomparent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.endpoint[m.labelend[bv]]
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.blossomparent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.endpoint[m.labelend[bw]]
		bw = m.inblossom[w]
	}
	m.blossomchilds[b], m.blossomendps[b] = path, endps
	m.label[b] = labelS
	m.labelend[b] = m.labelend[bb]
	m.dual[b] = 0
	for _, x := range m.leaves(nil, b) {
		if m.label[m.inblossom[x]] == labelT {
			m.queue = append(m.queue, x)
		}
		m.inblossom[x] = b
	}
	// The least-slack edges from the new blossom to each other S-blossom.
	bestto := filled(2*m.n, -1)
	consider := func(k int) {
		j := m.edges[k].v
		if m.inblossom[j] == b {
			j = m.edges[k].u
		}
		bj := m.inblossom[j]
		if bj != b && m.label[bj] == labelS && (bestto[bj] == -1 || m.slack(k) < m.slack(bestto[bj])) {
			bestto[bj] = k
		}
	}
	for _, sub := range path {
		if m.hasBestEdges[sub] {
			for _, k := range m.blossombestedges[sub] {
				consider(k)
			}
		} else {
			for _, x := range m.leaves(nil, sub) {
				for _, p := range m.neighbend[x] {
					consider(p / 2)
				}
			}
		}
		m.blossombestedges[sub], m.hasBestEdges[sub] = nil, false
		m.bestedge[sub] = -1
	}
	var list []int
	for _, k := range bestto {
		if k != -1 {
			list = append(list, k)
		}
	}
	m.blossombestedges[b], m.hasBestEdges[b] = list, true
	m.bestedge[b] = -1
	for _, k := range list {
		if m.bestedge[b] == -1 || m.slack(k) < m.slack(m.bestedge[b]) {
			m.bestedge[b] = k
		}
	}
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

// at indexes s cyclically, so that negative indices count from the end.
func at(s []int, i int) int {
	if i < 0 {
		i += len(s)
	}
	return s[i]
}

// expandBlossom turns the sub-blossoms of top-level blossom b into top-level
// blossoms; endStage says whether the stage is over (no relabelling needed).
func (m *matcher) expandBlossom(b int, endStage bool) {
	for _, s := range m.blossomchilds[b] {
		m.blossomparent[s] = -1
		switch {
		case s < m.n:
			m.inblossom[s] = s
		case endStage && m.dual[s] == 0:
			m.expandBlossom(s, endStage)
		default:
			for _, x := range m.leaves(nil, s) {
				m.inblossom[x] = s
			}
		}
	}
	if !endStage && m.label[b] == labelT {
		childs, endps := m.blossomchilds[b], m.blossomendps[b]
		entry := m.inblossom[m.endpoint[m.labelend[b]^1]]
		j := indexOf(childs, entry)
		jstep, trick := -1, 1
		if j&1 != 0 {
			j -= len(childs)
			jstep, trick = 1, 0
		}
		p := m.labelend[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = labelFree
			m.label[m.endpoint[at(endps, j-trick)^trick^1]] = labelFree
			m.assignLabel(m.endpoint[p^1], labelT, p)
			m.allowedge[at(endps, j-trick)/2] = true
			j += jstep
			p = at(endps, j-trick) ^ trick
			m.allowedge[p/2] = true
			j += jstep
		}
		bv := at(childs, j)
		m.label[m.endpoint[p^1]], m.label[bv] = labelT, labelT
		m.labelend[m.endpoint[p^1]], m.labelend[bv] = p, p
		m.bestedge[bv] = -1
		j += jstep
		for at(childs, j) != entry {
			bv = at(childs, j)
			if m.label[bv] == labelS {
				j += jstep
				continue
			}
			reached := -1
			for _, x := range m.leaves(nil, bv) {
				if m.label[x] != labelFree {
					reached = x
					break
				}
			}
			if reached >= 0 {
				m.label[reached] = labelFree
				m.label[m.endpoint[m.mate[m.blossombase[bv]]]] = labelFree
				m.assignLabel(reached, labelT, m.labelend[reached])
			}
			j += jstep
		}
	}
	m.label[b], m.labelend[b] = -1, -1
	m.blossomchilds[b], m.blossomendps[b] = nil, nil
	m.blossombase[b] = -1
	m.blossombestedges[b], m.hasBestEdges[b] = nil, false
	m.bestedge[b] = -1
	m.unused = append(m.unused, b)
}

// augmentBlossom swaps matched and unmatched edges on the alternating path
// through blossom b from vertex v to the base, and makes v the new base.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.blossomparent[t] != b {
		t = m.blossomparent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	childs, endps := m.blossomchilds[b], m.blossomendps[b]
	i := indexOf(childs, t)
	j := i
	jstep, trick := -1, 1
	if i&1 != 0 {
		j -= len(childs)
		jstep, trick = 1, 0
	}
	for j != 0 {
		j += jstep
		t = at(childs, j)
		p := at(endps, j-trick) ^ trick
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += jstep
		t = at(childs, j)
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	m.blossomchilds[b] = append(append([]int(nil), childs[i:]...), childs[:i]...)
	m.blossomendps[b] = append(append([]int(nil), endps[i:]...), endps[:i]...)
	m.blossombase[b] = m.blossombase[m.blossomchilds[b][0]]
}

// augmentMatching augments along the path through edge k, which joins two
// S-vertices whose trees end at distinct single vertices.
func (m *matcher) augmentMatching(k int) {
	e := m.edges[k]
	for _, sp := range [2][2]int{{e.u, 2*k + 1}, {e.v, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelend[bs]]
			bt := m.inblossom[t]
			s = m.endpoint[m.labelend[bt]]
			j := m.endpoint[m.labelend[bt]^1]
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}

func (m *matcher) solve() {
	n := m.n
	for range n {
		// A stage: find one augmenting path.
		clear(m.label)
		for i := range m.bestedge {
			m.bestedge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			m.blossombestedges[b], m.hasBestEdges[b] = nil, false
		}
		clear(m.allowedge)
		m.queue = m.queue[:0]
		for v := range n {
			if m.mate[v] == -1 && m.label[m.inblossom[v]] == labelFree {
				m.assignLabel(v, labelS, -1)
			}
		}
		augmented := false
		for {
			// A substage: label what can be reached, else adjust the duals.
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighbend[v] {
					k, w := p/2, m.endpoint[p]
					if m.inblossom[v] == m.inblossom[w] {
						continue
					}
					var kslack int64
					if !m.allowedge[k] {
						kslack = m.slack(k)
						if kslack <= 0 {
							m.allowedge[k] = true
						}
					}
					switch {
					case m.allowedge[k]:
						switch {
						case m.label[m.inblossom[w]] == labelFree:
							m.assignLabel(w, labelT, p^1)
						case m.label[m.inblossom[w]] == labelS:
							if base := m.scanBlossom(v, w); base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
							}
						case m.label[w] == labelFree:
							m.label[w] = labelT
							m.labelend[w] = p ^ 1
						}
					case m.label[m.inblossom[w]] == labelS:
						b := m.inblossom[v]
						if m.bestedge[b] == -1 || kslack < m.slack(m.bestedge[b]) {
							m.bestedge[b] = k
						}
					case m.label[w] == labelFree:
						if m.bestedge[w] == -1 || kslack < m.slack(m.bestedge[w]) {
							m.bestedge[w] = k
						}
					}
					if augmented {
						break
					}
				}
			}
			if augmented {
				break
			}
			// No augmenting path with the current duals: find the smallest
			// change of the duals that makes progress. (Maximum cardinality:
			// there is no delta1.)
			deltatype, deltaedge, deltablossom := -1, -1, -1
			var delta int64
			for v := range n {
				if m.label[m.inblossom[v]] == labelFree && m.bestedge[v] != -1 {
					if d := m.slack(m.bestedge[v]); deltatype == -1 || d < delta {
						delta, deltatype, deltaedge = d, 2, m.bestedge[v]
					}
				}
			}
			for b := range 2 * n {
				if m.blossomparent[b] == -1 && m.label[b] == labelS && m.bestedge[b] != -1 {
					if d := m.slack(m.bestedge[b]) / 2; deltatype == -1 || d < delta {
						delta, deltatype, deltaedge = d, 3, m.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 && m.label[b] == labelT &&
					(deltatype == -1 || m.dual[b] < delta) {
					delta, deltatype, deltablossom = m.dual[b], 4, b
				}
			}
			if deltatype == -1 {
				// The matching has the most edges it can have.
				break
			}
			for v := range n {
				switch m.label[m.inblossom[v]] {
				case labelS:
					m.dual[v] -= delta
				case labelT:
					m.dual[v] += delta
				}
			}
			for b := n; b < 2*n; b++ {
				if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 {
					switch m.label[b] {
					case labelS:
						m.dual[b] += delta
					case labelT:
						m.dual[b] -= delta
					}
				}
			}
			switch deltatype {
			case 2:
				m.allowedge[deltaedge] = true
				i, j := m.edges[deltaedge].u, m.edges[deltaedge].v
				if m.label[m.inblossom[i]] == labelFree {
					i = j
				}
				m.queue = append(m.queue, i)
			case 3:
				m.allowedge[deltaedge] = true
				m.queue = append(m.queue, m.edges[deltaedge].u)
			case 4:
				m.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			return
		}
		for b := n; b < 2*n; b++ {
			if m.blossomparent[b] == -1 && m.blossombase[b] >= 0 && m.label[b] == labelS && m.dual[b] == 0 {
				m.expandBlossom(b, true)
			}
		}
	}
}
