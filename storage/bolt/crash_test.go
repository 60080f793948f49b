package bolt_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// Crash test parameters: kills, and what the child plays.
const crashKills = 60

var crashShape = storagetest.CrashShape{Workers: 4, ActivePerChannel: 4, MaxMoves: 120}

// TestCrash runs a child process that applies moves to many matches, fsync
// on, printing an ack line after each commit, and SIGKILLs it at random
// moments (storagetest.CrashChild). After every kill the file must open and
// check clean, every match must replay to its stored result with one version
// per change, and every acknowledged change must be there.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	acked := map[storage.MatchID][]storagetest.Ack{}
	total, kills := 0, 0
	start := time.Now()
	for kills < crashKills {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=crash", childEnv+"_PATH="+path)
		acks := storagetest.RunAndKill(t, cmd, 10*time.Second, time.Duration(20+r.IntN(180))*time.Millisecond)
		kills++
		for _, a := range acks {
			acked[a.ID] = append(acked[a.ID], a)
		}
		total += len(acks)
		verifyAfterCrash(t, path, acked)
	}
	if total < 10*crashKills {
		t.Errorf("only %d acknowledged changes in %d runs: the child hardly got going", total, kills)
	}
	t.Logf("%d kills, %d acknowledged changes in %d matches, all present after every kill (%s)", kills, total, len(acked), time.Since(start).Round(time.Millisecond))
}

func verifyAfterCrash(t *testing.T, path string, acked map[storage.MatchID][]storagetest.Ack) {
	t.Helper()
	db, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatalf("after a kill the file does not open: %v", err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.Check(ctx); err != nil {
		t.Fatalf("after a kill: %v", err)
	}
	storagetest.CheckAfterCrash(t, db, crashShape, acked)
}

// crashChild plays matches on the file at path until it is killed.
func crashChild(path string) {
	db, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		fmt.Println("error: open:", err)
		os.Exit(1)
	}
	storagetest.CrashChild(db, crashShape, os.Stdout)
}
