package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/internal/cli/clitest"
)

// command is strategoload as the checks of the command line see it.
func command() cli.Command {
	return cli.Command{Name: "strategoload", Run: run,
		Flags: func(w io.Writer) *flag.FlagSet { return loadFlags(new(loadOptions), w) }}
}

// TestFlags checks the refusals of the command line.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{{"-matches", "2", "-active", "3"}, {"-duration", "0s"}, {"-rate", "-1"}, {"extra"}, {"loadtest"}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "usage: strategoload") {
			t.Errorf("strategoload %q: exit %d, stderr %q; want 2 with the usage", args, code, errOut.String())
		}
	}
}

// TestHelp: -h describes every flag and the environment.
func TestHelp(t *testing.T) {
	clitest.CheckCommandHelp(t, "strategoload", command(), []string{"STRATEGOBOT_TEST_POSTGRES_BIN", "go build ./cmd/strategobot"})
}

// TestDocumentedCommandLinesParse: every command line of the README, the
// example configuration and the docs that runs strategoload parses.
func TestDocumentedCommandLinesParse(t *testing.T) {
	clitest.CheckDocumentedLines(t, "strategoload", clitest.CommandParser(command()), "../..", 4)
}

// TestLookForBot: the bot beside this program first, then on PATH, and
// without either an error that says how to build it.
func TestLookForBot(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "strategoload")
	onPath := func(string) (string, error) { return "/usr/local/bin/strategobot", nil }
	notOnPath := func(name string) (string, error) { return "", &exec.Error{Name: name, Err: exec.ErrNotFound} }

	if got, err := lookForBot(exe, onPath); err != nil || got != "/usr/local/bin/strategobot" {
		t.Errorf("nothing beside: %q, %v; want the one on PATH", got, err)
	}
	_, err := lookForBot(exe, notOnPath)
	if err == nil || !strings.Contains(err.Error(), "go build ./cmd/strategobot") || !strings.Contains(err.Error(), filepath.Join(dir, "strategobot")) {
		t.Errorf("neither: %v; want an error naming where it looked and how to build it", err)
	}
	if _, err := lookForBot("", notOnPath); err == nil || !strings.Contains(err.Error(), "no strategobot binary on PATH") || !strings.Contains(err.Error(), "go build ./cmd/strategobot") {
		t.Errorf("this program unknown and none on PATH: %v", err)
	}
	// A file that is no program does not count.
	if err := os.WriteFile(filepath.Join(dir, "strategobot"), []byte("notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := lookForBot(exe, onPath); err != nil || got != "/usr/local/bin/strategobot" {
		t.Errorf("a text file beside: %q, %v; want the one on PATH", got, err)
	}
	if err := os.Chmod(filepath.Join(dir, "strategobot"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := lookForBot(exe, onPath); err != nil || got != filepath.Join(dir, "strategobot") {
		t.Errorf("one beside: %q, %v; want it before the one on PATH", got, err)
	}
}

// TestBinaryWithoutTheBot runs the built program where no strategobot is
// beside it or on PATH: it says how to build one, and exits 2.
func TestBinaryWithoutTheBot(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategoload")
	cmd := exec.Command(bin, "-matches", "1", "-duration", "1s")
	cmd.Env = append(os.Environ(), "PATH="+t.TempDir())
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "build it with go build ./cmd/strategobot") {
		t.Errorf("strategoload without a bot: %v\n%s", err, out)
	}
}

// TestAbsoluteBot: a -bot path relative to this folder still names the
// binary from the bot's own folder; a bare name stays a PATH lookup.
func TestAbsoluteBot(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ bot, want string }{
		{"./strategobot", filepath.Join(wd, "strategobot")},
		{"bin/strategobot", filepath.Join(wd, "bin", "strategobot")},
		{"/opt/strategobot", "/opt/strategobot"},
		{"strategobot", "strategobot"},
	} {
		if got, err := absoluteBot(tc.bot); err != nil || got != tc.want {
			t.Errorf("absoluteBot(%q) = %q, %v; want %q", tc.bot, got, err, tc.want)
		}
	}
}
