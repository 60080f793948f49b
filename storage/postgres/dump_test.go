package postgres_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/postgres"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestDumpCoversEveryTable: every table of the schema is one that Dump and
// Load copy, rebuild or leave for a reason (postgres.TableCopy), so that a
// kind of record added later is not silently left behind by strategobot
// copydb.
func TestDumpCoversEveryTable(t *testing.T) {
	url := pgtest.NewDatabase(t)
	openURL(t, url)
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(context.Background(), "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	copied := postgres.TableCopy()
	for _, table := range tables {
		if _, ok := copied[table]; !ok {
			t.Errorf("table %s: neither copied, rebuilt nor left by Dump and Load (add it to tableCopy)", table)
		}
		delete(copied, table)
	}
	for table := range copied {
		t.Errorf("tableCopy names %s, which the schema does not have", table)
	}
}

// TestCopy copies a database filled through the Store interface into an
// empty one: PostgreSQL to PostgreSQL, bbolt to PostgreSQL and back.
func TestCopy(t *testing.T) {
	pg := func(t *testing.T) storagetest.CopyStore { return openURL(t, pgtest.NewDatabase(t)) }
	file := func(t *testing.T) storagetest.CopyStore {
		db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "test.db"), NoSync: true, Reminders: storagetest.Reminders})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	t.Run("PostgresToPostgres", func(t *testing.T) { storagetest.CopyTest(t, pg, pg) })
	t.Run("BoltToPostgres", func(t *testing.T) { storagetest.CopyTest(t, file, pg) })
	t.Run("PostgresToBolt", func(t *testing.T) { storagetest.CopyTest(t, pg, file) })
}

// TestLiveLeases: a lease held is live until it expires or is given up.
func TestLiveLeases(t *testing.T) {
	ctx := context.Background()
	db := openURL(t, pgtest.NewDatabase(t))
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	if got, err := db.LiveLeases(ctx, now); err != nil || len(got) != 0 {
		t.Fatalf("a new database's live leases: %v, %v", got, err)
	}
	if ok, err := db.Lead(ctx, "timers", "a", now, 10*time.Second); err != nil || !ok {
		t.Fatalf("Lead: %v %v", ok, err)
	}
	if got, err := db.LiveLeases(ctx, now.Add(5*time.Second)); err != nil || len(got) != 1 || got[0] != "timers" {
		t.Errorf("live leases while held: %v, %v", got, err)
	}
	if got, err := db.LiveLeases(ctx, now.Add(10*time.Second)); err != nil || len(got) != 0 {
		t.Errorf("live leases once expired: %v, %v", got, err)
	}
}
