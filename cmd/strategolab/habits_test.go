package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/internal/lab/records"
)

// TestHabits: at each of plies 50, 100 and 200 that a game reaches, each
// side is counted for its player: moved pieces the other has not seen
// fight, pieces that can move but never did (not the Flag), attacks made so
// far, whether the other has seen its strongest piece, and its Colonels and
// up the other has seen.
func TestHabits(t *testing.T) {
	// Red (A, hard): 2 moved unseen (Scouts F4 and J1), 2 never moved
	// (General, Miner), no attack, its General unseen; Blue (B, normal): 1
	// moved unseen (Scout J10), 3 never moved, 1 attack, its General seen.
	rules, red, blue, moves := walkingScouts(t)
	record := func(plies int) string {
		g := gametest.Scripted(t, rules, red, blue, moves[:plies]...)
		dir := t.TempDir()
		saveTestRecord(t, dir, 1, game.Red, g)
		return filepath.Join(dir, "game-0001.xml")
	}
	const (
		hard   = "%-5d %6d                   2.00                   2.00            0.00            0.0%%                  0.00"
		normal = "%-5d %6d                   1.00                   3.00            1.00          100.0%%                  1.00"
		// Blue's General took Red's Sergeant, which had moved.
		normalMovers = "%-5d %6d             0.00             0.00             0.00             1.00"
	)
	tests := []struct {
		name   string
		plies  []int // one game a length
		code   int
		stdout string
		stderr string
	}{
		{"past ply 200", []int{204}, 0, "1 Custom games, a side:\nhard\n" + header +
			rows(hard, 1, 1, 1) + "normal\n" + header + rows(normal, 1, 1, 1) + officers("normal", "     0 turns,      -", "   101 turns,   1.0%") +
			moverHeader + "normal\n" + moverColumns + rows(normalMovers, 1, 1, 1) + readers("normal", 100) + flights("normal", 101, "  1.0%"), ""},
		{"one game to ply 84, one past 200", []int{84, 204}, 0, "2 Custom games, a side:\nhard\n" + header +
			rows(hard, 2, 1, 1) + "normal\n" + header + rows(normal, 2, 1, 1) + officers("normal", "     0 turns,      -", "   142 turns,   1.4%") +
			moverHeader + "normal\n" + moverColumns + rows(normalMovers, 2, 1, 1) + readers("normal", 140) + flights("normal", 142, "  1.4%"), ""},
		{"no game reaches ply 50", []int{44}, 1, "", "no game of 1 reached ply 50"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"-variant", "custom"}
			for _, n := range tc.plies {
				args = append(args, record(n))
			}
			var out, errOut bytes.Buffer
			code := runHabits(context.Background(), args, &out, &errOut)
			if code != tc.code || out.String() != tc.stdout || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("exit %d, stderr %q, stdout\n%s\nwant %d, %q, stdout\n%s", code, errOut.String(), out.String(), tc.code, tc.stderr, tc.stdout)
			}
		})
	}
}

const header = "  ply    sides  moved, not seen fight  can move, never moved  attacks so far  strongest seen  Colonels and up seen\n"

// officers is the section on officers beside hidden enemy pieces for one
// player with Colonels and up only, their counts and shares (never moved,
// then moved) given.
func officers(player, never, moved string) string {
	return officerHeader + player + "\n" +
		"  Captain to Major  never moved       0 turns,      - attacked; moved       0 turns,      - attacked\n" +
		"  Colonel and up    never moved  " + never + " attacked; moved  " + moved + " attacked\n"
}

const (
	moverHeader  = "attacks on hidden enemy pieces that had moved, made so far, a side, by the attacker:\n"
	moverColumns = "  ply    sides            Scout  below a Captain Captain or Major   Colonel and up\n"
)

// readers is the section on known pieces beside hidden enemy pieces that
// moved for one player whose Colonel or stronger stood, never attacking,
// beside prey that had not just come, on that many turns.
func readers(player string, prey int) string {
	return "a piece the enemy had seen beside a hidden enemy piece that moved, on its side's turn, and the share of those turns it attacked it,\n" +
		"by whether the hidden piece beat it (a trap) or not (prey), and whether it had just come or stood there:\n" +
		player + "\n" +
		"  known piece          trap, came     trap, stood      prey, came     prey, stood\n" +
		"  below a Colonel       0      -       0      -       0      -       0      -\n" +
		fmt.Sprintf("  Colonel and up        0      -       0      -       0      - %7d   0.0%%\n", prey)
}

// flights is the section on Colonels and up beside hidden enemy pieces that
// moved, by flight's reading, for one player whose pieces were all read on
// that many turns, attacking on that share of them and winning every time.
func flights(player string, turns int, share string) string {
	return "a Colonel or stronger beside a hidden enemy piece that moved, on its side's turn, by whether flight read it as weaker\n" +
		"(it had stood beside or run from a piece of the player's shown in a battle, and every rank it may still be below that\n" +
		"one loses to the Colonel or stronger, or trades), the share of those turns it attacked it, and of those attacks it won:\n" +
		player + "\n" +
		fmt.Sprintf("  read          %3d turns, %s attacked, 100.0%% won\n", turns, share) +
		"  not read        0 turns,      - attacked,      - won\n"
}

const officerHeader = "a Captain or stronger beside a hidden enemy piece on its side's turn, and the share of those turns it attacked it:\n"

// rows is the lines of one player at plies 50, 100 and 200, counting the
// sides given; a count of 0 leaves its line out.
func rows(format string, sides ...int) string {
	var b strings.Builder
	for i, n := range sides {
		if n > 0 {
			b.WriteString("  " + fmt.Sprintf(format, habitPlies[i], n) + "\n")
		}
	}
	return b.String()
}

// TestHabitPlayer: an arena's players by name, everyone else as people.
func TestHabitPlayer(t *testing.T) {
	for name, want := range map[string]string{
		"A (hard)": "hard", "B (ext:demon -l3 -t)": "ext:demon -l3 -t", "B (normal)": "normal",
		"gerhard": "people", "A (unclosed": "people", "": "people",
	} {
		if got := habitPlayer(name); got != want {
			t.Errorf("habitPlayer(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestHabitsRefuses: no record, or a variant it does not know.
func TestHabitsRefuses(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{nil, "name one or more Gravon records"},
		{[]string{"-variant", "chess", "x.xml"}, "chess"},
	} {
		var out, errOut bytes.Buffer
		if code := runHabits(context.Background(), tc.args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), tc.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut.String(), tc.stderr)
		}
	}
}

// TestHabitsSpyAnswers: a Marshal that took a piece beside hidden enemy
// pieces is counted by the rank it took, with whether the enemy's Spy took
// it on the very next move; a capture with no hidden piece beside it is not.
func TestHabitsSpyAnswers(t *testing.T) {
	rules := gametest.CustomRules(t, "10 8 2 S F")
	red := map[string]game.Rank{"A1": game.Flag, "E4": game.Marshal, "J1": game.Scout, "B1": game.Colonel, "C1": game.Spy}
	// Scouts walk round a square for 48 plies, so that the game reaches ply
	// 50; then Red's Marshal walks up and takes Blue's Colonel on E7.
	walk := []string{}
	for range 6 {
		walk = append(walk, "J1-J2", "J10-J9", "J2-I2", "J9-I9", "I2-I1", "I9-I10", "I1-J1", "I10-J10")
	}
	walk = append(walk, "E4-E5", "J10-J9", "E5-E6", "J9-J10", "E6xE7")
	tests := []struct {
		name   string
		spy    string   // where Blue's Spy starts
		then   []string // the moves after the capture
		want   string
		absent bool
	}{
		{"the Spy answers", "F7", []string{"F7xE7"}, "hard\n  Colonel          1 taken,     1 answered by the Spy (1.00)\n", false},
		{"the Spy waits", "F7", []string{"J10-J9", "E7-E8"}, "hard\n  Colonel          1 taken,     0 answered by the Spy (0.00)\n", false},
		{"no hidden piece beside", "A7", []string{"A7-A6"}, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			blue := map[string]game.Rank{"A10": game.Flag, "E7": game.Colonel, tc.spy: game.Spy, "J10": game.Scout, "B10": game.Marshal}
			out := habitsOfGame(t, gametest.Scripted(t, rules, red, blue, append(append([]string{}, walk...), tc.then...)...))
			section := strings.Contains(out, "a Marshal that took a piece beside hidden enemy pieces")
			if section == tc.absent || !strings.Contains(out, tc.want) {
				t.Errorf("stdout\n%s\nwant the section (%v) with\n%s", out, !tc.absent, tc.want)
			}
		})
	}
}

// habitsOfGame ends g with Blue's resignation (unless it is over), saves it
// as an arena's record with Red as hard, and returns what habits writes
// about it.
func habitsOfGame(t *testing.T, g *game.Game) string {
	t.Helper()
	if err := g.Resign(game.Blue); err != nil && !g.Result().Over() {
		t.Fatal(err)
	}
	dir := t.TempDir()
	saveTestRecord(t, dir, 1, game.Red, g)
	var out, errOut bytes.Buffer
	if code := runHabits(context.Background(), []string{"-variant", "custom", filepath.Join(dir, "game-0001.xml")}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	return out.String()
}

// TestHabitsOfficerAttacks: each turn on which an officer stands beside a
// hidden enemy piece counts once for that pair, by whether the piece ever
// moved, and the turn it attacks the piece counts as an attack.
func TestHabitsOfficerAttacks(t *testing.T) {
	rules := gametest.CustomRules(t, "10 8 2 S F")
	red := map[string]game.Rank{"A1": game.Flag, "E4": game.Marshal, "J1": game.Scout, "B1": game.Colonel, "C1": game.Spy}
	blue := map[string]game.Rank{"A10": game.Flag, "E7": game.Colonel, "F7": game.Spy, "J10": game.Scout, "B10": game.Marshal}
	// Red's Colonel walks up to B9, beside Blue's Marshal that never moved,
	// waits a move and attacks it; then Red's Scout walks round a square
	// until the game reaches ply 50. Blue's Scout walks round a square.
	redMoves := []string{"B1-B2", "B2-B3", "B3-B4", "B4-B5", "B5-B6", "B6-B7", "B7-B8", "B8-B9", "J1-J2", "B9xB10"}
	for range 4 {
		redMoves = append(redMoves, "J2-I2", "I2-I1", "I1-J1", "J1-J2")
	}
	blueWalk := []string{"J10-J9", "J9-I9", "I9-I10", "I10-J10"}
	var moves []string
	for i, m := range redMoves {
		moves = append(moves, m, blueWalk[i%len(blueWalk)])
	}
	out := habitsOfGame(t, gametest.Scripted(t, rules, red, blue, moves...))
	// Red: two turns beside the Marshal that never moved (the wait and the
	// attack), one attack.
	// Blue: its Marshal two turns beside Red's Colonel, which had moved.
	want := officerHeader + "hard\n" +
		"  Captain to Major  never moved       0 turns,      - attacked; moved       0 turns,      - attacked\n" +
		"  Colonel and up    never moved       2 turns,  50.0% attacked; moved       0 turns,      - attacked\n" +
		officers("normal", "     0 turns,      -", "     2 turns,   0.0%")[len(officerHeader):]
	if !strings.Contains(out, want) {
		t.Errorf("stdout\n%s\nwant it to hold\n%s", out, want)
	}
}

// TestHabitsFlagTakers: each turn on which a player's pieces stand beside
// the enemy's Flag it has not seen counts once for each kind of piece there,
// and the turn a piece of that kind takes the Flag as a take.
func TestHabitsFlagTakers(t *testing.T) {
	rules := gametest.CustomRules(t, "10 6 3 2 F")
	red := map[string]game.Rank{"A1": game.Flag, "B1": game.Marshal, "F4": game.Captain, "E4": game.Miner, "J1": game.Scout}
	blue := map[string]game.Rank{"E8": game.Flag, "B10": game.Marshal, "A10": game.Captain, "C10": game.Miner, "J10": game.Scout}
	// Scouts walk round a square for 48 plies, so that the game reaches ply
	// 50. Then Red's Captain walks to F8, beside Blue's Flag, and its Miner
	// to E7 and takes the Flag: the Captain stood beside it on 4 of Red's
	// turns and the Miner on 1.
	walk := []string{}
	for range 6 {
		walk = append(walk, "J1-J2", "J10-J9", "J2-I2", "J9-I9", "I2-I1", "I9-I10", "I1-J1", "I10-J10")
	}
	blueWalk := []string{"J10-J9", "J9-I9", "I9-I10", "I10-J10"}
	for i, m := range []string{"F4-F5", "F5-F6", "F6-F7", "F7-F8", "E4-E5", "E5-E6", "E6-E7"} {
		walk = append(walk, m, blueWalk[i%len(blueWalk)])
	}
	walk = append(walk, "E7xE8")
	g := gametest.Scripted(t, rules, red, blue, walk...)
	out := habitsOfGame(t, g)
	_, after, found := strings.Cut(out, "pieces beside the enemy's hidden Flag")
	if !found {
		t.Fatalf("stdout\n%s\nwant the section on pieces beside the enemy's Flag", out)
	}
	for _, want := range []string{"\nhard\n", fmt.Sprintf("  %-17s %6d, %5.1f%% took,", "Miner", 1, 100.0),
		fmt.Sprintf("  %-17s %6d, %5.1f%% took,", "Captain and up", 4, 0.0)} {
		if !strings.Contains(after, want) {
			t.Errorf("section\n%s\nwant it to contain %q", after, want)
		}
	}
	if strings.Contains(after, "normal") || strings.Count(after, "%") != 2 {
		t.Errorf("section\n%s\nwant only hard's Miner and Captain counted", after)
	}
}

// TestHabitsMoverAttacks: an attack counts, by the kind of attacker, when
// its target is a hidden enemy piece that moved; attacks on a piece that
// never moved or whose rank was shown do not. The counts so far are summed at
// the plies the game reaches.
func TestHabitsMoverAttacks(t *testing.T) {
	rules := gametest.CustomRules(t, "6 3 2 2 F")
	red := map[string]game.Rank{"A1": game.Flag, "E4": game.Captain, "B1": game.Miner, "F1": game.Scout, "J1": game.Scout}
	blue := map[string]game.Rank{"A10": game.Flag, "E7": game.Captain, "B10": game.Miner, "J10": game.Scout, "F10": game.Scout}
	// Blue's Captain steps to E6 beside Red's, which moved to E5. Red's
	// Scout goes to F6 and tries Blue's Captain, which had moved: counted.
	// Red's Captain then takes on Blue's, shown by that try: not counted.
	// Red's Miner walks up and tries Blue's, which never moved: not counted.
	// Then Red's other Scout walks round a square, as Blue's does all along,
	// until ply 95: past ply 50, short of ply 100.
	redMoves := []string{"E4-E5", "F1-F6", "F6xE6", "E5xE6"}
	for row := 1; row < 9; row++ {
		redMoves = append(redMoves, fmt.Sprintf("B%d-B%d", row, row+1))
	}
	redMoves = append(redMoves, "B9xB10")
	blueMoves := []string{"E7-E6"}
	redWalk := []string{"J1-J2", "J2-I2", "I2-I1", "I1-J1"}
	blueWalk := []string{"J10-J9", "J9-I9", "I9-I10", "I10-J10"}
	var moves []string
	for i := 0; len(moves) < 95; i++ {
		if i < len(redMoves) {
			moves = append(moves, redMoves[i])
		} else {
			moves = append(moves, redWalk[(i-len(redMoves))%4])
		}
		if i < len(blueMoves) {
			moves = append(moves, blueMoves[i])
		} else {
			moves = append(moves, blueWalk[(i-len(blueMoves))%4])
		}
	}
	out := habitsOfGame(t, gametest.Scripted(t, rules, red, blue, moves[:95]...))
	want := moverHeader + "hard\n" + moverColumns +
		"  50         1             1.00             0.00             0.00             0.00\n"
	if !strings.HasSuffix(out, want) {
		t.Errorf("stdout\n%s\nwant it to end with\n%s", out, want)
	}
}

// TestHabitsPeopleLikeness: on a Classic game between two people, the model
// of people's moves finds their moves likelier than every legal move alike.
func TestHabitsPeopleLikeness(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := runHabits(context.Background(), []string{"../../internal/lab/beliefs/testdata/classic-2014.3-330.xml"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	_, section, found := strings.Cut(out.String(), "how like a person's its moves are")
	if !found {
		t.Fatalf("stdout\n%s\nwant the section on people's moves", out.String())
	}
	var moves int
	var model, alike float64
	if _, err := fmt.Sscanf(section[strings.Index(section, "people\n")+len("people\n"):], " %d moves, %f, alike %f", &moves, &model, &alike); err != nil {
		t.Fatalf("section\n%s\nwant people's row: %v", section, err)
	}
	if moves < 40 || model < alike+0.3 {
		t.Errorf("%d moves, model %.4f, alike %.4f; want 40 or more, scored at least 0.3 above alike", moves, model, alike)
	}
}

// TestHabitsReplayWithoutRepetitionRules: a Gravon record that breaks the
// Two-Squares rule of today (move 70 of this one, a fifth ply, whose
// likeness to a person's is scored) is read to its end, as addHabits reads
// it, not refused as an illegal move nor cut short there.
func TestHabitsReplayWithoutRepetitionRules(t *testing.T) {
	const file = "../../game/testdata/gravon/classic-2005.2-16.xml"
	recs, _, err := records.Read([]string{file}, game.VariantClassic)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	rec := recs[0].Record
	var out, errOut bytes.Buffer
	if code := runHabits(context.Background(), []string{file}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	_, section, found := strings.Cut(out.String(), "how like a person's its moves are")
	if !found {
		t.Fatalf("stdout\n%s\nwant the section on people's moves", out.String())
	}
	var moves int
	var model, alike float64
	if _, err := fmt.Sscanf(section[strings.Index(section, "people\n")+len("people\n"):], " %d moves, %f, alike %f", &moves, &model, &alike); err != nil {
		t.Fatalf("section\n%s\nwant people's row: %v", section, err)
	}
	if want := len(rec.Moves) / 5; moves != want {
		t.Errorf("%d moves scored; want %d, every fifth ply of the record's %d", moves, want, len(rec.Moves))
	}
}
