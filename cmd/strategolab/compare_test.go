package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// ending is how a test game ends, for player A.
type ending int

const (
	aWins ending = iota
	aLoses
	drawn
)

// writeTestRecord writes DIR/game-NNNN.xml as the arena would: a Classic
// game whose set-ups follow from setupSeed, A on aSide, ended at once by a
// resignation or an agreed draw.
func writeTestRecord(t *testing.T, dir string, number int, aSide game.Side, setupSeed uint64, end ending) {
	t.Helper()
	rules := game.DefaultRules(game.VariantClassic)
	rng := rand.New(rand.NewPCG(setupSeed, 1))
	g, err := game.NewGame(rules, gametest.Setup(rules, rng), gametest.Setup(rules, rng))
	if err != nil {
		t.Fatal(err)
	}
	switch end {
	case aWins:
		err = g.Resign(aSide.Opponent())
	case aLoses:
		err = g.Resign(aSide)
	case drawn:
		if err = g.OfferDraw(aSide); err == nil {
			err = g.AcceptDraw(aSide.Opponent())
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	saveTestRecord(t, dir, number, aSide, g)
}

func saveTestRecord(t *testing.T, dir string, number int, aSide game.Side, g *game.Game) {
	t.Helper()
	var names [2]string
	names[aSide], names[aSide.Opponent()] = "A (hard)", "B (normal)"
	var buf bytes.Buffer
	if err := game.NewRecord(g, names[game.Red], names[game.Blue]).WriteGravon(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("game-%04d.xml", number)), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testGame is one game of a test run: its number, A's side, the set-ups'
// seed and the ending.
type testGame struct {
	number    int
	aSide     game.Side
	setupSeed uint64
	end       ending
}

func writeTestRun(t *testing.T, games []testGame) string {
	t.Helper()
	dir := t.TempDir()
	for _, g := range games {
		writeTestRecord(t, dir, g.number, g.aSide, g.setupSeed, g.end)
	}
	return dir
}

func runCompareTest(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := runCompare(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// TestCompare: one run's score, and two runs paired by game number: the
// points of the games both hold, better and worse, the mean difference and
// its interval, and a warning when the paired games had other set-ups.
func TestCompare(t *testing.T) {
	before := []testGame{
		{1, game.Blue, 1, aLoses}, {2, game.Red, 2, aWins}, {3, game.Blue, 3, aLoses}, {4, game.Red, 4, drawn},
	}
	after := []testGame{ // game 1 won, game 3 drawn, game 4 lost; no game 2; game 5 only here
		{1, game.Blue, 1, aWins}, {3, game.Blue, 3, drawn}, {4, game.Red, 4, aLoses}, {5, game.Blue, 5, aWins},
	}
	otherSeed := []testGame{{1, game.Blue, 9, aLoses}, {3, game.Blue, 3, aLoses}}
	b, a, o := writeTestRun(t, before), writeTestRun(t, after), writeTestRun(t, otherSeed)
	tests := []struct {
		name  string
		args  []string
		want  []string
		avoid []string
	}{
		{
			name:  "one run",
			args:  []string{b},
			want:  []string{b + ": A (hard) against B (normal): 1–1–2 (wins, draws, losses) of 4, a score of 37.5% (95% CI 9.2–78.1%)"},
			avoid: []string{"paired"},
		},
		{
			name: "two runs, paired",
			args: []string{b, a},
			want: []string{
				a + ": A (hard) against B (normal): 2–1–1 (wins, draws, losses) of 4, a score of 62.5% (95% CI 21.9–90.8%)",
				// Games 1, 3 and 4: before 0, 0, ½; after 1, ½, 0.
				"paired by game number, 3 games in both: A scored 0.5 in " + b + " and 1.5 in " + a + "; better in 2, worse in 1, the same in 0",
				// Differences +1, +½, −½: mean ⅓, sd 0.764, t(2) 4.303.
				"  mean difference +0.333 points a game, 95% CI -1.564 to +2.231",
			},
			avoid: []string{"warning", "numbers, mean difference"},
		},
		{
			name: "two pairs of runs, pooled",
			args: []string{b, a, b, a},
			want: []string{
				"paired by game number, 3 games in both: A scored 0.5 in " + b + " and 1.5 in " + a + "; better in 2, worse in 1, the same in 0",
				// Both pairs' differences: +1, +½, −½, +1, +½, −½: mean ⅓, sd 0.683, t(5) 2.571.
				"paired by game number, 6 games in both: A scored 1 in the 2 BEFORE runs and 3 in the 2 AFTER runs; better in 4, worse in 2, the same in 0",
				"  mean difference +0.333 points a game, 95% CI -0.384 to +1.050",
				// Each number's mean: +1, +½, −½ again, over three numbers.
				"  by game number, as the runs' games of one number share their set-ups and often their first moves: 3 numbers, mean difference +0.333 points a game, 95% CI -1.564 to +2.231",
			},
			avoid: []string{"warning"},
		},
		{
			name: "paired games with another set-up",
			args: []string{b, o},
			want: []string{"  warning: in 1 of these games A had another side or set-up: were both runs made with the same -seed?"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCompareTest(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit code %d, stderr %q", code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w+"\n") {
					t.Errorf("missing line %q in\n%s", w, out)
				}
			}
			for _, w := range tc.avoid {
				if strings.Contains(out, w) {
					t.Errorf("unexpected %q in\n%s", w, out)
				}
			}
		})
	}
}

// TestCompareRefuses: wrong arguments and folders get a reason and a
// nonzero exit code.
func TestCompareRefuses(t *testing.T) {
	empty := t.TempDir()
	otherNames := t.TempDir()
	if err := os.WriteFile(filepath.Join(otherNames, "game-last.xml"), []byte("<GameRecord/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := t.TempDir()
	rules := game.DefaultRules(game.VariantClassic)
	rng := rand.New(rand.NewPCG(1, 1))
	g, err := game.NewGame(rules, gametest.Setup(rules, rng), gametest.Setup(rules, rng))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Resign(game.Red); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := game.NewRecord(g, "Alice", "Bob").WriteGravon(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, "game-0001.xml"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no folder", nil, 2, "compare takes one folder of arena records, or two"},
		{"three folders", []string{empty, empty, empty}, 2, "compare takes one folder of arena records, or two"},
		{"five folders", []string{empty, empty, empty, empty, empty}, 2, "(or pairs of them: before, after, before, after…)"},
		{"no records", []string{empty}, 1, "holds no arena records (game-0001.xml, …): run strategolab arena with -records"},
		{"no name the arena writes", []string{otherNames}, 1, "holds no arena records (game-0001.xml, …)"},
		{"missing folder", []string{filepath.Join(empty, "nothing")}, 2, "strategolab compare: there is no folder " + filepath.Join(empty, "nothing") + ": name one that strategolab arena -records wrote\nusage: strategolab compare"},
		{"a file, not a folder", []string{filepath.Join(foreign, "game-0001.xml")}, 2, "is not a folder: name one that strategolab arena -records wrote"},
		{"a missing folder after a good one", []string{empty, filepath.Join(empty, "nothing")}, 2, "strategolab compare -h describes every flag"},
		{"not an arena's record", []string{foreign}, 1, `no player is named "A (…)": not a record of strategolab arena`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCompareTest(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d with %q (stdout %q)", code, errOut, tc.code, tc.want, out)
			}
		})
	}
}

// scriptedRun plays the moves, has Red (player A) resign unless the game is
// over, saves the game as game 1 of a run and returns the run's folder and
// its battle tally.
func scriptedRun(t *testing.T, rules game.Rules, red, blue map[string]game.Rank, moves []string) (string, battleTally) {
	t.Helper()
	g := gametest.Scripted(t, rules, red, blue, moves...)
	if !g.Result().Over() {
		if err := g.Resign(game.Red); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	saveTestRecord(t, dir, 1, game.Red, g)
	recs, err := readArenaRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	tally, err := tallyBattles(recs)
	if err != nil {
		t.Fatal(err)
	}
	return dir, tally
}

// TestCompareBattles: battles are told apart by what the attacker knew,
// with the material they won; a piece its player left beside a known piece
// that beats it, free to step away, is counted when taken (as taken blind
// when the taker did not know it, as forked when another of its pieces stood
// beside a known piece that beats it too), and not when it walked in just before or
// when the taker was hidden; a General is counted
// by how it was first shown: attacking a piece below a Colonel, attacked,
// or (neither) attacking one above; an attack on a hidden moved piece is
// weighed against the share of such pieces its attacker beats, and counted
// (and, when lost, counted lost) if a Colonel or stronger made it; a Marshal
// taken by the Spy is counted, as bait when it had just taken a piece there;
// a Miner taking the Flag is counted for the game's loser.
func TestCompareBattles(t *testing.T) {
	type position struct {
		army      string
		red, blue map[string]game.Rank
	}
	open := position{"9 4 2 3 F",
		map[string]game.Rank{"E4": game.Sergeant, "F4": game.Scout, "J1": game.Miner, "A1": game.Flag, "B1": game.General},
		map[string]game.Rank{"E7": game.General, "J10": game.Miner, "A10": game.Flag, "B10": game.Sergeant, "C10": game.Scout}}
	// Red's Sergeant on J4 can be shut in by its own Miners on J3 and I4.
	corner := position{"9 4 3 3 2 F",
		map[string]game.Rank{"J3": game.Sergeant, "J2": game.Miner, "I4": game.Miner, "J4": game.Scout, "A1": game.Flag, "B1": game.General},
		map[string]game.Rank{"J7": game.General, "A10": game.Flag, "B10": game.Sergeant, "C10": game.Scout, "I10": game.Miner, "J10": game.Miner}}
	// Red's General starts on B4, where it can go and show itself.
	shown := position{"9 4 2 3 F",
		map[string]game.Rank{"B4": game.General, "E4": game.Sergeant, "F4": game.Scout, "J1": game.Miner, "A1": game.Flag},
		map[string]game.Rank{"E7": game.General, "B7": game.Sergeant, "J10": game.Miner, "A10": game.Flag, "C10": game.Scout}}
	// The Generals face each other on E4 and E7.
	generals := position{"9 4 F",
		map[string]game.Rank{"E4": game.General, "J1": game.Sergeant, "A1": game.Flag},
		map[string]game.Rank{"E7": game.General, "J10": game.Sergeant, "A10": game.Flag}}
	// Red's Colonel on E4 faces Blue's General on E7.
	colonel := position{"9 8 4 F",
		map[string]game.Rank{"E4": game.Colonel, "B1": game.General, "J1": game.Sergeant, "A1": game.Flag},
		map[string]game.Rank{"E7": game.General, "B10": game.Colonel, "J10": game.Sergeant, "A10": game.Flag}}
	// Red's Marshal on E4; Blue's General on F7 beside its Spy on E7, its
	// Marshal out of the way on B10.
	bait := position{"10 9 S 4 F",
		map[string]game.Rank{"E4": game.Marshal, "B1": game.General, "C1": game.Spy, "J1": game.Sergeant, "A1": game.Flag},
		map[string]game.Rank{"F7": game.General, "E7": game.Spy, "B10": game.Marshal, "J10": game.Sergeant, "A10": game.Flag}}
	// Red's Marshal on E4, Sergeant on F4; Blue's Sergeant on E7, General
	// on F7, Marshal at home on J10.
	known := position{"10 9 4 F",
		map[string]game.Rank{"E4": game.Marshal, "F4": game.Sergeant, "B1": game.General, "A1": game.Flag},
		map[string]game.Rank{"E7": game.Sergeant, "F7": game.General, "J10": game.Marshal, "A10": game.Flag}}
	// Red's Miner on E4 and General on F4; each side keeps a Bomb.
	miners := position{"9 3 B F",
		map[string]game.Rank{"E4": game.Miner, "F4": game.General, "B1": game.Bomb, "A1": game.Flag},
		map[string]game.Rank{"E7": game.General, "J10": game.Miner, "B10": game.Bomb, "A10": game.Flag}}
	// Red's Flag on A1 is walled in by its Bombs on A2 and B1; Blue's Miner
	// starts on A7, straight above them.
	walled := position{"9 3 B B F",
		map[string]game.Rank{"A1": game.Flag, "A2": game.Bomb, "B1": game.Bomb, "J4": game.General, "J1": game.Miner},
		map[string]game.Rank{"A7": game.Miner, "E10": game.General, "J10": game.Flag, "I10": game.Bomb, "J9": game.Bomb}}
	// The same, with a Red Scout on A4 in the Miner's way and a Blue Scout
	// at home on C10.
	walledScout := position{"9 3 2 B B F",
		map[string]game.Rank{"A1": game.Flag, "A2": game.Bomb, "B1": game.Bomb, "J4": game.General, "J1": game.Miner, "A4": game.Scout},
		map[string]game.Rank{"A7": game.Miner, "E10": game.General, "J10": game.Flag, "I10": game.Bomb, "J9": game.Bomb, "C10": game.Scout}}
	// Blue's General shows itself taking Red's Scout on F6; Red's Sergeant
	// comes beside it on E6 (moves 1–8).
	revealed := []string{"F4-F5", "E7-E6", "F5-F6", "E6xF6", "E4-E5", "J10-J9", "E5-E6", "J9-J8"}
	tests := []struct {
		name                string
		pos                 position
		moves               []string
		attacksA, attacksB  [battleKinds]int
		netA, netB          [battleKinds]int
		leftLost, leftWorth int
		// leftBlind: of A's pieces left and lost, those the taker did not
		// know; leftForked: those lost while another stood beside a known
		// piece that beats it.
		leftBlind, leftForked int
		// raided: A's pieces taken by a B piece that took three or more.
		raided int
		// fearlessB: B's attacks on hidden moved pieces made while every
		// piece of A's that the attacker does not beat was known (A makes
		// none such in these games).
		fearlessB, fearlessNetB int
		// fearlessTurns, fearlessTaken: each player's turns with such an
		// attack to make, and those on which it made one.
		fearlessTurns, fearlessTaken [2]int
		// still: each player's other attacks on hidden moved pieces made
		// while every hidden enemy piece that the attacker does not beat had
		// never moved, and their net.
		still, stillNet [2]int
		// shownCheap and shownAttacked: the games in which each player's
		// General was first shown attacking a piece below a Colonel, or
		// attacked; marshalAttacked: its Marshal first shown attacked (no
		// Marshal is first shown attacking below a Colonel in these games).
		shownCheap, shownAttacked, marshalAttacked [2]int
		// won: each player's attacks on hidden moved pieces that it won;
		// atRandom: over those attacks, the share of the enemy's hidden
		// moved pieces that the attacker beats.
		// minersTaken, minersLost: each player's Miners taken by an
		// attacker, and lost attacking; lostMinerless: A (Red, who
		// resigns at the end) lost without a Miner while B kept a Bomb.
		minersTaken, minersLost [2]int
		lostMinerless           int
		// minersRaided: A's moved Miners taken at home by a piece A knew.
		minersRaided int
		// flagByMiner: A lost to a Miner taking its Flag; flagByShownMiner:
		// one shown four or more squares from it.
		flagByMiner, flagByShownMiner int
		// flagHidAmong: A lost by its Flag taken, with this many of its
		// pieces, the Flag among them, never seen move or fight (0: A's
		// Flag was not taken).
		flagHidAmong int
		// flagMovable: then, the pieces that could move left to A and to B.
		flagMovable [2]int
		won         [2]int
		atRandom    [2]float64
		// strong: each player's attacks on hidden moved pieces by a Colonel
		// or stronger; strongLost: those it lost.
		strong, strongLost [2]int
		// spyTook: each player's Marshals taken by the Spy; spyBait: those
		// taken just after they took a piece there.
		spyTook, spyBait [2]int
		// topTakes: the pieces each player's Marshal or General took, by
		// what the enemy's Marshal was then (hidden, known in its own half
		// or in the other, gone).
		topTakes [2][marshalStates]int
	}{
		{
			name:     "left beside the known General, could step back",
			pos:      open,
			moves:    append(append([]string(nil), revealed...), "J1-J2", "F6xE6"),
			leftLost: 1, leftWorth: 22, leftBlind: 1,
			attacksB: [battleKinds]int{onHiddenMoved: 2}, netB: [battleKinds]int{onHiddenMoved: 15 + 22},
			shownCheap: [2]int{0, 1},
			won:        [2]int{0, 2}, atRandom: [2]float64{0, 2},
			strong:   [2]int{0, 2},
			topTakes: [2][marshalStates]int{1: {marshalGone: 2}},
			// Red's General never moved: Blue's risked nothing.
			still: [2]int{0, 2}, stillNet: [2]int{0, 15 + 22},
		},
		{
			name: "left beside the known General, known to it",
			pos:  open,
			// Blue's Scout shows Red's Sergeant, attacking it on E5; the
			// General comes beside it and takes it.
			moves: append(append([]string(nil), revealed[:4]...), "J1-J2", "C10-C8", "J2-J3", "C8-E8",
				"E4-E5", "E8-E6", "J3-J4", "E6xE5", "J4-J5", "F6-F5", "J5-J6", "F5xE5"),
			leftLost: 1, leftWorth: 22,
			attacksB: [battleKinds]int{onHiddenMoved: 2, onKnown: 1}, netB: [battleKinds]int{onHiddenMoved: 0, onKnown: 22}, // the Scout lost what the General won
			shownCheap: [2]int{0, 1},
			// The Scout beats neither the Sergeant nor the Miner that had moved.
			won: [2]int{0, 1}, atRandom: [2]float64{0, 1},
			strong:   [2]int{0, 1},
			topTakes: [2][marshalStates]int{1: {marshalGone: 2}},
			still:    [2]int{0, 1}, stillNet: [2]int{0, 15}, // the General's, not the Scout's
		},
		{
			name: "forked by the known General, one piece saved",
			pos: position{"9 5 4 3 2 F",
				map[string]game.Rank{"F4": game.Scout, "E4": game.Sergeant, "F3": game.Lieutenant, "J1": game.Miner, "A1": game.Flag, "B1": game.General},
				map[string]game.Rank{"F7": game.General, "J10": game.Miner, "A10": game.Flag, "B10": game.Sergeant, "C10": game.Scout, "D10": game.Lieutenant}},
			// The Scout shows the General; the General steps beside the
			// Sergeant and the Lieutenant, and takes the one not saved.
			moves:    []string{"F4-F5", "F7-F6", "F5xF6", "J10-J9", "E4-E5", "J9-J8", "F3-F4", "F6-F5", "F4-F3", "F5xE5"},
			attacksA: [battleKinds]int{onHiddenMoved: 1}, netA: [battleKinds]int{onHiddenMoved: -15},
			attacksB: [battleKinds]int{onHiddenMoved: 1}, netB: [battleKinds]int{onHiddenMoved: 22},
			leftLost: 1, leftWorth: 22, leftBlind: 1, leftForked: 1,
			shownAttacked: [2]int{0, 1},
			won:           [2]int{0, 1}, atRandom: [2]float64{0, 1},
			strong:   [2]int{0, 1},
			topTakes: [2][marshalStates]int{1: {marshalGone: 1}},
			// Red's General never moved: Blue's risked nothing.
			still: [2]int{0, 1}, stillNet: [2]int{0, 22},
		},
		{
			name:     "walked in just before",
			pos:      open,
			moves:    append(append([]string(nil), revealed...)[:7], "F6xE6"),
			attacksB: [battleKinds]int{onHiddenMoved: 2}, netB: [battleKinds]int{onHiddenMoved: 15 + 22},
			shownCheap: [2]int{0, 1},
			won:        [2]int{0, 2}, atRandom: [2]float64{0, 2},
			strong:   [2]int{0, 2},
			topTakes: [2][marshalStates]int{1: {marshalGone: 2}},
			still:    [2]int{0, 2}, stillNet: [2]int{0, 15 + 22},
		},
		{
			name:     "the taker was hidden",
			pos:      open,
			moves:    []string{"E4-E5", "E7-E6", "J1-J2", "E6xE5"},
			attacksB: [battleKinds]int{onHiddenMoved: 1}, netB: [battleKinds]int{onHiddenMoved: 22},
			shownCheap: [2]int{0, 1},
			// Red's Sergeant and Miner had moved: the General beats both.
			won: [2]int{0, 1}, atRandom: [2]float64{0, 1},
			strong:   [2]int{0, 1},
			topTakes: [2][marshalStates]int{1: {marshalGone: 1}},
			still:    [2]int{0, 1}, stillNet: [2]int{0, 22},
		},
		{
			name:     "shut in, nowhere to step",
			pos:      corner,
			moves:    []string{"J4-J5", "J7-J6", "J3-J4", "J6xJ5", "J2-J3", "I10-I9", "B1-B2", "J5xJ4"},
			attacksB: [battleKinds]int{onHiddenMoved: 2}, netB: [battleKinds]int{onHiddenMoved: 15 + 22},
			shownCheap: [2]int{0, 1},
			// The second time Red's General had moved too: at random, Blue's
			// General would have beaten two of three.
			won: [2]int{0, 2}, atRandom: [2]float64{0, 1 + 2.0/3},
			strong:   [2]int{0, 2},
			topTakes: [2][marshalStates]int{1: {marshalGone: 2}},
			still:    [2]int{0, 1}, stillNet: [2]int{0, 15}, // the first: Red's General had not moved yet
		},
		{
			name:     "Red's General shows itself, then Blue's General takes a hidden Sergeant fearlessly",
			pos:      shown,
			moves:    []string{"B4-B5", "J10-J9", "B5-B6", "J9-J8", "B6xB7", "E7-E6", "E4-E5", "E6xE5"},
			attacksA: [battleKinds]int{onHiddenUnmoved: 1}, netA: [battleKinds]int{onHiddenUnmoved: 22},
			attacksB: [battleKinds]int{onHiddenMoved: 1}, netB: [battleKinds]int{onHiddenMoved: 22},
			fearlessB: 1, fearlessNetB: 22,
			// Blue's turn after E4-E5: Red's Sergeant, moved and hidden,
			// beside Blue's General, with Red's General shown.
			fearlessTurns: [2]int{0, 1}, fearlessTaken: [2]int{0, 1},
			shownCheap: [2]int{1, 1},
			won:        [2]int{0, 1}, atRandom: [2]float64{0, 1},
			strong:   [2]int{0, 1},
			topTakes: [2][marshalStates]int{{marshalGone: 1}, {marshalGone: 1}},
		},
		{
			name:     "Red's Sergeant attacks the known General",
			pos:      open,
			moves:    []string{"F4-F5", "E7-E6", "F5-F6", "E6xF6", "E4-E5", "F6-F5", "E5xF5"},
			attacksA: [battleKinds]int{onKnown: 1}, netA: [battleKinds]int{onKnown: -22},
			attacksB: [battleKinds]int{onHiddenMoved: 1}, netB: [battleKinds]int{onHiddenMoved: 15},
			shownCheap: [2]int{0, 1},
			won:        [2]int{0, 1}, atRandom: [2]float64{0, 1},
			strong:   [2]int{0, 1},
			topTakes: [2][marshalStates]int{1: {marshalGone: 1}},
			still:    [2]int{0, 1}, stillNet: [2]int{0, 15},
		},
		{
			name:     "Red's Sergeant finds Blue's hidden General",
			pos:      open,
			moves:    []string{"E4-E5", "E7-E6", "E5xE6"},
			attacksA: [battleKinds]int{onHiddenMoved: 1}, netA: [battleKinds]int{onHiddenMoved: -22},
			shownAttacked: [2]int{0, 1},
		},
		{
			name:          "the Generals meet: Red's shown attacking one above a Colonel, Blue's attacked",
			pos:           generals,
			moves:         []string{"E4-E5", "E7-E6", "E5xE6"},
			attacksA:      [battleKinds]int{onHiddenMoved: 1},
			shownAttacked: [2]int{0, 1},
			strong:        [2]int{1, 0},
		},
		{
			name:     "Red's Colonel attacks a hidden General that moved, and loses",
			pos:      colonel,
			moves:    []string{"E4-E5", "E7-E6", "E5xE6"},
			attacksA: [battleKinds]int{onHiddenMoved: 1}, netA: [battleKinds]int{onHiddenMoved: -140},
			shownAttacked: [2]int{0, 1},
			strong:        [2]int{1, 0}, strongLost: [2]int{1, 0},
		},
		{
			name: "Red's Marshal takes Blue's General beside Blue's Spy, which takes it",
			pos:  bait,
			// Blue's General walks next to Red's Marshal; the Marshal takes
			// it (the General had moved) and stands beside the Spy.
			moves:    []string{"E4-E5", "F7-F6", "J1-J2", "F6-E6", "E5xE6", "E7xE6"},
			attacksA: [battleKinds]int{onHiddenMoved: 1}, netA: [battleKinds]int{onHiddenMoved: 250},
			attacksB: [battleKinds]int{onKnown: 1}, netB: [battleKinds]int{onKnown: 400},
			shownAttacked: [2]int{0, 1},
			won:           [2]int{1, 0}, atRandom: [2]float64{1, 0},
			strong:  [2]int{1, 0},
			spyTook: [2]int{1, 0}, spyBait: [2]int{1, 0},
			topTakes: [2][marshalStates]int{{marshalHidden: 1}},
			// Blue's Marshal, the one piece that does not lose to Red's, never moved.
			still: [2]int{1, 0}, stillNet: [2]int{250, 0},
		},
		{
			name: "Red's Marshal steps beside Blue's Spy, which takes it",
			pos:  bait,
			// The Marshal took nothing there: no bait. The Spy beats the
			// only hidden piece of Red's that moved, and shows the Marshal.
			moves:    []string{"E4-E5", "F7-F6", "E5-E6", "E7xE6"},
			attacksB: [battleKinds]int{onHiddenMoved: 1}, netB: [battleKinds]int{onHiddenMoved: 400},
			marshalAttacked: [2]int{1, 0},
			spyTook:         [2]int{1, 0},
			won:             [2]int{0, 1}, atRandom: [2]float64{0, 1},
			// Every piece of Red's but the Marshal beats the Spy, and none of them moved.
			still: [2]int{0, 1}, stillNet: [2]int{0, 400},
		},
		{
			name:     "Red's General shows itself, then Blue's General leaves a hidden Sergeant beside it alone",
			pos:      shown,
			moves:    []string{"B4-B5", "J10-J9", "B5-B6", "J9-J8", "B6xB7", "E7-E6", "E4-E5", "J8-J7"},
			attacksA: [battleKinds]int{onHiddenUnmoved: 1}, netA: [battleKinds]int{onHiddenUnmoved: 22},
			fearlessTurns: [2]int{0, 1},
			shownCheap:    [2]int{1, 0},
			topTakes:      [2][marshalStates]int{{marshalGone: 1}},
		},
		{
			name: "Red's Marshal is shown attacked; then Blue's General takes a hidden Sergeant",
			pos:  known,
			// Blue's Sergeant attacks Red's Marshal and shows it; Blue's
			// General, hidden, comes beside Red's Sergeant and takes it
			// (not fearlessly: Red's General, which it does not beat, has
			// moved and is hidden).
			moves:    []string{"E4-E5", "E7-E6", "B1-B2", "E6xE5", "F4-F5", "F7-F6", "B2-B3", "F6xF5"},
			attacksB: [battleKinds]int{onHiddenMoved: 2}, netB: [battleKinds]int{onHiddenMoved: -22 + 22},
			shownCheap:      [2]int{0, 1},
			marshalAttacked: [2]int{1, 0},
			// Red's General had moved too: a tie is no win.
			won: [2]int{0, 1}, atRandom: [2]float64{0, 0.5},
			strong:   [2]int{0, 1},
			topTakes: [2][marshalStates]int{1: {marshalHome: 1}},
		},
		{
			name: "Red's Marshal is shown attacked and walks into Blue's half; then Blue's General takes a hidden Sergeant",
			pos:  known,
			// As before, but Red's Marshal steps from E5 to E6 first.
			moves:    []string{"E4-E5", "E7-E6", "B1-B2", "E6xE5", "E5-E6", "F7-F6", "F4-F5", "F6xF5"},
			attacksB: [battleKinds]int{onHiddenMoved: 2}, netB: [battleKinds]int{onHiddenMoved: -22 + 22},
			shownCheap:      [2]int{0, 1},
			marshalAttacked: [2]int{1, 0},
			won:             [2]int{0, 1}, atRandom: [2]float64{0, 0.5},
			strong:   [2]int{0, 1},
			topTakes: [2][marshalStates]int{1: {marshalAway: 1}},
		},
		{
			name: "Blue's General takes Red's only Miner; Red loses, Blue keeping its Bomb",
			pos:  miners,
			// Red's General (moved, hidden) ties Blue's: not fearless.
			moves:    []string{"E4-E5", "E7-E6", "F4-F5", "E6xE5"},
			attacksB: [battleKinds]int{onHiddenMoved: 1}, netB: [battleKinds]int{onHiddenMoved: 40},
			shownCheap: [2]int{0, 1},
			won:        [2]int{0, 1}, atRandom: [2]float64{0, 0.5},
			strong:      [2]int{0, 1},
			topTakes:    [2][marshalStates]int{1: {marshalGone: 1}},
			minersTaken: [2]int{1, 0}, lostMinerless: 1,
		},
		{
			name: "Blue's General shows itself taking Red's Scout, then takes Red's moved Miner at home",
			pos: position{"9 3 2 B F",
				map[string]game.Rank{"E4": game.Miner, "F4": game.Scout, "J1": game.General, "B1": game.Bomb, "A1": game.Flag},
				map[string]game.Rank{"E7": game.General, "J10": game.Miner, "C10": game.Scout, "B10": game.Bomb, "A10": game.Flag}},
			moves:    []string{"F4-F5", "E7-E6", "E4-E3", "E6-F6", "J1-J2", "F6xF5", "J2-J3", "F5-F4", "J3-J4", "F4-E4", "J4-J5", "E4xE3"},
			attacksB: [battleKinds]int{onHiddenMoved: 2}, netB: [battleKinds]int{onHiddenMoved: 15 + 40},
			leftLost: 1, leftWorth: 40, leftBlind: 1, // Red moved its General instead of the Miner
			shownCheap: [2]int{0, 1},
			won:        [2]int{0, 2}, atRandom: [2]float64{0, 2.0/3 + 1.0/2}, // it beat two of Red's three moved pieces, then one of two
			strong:      [2]int{0, 2},
			topTakes:    [2][marshalStates]int{1: {marshalGone: 2}},
			minersTaken: [2]int{1, 0}, lostMinerless: 1,
			minersRaided: 1,
		},
		{
			name:     "Red's Miner attacks Blue's General and loses",
			pos:      miners,
			moves:    []string{"E4-E5", "E7-E6", "E5xE6"},
			attacksA: [battleKinds]int{onHiddenMoved: 1}, netA: [battleKinds]int{onHiddenMoved: -40},
			shownAttacked: [2]int{0, 1},
			atRandom:      [2]float64{0, 0},
			minersLost:    [2]int{1, 0}, lostMinerless: 1,
		},
		{
			name: "Blue's Miner walks down the A file, takes Red's Bomb, then its Flag",
			pos:  walled,
			moves: []string{"J4-J5", "A7-A6", "J5-J6", "A6-A5", "J6-I6", "A5-A4", "I6-I5", "A4-A3",
				"I5-I4", "A3xA2", "I4-I3", "A2xA1"},
			attacksB: [battleKinds]int{onHiddenUnmoved: 2}, netB: [battleKinds]int{onHiddenUnmoved: 20},
			atRandom:    [2]float64{0, 0},
			flagByMiner: 1,
			// The Flag, the Bomb on B1 and the Miner on J1: Red's General moved.
			flagHidAmong: 3,
			flagMovable:  [2]int{2, 2}, // Red's General and Miner, Blue's
		},
		{
			name: "Red's Scout steps out; Blue's Miner shows itself taking it four squares from Red's Flag, then takes the Flag",
			pos:  walledScout,
			moves: []string{"A4-A5", "A7-A6", "J4-J5", "A6xA5", "J5-J6", "A5-A4", "J6-I6", "A4-A3",
				"I6-I5", "A3xA2", "I5-I4", "A2xA1"},
			attacksB: [battleKinds]int{onHiddenMoved: 1, onHiddenUnmoved: 2}, netB: [battleKinds]int{onHiddenMoved: 15, onHiddenUnmoved: 20},
			won: [2]int{0, 1}, atRandom: [2]float64{0, 0.5}, // Red's moved pieces: the Scout and the General
			flagByMiner: 1, flagByShownMiner: 1, flagHidAmong: 3,
			flagMovable: [2]int{2, 3}, // Red lost its Scout
			raided:      3,            // the Scout, the Bomb and the Flag, by one Miner
		},
		{
			name: "Blue's Miner shows itself taking Red's Scout three squares from Red's Flag, then takes the Flag",
			pos:  walledScout,
			moves: []string{"J4-J5", "A7-A6", "J5-J6", "A6-A5", "J6-I6", "A5xA4", "I6-I5", "A4-A3",
				"I5-I4", "A3xA2", "I4-I3", "A2xA1"},
			attacksB: [battleKinds]int{onHiddenUnmoved: 3}, netB: [battleKinds]int{onHiddenUnmoved: 35},
			atRandom:     [2]float64{0, 0},
			flagByMiner:  1,
			flagHidAmong: 3,
			flagMovable:  [2]int{2, 3},
			raided:       3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, tally := scriptedRun(t, gametest.CustomRules(t, tc.pos.army), tc.pos.red, tc.pos.blue, tc.moves)
			if tally.minersTaken != tc.minersTaken || tally.minersLost != tc.minersLost || tally.lostMinerless != [2]int{tc.lostMinerless, 0} {
				t.Errorf("Miners taken %v, lost attacking %v, games lost without one %v; want %v, %v, [%d 0]",
					tally.minersTaken, tally.minersLost, tally.lostMinerless, tc.minersTaken, tc.minersLost, tc.lostMinerless)
			}
			if tally.minersRaided != [2]int{tc.minersRaided, 0} {
				t.Errorf("moved Miners taken at home by a known piece %v, want [%d 0]", tally.minersRaided, tc.minersRaided)
			}
			if tally.flagByMiner != [2]int{tc.flagByMiner, 0} || tally.flagByShownMiner != [2]int{tc.flagByShownMiner, 0} {
				t.Errorf("games lost to a Miner taking the Flag %v, to one shown far away %v; want [%d 0], [%d 0]",
					tally.flagByMiner, tally.flagByShownMiner, tc.flagByMiner, tc.flagByShownMiner)
			}
			if want := [2]int{min(tc.flagHidAmong, 1), 0}; tally.flagTaken != want || tally.flagHidAmong != [2]int{tc.flagHidAmong, 0} {
				t.Errorf("games lost by the Flag taken %v, pieces it hid among %v; want %v, [%d 0]", tally.flagTaken, tally.flagHidAmong, want, tc.flagHidAmong)
			}
			if want := [2][2]int{tc.flagMovable}; tally.flagMovable != want {
				t.Errorf("pieces that move left when the Flag was taken %v, want %v", tally.flagMovable, want)
			}
			if tally.topTakes != tc.topTakes {
				t.Errorf("pieces taken by Marshals and Generals, by the enemy's Marshal hidden, known at home, known away, gone: %v, want %v", tally.topTakes, tc.topTakes)
			}
			if tally.attacks[0] != tc.attacksA || tally.net[0] != tc.netA {
				t.Errorf("A's attacks %v net %v, want %v net %v", tally.attacks[0], tally.net[0], tc.attacksA, tc.netA)
			}
			if tally.attacks[1] != tc.attacksB || tally.net[1] != tc.netB {
				t.Errorf("B's attacks %v net %v, want %v net %v", tally.attacks[1], tally.net[1], tc.attacksB, tc.netB)
			}
			if tally.leftLost[0] != tc.leftLost || tally.leftWorth[0] != tc.leftWorth || tally.leftLost[1] != 0 {
				t.Errorf("left and lost: A %d (worth %d), B %d; want A %d (worth %d), B 0", tally.leftLost[0], tally.leftWorth[0], tally.leftLost[1], tc.leftLost, tc.leftWorth)
			}
			if want := [2]int{tc.raided, 0}; tally.raided != want || tally.raiders != [2]int{min(tc.raided, 1), 0} {
				t.Errorf("pieces lost to raiders %v (raiders %v), want %v", tally.raided, tally.raiders, want)
			}
			if tally.leftBlind != [2]int{tc.leftBlind, 0} {
				t.Errorf("left and lost to a taker that did not know them %v, want [%d 0]", tally.leftBlind, tc.leftBlind)
			}
			if tally.leftForked != [2]int{tc.leftForked, 0} {
				t.Errorf("left and lost in a fork %v, want [%d 0]", tally.leftForked, tc.leftForked)
			}
			if tally.fearless != [2]int{0, tc.fearlessB} || tally.fearlessNet != [2]int{0, tc.fearlessNetB} {
				t.Errorf("fearless attacks %v net %v, want B's %d net %d", tally.fearless, tally.fearlessNet, tc.fearlessB, tc.fearlessNetB)
			}
			if tally.fearlessTurns != tc.fearlessTurns || tally.fearlessTaken != tc.fearlessTaken {
				t.Errorf("turns with a risk-free attack to make %v (made %v), want %v (%v)", tally.fearlessTurns, tally.fearlessTaken, tc.fearlessTurns, tc.fearlessTaken)
			}
			if tally.stillBeaters != tc.still || tally.stillBeatersNet != tc.stillNet {
				t.Errorf("attacks with the hidden beaters all unmoved %v net %v, want %v net %v", tally.stillBeaters, tally.stillBeatersNet, tc.still, tc.stillNet)
			}
			if want := [2][2]int{{0, tc.shownCheap[0]}, {0, tc.shownCheap[1]}}; tally.shownCheap != want {
				t.Errorf("Marshals and Generals first shown attacking below a Colonel %v, want %v", tally.shownCheap, want)
			}
			if want := [2][2]int{{tc.marshalAttacked[0], tc.shownAttacked[0]}, {tc.marshalAttacked[1], tc.shownAttacked[1]}}; tally.shownAttacked != want {
				t.Errorf("Marshals and Generals first shown attacked %v, want %v", tally.shownAttacked, want)
			}
			if tally.won != tc.won || math.Abs(tally.atRandom[0]-tc.atRandom[0]) > 1e-9 || math.Abs(tally.atRandom[1]-tc.atRandom[1]) > 1e-9 {
				t.Errorf("won %v, at random %v; want %v, %v", tally.won, tally.atRandom, tc.won, tc.atRandom)
			}
			if tally.strong != tc.strong || tally.strongLost != tc.strongLost {
				t.Errorf("attacks on hidden moved pieces by a Colonel or stronger %v, lost %v; want %v, %v", tally.strong, tally.strongLost, tc.strong, tc.strongLost)
			}
			if tally.spyTook != tc.spyTook || tally.spyBait != tc.spyBait {
				t.Errorf("Marshals taken by the Spy %v, just after taking there %v; want %v, %v", tally.spyTook, tally.spyBait, tc.spyTook, tc.spyBait)
			}
			out, _, code := runCompareTest(t, "-battles", dir)
			if code != 0 || !strings.Contains(out, "pieces left beside a known piece that took them (worth)") ||
				!strings.Contains(out, "of them, with every enemy piece it does not beat known") ||
				!strings.Contains(out, "General first shown attacking below a Colonel (games)") ||
				!strings.Contains(out, "share won (attacking one of them at random)") ||
				!strings.Contains(out, "of them, by a Colonel or stronger (share lost)") ||
				!strings.Contains(out, "Marshal taken by the Spy (share: just after it took)") ||
				!strings.Contains(out, "pieces taken by its Marshal or General, the enemy's Marshal known") ||
				!strings.Contains(out, "games lost without a Miner, the enemy keeping a Bomb") ||
				!strings.Contains(out, "games lost by the Flag taken (pieces it hid among)") ||
				!strings.Contains(out, "games lost to a Miner taking the Flag") {
				t.Errorf("exit %d, output\n%s", code, out)
			}
		})
	}
}

// TestCompareOffers: at each turn, a hidden moved piece beside an enemy piece
// whose rank its player knows is counted for its player, by the battle it
// would be, and as attacked when the enemy's move attacks it.
func TestCompareOffers(t *testing.T) {
	// Red's Marshal on E4, Sergeant on F4 and Scout on G4; Blue's General
	// on F7.
	red := map[string]game.Rank{"E4": game.Marshal, "F4": game.Sergeant, "G4": game.Scout, "B1": game.General, "A1": game.Flag}
	blue := map[string]game.Rank{"E7": game.Sergeant, "F7": game.General, "C10": game.Scout, "J10": game.Marshal, "A10": game.Flag}
	// Blue's General shows itself taking the Sergeant on F5.
	shown := []string{"F4-F5", "F7-F6", "B1-B2", "F6xF5"}
	then := func(moves ...string) []string { return append(append([]string(nil), shown...), moves...) }
	// Each case's offers of Red's pieces to Blue's General (a Colonel or
	// stronger): all, those the General attacked, and of them those where
	// Red's piece had just come.
	tests := []struct {
		name                   string
		moves                  []string
		offered, took          [offerKinds]int
		cameOffered, cameTaken [offerKinds]int
	}{
		// Red's Marshal, hidden, steps beside it on E5.
		{"the General spares the Marshal", then("E4-E5", "J10-J9"),
			[offerKinds]int{offerBeats: 1}, [offerKinds]int{}, [offerKinds]int{offerBeats: 1}, [offerKinds]int{}},
		{"the General walks into the Marshal the second time", then("E4-E5", "J10-J9", "B2-B3", "F5xE5"),
			[offerKinds]int{offerBeats: 2}, [offerKinds]int{offerBeats: 1}, [offerKinds]int{offerBeats: 1}, [offerKinds]int{}},
		{"a hidden piece, not the known General, attacks the Marshal", then("E4-E5", "E7-E6", "B2-B3", "E6xE5"),
			[offerKinds]int{offerBeats: 2}, [offerKinds]int{}, [offerKinds]int{offerBeats: 1}, [offerKinds]int{}},
		// Red's Scout, hidden, steps beside it on F4.
		{"the General spares the Scout twice, then takes it", then("G4-F4", "J10-J9", "B2-B3", "J9-J8", "B3-B4", "F5xF4"),
			[offerKinds]int{offerBeaten: 3}, [offerKinds]int{offerBeaten: 1}, [offerKinds]int{offerBeaten: 1}, [offerKinds]int{}},
		{"the General takes the Scout as it comes", then("G4-F4", "F5xF4"),
			[offerKinds]int{offerBeaten: 1}, [offerKinds]int{offerBeaten: 1}, [offerKinds]int{offerBeaten: 1}, [offerKinds]int{offerBeaten: 1}},
		// Red's Sergeant is taken on its first step, before anything is known.
		{"nothing known", []string{"F4-F5", "F7-F6", "B1-B2", "F6xF5"},
			[offerKinds]int{}, [offerKinds]int{}, [offerKinds]int{}, [offerKinds]int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, tally := scriptedRun(t, gametest.CustomRules(t, "10 9 4 2 F"), red, blue, tc.moves)
			var want [2]offers
			for k := range offerKinds {
				strong := &want[0]
				strong.turns[offerStrong][k] = [2]int{tc.offered[k] - tc.cameOffered[k], tc.cameOffered[k]}
				strong.taken[offerStrong][k] = [2]int{tc.took[k] - tc.cameTaken[k], tc.cameTaken[k]}
			}
			if tally.offers != want {
				t.Errorf("offers %+v, want %+v", tally.offers, want)
			}
			out, _, code := runCompareTest(t, "-battles", dir)
			if code != 0 || !strings.Contains(out, "hidden moved by known piece it beats: turns (attacked)") ||
				!strings.Contains(out, "hidden moved by known piece beating it: turns (attacked)") {
				t.Errorf("exit %d, output\n%s", code, out)
			}
		})
	}
}

// TestCompareLateTakes: from ply lateFrom on, a piece taken by an enemy
// piece whose rank its player knew is counted, and counted answered while
// its player still had a piece that beats the taker; a take before that ply,
// or by a piece the victim did not know, is not counted.
func TestCompareLateTakes(t *testing.T) {
	// Blue's General takes Red's Sergeant on E5 and is seen; then a Scout
	// of each side walks round a square until the General takes Red's
	// Scout on F5, or Blue's hidden Sergeant steps down and takes it.
	red := map[string]game.Rank{"A1": game.Flag, "B1": game.General, "E4": game.Sergeant, "F4": game.Scout, "J1": game.Scout, "H1": game.Miner}
	blue := map[string]game.Rank{"A10": game.Flag, "E7": game.General, "J10": game.Scout, "H10": game.Miner, "F7": game.Sergeant, "B10": game.Scout}
	walk := func(loops int, end ...string) []string {
		moves := []string{"E4-E5", "E7-E6", "F4-F5", "E6xE5"}
		for range loops {
			moves = append(moves, "J1-J2", "J10-J9", "J2-I2", "J9-I9", "I2-I1", "I9-I10", "I1-J1", "I10-J10")
		}
		return append(moves, end...)
	}
	tests := []struct {
		name           string
		army           string
		moves          []string
		taken, beaters int
	}{
		{"the known General takes the Scout at ply 325", "9 4 3 2 2 F", walk(40, "J1-J2", "E5xF5"), 1, 0},
		{"the same with a Marshal of Red's left to beat it", "10 9 4 3 2 2 F", walk(40, "J1-J2", "E5xF5"), 1, 1},
		{"the known General takes the Scout at ply 245", "9 4 3 2 2 F", walk(30, "J1-J2", "E5xF5"), 0, 0},
		{"the hidden Sergeant takes the Scout at ply 327", "9 4 3 2 2 F", walk(40, "J1-J2", "F7-F6", "J2-J3", "F6xF5"), 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, b := red, blue
			if strings.HasPrefix(tc.army, "10 ") {
				r, b = maps.Clone(red), maps.Clone(blue)
				r["C1"], b["C10"] = game.Marshal, game.Marshal
			}
			dir, tally := scriptedRun(t, gametest.CustomRules(t, tc.army), r, b, tc.moves)
			if tally.lateTaken != [2]int{tc.taken, 0} || tally.lateAnswered != [2]int{tc.beaters, 0} {
				t.Errorf("late takes %v, answered %v, want [%d 0], [%d 0]", tally.lateTaken, tally.lateAnswered, tc.taken, tc.beaters)
			}
			out, _, code := runCompareTest(t, "-battles", dir)
			if code != 0 || !strings.Contains(out, "pieces lost from ply 300 to a known taker (beater left)") {
				t.Errorf("exit %d, output\n%s", code, out)
			}
		})
	}
}

// walkingScouts is a game of 204 plies: Red's Sergeant and Scout move;
// Blue's General takes the Sergeant and is seen; then a Scout of each side
// walks round a square. Red never moves its General and Miner, Blue its
// Miner, Sergeant and the Scout on B10.
func walkingScouts(t *testing.T) (rules game.Rules, red, blue map[string]game.Rank, moves []string) {
	rules = gametest.CustomRules(t, "9 4 3 2 2 F")
	red = map[string]game.Rank{"A1": game.Flag, "B1": game.General, "E4": game.Sergeant, "F4": game.Scout, "J1": game.Scout, "H1": game.Miner}
	blue = map[string]game.Rank{"A10": game.Flag, "E7": game.General, "J10": game.Scout, "H10": game.Miner, "C10": game.Sergeant, "B10": game.Scout}
	moves = []string{"E4-E5", "E7-E6", "F4-F5", "E6xE5"}
	for range 25 {
		moves = append(moves, "J1-J2", "J10-J9", "J2-I2", "J9-I9", "I2-I1", "I9-I10", "I1-J1", "I10-J10")
	}
	return rules, red, blue, moves
}

// TestCompareUnseen: at plies 100 and 200 each player's pieces that moved
// and that the other has not seen fight are counted, over the games that got
// that far; a piece that fought, or never moved, is not one of them. The
// pieces that can move but never did are counted beside them, the Flag not.
// Each player's battles' net material so far is added up at plies 100, 200
// and 300.
func TestCompareUnseen(t *testing.T) {
	rules, red, blue, moves := walkingScouts(t)
	tests := []struct {
		name         string
		plies        int
		reached      [len(unseenPlies)]int
		unseenA      [len(unseenPlies)]int
		unseenB      [len(unseenPlies)]int
		printedAt200 bool
	}{
		{"past ply 200", 4 + 8*25, [len(unseenPlies)]int{1, 1}, [len(unseenPlies)]int{2, 2}, [len(unseenPlies)]int{1, 1}, true},
		{"ended before ply 200", 4 + 8*20, [len(unseenPlies)]int{1, 0}, [len(unseenPlies)]int{2, 0}, [len(unseenPlies)]int{1, 0}, false},
		{"ended at ply 100", 4 + 8*12, [len(unseenPlies)]int{1, 0}, [len(unseenPlies)]int{2, 0}, [len(unseenPlies)]int{1, 0}, false},
		{"ended before ply 100", 4 + 8*5, [len(unseenPlies)]int{}, [len(unseenPlies)]int{}, [len(unseenPlies)]int{}, false},
	}
	// Never moved: Red's General and Miner; Blue's Miner, Sergeant and the
	// Scout on B10.
	stillA, stillB := [len(unseenPlies)]int{2, 2}, [len(unseenPlies)]int{3, 3}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, tally := scriptedRun(t, rules, red, blue, moves[:tc.plies])
			if tally.reached != tc.reached || tally.unseen[0] != tc.unseenA || tally.unseen[1] != tc.unseenB {
				t.Errorf("reached %v, unseen A %v B %v; want %v, %v, %v", tally.reached, tally.unseen[0], tally.unseen[1], tc.reached, tc.unseenA, tc.unseenB)
			}
			// Battles' net material: B's General took a Sergeant (22), A
			// won nothing; no game reaches ply 300.
			wantReached := [len(netPlies)]int{tc.reached[0], tc.reached[1], 0}
			wantB := [len(netPlies)]int{22 * tc.reached[0], 22 * tc.reached[1], 0}
			if tally.netReached != wantReached || tally.netBy[0] != [len(netPlies)]int{} || tally.netBy[1] != wantB {
				t.Errorf("net material reached %v, A %v, B %v; want %v, 0, %v", tally.netReached, tally.netBy[0], tally.netBy[1], wantReached, wantB)
			}
			// Red's General never moved nor fought; Blue's took a Sergeant.
			if want := [2][len(unseenPlies)]int{tc.reached, tc.reached}; tally.strongLeft != want {
				t.Errorf("Colonels and stronger left %v, want %v", tally.strongLeft, want)
			}
			if want := [2][len(unseenPlies)]int{tc.reached}; tally.strongHidden != want {
				t.Errorf("Colonels and stronger not seen %v, want %v", tally.strongHidden, want)
			}
			for i, n := range tc.reached {
				if tally.still[0][i] != n*stillA[i] || tally.still[1][i] != n*stillB[i] {
					t.Errorf("never moved at ply %d: A %d B %d, want %d and %d", unseenPlies[i], tally.still[0][i], tally.still[1][i], n*stillA[i], n*stillB[i])
				}
			}
			out, _, code := runCompareTest(t, "-battles", dir)
			if code != 0 || strings.Contains(out, "at ply 200") != tc.printedAt200 {
				t.Errorf("exit %d, a line for ply 200 %v, want %v; output\n%s", code, !tc.printedAt200, tc.printedAt200, out)
			}
		})
	}
}

// TestT975: the quantile against the table's values past it.
func TestT975(t *testing.T) {
	for _, tc := range []struct {
		df   int
		want float64
	}{{1, 12.706}, {2, 4.303}, {10, 2.228}, {20, 2.086}, {21, 2.080}, {25, 2.060}, {30, 2.042}, {57, 2.002}, {120, 1.980}, {1000, 1.962}} {
		if got := t975(tc.df); math.Abs(got-tc.want) > 0.001 {
			t.Errorf("t975(%d) = %.4f, want %.3f", tc.df, got, tc.want)
		}
	}
}

// TestCompareQuietAndTrades: the moves that fight no battle are counted by
// the moving piece's class, weak, middle or strong; a Marshal taken by the
// enemy's Marshal attacking it counts for its player, with that player's
// points in the game (here Red, A, resigns at the end, so Blue scores 1).
func TestCompareQuietAndTrades(t *testing.T) {
	rules := gametest.CustomRules(t, "10 6 2 F")
	red := map[string]game.Rank{"A1": game.Flag, "E4": game.Marshal, "B1": game.Captain, "J1": game.Scout}
	blue := map[string]game.Rank{"A10": game.Flag, "E7": game.Marshal, "B10": game.Captain, "J10": game.Scout}
	tests := []struct {
		name         string
		moves        []string
		quiet        [2][quietClasses]int
		traded       [2]int
		tradedPoints [2]float64
	}{
		{"Red's Marshal attacks Blue's", []string{"E4-E5", "E7-E6", "J1-J2", "J10-J9", "E5xE6"},
			[2][quietClasses]int{{1, 0, 1}, {1, 0, 1}}, [2]int{0, 1}, [2]float64{0, 1}},
		{"Blue's Marshal attacks Red's", []string{"E4-E5", "E7-E6", "B1-B2", "E6xE5"},
			[2][quietClasses]int{{0, 1, 1}, {0, 0, 1}}, [2]int{1, 0}, [2]float64{0, 0}},
		{"no Marshal falls", []string{"E4-E5", "B10-B9", "J1-J2", "J10-J9"},
			[2][quietClasses]int{{1, 0, 1}, {1, 1, 0}}, [2]int{}, [2]float64{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, tally := scriptedRun(t, rules, red, blue, tc.moves)
			if tally.quiet != tc.quiet {
				t.Errorf("quiet moves %v, want %v", tally.quiet, tc.quiet)
			}
			if tally.marshalTraded != tc.traded || tally.tradedPoints != tc.tradedPoints {
				t.Errorf("Marshals fallen %v with points %v, want %v and %v", tally.marshalTraded, tally.tradedPoints, tc.traded, tc.tradedPoints)
			}
			out, _, code := runCompareTest(t, "-battles", dir)
			if code != 0 || !strings.Contains(out, "moves without a battle, by pieces Colonels and stronger") ||
				!strings.Contains(out, "games its Marshal fell to the enemy's attacking (score)") {
				t.Errorf("exit %d, output\n%s", code, out)
			}
		})
	}
}
