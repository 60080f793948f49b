package bolt_test

import (
	"path/filepath"
	"testing"

	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// openTemp opens a new database in a test directory, with the conformance
// suite's reminder schedule.
func openTemp(t testing.TB, noSync bool) *bolt.DB {
	t.Helper()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "test.db"), NoSync: noSync, Reminders: storagetest.Reminders})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return db
}

// TestConformance runs the Store suite on bbolt with fsync on: the real commit path.
func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store { return openTemp(t, false) })
}
