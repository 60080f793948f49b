package storage_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// Crash test parameters: kills, and the child's shape.
const (
	crashKills         = 60
	crashWorkers       = 4   // goroutines in the child, each with its own channel of matches
	crashActivePerChan = 4   // matches each worker keeps going
	crashMaxMoves      = 120 // then the match is resigned and a new one starts
)

// ack is one change the child reported as committed: match id, version, and
// the log entry it added (index and token).
type ack struct {
	id      storage.MatchID
	version uint64
	index   int
	token   string
}

// TestCrash runs a child process that applies moves to many matches, fsync
// on, printing an ack line after each commit, and SIGKILLs it at random
// moments. After every kill the file must open and check clean, every match
// must replay to its stored result, and every acknowledged change must be there.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	acked := map[storage.MatchID][]ack{}
	total, kills := 0, 0
	start := time.Now()
	for kills < crashKills {
		acks := runAndKill(t, path, time.Duration(20+r.IntN(180))*time.Millisecond)
		kills++
		for _, a := range acks {
			acked[a.id] = append(acked[a.id], a)
		}
		total += len(acks)
		verifyAfterCrash(t, path, acked)
	}
	if total < 10*crashKills {
		t.Errorf("only %d acknowledged changes in %d runs: the child hardly got going", total, kills)
	}
	t.Logf("%d kills, %d acknowledged changes in %d matches, all present after every kill (%s)", kills, total, len(acked), time.Since(start).Round(time.Millisecond))
}

// runAndKill starts the child, lets it run for d after its first ack, kills
// it with SIGKILL and returns the acks it printed.
func runAndKill(t *testing.T, path string, d time.Duration) []ack {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=crash", childEnv+"_PATH="+path)
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
	case <-time.After(10 * time.Second):
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

func verifyAfterCrash(t *testing.T, path string, acked map[storage.MatchID][]ack) {
	t.Helper()
	db, err := storage.Open(storage.Options{Path: path})
	if err != nil {
		t.Fatalf("after a kill the file does not open: %v", err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.Check(ctx); err != nil {
		t.Fatalf("after a kill: %v", err)
	}
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
}

// crashChild plays moves until it is killed, printing "ack ID VERSION INDEX
// TOKEN" after each commit (INDEX -1 for a match's creation and set-ups).
func crashChild(path string) {
	db, err := storage.Open(storage.Options{Path: path})
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

func crashWorker(db *storage.DB, w int, say func(string, ...any)) error {
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
