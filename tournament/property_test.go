package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
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

// swissKey is what the pairing must minimise first, in order: pairs that
// break the absolute colour rules; a bye to a player who had one (2) or won
// by forfeit (1); the bye's score; the number of pairs between different
// scores.
type swissKey [4]int

func keyOf(ps []SwissPlayer, pairs [][2]int, bye int) swissKey {
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
		if breaksColours(ps[p[0]], ps[p[1]]) {
			k[0]++
		}
		if ps[p[0]].Score != ps[p[1]].Score {
			k[3]++
		}
	}
	return k
}

func less(a, b swissKey) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// bestKey returns the best key of the pairings without a rematch after
// which later more rounds can be paired; when no pairing leaves that, of
// any pairing. false when every pairing has a rematch.
func bestKey(ps []SwissPlayer, later int) (swissKey, bool) {
	type option struct {
		key   swissKey
		pairs [][2]int
		bye   int
	}
	var all []option
	legalPairings(ps, func(pairs [][2]int, bye int) {
		all = append(all, option{keyOf(ps, pairs, bye), append([][2]int(nil), pairs...), bye})
	})
	if len(all) == 0 {
		return swissKey{}, false
	}
	sort.SliceStable(all, func(i, j int) bool { return less(all[i].key, all[j].key) })
	ahead := newRoundsAhead(ps)
	for _, o := range all {
		if ahead.pairableAfter(o.pairs, o.bye, later) {
			return o.key, true
		}
	}
	return all[0].key, true
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
	swiss, roundRobin, rounds, bruteForced, noPairing, repeatByes, withdrawals, mixed, relaxedColours int
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
		if rules.Format == Swiss {
			sp = tour.SwissPlayers()
		}
		e, err := tour.NextRound()
		if errors.Is(err, ErrNoPairing) {
			st.noPairing++
			if !leftDuring {
				fail("round %d of %d: no pairing, though nobody left and the rounds are at most a round robin's", round, tour.TotalRounds())
			}
			if len(sp) <= bruteForceMax {
				if _, ok := bestKey(sp, 0); ok {
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
			relaxed = checkSwissRound(t, sp, games, tour.TotalRounds()-round, fail, st) || relaxed
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
// round broke the absolute colour rules.
func checkSwissRound(t *testing.T, sp []SwissPlayer, games []Pairing, later int, fail func(string, ...any), st *stats) bool {
	t.Helper()
	idx := map[string]int{}
	for i, p := range sp {
		idx[p.ID] = i
	}
	seen := map[string]bool{}
	var pairs [][2]int
	bye := -1
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
		if breaksColours(r, b) != (!ColoursAllowed(r.Colours, Red) || !ColoursAllowed(b.Colours, Blue)) {
			fail("%s–%s has colours %v and %v could have kept the rules", r.ID, b.ID, r.Colours, b.Colours)
		}
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
	got := keyOf(sp, pairs, bye)
	if got[0] > 0 {
		st.relaxedColours++
	}
	if len(sp) <= bruteForceMax {
		best, ok := bestKey(sp, later)
		if !ok {
			fail("paired what cannot be paired")
		}
		st.bruteForced++
		st.mixed += best[3]
		if got != best {
			fail("pairing %v has key %v; the best pairing the later rounds can follow has %v", games, got, best)
		}
	}
	return got[0] > 0
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
	t.Logf("%d Swiss and %d round-robin tournaments, %d rounds, %d withdrawals; %d Swiss rounds checked by brute force (%d mixed pairs that could not be avoided), %d second byes, %d rounds that broke the colour rules, %d rounds with no legal pairing (after withdrawals)",
		st.swiss, st.roundRobin, st.rounds, st.withdrawals, st.bruteForced, st.mixed, st.repeatByes, st.relaxedColours, st.noPairing)
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
