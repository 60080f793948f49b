package tournament

import (
	"errors"
	"fmt"
	"sort"
)

// SwissPlayer is what PairSwissRound needs to know of a player still in the event.
type SwissPlayer struct {
	ID    string
	Seed  int // pairing number: 1 is the top seed
	Score Points
	// Colours are the colours of the games played on the board, oldest
	// first; forfeits and byes are not among them.
	Colours []Colour
	// Opponents is everyone the player has been paired with, forfeits
	// included: they do not meet again.
	Opponents []string
	// HadBye: the player has had a bye. ForfeitWin: the player has won a game
	// without playing it. Either makes a bye the last resort for them.
	HadBye, ForfeitWin bool
	// Floats are the player's floats in the rounds so far, oldest first, one
	// a round: the pairing avoids a float in the same direction as in either
	// of the last two rounds. Nil counts as none.
	Floats []Float
}

// ErrNoPairing is returned when every way of pairing the players left would
// have two of them meet again. (The colour rules give way rather than stop
// a round: see PairSwissRound.)
var ErrNoPairing = errors.New("no legal pairing: every way of pairing the players left would repeat a game")

// swissEntry is a SwissPlayer with what pairing derives from it.
type swissEntry struct {
	SwissPlayer
	rank   int // place in the pairing order: score, then seed
	group  int // score group, 0 for the highest score
	inGrp  int // place within the score group
	grpLen int // size of the score group
	pref   Preference
	met    map[string]bool
	// top: a topscorer of the final round (A.7).
	top bool
}

// sameAbsolute reports whether a and b are both owed the same colour
// absolutely: one of them would break the colour rules.
func sameAbsolute(a, b *swissEntry) bool {
	return a.pref.Strength == Absolute && b.pref.Strength == Absolute && a.pref.Colour == b.pref.Colour
}

// breaksColourRule reports whether pairing a with b breaks the absolute
// colour rules (C.3): they are owed the same colour absolutely, and neither
// is a topscorer of the final round.
func breaksColourRule(a, b *swissEntry) bool {
	return sameAbsolute(a, b) && !a.top && !b.top
}

// The criteria of the start of a pairing (see PairSwissRound), least
// important first. Each is a cost of an edge of the pairing graph (a pair of
// players, or a player and the bye); the matching minimises them in
// lexicographic order, most important (the last) first.
const (
	costOrder        = iota // distance from the Dutch S1–S2 order
	costStrongColour        // a strong colour preference not met
	costColour              // any colour preference not met
	costScoreDiff           // the score difference of the pair
	costMixed               // a pair from two different score groups
	costByeScore            // the bye goes to a higher score group than the lowest
	costByeAgain            // a bye to a player who had one (2) or won by forfeit (1)
	costColourRule          // a pair that breaks the absolute colour rules
	numCosts
)

// SwissRound is what pairing a round needs to know of the event beyond its
// players.
type SwissRound struct {
	// Later is how many rounds of the event come after this one; the
	// pairing keeps them pairable (see PairSwissRound, criterion 1).
	Later int
	// Final: this is the event's final round. Its topscorers (FIDE's A.7),
	// the players with more than half of MaxScore, may meet a player owed
	// the same colour absolutely (C.3); the pairing then makes as few of
	// them and their opponents as it can have a colour difference beyond
	// ±2, then the same colour three times in a row (C.8, C.9), and the
	// wider colour difference of the two has its colour (E.2).
	Final bool
	// MaxScore is the most a player could have scored in the rounds played
	// so far: that many wins.
	MaxScore Points
}

// maxCandidates bounds how many pairings, best first, PairSwissRound tries
// before it searches for any pairing the later rounds can follow.
const maxCandidates = 128

// PairSwissRound pairs the next round of a Swiss event, r.Later rounds
// before its end. It never pairs two players who met before; when every
// pairing would, it returns ErrNoPairing. Among the pairings that do not,
// it chooses by these criteria, each more important than all that follow:
//
//  1. the later rounds can still be paired: after this round, the pairs
//     not yet met hold the later rounds, everyone paired in each (searched
//     exactly up to 64 players, within a budget; see lookahead.go);
//  2. as few pairs as possible break the absolute colour rules (none, when
//     a pairing can keep them: see doc.go for this simplification of FIDE's
//     rules); a topscorer of the final round meeting a player owed the same
//     colour absolutely does not count (C.3, see SwissRound);
//  3. a bye, when the number is odd, goes to a player who had no bye and won
//     no game by forfeit, if any can have it;
//  4. the bye goes to a player of the lowest score group possible;
//  5. then, as FIDE's Dutch system pairs, bracket by bracket from the top
//     score group down, each bracket's criteria more important than the
//     next one's: a bracket is the players of a score group and those
//     floated down into it from above; it leaves as few players unpaired
//     (floating down to the next bracket, or the bye) as it can (C.5), of
//     those the lowest scores (C.6), then so that the next bracket leaves
//     as few, of scores as low (C.7); then as few of its players as
//     possible have a colour difference beyond ±2, then the same colour
//     three times in a row (C.8, C.9: only topscorers of the final round
//     can), then as few of its pairs as possible leave a colour preference
//     unmet, then a strong one (C.10, C.11); then as few of its players
//     as possible float down again after floating down in the last round,
//     up again after floating up, then the same for two rounds back
//     (C.12–C.15), then the same weighed by the scores of those floating
//     down and of the opponents of those floating up, the highest first
//     (C.16–C.19); then its pairs follow the Dutch order:
//     the players floated down, from the top, meet the highest-ranked
//     player of the group they can, and the rest of the group is split
//     into its top (S1) and bottom (S2), players of each exchanged if
//     need be, and S1 from the top meets the first of S2 it can, 1 v
//     1+n/2, 2 v 2+n/2 … when nothing prevents it, the lowest-ranked
//     floating (see orderBracket).
//
// Colours are then allocated pair by pair as the Dutch system does (see
// PreferenceOf). Pairings come board by board, the best-placed player's
// board first, the bye last. The result depends only on the players given,
// not on their order.
//
// Each bracket is one maximum-weight matching of the players not yet
// paired (see dutch.go). Looking ahead, a start is found first: the best
// pairing by criteria 2–4 and then the fewest pairs across score groups,
// the smallest score differences, colours and order (pairCost) that the
// later rounds can follow — the best matching by those, else the next best
// ones (Murty's method) up to maxCandidates, else any pairing the search of
// the later rounds finds — and each bracket then takes the best of its
// matchings, tried in turn the same way, that the later rounds can still
// follow, or keeps the start's pairs. In a field of more than 64 players
// the start (the best matching) is found too, and each bracket's matching
// takes only the bracket, the score groups just below it and their partners
// in the pairing so far, the rest of it standing, which keeps 200 players
// within tens of milliseconds.
func PairSwissRound(players []SwissPlayer, r SwissRound) ([]Pairing, error) {
	later := r.Later
	n := len(players)
	if n == 0 {
		return nil, errors.New("nobody to pair")
	}
	es := make([]*swissEntry, n)
	seen := make(map[string]bool, n)
	for i := range players {
		p := players[i]
		if p.ID == "" {
			return nil, errors.New("a player without an ID")
		}
		if seen[p.ID] {
			return nil, fmt.Errorf("player %s is listed twice", p.ID)
		}
		seen[p.ID] = true
		e := &swissEntry{SwissPlayer: p, pref: PreferenceOf(p.Colours), met: make(map[string]bool, len(p.Opponents))}
		e.top = r.Final && 2*p.Score > r.MaxScore
		for _, o := range p.Opponents {
			e.met[o] = true
		}
		es[i] = e
	}
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Seed != b.Seed {
			return a.Seed < b.Seed
		}
		return a.ID < b.ID
	})
	groups := 0
	for i, e := range es {
		e.rank = i
		if i > 0 && e.Score != es[i-1].Score {
			groups++
		}
		e.group = groups
	}
	groups++
	for i := 0; i < n; {
		j := i
		for j < n && es[j].group == es[i].group {
			j++
		}
		for k := i; k < j; k++ {
			es[k].inGrp, es[k].grpLen = k-i, j-i
		}
		i = j
	}

	// The pairing graph: a vertex per player, plus one for the bye when the
	// number is odd.
	vertices := n
	bye := -1
	if n%2 == 1 {
		bye = n
		vertices++
	}
	d := &dutch{es: es, bye: bye, vertices: vertices, groups: groups, later: later, look: newLookahead()}
	var mate []int
	ahead := unmetGraphOf(es, bye)
	if ahead != nil && later > 0 || n > stepFull && groups > 1 {
		// A start: the best pairing of the whole field by the criteria of
		// pairCost that the later rounds can follow, or in a large field
		// the one its brackets are paired within.
		edges, err := weigh(startEdges(es, bye, groups), vertices)
		if err != nil {
			return nil, fmt.Errorf("%w (%d players)", err, n)
		}
		start, followed := bestPairable(vertices, edges, ahead, later)
		if start == nil {
			return nil, ErrNoPairing
		}
		if followed {
			d.ahead = ahead
		}
		mate = start
	}
	mate = d.refine(mate)
	if mate == nil {
		return nil, ErrNoPairing
	}

	var out []Pairing
	byeFor := -1
	for i := range n {
		j := mate[i]
		switch {
		case j == bye:
			byeFor = i
		case i < j:
			if aRed, _ := allocate(es[i], es[j]); aRed {
				out = append(out, Pairing{Red: es[i].ID, Blue: es[j].ID})
			} else {
				out = append(out, Pairing{Red: es[j].ID, Blue: es[i].ID})
			}
		}
	}
	if byeFor >= 0 {
		out = append(out, Pairing{Red: es[byeFor].ID, Result: ByeResult})
	}
	return out, nil
}

// startEdges are the edges of the pairing graph with their costs: every
// pair not yet met, and every player with the bye (vertex bye) if any.
func startEdges(es []*swissEntry, bye, groups int) []costedEdge {
	costed := make([]costedEdge, 0, len(es)*(len(es)+1)/2)
	for i := range es {
		for j := i + 1; j < len(es); j++ {
			a, b := es[i], es[j]
			if a.met[b.ID] || b.met[a.ID] {
				continue
			}
			costed = append(costed, costedEdge{i, j, pairCost(a, b)})
		}
		if bye >= 0 {
			costed = append(costed, costedEdge{i, bye, byeCost(es[i], groups)})
		}
	}
	return costed
}

// costedEdge is a pair of the pairing graph (or a player and the bye) with
// what it costs by each criterion.
type costedEdge struct {
	u, v int
	cost [numCosts]int64
}

// weigh turns the costs into weights: the costs as digits of a mixed-radix
// number, each digit's radix above what the whole matching can add up in
// it, so that a matching of greater weight is better by the first criterion
// that differs.
func weigh(costed []costedEdge, vertices int) ([]wedge, error) {
	var maxCost [numCosts]int64
	for _, e := range costed {
		for k := range numCosts {
			maxCost[k] = max(maxCost[k], e.cost[k])
		}
	}
	pairs := int64(vertices / 2)
	var base [numCosts]int64
	scale := 1.0
	radix := int64(1)
	for k := range numCosts {
		base[k] = radix
		count := pairs // how many edges of the matching can carry the cost
		if k == costByeScore || k == costByeAgain {
			count = 1
		}
		scale *= float64(count*maxCost[k] + 1)
		if scale > 1<<59 {
			return nil, errors.New("too many players or rounds to pair")
		}
		radix *= count*maxCost[k] + 1
	}
	edges := make([]wedge, len(costed))
	for i, e := range costed {
		w := radix // every matching's total cost is below radix
		for k := range numCosts {
			w -= e.cost[k] * base[k]
		}
		edges[i] = wedge{e.u, e.v, w}
	}
	return edges, nil
}

// unmetGraphOf is the graph of the pairs that may still meet, colours
// aside: the bye (vertex bye, when there is one) joined to those who had
// none.
func unmetGraphOf(es []*swissEntry, bye int) unmetGraph {
	n := len(es)
	if n > maxLookaheadVertices || n+1 > maxLookaheadVertices && bye >= 0 {
		return nil
	}
	vertices := n
	if bye >= 0 {
		vertices++
	}
	g := make(unmetGraph, vertices)
	for i := range n {
		for j := range n {
			if i != j && !es[i].met[es[j].ID] && !es[j].met[es[i].ID] {
				g[i] |= 1 << uint(j)
			}
		}
		if bye >= 0 && !es[i].HadBye {
			g[i] |= 1 << uint(bye)
			g[bye] |= 1 << uint(i)
		}
	}
	return g
}

// pairCost is what pairing a with b costs; a ranks above b.
func pairCost(a, b *swissEntry) [numCosts]int64 {
	var c [numCosts]int64
	if a.group != b.group {
		c[costMixed] = 1
		c[costScoreDiff] = int64(a.Score - b.Score)
		// The floater should be the lowest of its group and meet the top of the next.
		c[costOrder] = int64(a.grpLen-1-a.inGrp) + int64(b.inGrp)
	} else {
		half := a.grpLen / 2
		c[costOrder] = int64(abs(b.inGrp - (a.inGrp + half)))
		if a.inGrp >= half {
			// Two players of S2 meeting: worse than any S1–S2 pair.
			c[costOrder] += int64(half)
		}
	}
	if breaksColourRule(a, b) {
		c[costColourRule] = 1
	}
	_, unmet := allocate(a, b)
	if unmet >= Mild {
		c[costColour] = 1
	}
	if unmet == Strong {
		c[costStrongColour] = 1
	}
	return c
}

// byeCost is what giving a the bye costs.
func byeCost(a *swissEntry, groups int) [numCosts]int64 {
	var c [numCosts]int64
	if a.HadBye {
		c[costByeAgain] += 2
	}
	if a.ForfeitWin {
		c[costByeAgain]++
	}
	c[costByeScore] = int64(groups - 1 - a.group)
	c[costOrder] = int64(a.grpLen - 1 - a.inGrp)
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
