package tournament

import (
	"fmt"
	"strings"
	"testing"
)

// The first rounds of the smallest round robins, worked by hand from the
// circle method: "0-3" is seed 0 with Red against seed 3.
func TestBergerRoundSmall(t *testing.T) {
	show := func(bs []Board) string {
		var parts []string
		for _, b := range bs {
			if b.Blue < 0 {
				parts = append(parts, fmt.Sprintf("%d:bye", b.Red))
			} else {
				parts = append(parts, fmt.Sprintf("%d-%d", b.Red, b.Blue))
			}
		}
		return strings.Join(parts, " ")
	}
	tests := []struct {
		n      int
		double bool
		want   []string
	}{
		{2, false, []string{"1-0"}},
		{2, true, []string{"1-0", "0-1"}},
		{3, false, []string{"1-2 0:bye", "2-0 1:bye", "0-1 2:bye"}},
		{4, false, []string{"3-0 1-2", "2-0 1-3", "0-1 3-2"}},
		{4, true, []string{"3-0 1-2", "2-0 1-3", "0-1 3-2", "1-0 2-3", "0-2 3-1", "0-3 2-1"}},
		{5, false, []string{"1-4 3-2 0:bye", "2-0 4-3 1:bye", "0-4 3-1 2:bye", "1-0 4-2 3:bye", "0-3 2-1 4:bye"}},
	}
	for _, tc := range tests {
		for r, want := range tc.want {
			if got := show(BergerRound(tc.n, tc.double, r)); got != want {
				t.Errorf("n=%d double=%v round %d: %s, want %s", tc.n, tc.double, r+1, got, want)
			}
		}
		if got := BergerRound(tc.n, tc.double, len(tc.want)); got != nil {
			t.Errorf("n=%d: a round after the last: %v", tc.n, got)
		}
	}
}

// Everyone meets everyone exactly once a cycle, plays at most once a round,
// has a bye once a cycle when the number is odd, and has as many Reds as
// Blues or one more of either; a double round robin balances exactly and
// swaps the colours of each pair's two games.
func TestBergerScheduleProperties(t *testing.T) {
	for n := 2; n <= 40; n++ {
		for _, double := range []bool{false, true} {
			sched := bergerSchedule(n, double)
			if len(sched) != RoundRobinRounds(n, double) {
				t.Fatalf("n=%d: %d rounds", n, len(sched))
			}
			met := map[[2]int][]int{} // (red, blue) -> rounds
			red, blue, byes := make([]int, n), make([]int, n), make([]int, n)
			last := make([][]int, n)
			for r, round := range sched {
				seen := make([]bool, n)
				for _, b := range round {
					for _, p := range []int{b.Red, b.Blue} {
						if p < 0 {
							continue
						}
						if seen[p] {
							t.Fatalf("n=%d round %d: %d plays twice", n, r, p)
						}
						seen[p] = true
					}
					if b.Blue < 0 {
						byes[b.Red]++
						continue
					}
					met[[2]int{b.Red, b.Blue}] = append(met[[2]int{b.Red, b.Blue}], r)
					red[b.Red]++
					blue[b.Blue]++
					last[b.Red] = append(last[b.Red], 0)
					last[b.Blue] = append(last[b.Blue], 1)
				}
				for p, s := range seen {
					if !s {
						t.Fatalf("n=%d round %d: %d is not paired", n, r, p)
					}
				}
			}
			cycles := 1
			if double {
				cycles = 2
			}
			for a := range n {
				for b := a + 1; b < n; b++ {
					ab, ba := len(met[[2]int{a, b}]), len(met[[2]int{b, a}])
					if ab+ba != cycles {
						t.Fatalf("n=%d double=%v: %d and %d meet %d times", n, double, a, b, ab+ba)
					}
					if double && (ab != 1 || ba != 1) {
						t.Fatalf("n=%d: %d and %d have the same colours in both cycles", n, a, b)
					}
				}
				if d := red[a] - blue[a]; d < -1 || d > 1 || double && d != 0 {
					t.Fatalf("n=%d double=%v: %d has %d Reds and %d Blues", n, double, a, red[a], blue[a])
				}
				if want := cycles * (n % 2); byes[a] != want {
					t.Fatalf("n=%d: %d has %d byes, want %d", n, a, byes[a], want)
				}
				run := 0
				for i := range last[a] {
					if i > 0 && last[a][i] == last[a][i-1] {
						run++
					} else {
						run = 1
					}
					if run > 2 {
						t.Fatalf("n=%d double=%v: %d has the same colour three times in a row: %v", n, double, a, last[a])
					}
				}
			}
		}
	}
}
