package bolt

import (
	"bytes"
	"context"
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

func seekKey(guildID, userID string) []byte { return append(prefixKey(guildID), userID...) }

// queue returns a server's seeks, oldest first, and those it cannot read
// (a *storage.UnreadableError, which names their members), which hold up
// no other.
func queue(tx *bbolt.Tx, guildID string) ([]*storage.Seek, error) {
	b := tx.Bucket(bucketSeeks)
	if b == nil {
		return nil, nil
	}
	var out []*storage.Seek
	unread := storage.NewUnreadable("seek")
	prefix := prefixKey(guildID)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		s, err := storage.DecodeSeek(v)
		if err != nil {
			unread.AddKey(0, string(k[len(prefix):]), err)
			continue
		}
		out = append(out, s)
	}
	storage.SortSeeks(out)
	return out, unread.Err()
}

// PlaceSeek puts a seek in its server's queue or makes its match.
func (db *DB) PlaceSeek(ctx context.Context, s *storage.Seek, partnerSide game.Side) (storage.SeekOutcome, error) {
	var out storage.SeekOutcome
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketSeeks)
		if err != nil {
			return err
		}
		q, unread := queue(tx, s.GuildID) // one that cannot be read is passed over
		var bad *storage.UnreadableError
		if errors.As(unread, &bad) && slices.Contains(bad.Keys, s.Player.UserID) {
			// The member's own, which cannot be read: the new one replaces it.
			if err := b.Delete(seekKey(s.GuildID, s.Player.UserID)); err != nil {
				return err
			}
		}
		plan, err := db.Changes().PlanSeek(q, s, partnerSide)
		if err != nil {
			return err
		}
		for _, r := range plan.Remove {
			if err := b.Delete(seekKey(r.GuildID, r.Player.UserID)); err != nil {
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
		data, err := storage.EncodeSeek(out.Seek)
		if err != nil {
			return err
		}
		return b.Put(seekKey(s.GuildID, s.Player.UserID), data)
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
		q, unread = queue(tx, guildID)
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
		return b.Delete(seekKey(guildID, userID))
	})
	if err != nil {
		return nil, err
	}
	return out, bad
}
