package main

import (
	"testing"

	"github.com/strategobot/strategobot/internal/cli/clitest"
)

// TestDocumentedCommandLinesParse: every command line of the README, the
// example configuration and the docs that runs strategobot (or go run
// ./cmd/strategobot) names a command whose flags and arguments parse.
func TestDocumentedCommandLinesParse(t *testing.T) {
	clitest.CheckDocumentedLines(t, "strategobot", clitest.ProgramParser(program()), repoRoot, 10)
}

// TestCheckCommandLine: the check refuses what the program would refuse.
func TestCheckCommandLine(t *testing.T) {
	tests := []struct {
		line    string
		mention bool
		ok      bool
	}{
		{"strategobot", false, true},
		{"DISCORD_TOKEN=… strategobot -config PATH", false, true},
		{"strategobot check -guild SERVER_ID -channel CHANNEL_ID -user YOUR_USER_ID", false, true},
		{"go run ./cmd/strategobot replay --two-squares 5 FILES... -more-squares off", false, true},
		{"nice -n 10 ./strategobot demo -out DIR", false, true},
		{"strategobot -version", false, true},
		{"strategobot check …", false, true},
		{"strategobot frobnicate", false, false},
		{"strategobot arena -a hard", false, false},
		{"strategobot loadtest", false, false},
		{"strategobot run -token x", false, false},
		{"strategobot backup", false, false},
		{"strategobot backup a b", false, false},
		{"strategobot demo -out DIR extra", false, false},
		{"strategobot replay", false, false},
		{"strategobot backup", true, true},
		{"strategobot replay", true, true},
		{"strategobot backup a b", true, false},
		{"strategobot frobnicate", true, false},
	}
	parse := clitest.ProgramParser(program())
	for _, tc := range tests {
		invocations := clitest.Invocations("strategobot", tc.line)
		if len(invocations) != 1 {
			t.Errorf("%q: %d invocations found, want 1", tc.line, len(invocations))
			continue
		}
		if err := parse(invocations[0], tc.mention); (err == nil) != tc.ok {
			t.Errorf("%q (mention %v): error %v, want ok=%v", tc.line, tc.mention, err, tc.ok)
		}
	}
	for _, line := range []string{"go test ./cmd/strategobot -run TestCrashes", "go build -o strategobot ./cmd/strategobot",
		"sudo -u postgres createdb --owner strategobot strategobot", "pprof -top strategobot FILE", "cmd/strategobot/ the product",
		"strategolab arena -a hard", "strategoload -bot ./strategobot"} {
		if got := clitest.Invocations("strategobot", line); len(got) != 0 {
			t.Errorf("%q taken for a run of strategobot: %q", line, got)
		}
	}
}
