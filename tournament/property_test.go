package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"
)

// bruteForceMax is the most players whose every pairing the tests try.
const bruteForceMax = 10

// legalPairings calls visit with every pairing of the players that has no
// rematch, the bye as index -1. Colours are the key's business (keyOf).
func legalPairings(ps []SwissPlayer, visit func(pairs [][2]int, bye int)) {
	n := len(ps)
	met := metPairs(ps)
	used := make([]bool, n)
	var pairs [][2]int
	var rec func(bye int)
	rec = func(bye int) {
		i := 0
		for i < n && used[i] {
			i++
		}
		if i == n {
			visit(pairs, bye)
			return
		}
		used[i] = true
		if n%2 == 1 && bye == -2 {
			rec(i)
		}
		for j := i + 1; j < n; j++ {
			if !used[j] && !met[[2]int{i, j}] {
				used[j] = true
				pairs = append(pairs, [2]int{i, j})
				rec(bye)
				pairs = pairs[:len(pairs)-1]
				used[j] = false
			}
		}
		used[i] = false
	}
	rec(-2)
}

// metPairs is who has met whom, by index, both ways round.
func metPairs(ps []SwissPlayer) map[[2]int]bool {
	idx := make(map[string]int, len(ps))
	for i, p := range ps {
		idx[p.ID] = i
	}
	met := make(map[[2]int]bool)
	for i, p := range ps {
		for _, o := range p.Opponents {
			if j, ok := idx[o]; ok {
				met[[2]int{i, j}], met[[2]int{j, i}] = true, true
			}
		}
	}
	return met
}

// breaksColours reports whether a pair of the two players breaks the
// absolute colour rules whatever colours they get.
func breaksColours(a, b SwissPlayer) bool {
	pa, pb := PreferenceOf(a.Colours), PreferenceOf(b.Colours)
	return pa.Strength == Absolute && pb.Strength == Absolute && pa.Colour == pb.Colour
}

// breaksColoursIn is breaksColours in round r, where a topscorer of the
// final round (more than half of r.MaxScore) may meet a player owed the
// same colour absolutely (C.3).
func breaksColoursIn(r SwissRound, a, b SwissPlayer) bool {
	top := func(p SwissPlayer) bool { return r.Final && 2*p.Score > r.MaxScore }
	return breaksColours(a, b) && !top(a) && !top(b)
}

// swissKey is what the pairing must minimise first, in order: pairs that
// break the absolute colour rules; a bye to a player who had one (2) or won
// by forfeit (1); the bye's score.
type swissKey [3]int

func keyOf(r SwissRound, ps []SwissPlayer, pairs [][2]int, bye int) swissKey {
	var k swissKey
	if bye >= 0 {
		if ps[bye].HadBye {
			k[1] += 2
		}
		if ps[bye].ForfeitWin {
			k[1]++
		}
		k[2] = int(ps[bye].Score)
	}
	for _, p := range pairs {
		if breaksColoursIn(r, ps[p[0]], ps[p[1]]) {
			k[0]++
		}
	}
	return k
}

// scoreGroups returns each player's score group, 0 for the highest score,
// and the number of groups.
func scoreGroups(ps []SwissPlayer) ([]int, int) {
	var scores []Points
	for _, p := range ps {
		if !slices.Contains(scores, p.Score) {
			scores = append(scores, p.Score)
		}
	}
	slices.SortFunc(scores, func(a, b Points) int { return int(b - a) })
	group := make([]int, len(ps))
	for i, p := range ps {
		group[i] = slices.Index(scores, p.Score)
	}
	return group, len(scores)
}

// floatersPast says who of a pairing floats below score group g: the
// number of players of groups g and above who meet a player below it or
// have the bye, then how many of them are of each group from the top. In
// the Dutch system (C.5, C.6) the bracket of group g — the players of the
// group and those floated down into it — leaves as few players unpaired as
// it can, and of those left the lowest scores.
func floatersPast(group []int, g int, pairs [][2]int, bye int) []int {
	k := make([]int, g+2)
	float := func(p int) {
		k[0]++
		k[1+group[p]]++
	}
	for _, p := range pairs {
		hi, lo := p[0], p[1]
		if group[hi] > group[lo] {
			hi, lo = lo, hi
		}
		if group[hi] <= g && group[lo] > g {
			float(hi)
		}
	}
	if bye >= 0 && group[bye] <= g {
		float(bye)
	}
	return k
}

// bracketKey is what the Dutch system minimises in the bracket of score
// group g before colours: its floaters and theirs scores, then those of
// the next bracket (C.7), after the absolute criteria (keyOf).
func bracketKey(r SwissRound, ps []SwissPlayer, group []int, groups, g int, pairs [][2]int, bye int) []int {
	top := keyOf(r, ps, pairs, bye)
	k := append(top[:], floatersPast(group, g, pairs, bye)...)
	if g+1 < groups {
		k = append(k, floatersPast(group, g+1, pairs, bye)...)
	}
	return k
}

// pairedIn returns the pairs of a pairing made in brackets above g: those
// whose lower player's group is above g.
func pairedIn(group []int, g int, pairs [][2]int) map[[2]int]bool {
	out := map[[2]int]bool{}
	for _, p := range pairs {
		if max(group[p[0]], group[p[1]]) < g {
			out[[2]int{min(p[0], p[1]), max(p[0], p[1])}] = true
		}
	}
	return out
}

// option is a legal pairing.
type option struct {
	pairs [][2]int
	bye   int
}

// allPairings returns every pairing of the players without a rematch.
func allPairings(ps []SwissPlayer) []option {
	var all []option
	legalPairings(ps, func(pairs [][2]int, bye int) {
		all = append(all, option{append([][2]int(nil), pairs...), bye})
	})
	return all
}

// bestKey returns the best key (keyOf) of the pairings without a rematch
// after which later more rounds can be paired; when no pairing leaves
// that, of any pairing. false when every pairing has a rematch.
func bestKey(ps []SwissPlayer, r SwissRound) (swissKey, bool) {
	all := allPairings(ps)
	if len(all) == 0 {
		return swissKey{}, false
	}
	sort.SliceStable(all, func(i, j int) bool {
		return less(keyOf(r, ps, all[i].pairs, all[i].bye), keyOf(r, ps, all[j].pairs, all[j].bye))
	})
	ahead := newRoundsAhead(ps)
	for _, o := range all {
		if ahead.pairableAfter(o.pairs, o.bye, r.Later) {
			return keyOf(r, ps, o.pairs, o.bye), true
		}
	}
	return keyOf(r, ps, all[0].pairs, all[0].bye), true
}

func less(a, b swissKey) bool { return slices.Compare(a[:], b[:]) < 0 }

// checkDutch checks a pairing bracket by bracket from the top, as the Dutch
// system pairs: given the pairs it made in the brackets above, the bracket
// of each score group leaves as few floaters, of scores as low, as any
// pairing with those pairs (that the later rounds can follow, if any can)
// — and then the next bracket as few (C.5–C.7). It returns the number of
// pairs across score groups.
func checkDutch(ps []SwissPlayer, pairs [][2]int, bye int, r SwissRound, fail func(string, ...any)) int {
	all := allPairings(ps)
	ahead := newRoundsAhead(ps)
	known := map[int]bool{}
	follows := func(i int) bool {
		ok, seen := known[i]
		if !seen {
			ok = ahead.pairableAfter(all[i].pairs, all[i].bye, r.Later)
			known[i] = ok
		}
		return ok
	}
	anyFollows := false
	for i := range all {
		if anyFollows = follows(i); anyFollows {
			break
		}
	}
	group, groups := scoreGroups(ps)
	for g := range groups {
		fixed := pairedIn(group, g, pairs)
		got := bracketKey(r, ps, group, groups, g, pairs, bye)
		var best []int
		for i, o := range all {
			k := bracketKey(r, ps, group, groups, g, o.pairs, o.bye)
			if best != nil && slices.Compare(k, best) >= 0 {
				continue
			}
			mine := pairedIn(group, g, o.pairs)
			if len(mine) != len(fixed) {
				continue
			}
			same := true
			for p := range fixed {
				same = same && mine[p]
			}
			if same && (!anyFollows || follows(i)) {
				best = k
			}
		}
		if slices.Compare(got, best) != 0 {
			fail("pairing %v has, for the bracket of score group %d, key %v; a pairing with the same pairs above it has %v", pairs, g, got, best)
		}
	}
	mixed := 0
	for _, p := range pairs {
		if group[p[0]] != group[p[1]] {
			mixed++
		}
	}
	return mixed
}

// roundsAhead answers, by trying every way, whether the rounds after a
// pairing can be paired with no rematch (colours aside): the players and
// the bye are the vertices of a graph of the pairs not yet met.
type roundsAhead struct {
	n      int // vertices: the players, and the bye when their number is odd
	free   [][]bool
	failed map[string]bool
}

func newRoundsAhead(ps []SwissPlayer) *roundsAhead {
	n := len(ps)
	vertices := n + n%2
	met := metPairs(ps)
	free := make([][]bool, vertices)
	for i := range free {
		free[i] = make([]bool, vertices)
	}
	for i := range n {
		for j := range n {
			free[i][j] = i != j && !met[[2]int{i, j}]
		}
		if vertices > n && !ps[i].HadBye {
			free[i][n], free[n][i] = true, true
		}
	}
	return &roundsAhead{n: vertices, free: free, failed: map[string]bool{}}
}

// pairableAfter reports whether later rounds can follow the pairing.
func (r *roundsAhead) pairableAfter(pairs [][2]int, bye int, later int) bool {
	used := append([][2]int(nil), pairs...)
	if bye >= 0 {
		used = append(used, [2]int{bye, r.n - 1})
	}
	was := make([]bool, len(used))
	for k, p := range used {
		was[k] = r.free[p[0]][p[1]]
		r.free[p[0]][p[1]], r.free[p[1]][p[0]] = false, false
	}
	ok := r.pairable(later)
	for k, p := range used {
		r.free[p[0]][p[1]], r.free[p[1]][p[0]] = was[k], was[k]
	}
	return ok
}

func (r *roundsAhead) key(rounds int) string {
	b := []byte{byte(rounds)}
	for i := range r.n {
		for j := i + 1; j < r.n; j++ {
			if r.free[i][j] {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		}
	}
	return string(b)
}

// pairable reports whether the free pairs hold rounds perfect matchings.
func (r *roundsAhead) pairable(rounds int) bool {
	if rounds == 0 {
		return true
	}
	k := r.key(rounds)
	if r.failed[k] {
		return false
	}
	used := make([]bool, r.n)
	var chosen [][2]int
	var rec func() bool
	rec = func() bool {
		i := 0
		for i < r.n && used[i] {
			i++
		}
		if i == r.n {
			for _, p := range chosen {
				r.free[p[0]][p[1]], r.free[p[1]][p[0]] = false, false
			}
			ok := r.pairable(rounds - 1)
			for _, p := range chosen {
				r.free[p[0]][p[1]], r.free[p[1]][p[0]] = true, true
			}
			return ok
		}
		used[i] = true
		defer func() { used[i] = false }()
		for j := i + 1; j < r.n; j++ {
			if !used[j] && r.free[i][j] {
				used[j] = true
				chosen = append(chosen, [2]int{i, j})
				ok := rec()
				chosen = chosen[:len(chosen)-1]
				used[j] = false
				if ok {
					return true
				}
			}
		}
		return false
	}
	if rec() {
		return true
	}
	r.failed[k] = true
	return false
}

// stats counts what the random tournaments went through, to show the
// properties were not checked vacuously.
type stats struct {
	swiss, roundRobin, rounds, bruteForced, noPairing, repeatByes, withdrawals, floaters, relaxedColours, topscorerColours int
}

// randomTournament plays a random tournament to its end (or to a round no
// legal pairing exists for), checking each pairing as it goes.
func randomTournament(t *testing.T, rng *rand.Rand, trial int, st *stats, maxN int, swissOnly bool, leave float64) {
	n := 2 + rng.IntN(maxN-1)
	var rules Rules
	if swissOnly || rng.IntN(10) < 7 {
		maxRounds := max(1, n/2)
		if n <= 8 {
			maxRounds = n - 1
		}
		rules = DefaultRules(Swiss, 1+rng.IntN(min(maxRounds, 10)))
	} else {
		rules = DefaultRules(RoundRobin, 0)
		rules.Double = rng.IntN(2) == 0
		if n > 16 {
			n = 2 + rng.IntN(15) // keep the schedule short
		}
	}
	if rng.IntN(4) == 0 {
		rules.Unfinished = ScoredAsDraw
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("trial %d (%s, %d players, %d rounds): %s", trial, rules.Format, n, rules.Rounds, fmt.Sprintf(format, args...))
	}
	tour, err := New(rules)
	if err != nil {
		fail("%v", err)
	}
	if rules.Format == Swiss {
		st.swiss++
	} else {
		st.roundRobin++
	}
	for i := range n {
		if err := tour.Apply(Join(fmt.Sprintf("p%02d", i), rng.IntN(3)*100)); err != nil {
			fail("%v", err)
		}
	}
	withdraw := func(p float64) {
		if st := tour.Status(); st != Registering && st != Running {
			return
		}
		for _, id := range tour.Active() {
			if rng.Float64() < p && len(tour.Active()) > 2 {
				reason := WithdrawReason(rng.IntN(3))
				if err := tour.Apply(Withdraw(id, reason)); err != nil {
					fail("withdrawing %s: %v", id, err)
				}
				st.withdrawals++
			}
		}
	}
	withdraw(leave * 5) // before the start
	metCount := map[[2]string]int{}
	byes := map[string]int{}
	leftDuring := false // someone withdrew after the start
	relaxed := false    // a round broke the absolute colour rules
	for tour.Status() != Finished {
		round := len(tour.Rounds()) + 1
		if round > 1 {
			before := len(tour.Active())
			withdraw(leave * 3)
			leftDuring = leftDuring || len(tour.Active()) < before
		}
		var sp []SwissPlayer
		var sr SwissRound
		if rules.Format == Swiss {
			sp, sr = tour.SwissPlayers(), tour.NextSwissRound()
		}
		e, err := tour.NextRound()
		if errors.Is(err, ErrNoPairing) {
			st.noPairing++
			if !leftDuring {
				fail("round %d of %d: no pairing, though nobody left and the rounds are at most a round robin's", round, tour.TotalRounds())
			}
			if len(sp) <= bruteForceMax {
				if _, ok := bestKey(sp, SwissRound{}); ok {
					fail("round %d: no pairing found, but there is one", round)
				}
			}
			return
		}
		if err != nil {
			if rules.Format == Swiss && len(tour.Active()) < 2 {
				return
			}
			fail("round %d: %v", round, err)
		}
		if err := tour.Apply(e); err != nil {
			fail("round %d: applying %v: %v", round, e.Games, err)
		}
		games := tour.Rounds()[round-1].Games
		st.rounds++
		if rules.Format == Swiss {
			relaxed = checkSwissRound(t, sp, games, sr, fail, st) || relaxed
		}
		for _, g := range games {
			if g.IsBye() {
				byes[g.Red]++
				continue
			}
			a, b := g.Red, g.Blue
			if a > b {
				a, b = b, a
			}
			metCount[[2]string{a, b}]++
		}
		before := len(tour.Active())
		withdraw(leave * 2) // during the round: pending games are forfeited
		leftDuring = leftDuring || len(tour.Active()) < before
		for b, g := range games {
			if g.Result.Done() || rng.IntN(8) == 0 {
				continue // left for the deadline
			}
			r := []Result{RedWon, BlueWon, Drawn, RedWon, BlueWon, RedForfeited, BlueForfeited, DoubleForfeit}[rng.IntN(8)]
			if err := tour.Apply(Record(round, b+1, r)); err != nil {
				fail("round %d board %d: %v", round, b+1, err)
			}
		}
		if !tour.Rounds()[round-1].Complete() {
			if err := tour.Apply(CloseRound(round)); err != nil {
				fail("closing round %d: %v", round, err)
			}
		}
		if !relaxed {
			checkColours(t, tour, fail)
		}
	}
	if rules.Format == RoundRobin {
		cycles := 1
		if rules.Double {
			cycles = 2
		}
		ps := tour.Players()
		for i := range ps {
			for j := i + 1; j < len(ps); j++ {
				a, b := ps[i].ID, ps[j].ID
				if a > b {
					a, b = b, a
				}
				if metCount[[2]string{a, b}] != cycles {
					fail("%s and %s met %d times", a, b, metCount[[2]string{a, b}])
				}
			}
			red, blue := 0, 0
			for _, r := range tour.Rounds() {
				for _, g := range r.Games {
					if !g.IsBye() && g.Red == ps[i].ID {
						red++
					} else if g.Blue == ps[i].ID {
						blue++
					}
				}
			}
			if d := red - blue; d < -1 || d > 1 || rules.Double && d != 0 {
				fail("%s has %d Reds and %d Blues", ps[i].ID, red, blue)
			}
		}
	}
	// The log gives the same tournament again.
	again, err := Replay(rules, tour.Log())
	if err != nil {
		fail("replay: %v", err)
	}
	if !reflect.DeepEqual(again.Rounds(), tour.Rounds()) || !reflect.DeepEqual(again.Standings(), tour.Standings()) ||
		!reflect.DeepEqual(again.Players(), tour.Players()) || again.Status() != tour.Status() {
		fail("replay differs")
	}
	table := tour.Standings()
	for i := 1; i < len(table); i++ {
		if table[i].Points > table[i-1].Points {
			fail("standings out of order: %v", table)
		}
	}
}

// checkSwissRound checks a Swiss round against the players it was paired
// from, with later rounds to come: everyone once, no rematch, at most one
// bye, and — up to bruteForceMax players, by trying every pairing — the
// colour rules, the bye and the score groups as good as any pairing that
// leaves the later rounds pairable can have them. It reports whether the
// round broke the absolute colour rules, or a topscorer of the final round
// met a player owed the same colour absolutely (C.3).
func checkSwissRound(t *testing.T, sp []SwissPlayer, games []Pairing, round SwissRound, fail func(string, ...any), st *stats) bool {
	t.Helper()
	idx := map[string]int{}
	for i, p := range sp {
		idx[p.ID] = i
	}
	seen := map[string]bool{}
	var pairs [][2]int
	bye := -1
	sameColour := false // a pair owed the same colour absolutely
	for _, g := range games {
		for _, id := range []string{g.Red, g.Blue} {
			if id == "" {
				continue
			}
			if _, ok := idx[id]; !ok {
				fail("%s is paired but not in the event", id)
			}
			if seen[id] {
				fail("%s is paired twice", id)
			}
			seen[id] = true
		}
		if g.IsBye() {
			if bye >= 0 {
				fail("two byes")
			}
			bye = idx[g.Red]
			continue
		}
		r, b := sp[idx[g.Red]], sp[idx[g.Blue]]
		for _, o := range r.Opponents {
			if o == b.ID {
				fail("%s and %s meet again", r.ID, b.ID)
			}
		}
		if breaksColours(r, b) != (!coloursAllowed(r.Colours, Red) || !coloursAllowed(b.Colours, Blue)) {
			fail("%s–%s has colours %v and %v could have kept the rules", r.ID, b.ID, r.Colours, b.Colours)
		}
		sameColour = sameColour || breaksColours(r, b)
		pairs = append(pairs, [2]int{idx[g.Red], idx[g.Blue]})
	}
	if len(seen) != len(sp) {
		fail("%d of %d players paired", len(seen), len(sp))
	}
	if bye >= 0 && sp[bye].HadBye {
		st.repeatByes++
		for _, p := range sp {
			if !p.HadBye && len(sp) > bruteForceMax {
				fail("%s has a second bye while %s had none", sp[bye].ID, p.ID)
			}
		}
	}
	got := keyOf(round, sp, pairs, bye)
	if got[0] > 0 {
		st.relaxedColours++
	}
	if len(sp) <= bruteForceMax {
		best, ok := bestKey(sp, round)
		if !ok {
			fail("paired what cannot be paired")
		}
		st.bruteForced++
		if got != best {
			fail("pairing %v has key %v; the best pairing the later rounds can follow has %v", games, got, best)
		}
		st.floaters += checkDutch(sp, pairs, bye, round, fail)
	}
	if got[0] == 0 && sameColour {
		st.topscorerColours++
	}
	return got[0] > 0 || sameColour
}

// checkColours checks every player's colours in games played on the board:
// never three in a row, never two more of one than of the other.
func checkColours(t *testing.T, tour *Tournament, fail func(string, ...any)) {
	t.Helper()
	if tour.Rules().Format != Swiss {
		return
	}
	hist := map[string][]Colour{}
	for _, r := range tour.Rounds() {
		for _, g := range r.Games {
			if g.Result.Played() {
				hist[g.Red] = append(hist[g.Red], Red)
				hist[g.Blue] = append(hist[g.Blue], Blue)
			}
		}
	}
	for id, h := range hist {
		for i := 2; i < len(h); i++ {
			if h[i] == h[i-1] && h[i-1] == h[i-2] {
				fail("%s has the same colour three times in a row: %v", id, h)
			}
		}
		if d := ColourDifference(h); d < -2 || d > 2 {
			fail("%s has colour difference %d: %v", id, d, h)
		}
	}
}

// TestRandomTournaments plays 1,000 random tournaments of 2 to 40 players,
// Swiss and round robin, with random results, forfeits, deadlines and
// withdrawals before and during the event.
func TestRandomTournaments(t *testing.T) {
	testRandom(t, 1000, 40, false, 0.01)
}

// TestRandomSmallSwiss plays 1,000 random Swiss events of 2 to 8 players,
// up to one round fewer than players, so that every round is checked
// against every legal pairing.
func TestRandomSmallSwiss(t *testing.T) {
	testRandom(t, 1000, 8, true, 0.005)
}

func testRandom(t *testing.T, trials, maxN int, swissOnly bool, leave float64) {
	rng := rand.New(rand.NewPCG(7, uint64(maxN)))
	if testing.Short() {
		trials /= 10
	}
	var st stats
	for trial := range trials {
		randomTournament(t, rng, trial, &st, maxN, swissOnly, leave)
	}
	t.Logf("%d Swiss and %d round-robin tournaments, %d rounds, %d withdrawals; %d Swiss rounds checked by brute force (%d pairs across score groups), %d second byes, %d rounds that broke the colour rules, %d final rounds where topscorers gave way instead, %d rounds with no legal pairing (after withdrawals)",
		st.swiss, st.roundRobin, st.rounds, st.withdrawals, st.bruteForced, st.floaters, st.repeatByes, st.relaxedColours, st.topscorerColours, st.noPairing)
}

// TestSwissPlaysEveryRound plays Swiss events with as many rounds as a
// round robin of the players has, or nearly, nobody leaving: each must be
// paired to its last round (looking ahead, and colours giving way when
// they must).
func TestSwissPlaysEveryRound(t *testing.T) {
	tests := []struct{ players, rounds, events int }{
		{4, 3, 200}, {5, 5, 200}, {6, 5, 500}, {7, 7, 200}, {8, 7, 500}, {9, 9, 100}, {10, 9, 300}, {12, 11, 50}, {14, 10, 30},
		{30, 20, 3}, {33, 33, 2}, {40, 39, 2}, // large fields: the search stays within its budget
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d players, %d rounds", tc.players, tc.rounds), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.players), uint64(tc.rounds)))
			events := tc.events
			if testing.Short() {
				events = max(1, events/10)
			}
			for event := range events {
				tour := seeded(t, DefaultRules(Swiss, tc.rounds), tc.players)
				for round := 1; tour.Status() != Finished; round++ {
					e, err := tour.NextRound()
					if err != nil {
						t.Fatalf("event %d, round %d: %v", event, round, err)
					}
					if err := tour.Apply(e); err != nil {
						t.Fatal(err)
					}
					for b, g := range e.Games {
						if g.IsBye() {
							continue
						}
						r := []Result{RedWon, BlueWon, Drawn, RedWon, BlueWon, RedForfeited, BlueForfeited, DoubleForfeit}[rng.IntN(8)]
						if err := tour.Apply(Record(round, b+1, r)); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		})
	}
}
