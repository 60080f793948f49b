package tournament

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Small Swiss events worked by hand from the criteria in PairSwissRound's doc.
// Scores are in half points (a win is 2); Sonneborn-Berger in points×points.
func TestSwissHandWorked(t *testing.T) {
	tests := []struct {
		name      string
		players   int
		script    []roundScript
		standings string
	}{{
		// Round 2: p2 and p4 drew in round 1, so the two 1-point players
		// cannot meet; both ways of pairing cost two mixed pairs, and p2–p1
		// with p3–p4 meets every colour preference. Round 3 is forced; the
		// colours of each pair clash equally and the histories are the same,
		// so the higher-ranked player has their way. p3 forfeits round 3.
		name: "4 players", players: 4,
		script: []roundScript{
			{want: "p1-p3 p4-p2", results: []Result{RedWon, Drawn}},
			{want: "p2-p1 p3-p4", results: []Result{BlueWon, BlueWon}},
			{want: "p1-p4 p3-p2", results: []Result{Drawn, RedForfeited}},
		},
		// p2's forfeit win counts against a virtual opponent with p2's own 3.
		standings: "p1:5/10/7 p4:4/8/8 p2:3/10/12 p3:0/0/9",
	}, {
		// p4 withdraws after round 1. Round 2: the bye goes to the one
		// score-0 player, p5; p3 and p6 drew, so the score-1 group cannot
		// pair and both ways of crossing with p1 and p2 make two mixed pairs:
		// p6–p1 and p2–p3 meet every colour preference. Round 3: p5 had the
		// bye, so p3 (lower than p1 in the score-2 group) has it; p6 and p2
		// both want Blue with the same histories, so p2, ranked higher, has
		// it. Four players tie on 2 points: p2 and p3 on SB and Buchholz too,
		// as do p5 and p6, so the seed decides.
		name: "6 players, a withdrawal", players: 6,
		script: []roundScript{
			{want: "p1-p4 p5-p2 p3-p6", results: []Result{RedWon, BlueWon, Drawn}},
			{withdraw: []string{"p4"}, want: "p6-p1 p2-p3 p5:bye", results: []Result{RedWon, Drawn}},
			{want: "p6-p2 p1-p5 p3:bye", results: []Result{Drawn, BlueWon}},
		},
		standings: "p2:4/16/12 p3:4/16/12 p5:4/12/10 p6:4/12/10 p1:2/0/8 p4:0/0/2",
	}, {
		// Round 1: the bye to the lowest seed, then S1 v S2. Round 2: p4 won
		// by forfeit and p9 had the bye, so the bye goes to the score-0
		// group; p2 and p6 drew and float down to p3 and p5; p8 (lowest)
		// takes the bye. Round 3: the bye goes to p5 (score 0; p3's partner
		// would otherwise be p6, whom p5 met); p4 meets p7, not p1, because
		// that meets every colour preference.
		name: "9 players, byes, forfeits", players: 9,
		script: []roundScript{
			{want: "p1-p5 p6-p2 p3-p7 p8-p4 p9:bye", results: []Result{RedWon, Drawn, BlueWon, RedForfeited}},
			{want: "p7-p1 p9-p4 p2-p3 p5-p6 p8:bye", results: []Result{Drawn, BlueWon, RedWon, DoubleForfeit}},
			{want: "p4-p7 p1-p2 p8-p9 p3-p6 p5:bye", results: []Result{RedWon, Drawn, RedWon, BlueWon}},
		},
		standings: "p4:6/22/11 p8:4/12/10 p1:4/11/9 p2:4/7/7 p7:3/4/10 p6:3/4/7 p9:2/4/12 p5:2/4/8 p3:0/0/10",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tour := seeded(t, DefaultRules(Swiss, len(tc.script)), tc.players)
			play(t, tour, tc.script)
			if s := tour.Status(); s != Finished {
				t.Fatalf("status %s, want finished", s)
			}
			if got := showStandings(tour.Standings()); got != tc.standings {
				t.Fatalf("standings\n got %s\nwant %s", got, tc.standings)
			}
			again, err := Replay(tour.Rules(), tour.Log())
			if err != nil {
				t.Fatalf("replaying the log: %v", err)
			}
			if got := showStandings(again.Standings()); got != tc.standings {
				t.Fatalf("replayed standings %s", got)
			}
		})
	}
}

// The pairing depends on the players, not on the order they are listed in.
func TestPairSwissIgnoresInputOrder(t *testing.T) {
	ps := swissAfter(t, 31, 4)
	want, err := pairSwiss(ps)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		shuffled := append([]SwissPlayer(nil), ps...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := pairSwiss(shuffled)
		if err != nil {
			t.Fatal(err)
		}
		if showRound(got) != showRound(want) {
			t.Fatalf("shuffled input paired\n%s\ninstead of\n%s", showRound(got), showRound(want))
		}
	}
}

func TestPairSwissRefuses(t *testing.T) {
	tests := []struct {
		players []SwissPlayer
		want    string
	}{
		{nil, "nobody to pair"},
		{[]SwissPlayer{{ID: "a"}, {ID: ""}}, "a player without an ID"},
		{[]SwissPlayer{{ID: "a"}, {ID: "a"}}, "a is listed twice"},
		{[]SwissPlayer{{ID: "a", Opponents: []string{"b"}}, {ID: "b", Opponents: []string{"a"}}}, "no legal pairing"},
	}
	for _, tc := range tests {
		if _, err := pairSwiss(tc.players); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.players, err, tc.want)
		}
	}
	// Both are owed Blue absolutely and have not met: the colour rules
	// give way rather than end the event; their histories agree as far as
	// they go, so a, ranked higher, has its Blue.
	got, err := pairSwiss([]SwissPlayer{{ID: "a", Seed: 1, Colours: []Colour{Red, Red}}, {ID: "b", Seed: 2, Colours: []Colour{Blue, Red, Red}}})
	if err != nil || showRound(got) != "b-a" {
		t.Fatalf("colours relaxed: %v %v", got, err)
	}
	// One player left has the bye.
	got, err = pairSwiss([]SwissPlayer{{ID: "a", HadBye: true}})
	if err != nil || showRound(got) != "a:bye" {
		t.Fatalf("one player: %v %v", got, err)
	}
}
