package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/game/ucc"
	"github.com/strategobot/strategobot/internal/buildtest"
)

// The test binary stands in for outside programs: run with one of these
// variables set, it is a program instead of the tests.
const (
	// envMain makes the test binary strategolab itself, with its arguments.
	envMain = "STRATEGOLAB_TEST_MAIN"
	// envFake makes it a fake UCC program that misbehaves as the value says.
	envFake = "STRATEGOBOT_TEST_FAKE_UCC"
	// envWaiting names the file the fake program in mode "hang" creates
	// when it has been asked for its first move.
	envWaiting = "STRATEGOBOT_TEST_FAKE_WAITING"
)

// TestMain runs the test binary as the program itself, or as a fake outside
// program, when the environment says so; otherwise it runs the tests and then
// deletes the binaries they built.
func TestMain(m *testing.M) {
	if os.Getenv(envMain) != "" {
		os.Exit(program().Dispatch(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	if mode := os.Getenv(envFake); mode != "" {
		os.Exit(fakeProgram(mode))
	}
	code := m.Run()
	buildtest.Remove()
	os.Exit(code)
}

// fakeRows is a valid Classic set-up for either side: the UCC manual's.
var fakeRows = [4]string{"FB8sB479B8", "BB31555583", "6724898974", "967B669999"}

// fakeProgram answers the set-up like a program, then misbehaves at its
// first move as mode says: "bad-setup", "junk", "illegal", "timeout",
// "crash", "surrender" or "hang" (waits for good, saying so in a file).
func fakeProgram(mode string) int {
	in := ucc.NewReader(os.Stdin)
	hello, err := in.Line()
	if err != nil {
		return 1
	}
	h, err := ucc.ParseHello(hello)
	if err != nil {
		return 1
	}
	rows := fakeRows
	if mode == "bad-setup" {
		rows[0] = "FB8sB479B." // 39 pieces
	}
	fmt.Println(strings.Join(rows[:], "\n"))
	// Wait for the turn: the board's last line comes after START or a report.
	for n := 0; n < 11; n++ {
		if _, err := in.Line(); err != nil {
			return 1
		}
	}
	switch mode {
	case "junk":
		fmt.Println("I resign, good game")
	case "illegal":
		if h.Side == game.Blue {
			fmt.Println("0 6 UP") // Blue's Flag
		} else {
			fmt.Println("0 3 UP") // Red's Scout onto its own Lieutenant
		}
	case "timeout":
		time.Sleep(time.Minute)
	case "hang":
		if err := os.WriteFile(os.Getenv(envWaiting), nil, 0o644); err != nil {
			return 1
		}
		time.Sleep(time.Hour)
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal: out of coffee")
		return 3
	case "surrender":
		fmt.Println(ucc.Surrender)
	}
	in.Line() // QUIT
	return 0
}

// self is the command line that runs the test binary as a program.
func self(t *testing.T, args string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace("ext:'" + exe + "' " + args)
}

func TestArenaOutsidePrograms(t *testing.T) {
	tests := []struct {
		mode string
		want []string // regular expressions, each must match a line
	}{
		{"bad-setup", []string{
			`^A: 1 wins, 0 draws, 0 losses$`,
			`^endings: B bad set-up 1$`,
			`^game 1: B \(ext:.*\) lost by bad set-up: "FB8sB479B\./BB31555583/6724898974/967B669999": Missing: 1 Miner\.$`,
		}},
		{"junk", []string{
			`^endings: B illegal move 1$`,
			`^game 1: B \(ext:.*\) lost by illegal move: the move "I resign, good game" should start with X and Y`,
		}},
		{"illegal", []string{
			`^A: 1 wins, 0 draws, 0 losses$`,
			`^endings: B illegal move 1$`,
			`^game 1: B \(ext:.*\) lost by illegal move: game 1, ply 2: Blue \(ext:.*\) chose A7-A6: .*Flag`,
		}},
		{"timeout", []string{
			`^endings: B timeout 1$`,
			`^game 1: B \(ext:.*\) lost by timeout: no answer within 300ms while asked for a move$`,
		}},
		{"crash", []string{
			`^endings: B crash 1$`,
			`^game 1: B \(ext:.*\) lost by crash: .*exit status 3 while asked for a move; its last words: fatal: out of coffee$`,
		}},
		{"surrender", []string{
			`^A: 1 wins, 0 draws, 0 losses$`,
			`^endings: B surrender 1$`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			t.Setenv(envFake, tc.mode)
			records := t.TempDir()
			var out, errOut bytes.Buffer
			args := []string{"-a", "easy", "-b", self(t, ""), "-n", "1", "-ext-timeout", "300ms", "-records", records}
			if code := runArena(context.Background(), args, &out, &errOut); code != 0 {
				t.Fatalf("exit code %d, stderr %q", code, errOut.String())
			}
			matchLines(t, out.String(), tc.want)
			if tc.mode != "bad-setup" {
				// The game is recorded, ended by the fault.
				b, err := os.ReadFile(records + "/game-0001.xml")
				if err != nil {
					t.Fatal(err)
				}
				rec, err := game.ParseGravon(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				if w, ok := rec.Result.Winner(); !ok || w != game.Red {
					t.Errorf("recorded result %v, want Red's win", rec.Result)
				}
			}
		})
	}
}

// TestArenaAgainstTheAgent plays the computer against itself as an outside
// program (strategolab agent): the protocol is spoken both ways, every move
// refereed, and nobody faults.
func TestArenaAgainstTheAgent(t *testing.T) {
	t.Setenv(envMain, "1")
	var out, errOut bytes.Buffer
	args := []string{"-a", "normal", "-b", self(t, "agent -level easy -seed 7"), "-n", "2", "-j", "2", "-max-moves", "600", "-v"}
	if code := runArena(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit code %d, stderr %q", code, errOut.String())
	}
	matchLines(t, out.String(), []string{
		`^A: \d+ wins, \d+ draws, \d+ losses$`,
		`^endings: [a-z ]+ \d+(; [a-z ]+ \d+)*$`,
		`^move time B \(ext:.* agent -level easy -seed 7\): median .+ over \d+ moves$`,
	})
	if strings.Contains(out.String(), "lost by") {
		t.Errorf("a fault:\n%s", out.String())
	}
	// Both games were played to their end, each well past the opening.
	for _, m := range regexp.MustCompile(`after (\d+) plies`).FindAllStringSubmatch(errOut.String(), -1) {
		if len(m[1]) < 2 {
			t.Errorf("a game of %s plies:\n%s", m[1], errOut.String())
		}
	}
	if n := strings.Count(errOut.String(), "game "); n != 2 {
		t.Errorf("%d games reported:\n%s", n, errOut.String())
	}
}

// TestArenaInterruptDropsTheGameInProgress: an interrupt stops the outside
// program too, and the game in progress is dropped, not counted as the
// program's crash.
func TestArenaInterruptDropsTheGameInProgress(t *testing.T) {
	waiting := filepath.Join(t.TempDir(), "waiting")
	t.Setenv(envFake, "hang")
	t.Setenv(envWaiting, waiting)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			if _, err := os.Stat(waiting); err == nil {
				cancel() // the program is thinking about its first move
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	var out, errOut bytes.Buffer
	args := []string{"-a", "easy", "-b", self(t, ""), "-n", "1", "-ext-timeout", "1m"}
	if code := runArena(ctx, args, &out, &errOut); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if out.Len() > 0 || strings.Contains(errOut.String(), "lost by") {
		t.Errorf("the interrupted game was counted:\n%s%s", out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "stopped") {
		t.Errorf("stderr %q does not say the arena stopped", errOut.String())
	}
}

func TestArenaOutsideProgramMissing(t *testing.T) {
	var out, errOut bytes.Buffer
	code := runArena(context.Background(), []string{"-a", "easy", "-b", "ext:/nonexistent/engine -t", "-n", "1"}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "starting ext:/nonexistent/engine -t") {
		t.Errorf("exit code %d, stderr %q", code, errOut.String())
	}
}

func TestAgentArguments(t *testing.T) {
	tests := []struct {
		args    []string
		code    int
		wantErr string
	}{
		{[]string{"-variant", "barrage"}, 2, "the UCC protocol plays Classic only"},
		{[]string{"-level", "grandmaster"}, 2, "is not a level"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		if code := runAgent(context.Background(), tc.args, &out, &errOut); code != tc.code || !strings.Contains(errOut.String(), tc.wantErr) {
			t.Errorf("%v: exit code %d, stderr %q; want %d and %q", tc.args, code, errOut.String(), tc.code, tc.wantErr)
		}
	}
}

func TestAgentTalks(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		code    int
		wantOut string // a regular expression
		wantErr string
	}{
		{"Red sets up and makes the first move", "RED vixen 10 10\nSTART\n" + strings.Join([]string{
			"", "", "", "", "..++..++..", "..++..++..", "##########", "##########", "##########", "##########"}, "\n"),
			1, `^([1-9sBF]{10}\n){4}$`, "board line 1"},
		{"another board size", "RED vixen 8 8\n", 1, `^$`, "only the 10 by 10 board"},
		{"QUIT at once", "QUIT\n", 0, `^$`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := playAgent(agentConfig{level: ai.Easy, seed: 3}, strings.NewReader(tc.in), &out, &errOut)
			if code != tc.code || !strings.Contains(errOut.String(), tc.wantErr) {
				t.Errorf("exit code %d, stderr %q; want %d and %q", code, errOut.String(), tc.code, tc.wantErr)
			}
			if !regexp.MustCompile(tc.wantOut).MatchString(out.String()) {
				t.Errorf("wrote %q, want %s", out.String(), tc.wantOut)
			}
		})
	}
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"java -cp build Driver -l3 -t", []string{"java", "-cp", "build", "Driver", "-l3", "-t"}, ""},
		{"  a\tb  ", []string{"a", "b"}, ""},
		{`'/opt/my engine/run' --name "Demon of Ignorance"`, []string{"/opt/my engine/run", "--name", "Demon of Ignorance"}, ""},
		{`a\ b c`, []string{"a b", "c"}, ""},
		{`"say \"hi\" \x" ''`, []string{`say "hi" \x`, ""}, ""},
		{`it's`, nil, "unclosed ' quote"},
		{`"open`, nil, `unclosed " quote`},
		{`trailing\`, nil, "lone backslash"},
		{"", nil, ""},
	}
	for _, tc := range tests {
		got, err := splitCommand(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("splitCommand(%q) error %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("splitCommand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"ext:", "ext:  ", "ext:'x"} {
		if _, err := parseArenaSpec(bad); err == nil {
			t.Errorf("parseArenaSpec(%q): no error", bad)
		}
	}
}

// matchLines checks that each pattern matches a line of out.
func matchLines(t *testing.T, out string, patterns []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, pattern := range patterns {
		re := regexp.MustCompile(pattern)
		found := false
		for _, l := range lines {
			found = found || re.MatchString(l)
		}
		if !found {
			t.Errorf("no line matches %s in\n%s", pattern, out)
		}
	}
}

func TestQuitResult(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	g, err := game.NewGame(rules, game.RandomSetup(rules, 1), game.RandomSetup(rules, 2))
	if err != nil {
		t.Fatal(err)
	}
	full := quitResult(nil, rules, game.Blue, "ext:demon -l3", ucc.IllegalMove)
	for i := 0; i < 3; i++ {
		if _, err := g.Apply(g.LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	v := g.View(game.PublicViewer)
	values := fmt.Sprintf("%d %d", ucc.PieceValue(v.Remaining[game.Red]), ucc.PieceValue(v.Remaining[game.Blue]))
	tests := []struct{ got, want string }{
		{full, "ext:demon_-l3 BLUE ILLEGAL 1 148 148"}, // in the set-up
		{quitResult(g, rules, game.Blue, "hard", ucc.IllegalMove), "hard BLUE ILLEGAL 2 " + values},
	}
	g.Resign(game.Blue)
	tests = append(tests, struct{ got, want string }{quitResult(g, rules, game.Red, "hard", ucc.Victory), "hard RED VICTORY 2 " + values})
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("quitResult = %q, want %q", tc.got, tc.want)
		}
	}
}
