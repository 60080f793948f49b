package tournament

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// pairsOf writes a round's pairs whatever their colours: "a-b" with a the
// lesser ID, sorted, the bye as "a:bye".
func pairsOf(games []Pairing) string {
	var out []string
	for _, g := range games {
		switch {
		case g.IsBye():
			out = append(out, g.Red+":bye")
		case g.Red < g.Blue:
			out = append(out, g.Red+"-"+g.Blue)
		default:
			out = append(out, g.Blue+"-"+g.Red)
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// pairingCase is a round's players and the pairing PairSwissRound must give
// them (pairsOf), in round (the zero SwissRound: not the final round, no
// look-ahead).
type pairingCase struct {
	name    string
	players []SwissPlayer
	round   SwissRound
	want    string
}

func checkPairings(t *testing.T, tests []pairingCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PairSwissRound(tc.players, tc.round)
			if err != nil {
				t.Fatal(err)
			}
			if pairsOf(got) != tc.want {
				t.Fatalf("paired %s, want %s", pairsOf(got), tc.want)
			}
		})
	}
}

// The Dutch system's criteria for who floats, one case each. Scores are in
// half points (a win is 2); seeds follow the names.
func TestSwissDutchFloaters(t *testing.T) {
	down, up := []Float{FloatedDown}, []Float{FloatedUp}
	tests := []pairingCase{{
		// Bracket 2: a alone floats. Bracket 1½: a meets b and c floats,
		// a downfloater on 1½ rather than on 2 (C.6), though that makes
		// two pairs across score groups where a–d, b–c would make one.
		name: "a leader on 2 meets a player on 1½, not one on ½, though two players then float",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 4}, {ID: "b", Seed: 2, Score: 3}, {ID: "c", Seed: 3, Score: 3}, {ID: "d", Seed: 4, Score: 1},
		},
		want: "a-b c-d",
	}, {
		// The bracket on 1 pairs one pair (C.5) and leaves over its
		// lowest-ranked player: S1 {a} meets S2 {b, c} in order.
		name: "an odd score group floats its lowest-ranked player",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 2}, {ID: "b", Seed: 2, Score: 2}, {ID: "c", Seed: 3, Score: 2}, {ID: "d", Seed: 4, Score: 0},
		},
		want: "a-b c-d",
	}, {
		// As above, but c floated down last round: b floats instead (C.12).
		name: "a player who floated down last round does not float down again when another can",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 2}, {ID: "b", Seed: 2, Score: 2}, {ID: "c", Seed: 3, Score: 2, Floats: down}, {ID: "d", Seed: 4, Score: 0},
		},
		want: "a-c b-d",
	}, {
		// Two rounds back counts too, after the last round (C.14).
		name: "nor one who floated down two rounds ago",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 2}, {ID: "b", Seed: 2, Score: 2}, {ID: "c", Seed: 3, Score: 2, Floats: []Float{FloatedDown, NotFloated}}, {ID: "d", Seed: 4, Score: 0},
		},
		want: "a-c b-d",
	}, {
		// a floats down from 2 and meets the top of the bracket on 1, b,
		// unless b floated up last round: then c (C.13).
		name: "a player who floated up last round does not float up again when another can",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 4}, {ID: "b", Seed: 2, Score: 2, Floats: up}, {ID: "c", Seed: 3, Score: 2}, {ID: "d", Seed: 4, Score: 0},
		},
		want: "a-c b-d",
	}, {
		// The bracket on 2 has three players, one of whom must float: c, the
		// lowest-ranked, but c has met everyone on 1 and would float on,
		// leaving a floater of the bracket on 1 too. So b floats, and meets
		// the top of the bracket on 1 (C.7).
		name: "the floater is chosen so that the next bracket pairs as many as it can",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 4}, {ID: "b", Seed: 2, Score: 4}, {ID: "c", Seed: 3, Score: 4, Opponents: []string{"d", "e", "f"}},
			{ID: "d", Seed: 4, Score: 2}, {ID: "e", Seed: 5, Score: 2}, {ID: "f", Seed: 6, Score: 2},
			{ID: "g", Seed: 7, Score: 0}, {ID: "h", Seed: 8, Score: 0},
		},
		want: "a-c b-d e-f g-h",
	}, {

		// player: the bracket on 0 leaves over c.
		name: "the bye goes to the lowest-ranked player of the lowest score group",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 2}, {ID: "b", Seed: 2, Score: 2}, {ID: "c", Seed: 3, Score: 0}, {ID: "d", Seed: 4, Score: 0}, {ID: "e", Seed: 5, Score: 0},
		},
		want: "a-b c-d e:bye",
	}, {
		// Who had the bye is not given it again while another can have it.
		name: "a player who had the bye does not have it again",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 2}, {ID: "b", Seed: 2, Score: 2}, {ID: "c", Seed: 3, Score: 0}, {ID: "d", Seed: 4, Score: 0}, {ID: "e", Seed: 5, Score: 0, HadBye: true},
		},
		want: "a-b c-e d:bye",
	}}
	checkPairings(t, tests)
}

// A Tournament counts each player's floats from the scores before each
// round: down for meeting a lower score or scoring without playing, up for
// meeting a higher one.
func TestSwissPlayersFloats(t *testing.T) {
	tour := seeded(t, DefaultRules(Swiss, 3), 5)
	play(t, tour, []roundScript{
		{want: "p1-p3 p4-p2 p5:bye", results: []Result{BlueForfeited, Drawn}},
	})
	// Before round 2: p1 (a forfeit win) and p5 (the bye) on 1, p2 and p4
	// on ½, p3 on 0.
	score := map[string]Points{"p1": 2, "p5": 2, "p2": 1, "p4": 1, "p3": 0}
	e, err := tour.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	if err := tour.Apply(e); err != nil {
		t.Fatal(err)
	}
	for b, g := range e.Games {
		if !g.IsBye() {
			if err := tour.Apply(Record(2, b+1, RedWon)); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[string][]Float{"p1": {FloatedDown}, "p3": {NotFloated}, "p2": {NotFloated}, "p4": {NotFloated}, "p5": {FloatedDown}}
	for _, g := range e.Games {
		switch {
		case g.IsBye():
			want[g.Red] = append(want[g.Red], FloatedDown)
		case score[g.Red] > score[g.Blue]:
			want[g.Red] = append(want[g.Red], FloatedDown)
			want[g.Blue] = append(want[g.Blue], FloatedUp)
		case score[g.Red] < score[g.Blue]:
			want[g.Red] = append(want[g.Red], FloatedUp)
			want[g.Blue] = append(want[g.Blue], FloatedDown)
		default:
			want[g.Red] = append(want[g.Red], NotFloated)
			want[g.Blue] = append(want[g.Blue], NotFloated)
		}
	}
	for _, p := range tour.SwissPlayers() {
		if !slices.Equal(p.Floats, want[p.ID]) {
			t.Errorf("%s floats %v, want %v (round 2: %s)", p.ID, p.Floats, want[p.ID], showRound(e.Games))
		}
	}
}

// The Dutch order within a bracket (C.04.3 D): S1 meets S2 in order; a
// transposition of S2 when the colour preferences need one; an exchange
// between S1 and S2 only when no transposition will do, the lowest of S1
// with the highest of S2 first. All on one score; seeds follow the names.
func TestSwissDutchOrder(t *testing.T) {
	r, b := []Colour{Red}, []Colour{Blue} // want Blue next; want Red next
	tests := []pairingCase{{
		name: "S1 meets S2 in order, 1 v 3 and 2 v 4",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 2}, {ID: "b", Seed: 2, Score: 2}, {ID: "c", Seed: 3, Score: 2}, {ID: "d", Seed: 4, Score: 2},
		},
		want: "a-c b-d",
	}, {
		// a–c and b–d would leave both pairs' preferences unmet.
		name: "S2 is transposed to meet the colour preferences",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 2, Colours: r}, {ID: "b", Seed: 2, Score: 2, Colours: b},
			{ID: "c", Seed: 3, Score: 2, Colours: r}, {ID: "d", Seed: 4, Score: 2, Colours: b},
		},
		want: "a-d b-c",
	}, {
		// Round 1 was a–f, d–b and e–c, all drawn (Red first). a wants
		// Blue and has met f, the only one of S2 who wants Red: no
		// transposition meets every preference. Exchanging c, the lowest of
		// S1, with d, the highest of S2, does: S1 {a, b, d} meets S2 {c, e,
		// f} in order. (bbpPairings pairs the same.)
		name: "an exchange when no transposition will do, the lowest of S1 with the highest of S2",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 1, Colours: r, Opponents: []string{"f"}}, {ID: "b", Seed: 2, Score: 1, Colours: b, Opponents: []string{"d"}},
			{ID: "c", Seed: 3, Score: 1, Colours: b, Opponents: []string{"e"}}, {ID: "d", Seed: 4, Score: 1, Colours: r, Opponents: []string{"b"}},
			{ID: "e", Seed: 5, Score: 1, Colours: r, Opponents: []string{"c"}}, {ID: "f", Seed: 6, Score: 1, Colours: b, Opponents: []string{"a"}},
		},
		want: "a-c b-e d-f",
	}, {
		// Two rounds, all drawn: a–g, b–h, e–c, f–d, then h–a, g–b, c–f,
		// d–e. a, b, e and f want Red, the others Blue. a and b have met
		// g and h, the only ones of S2 who want Blue, and c and d have met
		// e and f: no exchange of one player meets every preference. The
		// exchange of two with the smallest difference, c and d (3, 4) with
		// e and f (5, 6), does: S1 {a, b, e, f} meets S2 {c, d, g, h} in
		// order.
		name: "an exchange of two players when no exchange of one will do",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 2, Colours: []Colour{Red, Blue}, Opponents: []string{"g", "h"}},
			{ID: "b", Seed: 2, Score: 2, Colours: []Colour{Red, Blue}, Opponents: []string{"h", "g"}},
			{ID: "c", Seed: 3, Score: 2, Colours: []Colour{Blue, Red}, Opponents: []string{"e", "f"}},
			{ID: "d", Seed: 4, Score: 2, Colours: []Colour{Blue, Red}, Opponents: []string{"f", "e"}},
			{ID: "e", Seed: 5, Score: 2, Colours: []Colour{Red, Blue}, Opponents: []string{"c", "d"}},
			{ID: "f", Seed: 6, Score: 2, Colours: []Colour{Red, Blue}, Opponents: []string{"d", "c"}},
			{ID: "g", Seed: 7, Score: 2, Colours: []Colour{Blue, Red}, Opponents: []string{"a", "b"}},
			{ID: "h", Seed: 8, Score: 2, Colours: []Colour{Blue, Red}, Opponents: []string{"b", "a"}},
		},
		want: "a-c b-d e-g f-h",
	}}
	checkPairings(t, tests)
}

// The Dutch order of exchanges (D.2): fewest players exchanged, then the
// smallest difference of the sums of their places, then the highest place
// moved from S1 the higher, then the lowest moved from S2 the lower.
func TestSwissExchangeOrder(t *testing.T) {
	all := slices.Collect(exchanges(3, 3))
	var got []string
	for _, ex := range all[:8] {
		var s []string
		for i := range ex.s1 {
			s = append(s, fmt.Sprintf("%d↔%d", ex.s1[i]+1, ex.s2[i]+4))
		}
		got = append(got, strings.Join(s, ","))
	}
	// 3↔5 and 2↔4 both differ by 2: the one moving 3 from S1 first.
	want := []string{"", "3↔4", "3↔5", "2↔4", "3↔6", "2↔5", "1↔4", "2↔6"}
	if !slices.Equal(got, want) {
		t.Errorf("one player each side: got %q, want %q", got, want)
	}
	// Two each side: (2,3)↔(4,5) first (difference 4), then (1,3)↔(4,5)
	// and (2,3)↔(4,6) (difference 5), the higher of S1 first.
	var two []string
	for _, ex := range all[10:13] {
		two = append(two, fmt.Sprint(ex.s1, ex.s2))
	}
	if want := []string{"[1 2] [0 1]", "[1 2] [0 2]", "[0 2] [0 1]"}; !slices.Equal(two, want) {
		t.Errorf("two players each side: got %q, want %q", two, want)
	}
}

// The final round's topscorers (A.7): more than half the most anyone could
// have scored. Scores are in half points (a win is 2); seeds follow the
// names; every case is paired by bbpPairings the same.
func TestSwissDutchTopscorers(t *testing.T) {
	// Round 1 a–c, b–d, e–f, round 2 a–e, b–f, d–c (Red first): a and b
	// won both, e won the first, d–c was drawn. a and b, on 2 of 2, are
	// both owed Blue absolutely (two Reds in a row).
	top1 := []SwissPlayer{
		{ID: "a", Seed: 1, Score: 4, Colours: []Colour{Red, Red}, Opponents: []string{"c", "e"}},
		{ID: "b", Seed: 2, Score: 4, Colours: []Colour{Red, Red}, Opponents: []string{"d", "f"}, Floats: []Float{NotFloated, FloatedDown}},
		{ID: "c", Seed: 3, Score: 1, Colours: []Colour{Blue, Blue}, Opponents: []string{"a", "d"}},
		{ID: "d", Seed: 4, Score: 1, Colours: []Colour{Blue, Red}, Opponents: []string{"b", "c"}},
		{ID: "e", Seed: 5, Score: 2, Colours: []Colour{Red, Blue}, Opponents: []string{"f", "a"}},
		{ID: "f", Seed: 6, Score: 0, Colours: []Colour{Blue, Blue}, Opponents: []string{"e", "b"}, Floats: []Float{NotFloated, FloatedUp}},
	}
	// Three rounds, a–d each beating three of e–h: a and b (Blue, Red,
	// Red) are owed Blue absolutely, c and d (Red, Blue, Red) strongly.
	c9 := []SwissPlayer{
		{ID: "a", Seed: 1, Score: 6, Colours: []Colour{Blue, Red, Red}, Opponents: []string{"e", "f", "g"}, Floats: []Float{NotFloated, FloatedDown, FloatedDown}},
		{ID: "b", Seed: 2, Score: 6, Colours: []Colour{Blue, Red, Red}, Opponents: []string{"f", "e", "h"}, Floats: []Float{NotFloated, FloatedDown, FloatedDown}},
		{ID: "c", Seed: 3, Score: 6, Colours: []Colour{Red, Blue, Red}, Opponents: []string{"g", "h", "e"}, Floats: []Float{NotFloated, FloatedDown, FloatedDown}},
		{ID: "d", Seed: 4, Score: 6, Colours: []Colour{Red, Blue, Red}, Opponents: []string{"h", "g", "f"}, Floats: []Float{NotFloated, FloatedDown, FloatedDown}},
		{ID: "e", Seed: 5, Score: 0, Colours: []Colour{Red, Blue, Blue}, Opponents: []string{"a", "b", "c"}, Floats: []Float{NotFloated, FloatedUp, FloatedUp}},
		{ID: "f", Seed: 6, Score: 0, Colours: []Colour{Red, Blue, Blue}, Opponents: []string{"b", "a", "d"}, Floats: []Float{NotFloated, FloatedUp, FloatedUp}},
		{ID: "g", Seed: 7, Score: 0, Colours: []Colour{Blue, Red, Blue}, Opponents: []string{"c", "d", "a"}, Floats: []Float{NotFloated, FloatedUp, FloatedUp}},
		{ID: "h", Seed: 8, Score: 0, Colours: []Colour{Blue, Red, Blue}, Opponents: []string{"d", "c", "b"}, Floats: []Float{NotFloated, FloatedUp, FloatedUp}},
	}
	tests := []pairingCase{{
		// a–b would break the colour rules: before the final round each of
		// them floats down instead.
		name:    "before the final round, two players owed the same colour absolutely do not meet",
		players: top1,
		round:   SwissRound{Later: 1, MaxScore: 4},
		want:    "a-f b-c d-e",
	}, {
		// In the final round a and b, with more than half of 2 points,
		// are topscorers: they meet (C.3), and one of them has a third
		// Red in a row.
		name:    "in the final round, topscorers owed the same colour absolutely meet",
		players: top1,
		round:   SwissRound{Final: true, MaxScore: 4},
		want:    "a-b c-e d-f",
	}, {
		// a–b, c–d leaves two preferences unmet (b's and d's) and a–c,
		// b–d two (c's and d's, strong ones); but a–b gives one of them
		// Red three times in a row (C.9, before C.10 and C.11).
		name:    "topscorers avoid the same colour three times in a row before any colour preference",
		players: c9,
		round:   SwissRound{Final: true, MaxScore: 6},
		want:    "a-c b-d e-g f-h",
	}, {
		// Four rounds, a–d each beating all of e–h. a (Red, Blue, Red,
		// Red), b (Red, Red, Blue, Red) and c (Blue, Blue, Red, Red) are
		// owed Blue absolutely, d (Red, Blue, Red, Blue) Red mildly. a–b
		// gives one of them a colour difference of 3 (C.8); a–c and b–c
		// give c a third Red in a row (C.9), which comes after C.8.
		name: "topscorers avoid a colour difference beyond 2 before three in a row",
		players: []SwissPlayer{
			{ID: "a", Seed: 1, Score: 8, Colours: []Colour{Red, Blue, Red, Red}, Opponents: []string{"e", "f", "g", "h"}, Floats: []Float{NotFloated, FloatedDown, FloatedDown, FloatedDown}},
			{ID: "b", Seed: 2, Score: 8, Colours: []Colour{Red, Red, Blue, Red}, Opponents: []string{"f", "g", "h", "e"}, Floats: []Float{NotFloated, FloatedDown, FloatedDown, FloatedDown}},
			{ID: "c", Seed: 3, Score: 8, Colours: []Colour{Blue, Blue, Red, Red}, Opponents: []string{"g", "h", "e", "f"}, Floats: []Float{NotFloated, FloatedDown, FloatedDown, FloatedDown}},
			{ID: "d", Seed: 4, Score: 8, Colours: []Colour{Red, Blue, Red, Blue}, Opponents: []string{"h", "e", "f", "g"}, Floats: []Float{NotFloated, FloatedDown, FloatedDown, FloatedDown}},
			{ID: "e", Seed: 5, Score: 0, Colours: []Colour{Blue, Red, Blue, Blue}, Opponents: []string{"a", "d", "c", "b"}, Floats: []Float{NotFloated, FloatedUp, FloatedUp, FloatedUp}},
			{ID: "f", Seed: 6, Score: 0, Colours: []Colour{Blue, Red, Blue, Blue}, Opponents: []string{"b", "a", "d", "c"}, Floats: []Float{NotFloated, FloatedUp, FloatedUp, FloatedUp}},
			{ID: "g", Seed: 7, Score: 0, Colours: []Colour{Red, Blue, Blue, Red}, Opponents: []string{"c", "b", "a", "d"}, Floats: []Float{NotFloated, FloatedUp, FloatedUp, FloatedUp}},
			{ID: "h", Seed: 8, Score: 0, Colours: []Colour{Blue, Red, Red, Blue}, Opponents: []string{"d", "c", "b", "a"}, Floats: []Float{NotFloated, FloatedUp, FloatedUp, FloatedUp}},
		},
		round: SwissRound{Final: true, MaxScore: 8},
		want:  "a-c b-d e-g f-h",
	}}
	checkPairings(t, tests)
}

// Two topscorers owed the same colour absolutely: the wider colour
// difference has it (E.2), though the colours of their last games (E.3)
// would give it to the other. (bbpPairings gives the same colours.)
func TestSwissDutchTopscorersColours(t *testing.T) {
	got, err := PairSwissRound([]SwissPlayer{
		{ID: "b", Seed: 2, Score: 8, Colours: []Colour{Red, Red, Blue, Red}},  // difference 2
		{ID: "c", Seed: 3, Score: 8, Colours: []Colour{Blue, Blue, Red, Red}}, // difference 0
	}, SwissRound{Final: true, MaxScore: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Red != "c" || got[0].Blue != "b" {
		t.Fatalf("paired %v, want c (Red) – b (Blue)", got)
	}
}

// The float criteria that weigh scores (C.16–C.19), each case a round of
// a random event that bbpPairings pairs the same (IDs and seeds as there;
// scores in half points).
func TestSwissDutchFloatScores(t *testing.T) {
	tests := []pairingCase{{
		// p07 and p03 on 1½ have met and move down to p09, alone on 1:
		// one of them meets p09, the other floats on to ½. By the order
		// p07, the higher seed, would meet p09; but p03 floated down last
		// round (a forfeit win), and a repeated downfloater floats with
		// the lowest score possible (C.16): p03 meets p09, p07 floats on.
		name: "a player moved down again after floating down last round floats no further than another can",
		players: []SwissPlayer{
			{ID: "p05", Seed: 3, Score: 4, Colours: []Colour{Red, Blue}, Opponents: []string{"p02", "p09"}},
			{ID: "p08", Seed: 4, Score: 4, Colours: []Colour{Blue, Red}, Opponents: []string{"p01", "p04"}, Floats: []Float{NotFloated, FloatedDown}},
			{ID: "p07", Seed: 5, Score: 3, Colours: []Colour{Red, Blue}, Opponents: []string{"p03", "p10"}},
			{ID: "p03", Seed: 10, Score: 3, Colours: []Colour{Blue}, Opponents: []string{"p07", "p06"}, ForfeitWin: true, Floats: []Float{NotFloated, FloatedDown}},
			{ID: "p09", Seed: 2, Score: 2, Colours: []Colour{Blue, Red}, Opponents: []string{"p06", "p05"}},
			{ID: "p04", Seed: 1, Score: 1, Colours: []Colour{Red, Blue}, Opponents: []string{"p10", "p08"}, Floats: []Float{NotFloated, FloatedUp}},
			{ID: "p10", Seed: 6, Score: 1, Colours: []Colour{Blue, Red}, Opponents: []string{"p04", "p07"}},
			{ID: "p02", Seed: 8, Score: 1, Colours: []Colour{Blue, Red}, Opponents: []string{"p05", "p01"}},
			{ID: "p01", Seed: 9, Score: 1, Colours: []Colour{Red, Blue}, Opponents: []string{"p08", "p02"}},
		},
		want: "p01-p10 p02-p07 p03-p09 p04:bye p05-p08",
	}, {
		// p07 (on 1) and p10 (on ½) move down to the bracket on 0, p01
		// and p04, and each meets one of them. p01 floated up last round
		// and floats up again either way (C.13); the opponent of a
		// repeated upfloater has the lowest score possible (C.17): p01
		// meets p10, not p07 as the order would have it.
		name: "a player who floated up last round floats up again against as low a score as possible",
		players: []SwissPlayer{
			{ID: "p06", Seed: 2, Score: 3, Colours: []Colour{Blue, Red}, Opponents: []string{"p04", "p05"}},
			{ID: "p09", Seed: 6, Score: 3, Colours: []Colour{Blue, Red}, Opponents: []string{"p07", "p03"}},
			{ID: "p05", Seed: 8, Score: 3, Colours: []Colour{Blue, Blue}, Opponents: []string{"p01", "p06"}},
			{ID: "p03", Seed: 9, Score: 3, Colours: []Colour{Red, Blue}, Opponents: []string{"p02", "p09"}},
			{ID: "p08", Seed: 10, Score: 3, Colours: []Colour{Blue, Red}, Opponents: []string{"p10", "p01"}, Floats: []Float{NotFloated, FloatedDown}},
			{ID: "p07", Seed: 1, Score: 2, Colours: []Colour{Red, Red}, Opponents: []string{"p09", "p10"}, Floats: []Float{NotFloated, FloatedUp}},
			{ID: "p02", Seed: 4, Score: 2, Colours: []Colour{Blue, Red}, Opponents: []string{"p03", "p04"}},
			{ID: "p10", Seed: 5, Score: 1, Colours: []Colour{Red, Blue}, Opponents: []string{"p08", "p07"}, Floats: []Float{NotFloated, FloatedDown}},
			{ID: "p01", Seed: 3, Score: 0, Colours: []Colour{Red, Blue}, Opponents: []string{"p05", "p08"}, Floats: []Float{NotFloated, FloatedUp}},
			{ID: "p04", Seed: 7, Score: 0, Colours: []Colour{Red, Blue}, Opponents: []string{"p06", "p02"}},
		},
		want: "p01-p10 p02-p09 p03-p06 p04-p07 p05-p08",
	}, {
		// p07 and p02 on 2 have met and move down to p06 and p10 on 1½;
		// p07 has met p10, so one of p07 and p02 meets p06 and the other
		// floats on to 1. p02 floated down two rounds ago (C.18): p02
		// meets p06, and p07 floats on.
		name: "a player moved down again after floating down two rounds ago floats no further than another can",
		players: []SwissPlayer{
			{ID: "p01", Seed: 5, Score: 6, Colours: []Colour{Red, Blue, Red}, Opponents: []string{"p09", "p08", "p02"}},
			{ID: "p03", Seed: 8, Score: 5, Colours: []Colour{Blue, Red, Blue}, Opponents: []string{"p10", "p06", "p08"}, Floats: []Float{NotFloated, NotFloated, FloatedDown}},
			{ID: "p07", Seed: 2, Score: 4, Colours: []Colour{Blue, Red, Blue}, Opponents: []string{"p02", "p10", "p09"}, Floats: []Float{NotFloated, FloatedUp, NotFloated}},
			{ID: "p02", Seed: 7, Score: 4, Colours: []Colour{Red, Blue, Blue}, Opponents: []string{"p07", "p04", "p01"}, Floats: []Float{NotFloated, FloatedDown, NotFloated}},
			{ID: "p06", Seed: 1, Score: 3, Colours: []Colour{Red, Blue, Red}, Opponents: []string{"p04", "p03", "p05"}, Floats: []Float{NotFloated, NotFloated, FloatedDown}},
			{ID: "p10", Seed: 3, Score: 3, Colours: []Colour{Red, Blue, Red}, Opponents: []string{"p03", "p07", "p04"}, Floats: []Float{NotFloated, FloatedDown, NotFloated}},
			{ID: "p08", Seed: 4, Score: 2, Colours: []Colour{Blue, Red, Red}, Opponents: []string{"p05", "p01", "p03"}, Floats: []Float{NotFloated, NotFloated, FloatedUp}},
			{ID: "p09", Seed: 10, Score: 2, Colours: []Colour{Blue, Red, Red}, Opponents: []string{"p01", "p05", "p07"}},
			{ID: "p04", Seed: 6, Score: 1, Colours: []Colour{Blue, Red, Blue}, Opponents: []string{"p06", "p02", "p10"}, Floats: []Float{NotFloated, FloatedUp, NotFloated}},
			{ID: "p05", Seed: 9, Score: 0, Colours: []Colour{Red, Blue, Blue}, Opponents: []string{"p08", "p09", "p06"}, Floats: []Float{NotFloated, NotFloated, FloatedUp}},
		},
		want: "p01-p03 p02-p06 p04-p05 p07-p08 p09-p10",
	}, {
		// p09 (on 1½) and p02 (on 1) move down to the bracket on ½, p01
		// and p10, and each meets one of them. p01 floated up two rounds
		// ago and floats up again either way (C.15); its opponent has the
		// lower score (C.19): p01 meets p02, and p10 meets p09.
		name: "a player who floated up two rounds ago floats up again against as low a score as possible",
		players: []SwissPlayer{
			{ID: "p05", Seed: 8, Score: 6, Colours: []Colour{Blue, Red, Red}, Opponents: []string{"p01", "p03", "p04"}},
			{ID: "p04", Seed: 2, Score: 4, Colours: []Colour{Blue, Red, Blue}, Opponents: []string{"p10", "p06", "p05"}},
			{ID: "p07", Seed: 4, Score: 4, Colours: []Colour{Blue, Red, Blue}, Opponents: []string{"p02", "p01", "p06"}, Floats: []Float{NotFloated, FloatedDown, FloatedDown}},
			{ID: "p08", Seed: 6, Score: 4, Colours: []Colour{Blue, Red, Blue}, Opponents: []string{"p03", "p10", "p02"}},
			{ID: "p09", Seed: 5, Score: 3, Colours: []Colour{Red, Red, Blue}, Opponents: []string{"p06", "p02", "p03"}, Floats: []Float{NotFloated, FloatedUp, FloatedUp}},
			{ID: "p06", Seed: 10, Score: 3, Colours: []Colour{Blue, Blue, Red}, Opponents: []string{"p09", "p04", "p07"}, Floats: []Float{NotFloated, NotFloated, FloatedUp}},
			{ID: "p03", Seed: 1, Score: 2, Colours: []Colour{Red, Blue, Red}, Opponents: []string{"p08", "p05", "p09"}, Floats: []Float{NotFloated, NotFloated, FloatedDown}},
			{ID: "p02", Seed: 9, Score: 2, Colours: []Colour{Red, Blue, Red}, Opponents: []string{"p07", "p09", "p08"}, Floats: []Float{NotFloated, FloatedDown, NotFloated}},
			{ID: "p01", Seed: 3, Score: 1, Colours: []Colour{Red, Blue, Red}, Opponents: []string{"p05", "p07", "p10"}, Floats: []Float{NotFloated, FloatedUp, NotFloated}},
			{ID: "p10", Seed: 7, Score: 1, Colours: []Colour{Red, Blue, Blue}, Opponents: []string{"p04", "p08", "p01"}},
		},
		want: "p01-p02 p03-p06 p04-p08 p05-p07 p09-p10",
	}}
	checkPairings(t, tests)
}
