package bolt

import (
	"path/filepath"
	"testing"

	bbolt "go.etcd.io/bbolt"

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
