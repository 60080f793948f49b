package bolt_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// crashTest is what the crash child plays, on the file at its path, and how
// often it is killed.
var crashTest = storagetest.CrashTest{
	Shape: storagetest.CrashShape{Workers: 4, ActivePerChannel: 4, MaxMoves: 120},
	Kills: 60,
	Wait:  10 * time.Second,
	Open: func(path string) (storage.Store, error) {
		db, err := bolt.Open(bolt.Options{Path: path})
		if err != nil {
			return nil, err
		}
		return db, nil
	},
}

// TestCrash runs a child process that applies moves to many matches, fsync
// on, printing an ack line after each commit, and SIGKILLs it at random
// moments (storagetest.CrashTest). After every kill the file must open and
// check clean, every match must replay to its stored result with one version
// per change, and every acknowledged change must be there.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	crashTest.Run(t, path, func(t *testing.T, acked map[storage.MatchID][]storagetest.Ack) bool {
		verifyAfterCrash(t, path, acked)
		return true
	})
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
	storagetest.CheckAfterCrash(t, db, crashTest.Shape, acked)
}
