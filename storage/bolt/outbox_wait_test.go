package bolt

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// TestOutboxPastAnUnreadableMatch: a tournament's announcement that waits
// for a match (Notice.Until) whose record cannot be read is not held back
// by it, and the outbox goes on: DueNotices and NextNotice do not fail as
// a whole, which would stop every delivery.
func TestOutboxPastAnUnreadableMatch(t *testing.T) {
	db, err := Open(Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	if err := db.update(ctx, func(tx *bbolt.Tx) error {
		if err := tx.Bucket(bucketMatches).Put(idKey(7), []byte("{not a match")); err != nil {
			return err
		}
		return recordNotices(tx, []storage.Notice{{Tournament: 1, Event: storage.EventRoundClosed,
			To: storage.AudiencePublic, At: at, Until: []storage.MatchID{7}}})
	}); err != nil {
		t.Fatal(err)
	}
	if next, ok, err := db.NextNotice(ctx); err != nil || !ok || !next.Equal(at) {
		t.Fatalf("the next notice at %v (%v, %v), want %v", next, ok, err, at)
	}
	due, err := db.DueNotices(ctx, at, 0)
	if err != nil || len(due) != 1 {
		t.Fatalf("due %d notices (%v), want the announcement", len(due), err)
	}
}
