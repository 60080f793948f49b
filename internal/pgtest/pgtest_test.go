package pgtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// TestNewDatabase: each call gives a new, empty database that accepts tables.
func TestNewDatabase(t *testing.T) {
	ctx := context.Background()
	seen := map[string]bool{}
	for range 2 {
		conn, err := pgx.Connect(ctx, NewDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		var name, started string
		var tables int
		err = conn.QueryRow(ctx, "SELECT current_database(), (SELECT count(*) FROM pg_tables WHERE schemaname = 'public'), pg_postmaster_start_time()::text").Scan(&name, &tables, &started)
		t.Logf("database %s of the server started at %s", name, started)
		if err == nil {
			_, err = conn.Exec(ctx, "CREATE TABLE t (x int)")
		}
		conn.Close(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if seen[name] || tables != 0 {
			t.Fatalf("database %s seen before or not empty (%d tables)", name, tables)
		}
		seen[name] = true
	}
}

// TestWithoutServer runs TestNewDatabase in a child process that finds no
// binaries and has no server named: it is skipped with a message saying how
// to run it, or fails when a server is required.
func TestWithoutServer(t *testing.T) {
	tests := []struct {
		name     string
		required string
		fails    bool
		want     string
	}{
		{"skipped", "", false, "--- SKIP: TestNewDatabase"},
		{"required", "1", true, "--- FAIL: TestNewDatabase"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestNewDatabase$", "-test.v")
			cmd.Env = append(os.Environ(), EnvBin+"="+filepath.Join(os.TempDir(), "none"), EnvURL+"=", EnvRequired+"="+tc.required)
			out, err := cmd.CombinedOutput()
			if (err != nil) != tc.fails || !strings.Contains(string(out), tc.want) || !strings.Contains(string(out), "apt-get install postgresql") {
				t.Fatalf("exit %v, output:\n%s", err, out)
			}
		})
	}
}

// TestNamedServer runs TestNewDatabase in a child process given this
// process's server by EnvURL: the child creates its databases there and
// drops them when its tests end.
func TestNamedServer(t *testing.T) {
	NewDatabase(t) // starts the server, or skips
	srv, _ := get()
	cmd := exec.Command(os.Args[0], "-test.run=^TestNewDatabase$", "-test.v")
	cmd.Env = append(os.Environ(), EnvURL+"="+srv.base)
	out, err := cmd.CombinedOutput()
	var started string
	if err := srv.admin.QueryRow(context.Background(), "SELECT pg_postmaster_start_time()::text").Scan(&started); err != nil {
		t.Fatal(err)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNewDatabase") || !strings.Contains(string(out), "server started at "+started) {
		t.Fatalf("exit %v; the child did not use this server (started at %s):\n%s", err, started, out)
	}
	var left int
	pattern := fmt.Sprintf("strategobot_test_%d_%%", cmd.Process.Pid)
	if err := srv.admin.QueryRow(context.Background(), "SELECT count(*) FROM pg_database WHERE datname LIKE $1", pattern).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("the child left %d databases", left)
	}
}

// TestFindBinaries: the folder named by EnvBin is used when it has both programs.
func TestFindBinaries(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvBin, dir)
	if _, _, err := findBinaries(); err != errNoServer {
		t.Fatalf("an empty folder: %v", err)
	}
	for _, name := range []string{"initdb", "postgres"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	initdb, postgres, err := findBinaries()
	if err != nil || initdb != filepath.Join(dir, "initdb") || postgres != filepath.Join(dir, "postgres") {
		t.Fatalf("found %q %q %v", initdb, postgres, err)
	}
}

func TestWithDatabase(t *testing.T) {
	tests := []struct{ base, want string }{
		{"postgres://u:p@h:5432/postgres?sslmode=disable", "postgres://u:p@h:5432/db1?sslmode=disable"},
		{"postgresql://u@/postgres?host=%2Ftmp%2Fx", "postgresql://u@/db1?host=%2Ftmp%2Fx"},
		{"host=h user=u dbname=postgres", "host=h user=u dbname=postgres dbname=db1"},
	}
	for _, tc := range tests {
		got, err := withDatabase(tc.base, "db1")
		if err != nil || got != tc.want {
			t.Errorf("withDatabase(%q) = %q, %v; want %q", tc.base, got, err, tc.want)
		}
		if cfg, err := pgx.ParseConfig(got); err != nil {
			t.Errorf("%q: %v", got, err)
		} else if cfg.Database != "db1" {
			t.Errorf("%q names database %q", got, cfg.Database)
		}
	}
}
