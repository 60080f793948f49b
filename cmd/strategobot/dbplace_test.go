package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/storage/bolt"
)

// TestDatabaseInAPlaceItCannotBe runs the built bot with its database in a
// folder that does not exist or that it may not write: it stops before
// asking Discord anything, with exit code 2 (a bad configuration, which
// systemd does not restart unchanged), naming the folder or file and what
// to do, and leaks no name of its own making (the file it builds beside
// the database).
func TestDatabaseInAPlaceItCannotBe(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	dir := t.TempDir()
	closed := filepath.Join(dir, "closed")
	if err := os.Mkdir(closed, 0o555); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "read-only.db")
	db, err := bolt.Open(bolt.Options{Path: readOnly})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := os.Chmod(readOnly, 0o444); err != nil {
		t.Fatal(err)
	}
	root := os.Geteuid() == 0 // root may write anywhere
	tests := []struct {
		name     string
		database string
		asRoot   bool // whether the case holds for root
		want     string
	}{
		{"a folder that does not exist", filepath.Join(dir, "missing", "bot.db"), true,
			"database " + filepath.Join(dir, "missing", "bot.db") + ": the folder " + filepath.Join(dir, "missing") +
				" does not exist: create it, or set database to a file in a folder that exists"},
		{"a folder it may not write", filepath.Join(closed, "bot.db"), false,
			"this user may not create files in " + closed + ": give it write access there"},
		{"a file it may not write", readOnly, false,
			"database " + readOnly + ": this user may not read and write it: make the user the bot runs as its owner"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if root && !tc.asRoot {
				t.Skip("root may write anywhere")
			}
			cmd := exec.Command(bin)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG=",
				"STRATEGOBOT_API_BASE_URL=http://127.0.0.1:1/api/v9/", "STRATEGOBOT_DATABASE="+tc.database)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 {
				t.Fatalf("ended with %v, want exit code 2; output:\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("output\n%s\nwant %q", out, tc.want)
			}
			if strings.Contains(string(out), ".new-") || strings.Contains(string(out), "connect to Discord") {
				t.Errorf("output\n%s\nnames the bot's temporary file or went on to Discord", out)
			}
		})
	}
}

// TestTwoBotsOnOneFile: a second bot on a bbolt file another one holds
// stops within the lock's wait, with exit code 1, saying what to do.
func TestTwoBotsOnOneFile(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.db")
	first, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG=",
		"STRATEGOBOT_API_BASE_URL=http://127.0.0.1:1/api/v9/", "STRATEGOBOT_DATABASE="+path)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("ended with %v, want exit code 1; output:\n%s", err, out)
	}
	want := "database " + path + " is in use by another process (is another strategobot running?): stop that one first, or give this one a database of its own"
	if !strings.Contains(string(out), want) {
		t.Errorf("output\n%s\nwant %q", out, want)
	}
}
