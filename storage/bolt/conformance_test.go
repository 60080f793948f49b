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

// TestUnreadableTournaments: a damaged tournament record holds up no other.
func TestUnreadableTournaments(t *testing.T) {
	storagetest.UnreadableTournaments(t, func(t *testing.T) (storage.Store, storagetest.Damage) {
		db := openTemp(t, true)
		return db, func(t *testing.T, id storage.TournamentID, data []byte) {
			if err := db.PutTournamentRecord(id, data); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestUnreadableSeeks: a damaged seek holds up no other of its queue.
func TestUnreadableSeeks(t *testing.T) {
	storagetest.UnreadableSeeks(t, func(t *testing.T) (storage.Store, storagetest.DamageSeek) {
		db := openTemp(t, true)
		return db, func(t *testing.T, guild, user string, data []byte) {
			if err := db.PutSeekRecord(guild, user, data); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestUnreadableNotices: a damaged notice holds up no other queue.
func TestUnreadableNotices(t *testing.T) {
	storagetest.UnreadableNotices(t, func(t *testing.T) (storage.Store, storagetest.DamageNotice) {
		db := openTemp(t, true)
		return db, func(t *testing.T, id uint64, data []byte) {
			if err := db.PutNoticeRecord(id, data); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestUnreadableMatches: a damaged match hides no other of its lists.
func TestUnreadableMatches(t *testing.T) {
	storagetest.UnreadableMatches(t, func(t *testing.T) (storage.Store, storagetest.DamageMatch) {
		db := openTemp(t, true)
		return db, func(t *testing.T, id storage.MatchID, data []byte) {
			if err := db.PutMatchRecord(id, data); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestUnreadableChallenges: a damaged challenge hides no other of its lists.
func TestUnreadableChallenges(t *testing.T) {
	storagetest.UnreadableChallenges(t, func(t *testing.T) (storage.Store, storagetest.DamageChallenge) {
		db := openTemp(t, true)
		return db, func(t *testing.T, id storage.ChallengeID, data []byte) {
			if err := db.PutChallengeRecord(id, data); err != nil {
				t.Fatal(err)
			}
		}
	})
}
