package tournament

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// allAtOnceRules are a round robin's default rules, played all at once.
func allAtOnceRules(double bool) Rules {
	r := DefaultRules(RoundRobin, 0)
	r.Double, r.AllAtOnce = double, true
	return r
}

// pairedAll returns n players' round robin with every round paired.
func pairedAll(t *testing.T, n int, double bool) *Tournament {
	t.Helper()
	tour := seeded(t, allAtOnceRules(double), n)
	events, err := tour.PairAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if err := tour.Apply(e); err != nil {
			t.Fatalf("round %d: %v", e.Round, err)
		}
	}
	return tour
}

// TestPairAll: a round robin played all at once pairs its whole Berger
// schedule at the start, a Paired event per round, the same rounds a round
// robin played round by round pairs one at a time; nothing more can be
// paired after.
func TestPairAll(t *testing.T) {
	tests := []struct {
		players int
		double  bool
	}{
		{2, false}, {3, false}, {4, false}, {5, false}, {8, false},
		{2, true}, {3, true}, {4, true}, {7, true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d players, double %v", tc.players, tc.double), func(t *testing.T) {
			tour := pairedAll(t, tc.players, tc.double)
			ids := make([]string, tc.players)
			for i := range ids {
				ids[i] = fmt.Sprintf("p%d", i+1)
			}
			want := roundRobinSchedule(ids, tc.double)
			rounds := tour.Rounds()
			if len(rounds) != len(want) || tour.TotalRounds() != len(want) {
				t.Fatalf("%d rounds paired of %d, want %d", len(rounds), tour.TotalRounds(), len(want))
			}
			for i, r := range rounds {
				if got := showRound(r.Games); got != showRound(want[i]) {
					t.Errorf("round %d: %s, want %s", i+1, got, showRound(want[i]))
				}
			}
			if tour.Status() != Running || tour.AllPairedComplete() {
				t.Errorf("status %s with every game to play", tour.Status())
			}
			if _, err := tour.PairAll(); !errors.Is(err, ErrOver) {
				t.Errorf("pairing again: %v, want ErrOver", err)
			}
			if _, err := Replay(tour.Rules(), tour.Log()); err != nil {
				t.Errorf("the log does not replay: %v", err)
			}
		})
	}
}

// TestPairAllRefused: only a round robin played all at once pairs every
// round at the start, and only such a round robin is valid.
func TestPairAllRefused(t *testing.T) {
	swiss := DefaultRules(Swiss, 3)
	swiss.AllAtOnce = true
	if err := swiss.Validate(); !errors.Is(err, ErrRules) {
		t.Errorf("a Swiss event all at once: %v, want ErrRules", err)
	}
	for _, rules := range []Rules{DefaultRules(RoundRobin, 0), DefaultRules(Swiss, 3)} {
		tour := seeded(t, rules, 4)
		if _, err := tour.PairAll(); err == nil {
			t.Errorf("%s, round by round: PairAll accepted", rules.Format)
		}
	}
	// Round by round, a round still on keeps the next unpaired.
	tour := seeded(t, DefaultRules(RoundRobin, 0), 4)
	e, _ := tour.NextRound()
	if err := tour.Apply(e); err != nil {
		t.Fatal(err)
	}
	if _, err := tour.NextRound(); !errors.Is(err, ErrRoundOpen) {
		t.Errorf("round 2 while round 1 is on: %v, want ErrRoundOpen", err)
	}
}

// TestAllAtOnceResultsInAnyOrder: the results come in any order; the event
// is finished when the last game has its result, whichever it is, and the
// standings are those of the same results played round by round.
func TestAllAtOnceResultsInAnyOrder(t *testing.T) {
	result := func(round, board int) Result { return []Result{RedWon, BlueWon, Drawn}[(round+board)%3] }
	boards := [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}}
	tests := []struct {
		name  string
		order []int // indices into boards
	}{
		{"round order", []int{0, 1, 2, 3, 4, 5}},
		{"last round first", []int{5, 4, 3, 2, 1, 0}},
		{"interleaved", []int{2, 5, 0, 4, 1, 3}},
	}
	// The same results, round by round.
	byRound := seeded(t, DefaultRules(RoundRobin, 0), 4)
	for round := 1; byRound.Status() != Finished; round++ {
		e, err := byRound.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		if err := byRound.Apply(e); err != nil {
			t.Fatal(err)
		}
		for b := 1; b <= 2; b++ {
			if err := byRound.Apply(Record(round, b, result(round, b))); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := showStandings(byRound.Standings())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tour := pairedAll(t, 4, false)
			for k, i := range tc.order {
				if tour.Status() != Running {
					t.Fatalf("status %s with %d games left", tour.Status(), len(tc.order)-k)
				}
				b := boards[i]
				if err := tour.Apply(Record(b[0], b[1], result(b[0], b[1]))); err != nil {
					t.Fatalf("round %d board %d: %v", b[0], b[1], err)
				}
			}
			if tour.Status() != Finished {
				t.Fatalf("status %s after every result", tour.Status())
			}
			if got := showStandings(tour.Standings()); got != want {
				t.Errorf("standings\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestAllAtOnceDeadline: the one deadline closes every round: games with a
// result keep it, games not begun take theirs, the others are adjudicated;
// it is the only way such an event's rounds close.
func TestAllAtOnceDeadline(t *testing.T) {
	tests := []struct {
		name     string
		close    func(r []Round) Event
		want     string // every round's results, a line each
		refusal  string
		partOnly bool // only round 1 paired
	}{
		{
			name:  "nothing begun listed",
			close: func([]Round) Event { return CloseAll() },
			want:  "p4-p1:Red won p2-p3:adjudicated unfinished\np3-p1:adjudicated unfinished p2-p4:Blue won\np1-p2:adjudicated unfinished p4-p3:adjudicated unfinished",
		},
		{
			name: "games not begun in two rounds",
			close: func(r []Round) Event {
				a, b := r[1].Games[0], r[2].Games[1]
				return CloseAll(Pairing{Red: a.Red, Blue: a.Blue, Result: RedForfeited}, Pairing{Red: b.Red, Blue: b.Blue, Result: NotBegun})
			},
			want: "p4-p1:Red won p2-p3:adjudicated unfinished\np3-p1:Red forfeited p2-p4:Blue won\np1-p2:adjudicated unfinished p4-p3:not begun by the deadline",
		},
		{
			name: "a game with a result is not listed",
			close: func(r []Round) Event {
				a := r[0].Games[0]
				return CloseAll(Pairing{Red: a.Red, Blue: a.Blue, Result: NotBegun})
			},
			refusal: "already has a result",
		},
		{
			name:    "one round alone",
			close:   func([]Round) Event { return CloseRound(2) },
			refusal: "closes every round together",
		},
		{
			name:     "before every round is paired",
			close:    func([]Round) Event { return CloseAll() },
			refusal:  "1 of 3 rounds are paired",
			partOnly: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tour := seeded(t, allAtOnceRules(false), 4)
			events, err := tour.PairAll()
			if err != nil {
				t.Fatal(err)
			}
			if tc.partOnly {
				events = events[:1]
			}
			for _, e := range events {
				if err := tour.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			if !tc.partOnly {
				for _, rec := range []Event{Record(1, 1, RedWon), Record(2, 2, BlueWon)} {
					if err := tour.Apply(rec); err != nil {
						t.Fatal(err)
					}
				}
			}
			err = tour.Apply(tc.close(tour.Rounds()))
			if tc.refusal != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refusal) {
					t.Fatalf("refusal %v, want one saying %q", err, tc.refusal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range tour.Rounds() {
				got = append(got, showResults(r.Games))
				if !r.Closed {
					t.Errorf("round %d is not closed", r.Number)
				}
			}
			if g := strings.Join(got, "\n"); g != tc.want {
				t.Errorf("after the deadline\n%s\nwant\n%s", g, tc.want)
			}
			if tour.Status() != Finished {
				t.Errorf("status %s after the deadline", tour.Status())
			}
			if err := tour.Apply(CloseAll()); err == nil {
				t.Errorf("the deadline passed twice")
			}
		})
	}
	sequential := seeded(t, DefaultRules(RoundRobin, 0), 4)
	e, _ := sequential.NextRound()
	if err := sequential.Apply(e); err != nil {
		t.Fatal(err)
	}
	if err := sequential.Apply(CloseAll()); err == nil {
		t.Errorf("a round robin played round by round accepted the deadline of all rounds")
	}
}

// TestAllAtOnceWithdrawal: a player who withdraws forfeits every game of
// theirs still on, in every round; their results stand, and so do their
// byes (all given at the start) and the others' games.
func TestAllAtOnceWithdrawal(t *testing.T) {
	tests := []struct {
		name   string
		played []Event // before the withdrawal
		out    string
		want   string
	}{
		{
			name: "nothing played", out: "p2",
			want: "p2-p5:Red forfeited p4-p3:pending p1:bye\n" +
				"p3-p1:pending p5-p4:pending p2:bye\n" +
				"p1-p5:pending p4-p2:Blue forfeited p3:bye\n" +
				"p2-p1:Red forfeited p5-p3:pending p4:bye\n" +
				"p1-p4:pending p3-p2:Blue forfeited p5:bye",
		},
		{
			name: "a game played in a late round", out: "p2", played: []Event{Record(5, 2, RedWon)},
			want: "p2-p5:Red forfeited p4-p3:pending p1:bye\n" +
				"p3-p1:pending p5-p4:pending p2:bye\n" +
				"p1-p5:pending p4-p2:Blue forfeited p3:bye\n" +
				"p2-p1:Red forfeited p5-p3:pending p4:bye\n" +
				"p1-p4:pending p3-p2:Red won p5:bye",
		},
		{
			name: "the opponent withdrew first", out: "p2", played: []Event{Withdraw("p1", Removed)},
			want: "p2-p5:Red forfeited p4-p3:pending p1:bye\n" +
				"p3-p1:Blue forfeited p5-p4:pending p2:bye\n" +
				"p1-p5:Red forfeited p4-p2:Blue forfeited p3:bye\n" +
				"p2-p1:Blue forfeited p5-p3:pending p4:bye\n" +
				"p1-p4:Red forfeited p3-p2:Blue forfeited p5:bye",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tour := pairedAll(t, 5, false)
			for _, e := range append(tc.played, Withdraw(tc.out, WithdrewByChoice)) {
				if err := tour.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, r := range tour.Rounds() {
				got = append(got, showResults(r.Games))
			}
			if g := strings.Join(got, "\n"); g != tc.want {
				t.Errorf("after %s withdrew\n%s\nwant\n%s", tc.out, g, tc.want)
			}
			if p, _ := tour.Player(tc.out); !p.Withdrawn || p.WithdrewIn != 5 {
				t.Errorf("%s: %+v", tc.out, p)
			}
		})
	}
}
