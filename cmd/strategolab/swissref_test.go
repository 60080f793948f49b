package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/tournament"
)

// smallEvent plays a hand-made Swiss event of five players: round 1 has a
// win, a draw and a bye; in round 2 a player withdraws, forfeiting their
// game, and another game is won by Blue.
func smallEvent(t *testing.T, rounds int) *tournament.Tournament {
	t.Helper()
	ev, err := tournament.New(tournament.DefaultRules(tournament.Swiss, 3))
	if err != nil {
		t.Fatal(err)
	}
	apply := func(e tournament.Event) {
		t.Helper()
		if err := ev.Apply(e); err != nil {
			t.Fatalf("%v: %v", e, err)
		}
	}
	for _, j := range []struct {
		id     string
		rating int
	}{{"ann", 1500}, {"bob", 1800}, {"cat", 1700}, {"dan", 1600}, {"eve", 1400}} {
		apply(tournament.Join(j.id, j.rating))
	}
	if rounds >= 1 { // seeds: bob 1, cat 2, dan 3, ann 4, eve 5
		apply(tournament.Event{Kind: tournament.Paired, Round: 1, Games: []tournament.Pairing{
			{Red: "bob", Blue: "dan"}, {Red: "ann", Blue: "cat"}, {Red: "eve"}}})
		apply(tournament.Record(1, 1, tournament.RedWon))
		apply(tournament.Record(1, 2, tournament.Drawn))
	}
	if rounds >= 2 {
		apply(tournament.Event{Kind: tournament.Paired, Round: 2, Games: []tournament.Pairing{
			{Red: "eve", Blue: "bob"}, {Red: "cat", Blue: "dan"}, {Red: "ann"}}})
		apply(tournament.Withdraw("dan", tournament.WithdrewByChoice))
		apply(tournament.Record(2, 1, tournament.BlueWon))
	}
	return ev
}

func TestWriteTRF(t *testing.T) {
	header := "012 test\nXXR 3\nXXC white1\n"
	line := func(seed int, id string, rating int, points, rounds string) string {
		return "001 " + pad(seed, 4) + "      " + id + strings.Repeat(" ", 33-len(id)) + " " + pad(rating, 4) +
			strings.Repeat(" ", 28) + points + " " + pad(seed, 4) + rounds + "\n"
	}
	tests := []struct {
		name   string
		rounds int
		want   string
		seeds  []string
	}{
		{"before round 1: seeds by rating", 0, header +
			line(1, "bob", 1800, " 0.0", "") +
			line(2, "cat", 1700, " 0.0", "") +
			line(3, "dan", 1600, " 0.0", "") +
			line(4, "ann", 1500, " 0.0", "") +
			line(5, "eve", 1400, " 0.0", ""),
			[]string{"bob", "cat", "dan", "ann", "eve"}},
		{"a win, a draw and a bye", 1, header +
			line(1, "bob", 1800, " 1.0", "     3 w 1") +
			line(2, "cat", 1700, " 0.5", "     4 b =") +
			line(3, "dan", 1600, " 0.0", "     1 b 0") +
			line(4, "ann", 1500, " 0.5", "     2 w =") +
			line(5, "eve", 1400, " 1.0", "  0000 - U"),
			[]string{"bob", "cat", "dan", "ann", "eve"}},
		{"a forfeit and a withdrawal: absent from the next round", 2, header +
			line(1, "bob", 1800, " 2.0", "     3 w 1     5 b 1") +
			line(2, "cat", 1700, " 1.5", "     4 b =     3 w +") +
			line(3, "dan", 1600, " 0.0", "     1 b 0     2 b -  0000 - -") +
			line(4, "ann", 1500, " 1.5", "     2 w =  0000 - U") +
			line(5, "eve", 1400, " 1.0", "  0000 - U     1 w 0"),
			[]string{"bob", "cat", "dan", "ann", "eve"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, seeds, err := writeTRF(smallEvent(t, tc.rounds), "test")
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("TRF\n%s\nwant\n%s", got, tc.want)
			}
			if !slices.Equal(seeds, tc.seeds) {
				t.Errorf("seeds %v, want %v", seeds, tc.seeds)
			}
		})
	}
}

// TestTRFColumns: the fields sit in the columns TRF-16 gives them (from 1):
// pairing number 5–8, name 15–47, rating 49–52, points 81–84, rank 86–89,
// then ten columns a round from 90.
func TestTRFColumns(t *testing.T) {
	got, _, err := writeTRF(smallEvent(t, 1), "test")
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Split(string(got), "\n")[3]
	for _, f := range []struct {
		from, to int
		want     string
	}{{1, 3, "001"}, {5, 8, "   1"}, {15, 17, "bob"}, {49, 52, "1800"}, {81, 84, " 1.0"}, {86, 89, "   1"}, {90, 99, "     3 w 1"}} {
		if s := first[f.from-1 : f.to]; s != f.want {
			t.Errorf("columns %d–%d %q, want %q in\n%s", f.from, f.to, s, f.want, first)
		}
	}
}

func pad(n, width int) string { return fmt.Sprintf("%*d", width, n) }

func TestParseBBPPairing(t *testing.T) {
	seeds := []string{"bob", "cat", "dan", "ann", "eve"}
	tests := []struct {
		name, out string
		want      []tournament.Pairing
		err       string
	}{
		{"pairs and a bye", "3\n1 3\n4 2\n5 0\n",
			[]tournament.Pairing{{Red: "bob", Blue: "dan"}, {Red: "ann", Blue: "cat"}, {Red: "eve"}}, ""},
		{"Windows line ends", "1\r\n2 1\r\n", []tournament.Pairing{{Red: "cat", Blue: "bob"}}, ""},
		{"empty", "", nil, "empty"},
		{"count does not match", "2\n1 2\n", nil, "not the number"},
		{"unknown pairing number", "1\n1 6\n", nil, "not a pairing number"},
		{"White cannot be the bye", "1\n0 1\n", nil, "not a pairing number"},
		{"three numbers", "1\n1 2 3\n", nil, "not two pairing numbers"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseBBPPairing(strings.NewReader(tc.out), seeds)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestComparePairings(t *testing.T) {
	ab, ba, cd, dc := tournament.Pairing{Red: "a", Blue: "b"}, tournament.Pairing{Red: "b", Blue: "a"},
		tournament.Pairing{Red: "c", Blue: "d"}, tournament.Pairing{Red: "d", Blue: "c"}
	ac, bd, bye := tournament.Pairing{Red: "a", Blue: "c"}, tournament.Pairing{Red: "b", Blue: "d"}, tournament.Pairing{Red: "e"}
	tests := []struct {
		name         string
		ours, theirs []tournament.Pairing
		want         agreement
	}{
		{"same, in another order", []tournament.Pairing{ab, cd, bye}, []tournament.Pairing{bye, cd, ab}, identical},
		{"a pair's colours swapped", []tournament.Pairing{ab, cd}, []tournament.Pairing{ab, dc}, otherColours},
		{"all swapped", []tournament.Pairing{ab, cd}, []tournament.Pairing{ba, dc}, otherColours},
		{"other partners", []tournament.Pairing{ab, cd}, []tournament.Pairing{ac, bd}, otherPairs},
		{"another bye", []tournament.Pairing{ab, cd, bye}, []tournament.Pairing{ab, {Red: "c", Blue: "e"}, {Red: "d"}}, otherPairs},
		{"fewer games", []tournament.Pairing{ab, cd}, []tournament.Pairing{ab}, otherPairs},
	}
	for _, tc := range tests {
		if got := comparePairings(tc.ours, tc.theirs); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, agreementNames[got], agreementNames[tc.want])
		}
	}
}

func TestKindOfDifference(t *testing.T) {
	score := map[string]tournament.Points{"a": 4, "b": 4, "c": 2, "d": 2, "e": 0, "f": 0, "g": 0}
	p := func(red, blue string) tournament.Pairing { return tournament.Pairing{Red: red, Blue: blue} }
	tests := []struct {
		name         string
		ours, theirs []tournament.Pairing
		want         diffKind
	}{
		{"bye", []tournament.Pairing{p("a", "b"), p("c", "d"), p("e", "f"), p("g", "")},
			[]tournament.Pairing{p("a", "b"), p("c", "d"), p("e", "g"), p("f", "")}, otherBye},
		{"fewer across groups", []tournament.Pairing{p("a", "b"), p("c", "d"), p("e", "f"), p("g", "")},
			[]tournament.Pairing{p("a", "c"), p("b", "d"), p("e", "f"), p("g", "")}, fewerMixed},
		{"more across groups", []tournament.Pairing{p("a", "c"), p("b", "d"), p("e", "f"), p("g", "")},
			[]tournament.Pairing{p("a", "b"), p("c", "d"), p("e", "f"), p("g", "")}, moreMixed},
		{"other score differences", []tournament.Pairing{p("a", "e"), p("b", "f"), p("c", "d"), p("g", "")},
			[]tournament.Pairing{p("a", "c"), p("b", "d"), p("e", "f"), p("g", "")}, otherFloats},
		{"other partners", []tournament.Pairing{p("a", "c"), p("b", "d"), p("e", "f"), p("g", "")},
			[]tournament.Pairing{p("a", "d"), p("b", "c"), p("e", "f"), p("g", "")}, otherPartners},
	}
	for _, tc := range tests {
		if got := kindOfDifference(tc.ours, tc.theirs, score); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, diffKindNames[got], diffKindNames[tc.want])
		}
	}
}

func TestSwissReferenceCommandLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"-bbp is needed", nil, 2, "-bbp names"},
		{"too few players", []string{"-bbp", "x", "-players", "1"}, 2, "-players"},
		{"no rounds", []string{"-bbp", "x", "-rounds", "0"}, 2, "-rounds"},
		{"a chance above 1", []string{"-bbp", "x", "-draws", "1.5"}, 2, "chances"},
		{"an operand", []string{"-bbp", "x", "extra"}, 2, "unexpected argument"},
		{"a missing executable", []string{"-bbp", "/nonexistent/bbpPairings.exe", "-n", "1"}, 1, "event 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := runSwissRef(context.Background(), tc.args, &out, &errOut); code != tc.code || !strings.Contains(errOut.String(), tc.err) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut.String(), tc.code, tc.err)
			}
		})
	}
}
