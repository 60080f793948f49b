package postgres_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/postgres"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// crashTest is what the crash child plays, on the database at its URL, and
// how often it is killed.
var crashTest = storagetest.CrashTest{
	Shape: storagetest.CrashShape{Workers: 4, ActivePerChannel: 3, MaxMoves: 40},
	Kills: 15,
	Wait:  20 * time.Second,
	Open: func(url string) (storage.Store, error) {
		db, err := postgres.Open(context.Background(), postgres.Options{URL: url})
		if err != nil {
			return nil, err
		}
		return db, nil
	},
}

// TestCrash runs a child process that plays many matches on the database,
// printing an ack after each commit, and SIGKILLs it at random moments, when
// some of its transactions are under way (storagetest.CrashTest). The
// server keeps the truth: after every kill each acknowledged change is
// there, every match replays to its stored result with one version per
// change, every finished match is counted in the standings exactly once, and
// no match stays locked by the dead process's transactions. The child runs
// again until a match has finished.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	url := pgtest.NewDatabase(t)
	openURL(t, url) // migrated before the first child starts
	finished := 0
	crashTest.Run(t, withParam(url, "application_name", childApp), func(t *testing.T, acked map[storage.MatchID][]storagetest.Ack) bool {
		waitForSessionsToEnd(t, url)
		finished = verifyAfterCrash(t, url, acked)
		return finished > 0
	})
	t.Logf("%d matches finished and rated", finished)
}

// childApp is the application_name of the child's connections.
const childApp = "strategobot-crash-child"

// withParam adds a parameter to a connection string.
func withParam(url, key, value string) string {
	switch {
	case !postgres.IsURL(url):
		return url + " " + key + "=" + value
	case strings.Contains(url, "?"):
		return url + "&" + key + "=" + value
	}
	return url + "?" + key + "=" + value
}

// waitForSessionsToEnd waits until the server has ended the killed child's
// sessions. Until then it may still run what the child sent before it died:
// a COMMIT already in its socket commits, unacknowledged.
func waitForSessionsToEnd(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", childApp).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("10s after the kill, the server still has %d sessions of the dead process", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// verifyAfterCrash checks the database after a kill and returns the number of finished matches.
func verifyAfterCrash(t *testing.T, url string, acked map[storage.MatchID][]storagetest.Ack) int {
	t.Helper()
	db, err := postgres.Open(context.Background(), postgres.Options{URL: url})
	if err != nil {
		t.Fatalf("after a kill: %v", err)
	}
	defer db.Close()
	ctx := context.Background()
	finished := 0
	for _, m := range storagetest.CheckAfterCrash(t, db, crashTest.Shape, acked) {
		if m.Phase == storage.PhasePlaying {
			// The move may end the match (its last move before the limit):
			// then it is rated, and counted as finished below.
			m = playOneMove(t, db, m)
		}
		if m.Phase == storage.PhaseFinished {
			finished++
		}
	}
	table, err := db.Standings(ctx, "g1", game.VariantClassic, 0)
	if err != nil {
		t.Fatal(err)
	}
	counted := 0
	for _, s := range table {
		counted += s.Played()
	}
	if counted != 2*finished {
		t.Fatalf("%d finished matches, but the standings count %d games (want %d)", finished, counted, 2*finished)
	}
	return finished
}

// playOneMove plays a move within seconds (no transaction of the killed
// process still holds the match) and returns the match after it.
func playOneMove(t *testing.T, db *postgres.DB, m *storage.Match) *storage.Match {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	side, mv := storagetest.RandomMove(t, m, rand.New(rand.NewPCG(m.Version, 3)))
	// In its time: now, or for a match started long ago (storagetest.T0)
	// just before its deadline, as a move after it is refused (ErrTimeUp).
	at := time.Now()
	if !m.Deadline.IsZero() && !at.Before(m.Deadline) {
		at = m.Deadline.Add(-time.Minute)
	}
	after, _, err := db.ApplyMove(ctx, m.ID, m.Version, side, mv, at)
	if err != nil {
		t.Fatalf("match %d after a kill: %v", m.ID, err)
	}
	return after
}

// TestKilledInsideATransaction kills a process that holds a match's row with
// an uncommitted change: the change is gone and the match is free at once.
func TestKilledInsideATransaction(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	db := openURL(t, url)
	m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), 1)

	cmd := storagetest.ChildCommand("hold", url, holdMatchEnv+"="+m.ID.String())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "holding" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("child: %q", line)
	}
	// While the child lives, the match is locked.
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	side, mv := storagetest.RandomMove(t, m, rand.New(rand.NewPCG(1, 1)))
	if _, _, err := db.ApplyMove(short, m.ID, m.Version, side, mv, storagetest.T0); err == nil {
		t.Fatal("a move went through while another process held the match")
	}
	cancel()
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()

	got, err := db.Match(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != m.Version || len(got.Log) != 0 {
		t.Fatalf("the killed transaction left a change: %s", fmt.Sprint(got.Version, len(got.Log)))
	}
	playOneMove(t, db, got)
}

// holdMatchEnv names the match the hold child locks.
const holdMatchEnv = "POSTGRES_TEST_HOLD_MATCH"

// holdChild locks a match's row (holdMatchEnv), changes it without
// committing, says "holding" and waits to be killed.
func holdChild(url string) {
	ctx := context.Background()
	id, _ := strconv.ParseInt(os.Getenv(holdMatchEnv), 10, 64)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	tx, err := conn.Begin(ctx)
	if err == nil {
		_, err = tx.Exec(ctx, "UPDATE matches SET version = version + 1, record = jsonb_set(record, '{log}', '\"A4A5+1\"') WHERE id = $1", id)
	}
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("holding")
	select {}
}
