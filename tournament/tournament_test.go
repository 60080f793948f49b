package tournament

import (
	"errors"
	"strings"
	"testing"
)

func TestRulesValidate(t *testing.T) {
	ok := func(f func(*Rules)) Rules { r := DefaultRules(Swiss, 5); f(&r); return r }
	tests := []struct {
		name  string
		rules Rules
		want  string // "" when valid
	}{
		{"default Swiss", DefaultRules(Swiss, 5), ""},
		{"default round robin", DefaultRules(RoundRobin, 9), ""},
		{"double round robin", func() Rules { r := DefaultRules(RoundRobin, 0); r.Double = true; return r }(), ""},
		{"football points", ok(func(r *Rules) { r.Win, r.Draw, r.Bye, r.ForfeitWin = 6, 2, 6, 6 }), ""},
		{"bye worth a draw", ok(func(r *Rules) { r.Bye = r.Draw }), ""},
		{"no format", Rules{Win: 2}, "choose round robin or Swiss"},
		{"Swiss without rounds", DefaultRules(Swiss, 0), "between 1 and 50 rounds"},
		{"Swiss too long", DefaultRules(Swiss, 51), "between 1 and 50 rounds"},
		{"double Swiss", ok(func(r *Rules) { r.Double = true }), "only a round robin can be double"},
		{"round robin with rounds", func() Rules { r := DefaultRules(RoundRobin, 0); r.Rounds = 3; return r }(), "leave the number of rounds at 0"},
		{"draw above win", ok(func(r *Rules) { r.Draw = 3 }), "a win must score more than a loss"},
		{"win equals loss", ok(func(r *Rules) { r.Win, r.Draw = 0, 0 }), "a win must score more than a loss"},
		{"negative bye", ok(func(r *Rules) { r.Bye = -1 }), "a bye must score between 0 and 10 points"},
		{"forfeit upside down", ok(func(r *Rules) { r.ForfeitLoss = 2; r.ForfeitWin = 0 }), "forfeit loss cannot score more"},
		{"unknown adjudication", ok(func(r *Rules) { r.Unfinished = 9 }), "lost by both or scored as a draw"},
	}
	for _, tc := range tests {
		err := tc.rules.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrRules)):
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

func TestPointsString(t *testing.T) {
	for p, want := range map[Points]string{0: "0", 1: "½", 2: "1", 5: "2½", -3: "-1½"} {
		if got := p.String(); got != want {
			t.Errorf("Points(%d) = %q, want %q", int(p), got, want)
		}
	}
}

func TestResultPoints(t *testing.T) {
	rules := DefaultRules(Swiss, 3)
	rules.ForfeitWin, rules.Bye = 2, 1 // a bye worth a draw here
	draws := rules
	draws.Unfinished = ScoredAsDraw
	tests := []struct {
		r           Result
		rules       Rules
		red, blue   Points
		played, rtd bool
	}{
		{RedWon, rules, 2, 0, true, true},
		{BlueWon, rules, 0, 2, true, true},
		{Drawn, rules, 1, 1, true, true},
		{RedForfeited, rules, 0, 2, false, false},
		{BlueForfeited, rules, 2, 0, false, false},
		{DoubleForfeit, rules, 0, 0, false, false},
		{Adjudicated, rules, 0, 0, true, false},
		{Adjudicated, draws, 1, 1, true, false},
		{ByeResult, rules, 1, 0, false, false},
		{Pending, rules, 0, 0, false, false},
	}
	for _, tc := range tests {
		red, blue := tc.r.Points(tc.rules)
		if red != tc.red || blue != tc.blue || tc.r.Played() != tc.played || tc.r.Rated() != tc.rtd {
			t.Errorf("%s: %s–%s played %v rated %v", tc.r, red, blue, tc.r.Played(), tc.r.Rated())
		}
	}
}

func TestColourPreference(t *testing.T) {
	R, B := Red, Blue
	tests := []struct {
		played  []Colour
		want    Preference
		redOK   bool
		blueOK  bool
		comment string
	}{
		{nil, Preference{Red, NoPreference}, true, true, "no game yet"},
		{[]Colour{R}, Preference{Blue, Strong}, true, true, "one Red: a difference of one"},
		{[]Colour{R, B}, Preference{Red, Mild}, true, true, "even: alternate"},
		{[]Colour{R, B, R}, Preference{Blue, Strong}, true, true, "one Red more"},
		{[]Colour{R, R}, Preference{Blue, Absolute}, false, true, "two Reds in a row"},
		{[]Colour{B, R, B, B}, Preference{Red, Absolute}, true, false, "two Blues in a row"},
		{[]Colour{R, B, R, R, B, R}, Preference{Blue, Absolute}, false, true, "two Reds more"},
	}
	for _, tc := range tests {
		got := PreferenceOf(tc.played)
		if got != tc.want || coloursAllowed(tc.played, Red) != tc.redOK || coloursAllowed(tc.played, Blue) != tc.blueOK {
			t.Errorf("%v (%s): %v %s", tc.played, tc.comment, got.Colour, got.Strength)
		}
	}
}

// The life of a tournament and what it refuses along the way.
func TestTournamentRefusals(t *testing.T) {
	tour := seeded(t, DefaultRules(Swiss, 2), 5)
	steps := []struct {
		e    Event
		want string // part of the refusal, "" for accepted
	}{
		{Join("p1", 1500), "p1 has already joined"},
		{Join("", 1500), "a player ID has 1 to 100 characters"},
		{Join(strings.Repeat("x", 101), 1500), "a player ID has 1 to 100 characters"},
		{Record(1, 1, RedWon), "has not begun"},
		{CloseRound(1), "has not begun"},
		{Withdraw("nobody", WithdrewByChoice), "no such player"},
		{Join("late", 100), ""},
		{Withdraw("late", LeftServer), ""}, // before the start: simply gone
		{Withdraw("late", LeftServer), "no such player"},
		{Event{Kind: Paired, Round: 2, Games: []Pairing{{Red: "p1", Blue: "p2"}}}, "the next round is round 1, not 2"},
		{Event{Kind: Paired, Round: 1}, "at least one pairing"},
		{Event{Kind: Paired, Round: 1, Games: []Pairing{{Red: "p1", Blue: "p2"}, {Red: "p3", Blue: "p4"}}}, "p5 is not paired in round 1"},
		{Event{Kind: Paired, Round: 1, Games: []Pairing{{Red: "p1", Blue: "p2"}, {Red: "p3", Blue: "p1"}, {Red: "p5"}}}, "p1 is paired twice"},
		{Event{Kind: Paired, Round: 1, Games: []Pairing{{Red: "p1", Blue: "zz"}}}, "zz: no such player"},
		{Event{Kind: Paired, Round: 1, Games: []Pairing{{Red: "p1", Blue: "p2"}, {Red: "p3"}, {Red: "p4"}, {Red: "p5"}}}, "3 byes"},
		{Event{Kind: Paired, Round: 1, Games: []Pairing{{Red: "p1", Blue: "p2", Result: RedWon}, {Red: "p3", Blue: "p4"}, {Red: "p5"}}}, "cannot already have a result"},
		{Event{Kind: Paired, Round: 1, Games: []Pairing{{Red: "p1", Blue: "p2"}, {Red: "p3", Blue: "p4"}, {Red: "p5"}}}, ""},
		{Join("later", 1), "already begun"},
		{Record(1, 3, RedWon), "board 3 of round 1 is a bye"},
		{Record(1, 4, RedWon), "round 1 has no board 4"},
		{Record(2, 1, RedWon), "there is no round 2"},
		{Record(1, 1, Pending), "pending is not the result of a game"},
		{Record(1, 1, ByeResult), "bye is not the result of a game"},
		{Record(1, 1, Result(42)), "is not the result of a game"},
		{Record(1, 1, BlueWon), ""},
		{Record(1, 1, RedWon), ""}, // a correction
		{Event{Kind: Paired, Round: 2, Games: []Pairing{{Red: "p1", Blue: "p3"}, {Red: "p2", Blue: "p4"}, {Red: "p5"}}}, "still has games to finish"},
		{CloseRound(2), "only the current round, 1, can be closed"},
		{CloseRound(1), ""},
		{CloseRound(1), "already closed"},
		{Withdraw("p5", Removed), ""},
		{Withdraw("p5", Removed), "already withdrawn"},
		{Withdraw("p4", WithdrawReason(7)), "unknown reason"},
		{Event{Kind: Paired, Round: 2, Games: []Pairing{{Red: "p1", Blue: "p3"}, {Red: "p2", Blue: "p4"}, {Red: "p5"}}}, "p5 has withdrawn and cannot be paired"},
		{Event{Kind: Paired, Round: 2, Games: []Pairing{{Red: "p4", Blue: "p1"}, {Red: "p2", Blue: "p3"}}}, ""},
		{Record(1, 2, Drawn), "round 1 is over"},
		{Event{Kind: 99}, "unknown kind of event"},
		{Cancel(), ""},
		{Cancel(), "already cancelled"},
		{Record(2, 1, RedWon), "the tournament is over"},
		{Withdraw("p1", WithdrewByChoice), "the tournament is over"},
		{Event{Kind: Paired, Round: 3, Games: []Pairing{{Red: "p4", Blue: "p1"}}}, "the tournament is over"},
	}
	for i, s := range steps {
		before := len(tour.Log())
		err := tour.Apply(s.e)
		switch {
		case s.want == "" && err != nil:
			t.Fatalf("step %d (%s): %v", i+1, s.e, err)
		case s.want != "" && (err == nil || !strings.Contains(err.Error(), s.want)):
			t.Fatalf("step %d (%s): got %v, want a refusal saying %q", i+1, s.e, err, s.want)
		case s.want != "" && len(tour.Log()) != before:
			t.Fatalf("step %d: a refused event went into the log", i+1)
		}
	}
	if tour.Status() != CancelledStatus {
		t.Fatalf("status %s", tour.Status())
	}
	r1 := tour.Rounds()[0]
	if got := showResults(r1.Games); got != "p1-p2:Red won p3-p4:adjudicated unfinished p5:bye" {
		t.Fatalf("round 1: %s", got)
	}
}

func showResults(games []Pairing) string {
	var parts []string
	for _, g := range games {
		if g.IsBye() {
			parts = append(parts, g.Red+":bye")
		} else {
			parts = append(parts, g.Red+"-"+g.Blue+":"+g.Result.String())
		}
	}
	return strings.Join(parts, " ")
}

// A player who withdraws in the middle of a round forfeits their game; in a
// round robin their later games are forfeited as they come and their bye is
// left out; a round closing at its deadline adjudicates what is still on.
func TestRoundRobinWithdrawalAndDeadline(t *testing.T) {
	tour := seeded(t, DefaultRules(RoundRobin, 0), 5)
	if got := tour.TotalRounds(); got != 0 {
		t.Fatalf("rounds before the start: %d", got)
	}
	var log []string
	for round := 1; tour.Status() != Finished; round++ {
		e, err := tour.NextRound()
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if err := tour.Apply(e); err != nil {
			t.Fatal(err)
		}
		if round == 2 {
			if err := tour.Apply(Withdraw("p2", LeftServer)); err != nil {
				t.Fatal(err)
			}
		}
		for b, g := range tour.Rounds()[round-1].Games {
			if g.Result == Pending && b == 0 {
				if err := tour.Apply(Record(round, b+1, RedWon)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !tour.Rounds()[round-1].Complete() {
			if err := tour.Apply(CloseRound(round)); err != nil {
				t.Fatal(err)
			}
		}
		log = append(log, showResults(tour.Rounds()[round-1].Games))
	}
	want := []string{
		"p2-p5:Red won p4-p3:adjudicated unfinished p1:bye",
		"p3-p1:Red won p5-p4:adjudicated unfinished p2:bye", // p2 leaves during the round: the bye stands
		"p1-p5:Red won p4-p2:Blue forfeited p3:bye",
		"p2-p1:Red forfeited p5-p3:adjudicated unfinished p4:bye",
		"p1-p4:Red won p3-p2:Blue forfeited p5:bye",
	}
	if got := strings.Join(log, "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("rounds\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	// Worked by hand: a round-robin bye scores nothing; a forfeit counts
	// against the real opponent's score (p2's 2), a bye against a virtual
	// opponent with the player's own; adjudicated games are lost by both;
	// round robins rank by points then Sonneborn-Berger (p4's forfeit win
	// over p2 beats p2's win over p5, who scored nothing).
	if got, want := showStandings(tour.Standings()), "p1:6/8/14 p3:4/16/14 p4:2/4/14 p2:2/0/14 p5:0/0/14"; got != want {
		t.Fatalf("standings\n got %s\nwant %s", got, want)
	}
	if p, _ := tour.Player("p2"); !p.Withdrawn || p.Reason != LeftServer || p.WithdrewIn != 2 || p.Seed != 2 {
		t.Fatalf("p2: %+v", p)
	}
}

func TestReplayRefusesBadLogs(t *testing.T) {
	rules := DefaultRules(Swiss, 3)
	_, err := Replay(rules, []Event{Join("a", 1), Join("b", 2), Join("a", 3)})
	var le *LogError
	if !errors.As(err, &le) || le.Index != 2 || !strings.Contains(err.Error(), "event 3 (joined): a has already joined") {
		t.Fatalf("got %v", err)
	}
	if _, err := Replay(Rules{}, nil); !errors.Is(err, ErrRules) {
		t.Fatalf("bad rules: %v", err)
	}
}

// A Swiss event has at most as many rounds as a round robin of those who
// start it: the rounds asked for are capped when it begins.
func TestSwissRoundsCappedAtStart(t *testing.T) {
	tests := []struct{ players, asked, want int }{
		{4, 5, 3}, {5, 9, 5}, {6, 5, 5}, {6, 3, 3}, {2, 4, 1},
	}
	for _, tc := range tests {
		tour := seeded(t, DefaultRules(Swiss, tc.asked), tc.players)
		if got := tour.TotalRounds(); got != tc.asked {
			t.Fatalf("%d players: %d rounds before the start, want %d", tc.players, got, tc.asked)
		}
		rounds := 0
		for tour.Status() != Finished {
			e, err := tour.NextRound()
			if err != nil {
				t.Fatalf("%d players, %d asked: round %d: %v", tc.players, tc.asked, rounds+1, err)
			}
			if err := tour.Apply(e); err != nil {
				t.Fatal(err)
			}
			rounds++
			for b, g := range e.Games {
				if !g.IsBye() {
					if err := tour.Apply(Record(rounds, b+1, Drawn)); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if rounds != tc.want || tour.TotalRounds() != tc.want {
			t.Fatalf("%d players, %d asked: played %d of %d rounds, want %d", tc.players, tc.asked, rounds, tour.TotalRounds(), tc.want)
		}
	}
}

// At a round's deadline, games that had not begun take the result the
// Closed event gives them: a forfeit win for the side that set up, or
// NotBegun, scored as the unfinished rule says but not played: no colour,
// no game in the tie-breaks. Games in play are adjudicated.
func TestCloseRoundNotBegun(t *testing.T) {
	for _, unfinished := range []Adjudication{BothLose, ScoredAsDraw} {
		rules := DefaultRules(Swiss, 2)
		rules.Unfinished = unfinished
		tour := seeded(t, rules, 6)
		e, err := tour.NextRound()
		if err != nil || tour.Apply(e) != nil {
			t.Fatalf("round 1: %v", err)
		}
		g := tour.Rounds()[0].Games // p1-p4 p5-p2 p3-p6
		notBegun := []Pairing{{Red: g[0].Red, Blue: g[0].Blue, Result: RedForfeited}, {Red: g[1].Red, Blue: g[1].Blue, Result: NotBegun}}
		if err := tour.Apply(CloseRound(1, notBegun...)); err != nil {
			t.Fatal(err)
		}
		if got, want := showResults(tour.Rounds()[0].Games), "p1-p4:Red forfeited p5-p2:not begun by the deadline p3-p6:adjudicated unfinished"; got != want {
			t.Fatalf("results %s, want %s", got, want)
		}
		unfinishedPoints := rules.Loss
		if unfinished == ScoredAsDraw {
			unfinishedPoints = rules.Draw
		}
		for _, st := range tour.Standings() {
			wantPlayed, wantPoints := 0, unfinishedPoints
			switch st.Player {
			case "p4":
				wantPoints = rules.ForfeitWin
			case "p1":
				wantPoints = rules.ForfeitLoss
			case "p3", "p6":
				wantPlayed = 1 // adjudicated in play: played
			}
			if st.Played != wantPlayed || st.Points != wantPoints {
				t.Errorf("%s: %s: played %d, points %s; want %d, %s", unfinished, st.Player, st.Played, st.Points, wantPlayed, wantPoints)
			}
			if wantPlayed == 0 && st.SonnebornBerger != int(st.Points)*int(st.Points) {
				t.Errorf("%s: %s: SB %d counts a game never played", unfinished, st.Player, st.SonnebornBerger)
			}
		}
		for _, sp := range tour.SwissPlayers() {
			if want := map[bool]int{true: 1, false: 0}[sp.ID == "p3" || sp.ID == "p6"]; len(sp.Colours) != want {
				t.Errorf("%s: %s has colours %v", unfinished, sp.ID, sp.Colours)
			}
		}
	}
}

func TestCloseRoundRefusesBadNotBegun(t *testing.T) {
	tests := []struct {
		name string
		game func(g []Pairing) Pairing
		want string
	}{
		{"a played result", func(g []Pairing) Pairing { return Pairing{Red: g[0].Red, Blue: g[0].Blue, Result: RedWon} }, "cannot be Red won"},
		{"no such game", func(g []Pairing) Pairing { return Pairing{Red: g[0].Red, Blue: g[1].Blue, Result: NotBegun} }, "is no game of the round"},
		{"a result already", func(g []Pairing) Pairing { return Pairing{Red: g[2].Red, Blue: g[2].Blue, Result: NotBegun} }, "already has a result"},
	}
	for _, tc := range tests {
		tour := seeded(t, DefaultRules(Swiss, 2), 6)
		e, err := tour.NextRound()
		if err != nil || tour.Apply(e) != nil {
			t.Fatalf("round 1: %v", err)
		}
		if err := tour.Apply(Record(1, 3, Drawn)); err != nil {
			t.Fatal(err)
		}
		err = tour.Apply(CloseRound(1, tc.game(tour.Rounds()[0].Games)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if tour.Rounds()[0].Closed {
			t.Errorf("%s: a refused close closed the round", tc.name)
		}
	}
}

func TestFormatSonnebornBerger(t *testing.T) {
	tests := []struct {
		sb   int
		want string
	}{{0, "0"}, {1, "¼"}, {2, "½"}, {3, "¾"}, {4, "1"}, {13, "3¼"}, {14, "3½"}, {51, "12¾"}, {-6, "-1½"}}
	for _, tc := range tests {
		if got := FormatSonnebornBerger(tc.sb); got != tc.want {
			t.Errorf("%d: %q, want %q", tc.sb, got, tc.want)
		}
	}
}

// In a round robin a forfeit win over a withdrawn player weighs, in
// Sonneborn-Berger, what that player scored; in a Swiss event the player's
// own score (a virtual opponent). A round-robin bye scores nothing.
func TestForfeitTieBreakByFormat(t *testing.T) {
	tests := []struct {
		format Format
		bye    Points
		wantSB int // p1's: a win over p2 (2 points), then a forfeit win over p3 (2 points) with 4 of p1's own
	}{
		{RoundRobin, 0, 2*2 + 2*2},
		{Swiss, 2, 2*2 + 4*2},
	}
	for _, tc := range tests {
		rules := DefaultRules(tc.format, 2)
		if rules.Bye != tc.bye {
			t.Errorf("%s: a bye scores %s, want %s", tc.format, rules.Bye, tc.bye)
		}
		tour := seeded(t, rules, 4)
		// The same two rounds in both formats, paired by hand.
		for _, e := range []Event{
			{Kind: Paired, Round: 1, Games: []Pairing{{Red: "p1", Blue: "p2"}, {Red: "p3", Blue: "p4"}}},
			Record(1, 1, RedWon), Record(1, 2, RedWon),
			{Kind: Paired, Round: 2, Games: []Pairing{{Red: "p1", Blue: "p3"}, {Red: "p2", Blue: "p4"}}},
			Withdraw("p3", WithdrewByChoice), Record(2, 2, RedWon),
		} {
			if err := tour.Apply(e); err != nil {
				t.Fatalf("%s: %s: %v", tc.format, e, err)
			}
		}
		for _, st := range tour.Standings() {
			if st.Player == "p1" && (st.Points != 4 || st.SonnebornBerger != tc.wantSB) {
				t.Errorf("%s: p1 has %s points, SB %d; want 4, %d", tc.format, st.Points, st.SonnebornBerger, tc.wantSB)
			}
		}
	}
}

// TestSwissTieBreaksHandWorked: Swiss standings with a bye and a forfeit,
// worked by hand as docs/TOURNAMENTS.md counts them (raw units: a win 2,
// SB in Points×Points). Round 1: p1 beats p2, p3 and p4 draw, p5 has the
// bye. Round 2: p1 beats p5, p2 forfeits to p3, p4 has the bye. Scores:
// p1 4, p3 3, p4 3, p5 2, p2 0. An unplayed round (the byes, the forfeit)
// counts as a game against an opponent with the player's own score:
//
//	p1: p2 (0)×2 + p5 (2)×2            = SB 4, Buchholz 0+2 = 2
//	p3: p4 (3)×1 + itself (3)×2        = SB 9, Buchholz 3+3 = 6
//	p4: p3 (3)×1 + itself (3)×2        = SB 9, Buchholz 3+3 = 6
//	p5: itself (2)×2 + p1 (4)×0        = SB 4, Buchholz 2+4 = 6
//	p2: p1 (4)×0 + itself (0)×0        = SB 0, Buchholz 4+0 = 4
//
// p3 and p4 tie on everything: the better seed, p3, is ahead.
func TestSwissTieBreaksHandWorked(t *testing.T) {
	tour := seeded(t, DefaultRules(Swiss, 2), 5)
	for _, e := range []Event{
		{Kind: Paired, Round: 1, Games: []Pairing{{Red: "p1", Blue: "p2"}, {Red: "p3", Blue: "p4"}, {Red: "p5"}}},
		Record(1, 1, RedWon), Record(1, 2, Drawn),
		{Kind: Paired, Round: 2, Games: []Pairing{{Red: "p5", Blue: "p1"}, {Red: "p2", Blue: "p3"}, {Red: "p4"}}},
		Record(2, 1, BlueWon), Record(2, 2, RedForfeited),
	} {
		if err := tour.Apply(e); err != nil {
			t.Fatalf("%s: %v", e, err)
		}
	}
	if got, want := showStandings(tour.Standings()), "p1:4/4/2 p3:3/9/6 p4:3/9/6 p5:2/4/6 p2:0/0/4"; got != want {
		t.Errorf("standings\n got %s\nwant %s", got, want)
	}
}

// Before the first round nobody has a seed or a score: the standings list
// the players as they joined (as "players so far" counts them), not in
// the order of their IDs.
func TestStandingsBeforeTheStartInJoinOrder(t *testing.T) {
	for _, f := range []Format{Swiss, RoundRobin} {
		rounds := 0
		if f == Swiss {
			rounds = 3
		}
		tour, err := New(DefaultRules(f, rounds))
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"900", "1000", "250", "30"} {
			if err := tour.Apply(Join(id, 1500)); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		for k, st := range tour.Standings() {
			if st.Rank != k+1 {
				t.Errorf("%s: %s ranked %d at line %d", f, st.Player, st.Rank, k+1)
			}
			got = append(got, st.Player)
		}
		if want := "900 1000 250 30"; strings.Join(got, " ") != want {
			t.Errorf("%s: standings before the start %v; want the join order %s", f, got, want)
		}
	}
}
