package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// bucketSeeks holds the queues: guild 0 user → seek record, so that a
// server's queue is one prefix and a member has one seek per server. It is
// made by the first seek, so that databases made before it need no
// migration; a database without it has empty queues.
var bucketSeeks = []byte("seeks")

// bucketSeekExpiry keeps each seek's expiry beside its record, under the
// same key (big-endian unix seconds), so that a seek whose record cannot
// be read still expires: lists leave it out once expired, as PostgreSQL's
// column expires_at does, and the next PlaceSeek in its server drops it.
// Made with bucketSeeks' first seek after it; a seek stored before has
// none, and one of those that cannot be read is listed as it was before.
var bucketSeekExpiry = []byte("idx_seek_expiry")

func seekKey(guildID, userID string) []byte { return append(prefixKey(guildID), userID...) }

// putSeek stores s and its expiry.
func putSeek(tx *bbolt.Tx, s *storage.Seek) error {
	data, err := storage.EncodeSeek(s)
	if err != nil {
		return err
	}
	return putSeekRecord(tx, seekKey(s.GuildID, s.Player.UserID), data, s.Expires)
}

// putSeekRecord stores a seek's record under k, and its expiry.
func putSeekRecord(tx *bbolt.Tx, k, data []byte, expires time.Time) error {
	if err := tx.Bucket(bucketSeeks).Put(k, data); err != nil {
		return err
	}
	x, err := tx.CreateBucketIfNotExists(bucketSeekExpiry)
	if err != nil {
		return err
	}
	return x.Put(k, binary.BigEndian.AppendUint64(nil, uint64(max(expires.Unix(), 0))))
}

// deleteSeek removes a member's seek and its expiry.
func deleteSeek(tx *bbolt.Tx, guildID, userID string) error {
	k := seekKey(guildID, userID)
	if err := tx.Bucket(bucketSeeks).Delete(k); err != nil {
		return err
	}
	if x := tx.Bucket(bucketSeekExpiry); x != nil {
		return x.Delete(k)
	}
	return nil
}

// seekExpired reports whether the seek under key k expired by now, by its
// stored expiry (false when it has none).
func seekExpired(tx *bbolt.Tx, k []byte, now time.Time) bool {
	x := tx.Bucket(bucketSeekExpiry)
	if x == nil {
		return false
	}
	v := x.Get(k)
	return len(v) == 8 && !now.Before(time.Unix(int64(binary.BigEndian.Uint64(v)), 0))
}

// queue returns a server's seeks, oldest first, each with its member's
// rating now (one whose standing cannot be read keeps the rating it was
// stored with), and those it cannot read
// (a *storage.UnreadableError, which names their members), which hold up
// no other; of these, those that expired by now are left out, and named
// in expired instead.
func queue(tx *bbolt.Tx, guildID string, now time.Time) (q []*storage.Seek, expired []string, bad error) {
	b := tx.Bucket(bucketSeeks)
	if b == nil {
		return nil, nil, nil
	}
	unread := storage.NewUnreadable("seek")
	prefix := prefixKey(guildID)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		s, err := storage.DecodeSeek(v)
		switch {
		case err != nil && seekExpired(tx, k, now):
			expired = append(expired, string(k[len(prefix):]))
		case err != nil:
			unread.AddKey(0, string(k[len(prefix):]), err)
		default:
			if st, err := loadStanding(tx, guildID, s.Rules.Variant, s.Player.UserID); err == nil {
				s.Rating = storage.RoundRating(st.Rating)
			}
			q = append(q, s)
		}
	}
	storage.SortSeeks(q)
	return q, expired, unread.Err()
}

// PlaceSeek puts a seek in its server's queue or makes its match.
func (db *DB) PlaceSeek(ctx context.Context, s *storage.Seek, partnerSide game.Side) (storage.SeekOutcome, error) {
	var out storage.SeekOutcome
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(bucketSeeks); err != nil {
			return err
		}
		q, expired, unread := queue(tx, s.GuildID, s.Created) // one that cannot be read is passed over
		for _, user := range expired {
			// One that cannot be read, expired: dropped as PlanSeek drops
			// the others.
			if err := deleteSeek(tx, s.GuildID, user); err != nil {
				return err
			}
		}
		var bad *storage.UnreadableError
		if errors.As(unread, &bad) && slices.Contains(bad.Keys, s.Player.UserID) {
			// The member's own, which cannot be read: the new one replaces it.
			if err := deleteSeek(tx, s.GuildID, s.Player.UserID); err != nil {
				return err
			}
		}
		plan, err := db.Changes().PlanSeek(q, s, partnerSide)
		if err != nil {
			return err
		}
		for _, r := range plan.Remove {
			if err := deleteSeek(tx, r.GuildID, r.Player.UserID); err != nil {
				return err
			}
		}
		out = plan.Outcome
		if m := out.Match; m != nil {
			seq, err := tx.Bucket(bucketMatches).NextSequence()
			if err != nil {
				return err
			}
			m.ID = storage.MatchID(seq)
			return db.saveMatch(tx, nil, m, nil, m.Created)
		}
		return putSeek(tx, out.Seek)
	})
	if err != nil {
		return storage.SeekOutcome{}, err
	}
	return out, nil
}

// Seeks returns a server's waiting seeks, oldest first.
func (db *DB) Seeks(ctx context.Context, guildID string, now time.Time) ([]*storage.Seek, error) {
	var out []*storage.Seek
	var unread error
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		var q []*storage.Seek
		q, _, unread = queue(tx, guildID, now)
		out = storage.LiveSeeks(q, now)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, unread
}

// DeleteSeek takes a member's seek out of a server's queue.
func (db *DB) DeleteSeek(ctx context.Context, guildID, userID string) (*storage.Seek, error) {
	var out *storage.Seek
	var bad error
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		out, bad = nil, nil
		b := tx.Bucket(bucketSeeks)
		var data []byte
		if b != nil {
			data = b.Get(seekKey(guildID, userID))
		}
		if data == nil {
			return fmt.Errorf("seek of %s: %w", userID, storage.ErrNotFound)
		}
		out, bad = storage.DecodeSeek(data) // one that cannot be read goes all the same
		return deleteSeek(tx, guildID, userID)
	})
	if err != nil {
		return nil, err
	}
	return out, bad
}
