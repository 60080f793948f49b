package bolt

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestDumpCoversEveryBucket: every bucket of a file, and every key of its
// meta bucket, is one that Dump and Load copy, rebuild or leave for a
// reason (bucketCopy, metaCopy), so that a kind of record added later is
// not silently left behind by strategobot copydb. The file is filled by the
// copy test's records first, so that buckets made on first use are there.
func TestDumpCoversEveryBucket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "full.db")
	db, err := Open(Options{Path: path, NoSync: true, Reminders: storagetest.Reminders})
	if err != nil {
		t.Fatal(err)
	}
	storagetest.Fill(t, db)
	seen := map[string]bool{}
	err = db.bdb.View(func(tx *bbolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
			seen[string(name)] = true
			if _, ok := bucketCopy[string(name)]; !ok {
				t.Errorf("bucket %s: neither copied, rebuilt nor left by Dump and Load (add it to bucketCopy)", name)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(allBuckets, bucketSeeks) {
		if !seen[string(name)] {
			t.Errorf("bucket %s is not in the filled file: the copy test does not fill it", name)
		}
	}
	err = db.bdb.View(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketMeta).ForEach(func(k, _ []byte) error {
			if _, ok := metaCopy[string(k)]; !ok {
				t.Errorf("meta key %s: neither copied nor left by Dump and Load (add it to metaCopy)", k)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// TestCopy copies a file filled through the Store interface into a new file.
func TestCopy(t *testing.T) {
	open := func(t *testing.T) storagetest.CopyStore {
		db, err := Open(Options{Path: filepath.Join(t.TempDir(), "test.db"), NoSync: true, Reminders: storagetest.Reminders})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	storagetest.CopyTest(t, open, open)
}

// TestCopyDoubleLink: a file where two tournaments link one match, as an
// older strategobot left it, is copied, the match on the board the source
// says it plays.
func TestCopyDoubleLink(t *testing.T) {
	open := func(t *testing.T) storagetest.CopyStore {
		db, err := Open(Options{Path: filepath.Join(t.TempDir(), "test.db"), NoSync: true, Reminders: storagetest.Reminders})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	forged := func(t *testing.T) (storagetest.CopyStore, storagetest.Damage) {
		db := open(t).(*DB)
		return db, func(t *testing.T, id storage.TournamentID, data []byte) {
			if err := db.PutTournamentRecord(id, data); err != nil {
				t.Fatal(err)
			}
		}
	}
	storagetest.CopyDoubleLink(t, forged, open)
}

// TestLoadInBatches: Load commits what it is sent in batches of a bounded
// size, so that a copy of a large database does not hold all of it in
// memory (bbolt keeps every value a transaction writes until it commits):
// the first matches are in the file while later ones are still coming. A
// copy stopped on the way leaves a file Open refuses as an unfinished copy,
// and one that ends opens with every match.
func TestLoadInBatches(t *testing.T) {
	ctx := context.Background()
	scratch := func() storage.Store {
		db, err := Open(Options{Path: filepath.Join(t.TempDir(), "scratch.db"), NoSync: true, Reminders: storagetest.Reminders})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	const n = 6000 // about three batches of loadBatchBytes
	matches := storagetest.FinishedMatches(t, scratch, n, 300)
	errStopped := errors.New("stopped")
	for _, stop := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "copy.db")
		db, err := Open(Options{Path: path, NoSync: true, Reminders: storagetest.Reminders})
		if err != nil {
			t.Fatal(err)
		}
		sent, seen := 0, false
		err = db.Load(ctx, func(ctx context.Context, to storage.Sink) error {
			return matches(ctx, &sinkSpy{Sink: to, match: func() error {
				sent++
				if sent == n-1 {
					_, err := db.Match(ctx, 1)
					seen = err == nil
					if stop {
						return errStopped
					}
				}
				return nil
			}})
		})
		if !seen {
			t.Errorf("the first match was not in the file when the last but one was sent: Load holds the whole copy before it commits")
		}
		db.Close()
		again, reopen := Open(Options{Path: path, NoSync: true, Reminders: storagetest.Reminders})
		if stop {
			if !errors.Is(err, errStopped) {
				t.Errorf("a load stopped by its source: %v", err)
			}
			if !errors.Is(reopen, storage.ErrUnfinishedCopy) || !strings.Contains(reopen.Error(), path+" is a copy that was never finished") {
				t.Errorf("opening the file of a copy stopped on the way: %v, want ErrUnfinishedCopy", reopen)
			}
			continue
		}
		if err != nil || reopen != nil {
			t.Fatalf("load: %v; open after it: %v", err, reopen)
		}
		db = again
		defer db.Close()
		for _, id := range []storage.MatchID{1, n / 2, n} {
			if m, err := db.Match(ctx, id); err != nil || m.Phase.Active() {
				t.Errorf("match %d after the copy: %v", id, err)
			}
		}
		if m, err := db.CreateMatch(ctx, storagetest.NewMatch(game.VariantDuel)); err != nil || m.ID != n+1 {
			t.Errorf("a new match after the copy: %v, want id %d", err, n+1)
		}
	}
}

// sinkSpy passes records on to Sink, calling match before each match.
type sinkSpy struct {
	storage.Sink
	match func() error
}

func (s *sinkSpy) Match(m *storage.Match) error {
	if err := s.match(); err != nil {
		return err
	}
	return s.Sink.Match(m)
}

// TestDumpSkipsMalformedGameLink: an entry of idx_tournament_games that is
// not a link (a damaged file) does not stop Dump, nor so strategobot
// copydb: the entry is an index's, and the copy links each match from the
// tournaments' records, as it did while that index was only rebuilt. The
// well-formed links are sent as before.
func TestDumpSkipsMalformedGameLink(t *testing.T) {
	ctx := context.Background()
	open := func(name string) *DB {
		db, err := Open(Options{Path: filepath.Join(t.TempDir(), name), NoSync: true, Reminders: storagetest.Reminders})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	src := open("source.db")
	storagetest.Fill(t, src)
	var before storage.Dump
	if err := src.Dump(ctx, &before); err != nil {
		t.Fatal(err)
	}
	if len(before.Games) == 0 {
		t.Fatal("the filled file links no match to a tournament: this test wants one")
	}
	err := src.bdb.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketTourneyGames)
		if err := b.Put([]byte{0, 0, 0, 0, 0, 0, 0xff, 0xfe}, []byte{1, 2, 3}); err != nil { // a value too short
			return err
		}
		return b.Put([]byte{0xff}, make([]byte, 16)) // a key too short
	})
	if err != nil {
		t.Fatal(err)
	}
	var after storage.Dump
	if err := src.Dump(ctx, &after); err != nil {
		t.Fatalf("Dump of a file with malformed links: %v", err)
	}
	if len(after.Games) != len(before.Games) {
		t.Errorf("Dump sent %d links; want the %d well-formed ones", len(after.Games), len(before.Games))
	}
	dst := open("copy.db")
	if err := dst.Load(ctx, src.Dump); err != nil {
		t.Fatalf("copying a file with malformed links: %v", err)
	}
	for _, g := range before.Games {
		got, err := dst.MatchTournament(ctx, g.Match)
		if err != nil || got != g {
			t.Errorf("match %d in the copy: %+v, %v; want %+v", g.Match, got, err, g)
		}
	}
}
