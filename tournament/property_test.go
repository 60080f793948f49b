package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// legalPairings calls visit with every pairing of the players that keeps the
// absolute rules (no rematch, no forbidden colour), the bye as index -1.
func legalPairings(ps []SwissPlayer, visit func(pairs [][2]int, bye int)) {
	n := len(ps)
	met := make(map[[2]int]bool)
	idx := make(map[string]int, n)
	for i, p := range ps {
		idx[p.ID] = i
	}
	for i, p := range ps {
		for _, o := range p.Opponents {
			if j, ok := idx[o]; ok {
				met[[2]int{i, j}], met[[2]int{j, i}] = true, true
			}
		}
	}
	legal := func(i, j int) bool {
		if met[[2]int{i, j}] {
			return false
		}
		a, b := PreferenceOf(ps[i].Colours), PreferenceOf(ps[j].Colours)
		return !(a.Strength == Absolute && b.Strength == Absolute && a.Colour == b.Colour)
	}
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
			if !used[j] && legal(i, j) {
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

// swissKey is what the pairing must minimise first, in order: a bye to a
// player who had one (2) or won by forfeit (1); the bye's score; the number
// of pairs between different scores.
type swissKey [3]int

func keyOf(ps []SwissPlayer, pairs [][2]int, bye int) swissKey {
	var k swissKey
	if bye >= 0 {
		if ps[bye].HadBye {
			k[0] += 2
		}
		if ps[bye].ForfeitWin {
			k[0]++
		}
		k[1] = int(ps[bye].Score)
	}
	for _, p := range pairs {
		if ps[p[0]].Score != ps[p[1]].Score {
			k[2]++
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

// bestKey returns the best key of any legal pairing, false when there is none.
func bestKey(ps []SwissPlayer) (swissKey, bool) {
	var best swissKey
	found := false
	legalPairings(ps, func(pairs [][2]int, bye int) {
		if k := keyOf(ps, pairs, bye); !found || less(k, best) {
			best, found = k, true
		}
	})
	return best, found
}

// stats counts what the random tournaments went through, to show the
// properties were not checked vacuously.
type stats struct {
	swiss, roundRobin, rounds, bruteForced, noPairing, repeatByes, withdrawals, mixed int
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
	for tour.Status() != Finished {
		round := len(tour.Rounds()) + 1
		withdraw(leave * 3)
		var sp []SwissPlayer
		if rules.Format == Swiss {
			sp = tour.SwissPlayers()
		}
		e, err := tour.NextRound()
		if errors.Is(err, ErrNoPairing) {
			st.noPairing++
			if len(sp) <= 8 {
				if _, ok := bestKey(sp); ok {
					fail("round %d: no pairing found, but there is one", round)
				}
			} else {
				fail("round %d: no pairing for %d players", round, len(sp))
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
			checkSwissRound(t, sp, games, fail, st)
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
		withdraw(leave * 2) // during the round: pending games are forfeited
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
		checkColours(t, tour, fail)
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
// from: everyone once, no rematch, the colour rules, at most one bye, and —
// up to 8 players, by trying every legal pairing — the bye and the score
// groups as good as any pairing can have them.
func checkSwissRound(t *testing.T, sp []SwissPlayer, games []Pairing, fail func(string, ...any), st *stats) {
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
		if !ColoursAllowed(r.Colours, Red) || !ColoursAllowed(b.Colours, Blue) {
			fail("%s–%s breaks the colour rules (%v, %v)", r.ID, b.ID, r.Colours, b.Colours)
		}
		pairs = append(pairs, [2]int{idx[g.Red], idx[g.Blue]})
	}
	if len(seen) != len(sp) {
		fail("%d of %d players paired", len(seen), len(sp))
	}
	if bye >= 0 && sp[bye].HadBye {
		st.repeatByes++
		for _, p := range sp {
			if !p.HadBye && len(sp) > 8 {
				fail("%s has a second bye while %s had none", sp[bye].ID, p.ID)
			}
		}
	}
	if len(sp) <= 8 {
		best, ok := bestKey(sp)
		if !ok {
			fail("paired what cannot be paired")
		}
		st.bruteForced++
		st.mixed += best[2]
		if got := keyOf(sp, pairs, bye); got != best {
			fail("pairing %v has key %v; the best legal pairing has %v", games, got, best)
		}
	}
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
	t.Logf("%d Swiss and %d round-robin tournaments, %d rounds, %d withdrawals; %d Swiss rounds checked by brute force (%d mixed pairs that could not be avoided), %d second byes, %d rounds with no legal pairing",
		st.swiss, st.roundRobin, st.rounds, st.withdrawals, st.bruteForced, st.mixed, st.repeatByes, st.noPairing)
}
