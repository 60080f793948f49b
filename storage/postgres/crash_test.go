package postgres_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
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

// Crash test parameters: kills, and the child's shape.
const (
	crashKills         = 15
	crashWorkers       = 4  // goroutines in the child, each with its own channel of matches
	crashActivePerChan = 3  // matches each worker keeps going
	crashMaxMoves      = 40 // then the match is resigned (and rated) and a new one starts
)

// ack is one change the child reported as committed: match id, version, and
// the log entry it added (index and token; -1 for a creation or a set-up).
type ack struct {
	id      storage.MatchID
	version uint64
	index   int
	token   string
}

// TestCrash runs a child process that plays many matches on the database,
// printing an ack after each commit, and SIGKILLs it at random moments, when
// some of its transactions are under way. The server keeps the truth: after
// every kill each acknowledged change is there, every match replays to its
// stored result with one version per change, every finished match is counted
// in the standings exactly once, and no match stays locked by the dead
// process's transactions.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	url := pgtest.NewDatabase(t)
	openURL(t, url) // migrated before the first child starts
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	acked := map[storage.MatchID][]ack{}
	total, finished := 0, 0
	start := time.Now()
	for range crashKills {
		acks := runAndKill(t, url, time.Duration(20+r.IntN(180))*time.Millisecond)
		waitForSessionsToEnd(t, url)
		for _, a := range acks {
			acked[a.id] = append(acked[a.id], a)
		}
		total += len(acks)
		finished = verifyAfterCrash(t, url, acked)
	}
	if total < 10*crashKills || finished == 0 {
		t.Errorf("only %d acknowledged changes and %d finished matches in %d runs: the child hardly got going", total, finished, crashKills)
	}
	t.Logf("%d kills, %d acknowledged changes in %d matches (%d finished and rated), all present after every kill (%s)",
		crashKills, total, len(acked), finished, time.Since(start).Round(time.Millisecond))
}

// runAndKill starts the child, lets it run for d after its first ack, kills
// it with SIGKILL and returns the acks it printed.
func runAndKill(t *testing.T, url string, d time.Duration) []ack {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=crash", childEnv+"_URL="+withParam(url, "application_name", childApp))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acks []ack
	var errLine string
	first := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		signalled := false
		for sc.Scan() {
			line := sc.Text()
			if a, ok := parseAck(line); ok {
				acks = append(acks, a)
			} else if strings.HasPrefix(line, "error") {
				errLine = line
			}
			if !signalled {
				signalled = true
				close(first)
			}
		}
		if !signalled {
			close(first)
		}
	}()
	select {
	case <-first:
	case <-time.After(20 * time.Second):
	}
	time.Sleep(d)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
	_ = cmd.Wait()
	if errLine != "" {
		t.Fatalf("child: %s", errLine)
	}
	return acks
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

func parseAck(line string) (ack, bool) {
	f := strings.Fields(line)
	if len(f) != 5 || f[0] != "ack" {
		return ack{}, false
	}
	id, err1 := strconv.ParseUint(f[1], 10, 64)
	v, err2 := strconv.ParseUint(f[2], 10, 64)
	i, err3 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || err3 != nil {
		return ack{}, false
	}
	return ack{storage.MatchID(id), v, i, f[4]}, true
}

// verifyAfterCrash checks the database after a kill and returns the number of finished matches.
func verifyAfterCrash(t *testing.T, url string, acked map[storage.MatchID][]ack) int {
	t.Helper()
	db, err := postgres.Open(context.Background(), postgres.Options{URL: url})
	if err != nil {
		t.Fatalf("after a kill: %v", err)
	}
	defer db.Close()
	ctx := context.Background()
	for id, list := range acked {
		m, err := db.Match(ctx, id)
		if err != nil {
			t.Fatalf("acknowledged match %d: %v", id, err)
		}
		storagetest.CheckReplay(t, m)
		for _, a := range list {
			if m.Version < a.version {
				t.Fatalf("match %d is at version %d, but version %d was acknowledged", id, m.Version, a.version)
			}
			if a.index >= 0 && (a.index >= len(m.Log) || m.Log[a.index].String() != a.token) {
				t.Fatalf("match %d: acknowledged action %d %s is missing", id, a.index, a.token)
			}
		}
	}
	finished := 0
	for w := range crashWorkers {
		channel := fmt.Sprintf("crash-%d", w)
		for _, active := range []bool{true, false} {
			list, err := db.ChannelMatches(ctx, channel, active, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range list {
				checkVersion(t, m)
				if m.Phase == storage.PhaseFinished {
					finished++
				}
				if m.Phase == storage.PhasePlaying {
					playOneMove(t, db, m)
				}
			}
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

// checkVersion: version 1 at creation, one per confirmed set-up, one per
// logged action; anything else is a change half made.
func checkVersion(t *testing.T, m *storage.Match) {
	t.Helper()
	want := uint64(1 + len(m.Log))
	for _, s := range m.Setups {
		if s.Status == storage.SetupConfirmed {
			want++
		}
	}
	if m.Version != want {
		t.Fatalf("match %d at version %d with %d actions, want %d", m.ID, m.Version, len(m.Log), want)
	}
}

// playOneMove plays a move within seconds: no transaction of the killed
// process still holds the match.
func playOneMove(t *testing.T, db *postgres.DB, m *storage.Match) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	side, mv := storagetest.RandomMove(t, m, rand.New(rand.NewPCG(m.Version, 3)))
	if _, _, err := db.ApplyMove(ctx, m.ID, m.Version, side, mv, time.Now()); err != nil {
		t.Fatalf("match %d after a kill: %v", m.ID, err)
	}
}

// TestKilledInsideATransaction kills a process that holds a match's row with
// an uncommitted change: the change is gone and the match is free at once.
func TestKilledInsideATransaction(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	db := openURL(t, url)
	m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), 1)

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=hold", childEnv+"_URL="+url, childEnv+"_MATCH="+m.ID.String())
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

// holdChild locks a match's row, changes it without committing, says
// "holding" and waits to be killed.
func holdChild(url string) {
	ctx := context.Background()
	id, _ := strconv.ParseInt(os.Getenv(childEnv+"_MATCH"), 10, 64)
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

// crashChild plays matches until it is killed, printing "ack ID VERSION
// INDEX TOKEN" after each commit.
func crashChild(url string) {
	db, err := postgres.Open(context.Background(), postgres.Options{URL: url})
	if err != nil {
		fmt.Println("error: open:", err)
		os.Exit(1)
	}
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		fmt.Printf(format+"\n", args...)
		mu.Unlock()
	}
	for w := range crashWorkers {
		go func() {
			if err := crashWorker(db, w, say); err != nil {
				say("error: worker %d: %v", w, err)
			}
		}()
	}
	select {}
}

func crashWorker(db storage.Store, w int, say func(string, ...any)) error {
	ctx := context.Background()
	channel := fmt.Sprintf("crash-%d", w)
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(w)))
	for {
		active, err := db.ChannelMatches(ctx, channel, true, 0)
		if err != nil {
			return err
		}
		if len(active) < crashActivePerChan {
			m := storagetest.NewMatch(game.VariantClassic)
			m.ChannelID, m.Created = channel, time.Now()
			if m, err = db.CreateMatch(ctx, m); err != nil {
				return err
			}
			say("ack %d %d -1 create", m.ID, m.Version)
			continue
		}
		m := active[r.IntN(len(active))]
		if m.Phase == storage.PhaseSetup {
			side := game.Red
			if m.Setups[side].Status == storage.SetupConfirmed {
				side = game.Blue
			}
			if m, err = db.SetSetup(ctx, m.ID, m.Version, side, game.RandomSetup(m.Rules, r.Uint64()), storage.SetupConfirmed, time.Now()); err != nil {
				return err
			}
			say("ack %d %d -1 setup", m.ID, m.Version)
			continue
		}
		if m.Moves() >= crashMaxMoves {
			if m, err = db.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: time.Now()}); err != nil {
				return err
			}
			say("ack %d %d %d %s", m.ID, m.Version, len(m.Log)-1, m.Log[len(m.Log)-1])
			continue
		}
		g, err := m.Game()
		if err != nil {
			return err
		}
		moves := g.LegalMoves()
		next, _, err := db.ApplyMove(ctx, m.ID, m.Version, g.ToMove(), moves[r.IntN(len(moves))], time.Now())
		if err != nil {
			return err
		}
		say("ack %d %d %d %s", next.ID, next.Version, len(next.Log)-1, next.Log[len(next.Log)-1])
	}
}
