package postgres_test

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
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

// TestCopyDoubleLink: a database where two tournaments link one match, as
// an older strategobot left it, is copied, the match on the board the
// source says it plays: PostgreSQL to PostgreSQL, bbolt to PostgreSQL and
// back.
func TestCopyDoubleLink(t *testing.T) {
	pg := func(t *testing.T) storagetest.CopyStore { return openURL(t, pgtest.NewDatabase(t)) }
	pgForged := func(t *testing.T) (storagetest.CopyStore, storagetest.Damage) {
		url := pgtest.NewDatabase(t)
		return openURL(t, url), func(t *testing.T, id storage.TournamentID, data []byte) {
			if _, err := pgtest.Pool(t, url).Exec(context.Background(), "UPDATE tournaments SET record = $2 WHERE id = $1", int64(id), string(data)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Run("PostgresToPostgres", func(t *testing.T) { storagetest.CopyDoubleLink(t, pgForged, pg) })
	t.Run("BoltToPostgres", func(t *testing.T) { storagetest.CopyDoubleLink(t, fileForged, pg) })
	t.Run("PostgresToBolt", func(t *testing.T) { storagetest.CopyDoubleLink(t, pgForged, openFile) })
}

// reopened is a store opened again after a raw write to its file.
type reopened struct{ storagetest.CopyStore }

// fileForged opens a new bbolt file, whose tournament records the Damage
// writes raw, as an older strategobot left them: it closes the file,
// writes the record with bbolt itself and opens the file again.
func fileForged(t *testing.T) (storagetest.CopyStore, storagetest.Damage) {
	path := filepath.Join(t.TempDir(), "test.db")
	open := func() storagetest.CopyStore {
		db, err := bolt.Open(bolt.Options{Path: path, NoSync: true, Reminders: storagetest.Reminders})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	s := &reopened{open()}
	t.Cleanup(func() { s.Close() })
	return s, func(t *testing.T, id storage.TournamentID, data []byte) {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		raw, err := bbolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = raw.Update(func(tx *bbolt.Tx) error {
			return tx.Bucket([]byte("tournaments")).Put(binary.BigEndian.AppendUint64(nil, uint64(id)), data)
		})
		if cerr := raw.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		s.CopyStore = open()
	}
}

// openFile opens a new bbolt file.
func openFile(t *testing.T) storagetest.CopyStore {
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "test.db"), NoSync: true, Reminders: storagetest.Reminders})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
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

// TestLoadAfterAFailedLoad: a load that failed leaves the target's tables
// empty, but its sequences as setval left them (setval is not rolled
// back): a second copy is taken, and each sequence goes on after the
// higher of the dump's ids and those the target drew.
func TestLoadAfterAFailedLoad(t *testing.T) {
	ctx := context.Background()
	srcURL, dstURL := pgtest.NewDatabase(t), pgtest.NewDatabase(t)
	src, dst := openURL(t, srcURL), openURL(t, dstURL)
	storagetest.Fill(t, src)
	// What a failed load leaves: high and low numbers drawn, in no row.
	if _, err := pgtest.Pool(t, dstURL).Exec(ctx, "SELECT setval('match_ids', 500), setval('notice_ids', 900), setval('challenge_ids', 1)"); err != nil {
		t.Fatal(err)
	}
	last := func(url string) map[string]int64 {
		out := map[string]int64{}
		for _, name := range []string{"match_ids", "challenge_ids", "notice_ids", "tournament_ids"} {
			var n int64
			if err := pgtest.Pool(t, url).QueryRow(ctx, "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM "+name).Scan(&n); err != nil {
				t.Fatal(err)
			}
			out[name] = n
		}
		return out
	}
	before, dumped := last(dstURL), last(srcURL)
	if _, err := storage.Copy(ctx, src, dst); err != nil {
		t.Fatalf("a copy after a failed one: %v", err)
	}
	after := last(dstURL)
	for name, n := range after {
		if want := max(before[name], dumped[name]); n != want {
			t.Errorf("sequence %s at %d after the copy, want %d (the target drew %d, the source %d)", name, n, want, before[name], dumped[name])
		}
	}
}
