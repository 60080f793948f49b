package tournament

import (
	"fmt"
	"strings"
	"testing"
)

// roundScript is one round of a hand-worked event: who withdraws before it is
// paired, the pairings expected ("p1-p5" is p1 with Red against p5; "p9:bye"),
// and the results to record, board by board (byes skipped).
type roundScript struct {
	withdraw []string
	want     string
	results  []Result
}

// seeded returns a tournament with players p1 … pn, p1 rated highest.
func seeded(t *testing.T, rules Rules, n int) *Tournament {
	t.Helper()
	tour, err := New(rules)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if err := tour.Apply(Join(fmt.Sprintf("p%d", i), 2000-10*i)); err != nil {
			t.Fatal(err)
		}
	}
	return tour
}

func showRound(games []Pairing) string {
	var parts []string
	for _, g := range games {
		if g.IsBye() {
			parts = append(parts, g.Red+":bye")
		} else {
			parts = append(parts, g.Red+"-"+g.Blue)
		}
	}
	return strings.Join(parts, " ")
}

// play runs the script and checks each round's pairings.
func play(t *testing.T, tour *Tournament, script []roundScript) {
	t.Helper()
	for i, rs := range script {
		for _, id := range rs.withdraw {
			if err := tour.Apply(Withdraw(id, WithdrewByChoice)); err != nil {
				t.Fatalf("round %d: withdrawing %s: %v", i+1, id, err)
			}
		}
		e, err := tour.NextRound()
		if err != nil {
			t.Fatalf("round %d: %v", i+1, err)
		}
		if got := showRound(e.Games); got != rs.want {
			t.Fatalf("round %d pairings\n got %s\nwant %s", i+1, got, rs.want)
		}
		if err := tour.Apply(e); err != nil {
			t.Fatalf("round %d: applying the pairing: %v", i+1, err)
		}
		k := 0
		for b, g := range e.Games {
			if g.IsBye() {
				continue
			}
			if k >= len(rs.results) {
				t.Fatalf("round %d: no result for board %d", i+1, b+1)
			}
			if err := tour.Apply(Record(i+1, b+1, rs.results[k])); err != nil {
				t.Fatalf("round %d board %d: %v", i+1, b+1, err)
			}
			k++
		}
	}
}

// showStandings writes "id:points/SB/Buchholz" in rank order, in raw units.
func showStandings(st []Standing) string {
	var parts []string
	for _, s := range st {
		parts = append(parts, fmt.Sprintf("%s:%d/%d/%d", s.Player, s.Points, s.SonnebornBerger, s.Buchholz))
	}
	return strings.Join(parts, " ")
}
