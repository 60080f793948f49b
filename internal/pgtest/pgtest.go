// Package pgtest gives tests a real PostgreSQL server, and Throwaway gives
// one to a command (strategoload). For tests it uses the
// server named by STRATEGOBOT_TEST_POSTGRES when that is set; otherwise it
// starts a throwaway server from the machine's PostgreSQL binaries (initdb
// and postgres, found on PATH, by pg_config, in /usr/lib/postgresql/*/bin or
// in STRATEGOBOT_TEST_POSTGRES_BIN)
// on a Unix socket in a temporary folder: one server per test binary, started
// by the first test that asks for a database and stopped by Main. Each test
// gets a new, empty database (NewDatabase).
//
// PostgreSQL refuses to run as root, so as root the throwaway server runs as
// the user nobody, in a folder under /tmp that nobody owns. It runs with fsync
// off, as nothing survives it anyway, except when benchmarks run (-test.bench)
// and for Throwaway: then its commits are as durable as a real server's.
//
// Without binaries and without STRATEGOBOT_TEST_POSTGRES the tests that need a
// database are skipped with a message saying how to run them; with
// STRATEGOBOT_TEST_POSTGRES_REQUIRED=1 (CI sets it) they fail instead.
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Environment variables that choose the server.
const (
	// EnvURL names an existing server (a connection string whose user may
	// create databases) instead of a throwaway one.
	EnvURL = "STRATEGOBOT_TEST_POSTGRES"
	// EnvRequired, when set to anything, makes a missing server a failure
	// instead of a skip.
	EnvRequired = "STRATEGOBOT_TEST_POSTGRES_REQUIRED"
	// EnvBin names the folder of initdb and postgres, for an installation
	// that is not found otherwise (such as /opt/homebrew/opt/postgresql@17/bin).
	EnvBin = "STRATEGOBOT_TEST_POSTGRES_BIN"
)

// superuser is the throwaway server's user; it needs no password on the socket.
const superuser = "strategobot"

// errNoServer says that there is no server to test against: the tests skip.
var errNoServer = errors.New("no PostgreSQL server to test against: the PostgreSQL binaries initdb and postgres " +
	"are neither on PATH nor in /usr/lib/postgresql/*/bin (nor in " + EnvBin + "), and " + EnvURL + " is not set. " +
	"To run these tests, install PostgreSQL (Debian: apt-get install postgresql) or set " + EnvURL +
	"=postgres://USER:PASSWORD@HOST/postgres naming a server where USER may create databases")

// state is the test binary's one server, started on first use.
var state struct {
	mu      sync.Mutex
	started bool
	srv     *server
	err     error
	next    atomic.Int64
}

// Main runs the tests and then stops the throwaway server, if one was
// started. Call it from TestMain: os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	state.mu.Lock()
	srv := state.srv
	state.srv = nil
	state.mu.Unlock()
	if srv != nil {
		if err := srv.stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// NewDatabase returns the connection string of a new, empty database for t,
// dropped when t ends (except on a throwaway server that benchmarks made
// durable, where dropping costs a checkpoint and the server's folder goes
// anyway). It skips t when there is no server, or fails it under EnvRequired.
func NewDatabase(t testing.TB) string {
	t.Helper()
	srv, err := get()
	if err != nil {
		if errors.Is(err, errNoServer) && os.Getenv(EnvRequired) == "" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	name := fmt.Sprintf("strategobot_test_%d_%d", os.Getpid(), state.next.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := srv.admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("pgtest: create database %s: %v", name, err)
	}
	if srv.drop {
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if _, err := srv.admin.Exec(ctx, "DROP DATABASE "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
				t.Errorf("pgtest: drop database %s: %v", name, err)
			}
		})
	}
	u, err := withDatabase(srv.base, name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// Pool connects to the database at url by plain SQL, for a test that reads
// or changes what the store keeps there behind its back; closed when t ends.
func Pool(t testing.TB, url string) *pgxpool.Pool {
	t.Helper()
	p, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatalf("pgtest: connect to the test database: %v", err)
	}
	t.Cleanup(p.Close)
	return p
}

// Throwaway starts a throwaway server for a command rather than a test
// (strategoload), as durable as a real server (fsync on), and
// returns the connection string of a new, empty database on it and a
// function that stops the server and removes its folder. It does not touch
// EnvURL's server or the one the tests share.
func Throwaway(database string) (url string, stop func() error, err error) {
	srv, err := startThrowaway(true)
	if err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := srv.admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{database}.Sanitize()); err != nil {
		_ = srv.stop()
		return "", nil, fmt.Errorf("pgtest: create database %s: %w", database, err)
	}
	if url, err = withDatabase(srv.base, database); err != nil {
		_ = srv.stop()
		return "", nil, err
	}
	return url, srv.stop, nil
}

// get returns the server, starting it on first use.
func get() (*server, error) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if !state.started {
		state.started = true
		state.srv, state.err = open()
	}
	return state.srv, state.err
}

// server is the server tests use, and its administrative connections.
type server struct {
	base  string // connection string of a database that always exists
	admin *pgxpool.Pool
	drop  bool // drop each test's database when the test ends

	// A throwaway server's process and folder; nil and "" for EnvURL's.
	proc   *exec.Cmd
	exited chan struct{}
	dir    string
}

func open() (*server, error) {
	if base := os.Getenv(EnvURL); base != "" {
		admin, err := connectAdmin(base, 10*time.Second)
		if err != nil {
			return nil, fmt.Errorf("pgtest: %s: %w", EnvURL, err)
		}
		return &server{base: base, admin: admin, drop: true}, nil
	}
	return startThrowaway(durable())
}

func connectAdmin(base string, patience time.Duration) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(base)
	if err != nil {
		return nil, errors.New("not a valid PostgreSQL connection string")
	}
	cfg.MaxConns = 2
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// startThrowaway runs initdb and postgres in a new folder and waits until the
// server accepts connections on its socket.
func startThrowaway(durable bool) (*server, error) {
	initdb, postgres, err := findBinaries()
	if err != nil {
		return nil, err
	}
	parent := os.TempDir()
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		// PostgreSQL refuses root: run it as nobody, in a folder nobody
		// reaches (TMPDIR may be private to root). /tmp also keeps the socket
		// path under the 107 bytes a Unix socket name may have.
		nobody, err := user.Lookup("nobody")
		if err != nil {
			return nil, fmt.Errorf("pgtest: running as root, PostgreSQL needs an unprivileged user: %w", err)
		}
		uid, _ := strconv.ParseUint(nobody.Uid, 10, 32)
		gid, _ := strconv.ParseUint(nobody.Gid, 10, 32)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}
		parent = "/tmp"
	}
	dir, err := os.MkdirTemp(parent, "strategobot-pg-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	srv := &server{dir: dir, drop: !durable}
	fail := func(err error) (*server, error) {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fail(fmt.Errorf("pgtest: %w", err))
		}
	}
	data := filepath.Join(dir, "data")
	init := exec.Command(initdb, "-D", data, "-U", superuser, "--auth=trust", "--no-sync", "--encoding=UTF8", "--locale=C")
	init.Dir = dir
	init.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := init.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("pgtest: %s: %v\n%s", initdb, err, out))
	}
	logFile, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		return fail(fmt.Errorf("pgtest: %w", err))
	}
	defer logFile.Close() // the server keeps its own copy of the descriptor
	args := []string{"-D", data, "-k", dir, "-c", "listen_addresses=", "-c", "shared_buffers=16MB", "-c", "max_connections=200"}
	if !durable {
		args = append(args, "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off")
	}
	srv.proc = exec.Command(postgres, args...)
	srv.proc.Dir = dir
	srv.proc.Stdout, srv.proc.Stderr = logFile, logFile
	// Its own process group, so that ^C reaches only the tests; and SIGQUIT
	// (immediate shutdown) should the test binary die without stopping it.
	srv.proc.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true, Pdeathsig: syscall.SIGQUIT}
	if err := srv.proc.Start(); err != nil {
		return fail(fmt.Errorf("pgtest: start %s: %w", postgres, err))
	}
	srv.exited = make(chan struct{})
	go func() {
		_ = srv.proc.Wait()
		close(srv.exited)
	}()
	srv.base = (&url.URL{Scheme: "postgres", User: url.User(superuser), Path: "/postgres", RawQuery: url.Values{"host": {dir}}.Encode()}).String()
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-srv.exited:
			return fail(fmt.Errorf("pgtest: %s exited at start:\n%s", postgres, tail(filepath.Join(dir, "postgres.log"))))
		default:
		}
		if srv.admin, err = connectAdmin(srv.base, time.Second); err == nil {
			return srv, nil
		}
		if time.Now().After(deadline) {
			_ = srv.stop()
			return nil, fmt.Errorf("pgtest: the server did not accept connections within 30s (%v):\n%s", err, tail(filepath.Join(dir, "postgres.log")))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// durable reports whether benchmarks run: they measure commits that reach the disk.
func durable() bool {
	f := flag.Lookup("test.bench")
	return f != nil && f.Value.String() != ""
}

// stop closes the connections and, for a throwaway server, shuts it down
// (fast shutdown, then a kill after 20 seconds) and removes its folder.
func (s *server) stop() error {
	if s.admin != nil {
		s.admin.Close()
	}
	if s.proc == nil {
		return nil
	}
	_ = s.proc.Process.Signal(syscall.SIGINT)
	var err error
	select {
	case <-s.exited:
	case <-time.After(20 * time.Second):
		_ = s.proc.Process.Kill()
		<-s.exited
		err = errors.New("the throwaway PostgreSQL server did not stop within 20s and was killed")
	}
	if rerr := os.RemoveAll(s.dir); rerr != nil && err == nil {
		err = rerr
	}
	return err
}

// findBinaries returns the paths of initdb and postgres, from one folder: EnvBin's
// when it is set, else the first that has both of PATH, pg_config --bindir and
// Debian's folders, newest version first.
func findBinaries() (initdb, postgres string, err error) {
	var dirs []string
	if dir := os.Getenv(EnvBin); dir != "" {
		dirs = []string{dir}
	} else {
		dirs = searchPath()
	}
	for _, d := range dirs {
		i, p := filepath.Join(d, "initdb"), filepath.Join(d, "postgres")
		if executable(i) && executable(p) {
			return i, p, nil
		}
	}
	return "", "", errNoServer
}

func searchPath() []string {
	var dirs []string
	if p, err := exec.LookPath("initdb"); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dirs = append(dirs, strings.TrimSpace(string(out)))
	}
	debian, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(debian, func(a, b string) int { return majorVersion(b) - majorVersion(a) }) // newest first
	return append(dirs, debian...)
}

// majorVersion reads NN from /usr/lib/postgresql/NN/bin.
func majorVersion(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func executable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

// withDatabase returns the connection string base with another database name,
// in URL (postgres://…) or keyword/value (host=… dbname=…) form.
func withDatabase(base, name string) (string, error) {
	if strings.HasPrefix(base, "postgres://") || strings.HasPrefix(base, "postgresql://") {
		u, err := url.Parse(base)
		if err != nil {
			return "", errors.New("pgtest: " + EnvURL + " is not a valid URL")
		}
		u.Path, u.RawPath = "/"+name, ""
		return u.String(), nil
	}
	return base + " dbname=" + name, nil // the last dbname wins
}

// tail returns the end of a log file, for an error message.
func tail(path string) string {
	data, _ := os.ReadFile(path)
	if len(data) > 2000 {
		data = data[len(data)-2000:]
	}
	return string(bytes.TrimSpace(data))
}
