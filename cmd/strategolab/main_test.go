package main

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/cli/clitest"
)

func TestDispatch(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"help", []string{"help"}, 0, "usage: strategolab", ""},
		{"-h", []string{"-h"}, 0, "Commands:", ""},
		{"help with a command describes it", []string{"help", "compare"}, 0, "usage: strategolab compare", ""},
		{"no command", nil, 2, "", "strategolab: no command given"},
		{"flags without a command", []string{"-n", "5"}, 2, "", `unknown command "-n"`},
		{"unknown command", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{"the bot is another program", []string{"run"}, 2, "", `unknown command "run"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := program().Dispatch(context.Background(), tc.args, &out, &errOut)
			if code != tc.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.code, errOut.String())
			}
			if !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", out.String(), errOut.String(), tc.stdout, tc.stderr)
			}
		})
	}
}

// TestUsageListsEveryCommand: help names each command once, with its summary.
func TestUsageListsEveryCommand(t *testing.T) {
	clitest.CheckUsage(t, program())
}

// TestCommandHelp runs each command with -h: the usage describes every flag.
func TestCommandHelp(t *testing.T) {
	clitest.CheckHelp(t, program(), map[string][]string{"arena": nil, "compare": nil, "agent": nil, "movetime": nil, "habits": nil, "beliefs": nil, "fit-behaviour": nil, "fit-moves": nil, "demon-setups": nil, "swiss-reference": nil})
}

// TestDocumentedCommandLinesParse: every command line of the README, the
// example configuration and the docs that runs strategolab names a command
// whose flags and arguments parse.
func TestDocumentedCommandLinesParse(t *testing.T) {
	clitest.CheckDocumentedLines(t, "strategolab", clitest.ProgramParser(program()), "../..", 8)
}

// TestCheckCommandLine: the check refuses what strategolab would refuse.
func TestCheckCommandLine(t *testing.T) {
	tests := []struct {
		line    string
		mention bool
		ok      bool
	}{
		{`strategolab arena -a hard -b "ext:strategolab agent -level normal" -n GAMES`, false, true},
		{"strategolab compare -battles before after", false, true},
		{"go run ./cmd/strategolab agent -level easy", false, true},
		{"strategolab", false, false},
		{"strategolab", true, true},
		{"strategolab arena -n many", false, false},
		{"strategolab compare a b c", false, false},
		{"strategolab compare -battles", true, true},
		{"strategolab run", false, false},
		{"strategolab frobnicate", true, false},
	}
	parse := clitest.ProgramParser(program())
	for _, tc := range tests {
		invocations := clitest.Invocations("strategolab", tc.line)
		if len(invocations) != 1 {
			t.Errorf("%q: %d invocations found, want 1", tc.line, len(invocations))
			continue
		}
		if err := parse(invocations[0], tc.mention); (err == nil) != tc.ok {
			t.Errorf("%q (mention %v): error %v, want ok=%v", tc.line, tc.mention, err, tc.ok)
		}
	}
}

// TestBinaryPlaysItsOwnAgent runs the built program: an arena game against
// its own agent, as docs/COMPUTER.md shows.
func TestBinaryPlaysItsOwnAgent(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategolab")
	out, err := exec.Command(bin, "arena", "-a", "random", "-b", "ext:'"+bin+"' agent -level random -seed 3", "-n", "1", "-max-moves", "300").Output()
	if err != nil {
		t.Fatalf("strategolab arena: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^A: \d wins, \d draws, \d losses$`).Match(out) || strings.Contains(string(out), "lost by") {
		t.Errorf("strategolab arena against its agent:\n%s", out)
	}
}
