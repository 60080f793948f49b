package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
)

func TestArenaReport(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // regular expressions, each must match a line
	}{
		{
			name: "random against random",
			args: []string{"-a", "random", "-b", "random", "-n", "4", "-variant", "barrage", "-seed", "3"},
			want: []string{
				`^arena: A = random, B = random, Barrage, 4 games, seed 3, move limit 2000$`,
				`^A: \d+ wins, \d+ draws, \d+ losses$`,
				`^A win rate \d+\.\d% \(95% CI \d+\.\d%–\d+\.\d%\)$`,
				`^A score \d+\.\d% \(wins \+ draws/2; 95% CI \d+\.\d%–\d+\.\d%\)$`,
				`^game length: average \d+\.\d plies \(shortest \d+, longest \d+\)$`,
				`^endings: [a-z ]+ \d+(; [a-z ]+ \d+)*$`,
				`^move time A \(random\): median [0-9.]+[µnm]?s, max [0-9.]+[µnm]?s over \d+ moves$`,
				`^move time B \(random\): median .+ over \d+ moves$`,
			},
		},
		{
			name: "a short move limit ends every game in a draw",
			args: []string{"-a", "easy", "-b", "random", "-n", "2", "-variant", "duel", "-max-moves", "6", "-j", "1"},
			want: []string{
				`^A: 0 wins, 2 draws, 0 losses$`,
				`^game length: average 6\.0 plies \(shortest 6, longest 6\)$`,
				`^endings: move limit reached 2$`,
				`^move time A \(easy\): .+ over 6 moves$`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := runArena(context.Background(), tc.args, &out, &errOut); code != 0 {
				t.Fatalf("exit code %d, stderr %q", code, errOut.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			for _, pattern := range tc.want {
				re := regexp.MustCompile(pattern)
				found := false
				for _, l := range lines {
					found = found || re.MatchString(l)
				}
				if !found {
					t.Errorf("no line matches %s in\n%s", pattern, out.String())
				}
			}
		})
	}
}

func TestArenaCountsAddUp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := runArena(context.Background(), []string{"-a", "random", "-b", "random", "-n", "6", "-variant", "duel"}, &out, &errOut); code != 0 {
		t.Fatalf("exit code %d: %s", code, errOut.String())
	}
	m := regexp.MustCompile(`A: (\d+) wins, (\d+) draws, (\d+) losses`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no result line in %s", out.String())
	}
	total := 0
	for _, s := range m[1:] {
		n, _ := strconv.Atoi(s)
		total += n
	}
	if total != 6 {
		t.Errorf("%d games counted, 6 played", total)
	}
	// The same seed gives the same games.
	var again bytes.Buffer
	runArena(context.Background(), []string{"-a", "random", "-b", "random", "-n", "6", "-variant", "duel", "-j", "1"}, &again, &errOut)
	if first, second := resultLines(out.String()), resultLines(again.String()); first != second {
		t.Errorf("the same seed gave\n%s\nand\n%s", first, second)
	}
}

// resultLines drops the move times, which vary from run to run.
func resultLines(report string) string {
	var keep []string
	for _, l := range strings.Split(report, "\n") {
		if !strings.HasPrefix(l, "move time") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func TestArenaBadArguments(t *testing.T) {
	tests := [][]string{
		{"-a", "grandmaster"},
		{"-b", "x"},
		{"-n", "0"},
		{"-variant", "chess"},
		{"-max-moves", "-1"},
		{"-first", "0"},
		{"-time-cap", "-1s"},
		{"extra"},
	}
	for _, args := range tests {
		var out, errOut bytes.Buffer
		if code := runArena(context.Background(), args, &out, &errOut); code != 2 {
			t.Errorf("%v: exit code %d, want 2", args, code)
		}
		if !strings.Contains(errOut.String(), "usage: strategolab arena") {
			t.Errorf("%v: no usage in %q", args, errOut.String())
		}
	}
}

func TestArenaStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	if code := runArena(ctx, []string{"-a", "random", "-b", "random", "-n", "50"}, &out, &errOut); code != 1 || out.Len() != 0 {
		t.Errorf("exit code %d, report %q; want 1 and none", code, out.String())
	}
}

// cancelAfter is a progress writer that ends a context once n games are
// reported finished, as an interrupt would.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
	bytes.Buffer
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.n -= bytes.Count(p, []byte("game "))
	if c.n <= 0 {
		c.cancel()
	}
	return c.Buffer.Write(p)
}

// TestArenaInterruptedReportsFinishedGames: an interrupt after some games
// still reports those (a long arena's hours are not lost), and says so.
func TestArenaInterruptedReportsFinishedGames(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	progress := &cancelAfter{n: 2, cancel: cancel}
	var out bytes.Buffer
	code := runArena(ctx, []string{"-a", "easy", "-b", "random", "-n", "40", "-j", "1", "-v", "-variant", "duel"}, &out, progress)
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if !strings.Contains(progress.String(), "stopped after 2 of 40 games") {
		t.Errorf("stderr %q does not say how many games were played", progress.String())
	}
	if !regexp.MustCompile(`(?m)^A: \d+ wins, \d+ draws, \d+ losses$`).MatchString(out.String()) || !strings.Contains(out.String(), ", 2 games,") {
		t.Errorf("no report of the 2 finished games:\n%s", out.String())
	}
}

func TestWilson(t *testing.T) {
	tests := []struct {
		p      float64
		n      int
		lo, hi float64
	}{
		{0.5, 100, 0.4038, 0.5962},
		{0.98, 200, 0.9496, 0.9922},
		{1, 50, 0.9287, 1},
		{0, 10, 0, 0.2775},
	}
	for _, tc := range tests {
		lo, hi := wilson(tc.p, tc.n)
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("wilson(%v, %d) = %.4f, %.4f; want %.4f, %.4f", tc.p, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestArenaRecords: -records writes each game as a Gravon record, set-ups
// included, that replays to the result the arena counted.
func TestArenaRecords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "games")
	var out, errOut bytes.Buffer
	args := []string{"-a", "easy", "-b", "random", "-n", "3", "-variant", "barrage", "-seed", "5", "-records", dir}
	if code := runArena(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit code %d, stderr %q", code, errOut.String())
	}
	m := regexp.MustCompile(`A: (\d+) wins, (\d+) draws, (\d+) losses`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no result line in %s", out.String())
	}
	var wins, draws, losses int
	for i := 1; i <= 3; i++ {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("game-%04d.xml", i)))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := game.ParseGravon(f)
		f.Close()
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		g, err := game.Replay(rec, rec.Rules)
		if err != nil {
			t.Fatalf("game %d does not replay: %v", i, err)
		}
		if g.Result() != rec.Result || !rec.Result.Over() {
			t.Errorf("game %d: replayed %v, recorded %v", i, g.Result(), rec.Result)
		}
		aSide := game.Side((i - 1) % 2)
		if want := "A (easy)"; rec.Players[aSide] != want || rec.Players[aSide.Opponent()] != "B (random)" {
			t.Errorf("game %d: players %q, want A (easy) as %s", i, rec.Players, aSide)
		}
		switch w, ok := rec.Result.Winner(); {
		case !ok:
			draws++
		case w == aSide:
			wins++
		default:
			losses++
		}
	}
	if got := fmt.Sprintf("A: %d wins, %d draws, %d losses", wins, draws, losses); got != m[0] {
		t.Errorf("the records say %q, the report %q", got, m[0])
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("%d files in the records directory, want 3", len(entries))
	}
	// A directory that cannot be made is a usage error, before any game.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if code := runArena(context.Background(), []string{"-n", "1", "-records", filepath.Join(file, "sub")}, &out, &errOut); code != 2 {
		t.Errorf("-records under a file: exit %d, want 2", code)
	}
}

// TestArenaFirst: -first K plays the games a run from game 1 plays from game
// K on (the same set-ups, sides and moves), numbered as there, so that a
// stopped run can go on where it stopped.
func TestArenaFirst(t *testing.T) {
	run := func(dir string, args ...string) string {
		args = append([]string{"-a", "easy", "-b", "normal", "-variant", "barrage", "-seed", "7", "-records", dir}, args...)
		var out, errOut bytes.Buffer
		if code := runArena(context.Background(), args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit code %d, stderr %q", args, code, errOut.String())
		}
		return out.String()
	}
	whole, tail := filepath.Join(t.TempDir(), "whole"), filepath.Join(t.TempDir(), "tail")
	run(whole, "-n", "4")
	if out := run(tail, "-n", "2", "-first", "3"); !strings.Contains(out, "2 games from game 3, seed 7") {
		t.Errorf("the report does not say where the games start: %s", out)
	}
	entries, _ := os.ReadDir(tail)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "game-0003.xml game-0004.xml" {
		t.Fatalf("-first 3 -n 2 wrote %s, want game-0003.xml game-0004.xml", got)
	}
	for _, name := range names {
		a, _ := os.ReadFile(filepath.Join(whole, name))
		b, _ := os.ReadFile(filepath.Join(tail, name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs from the whole run's (%d and %d bytes)", name, len(a), len(b))
		}
	}
}
