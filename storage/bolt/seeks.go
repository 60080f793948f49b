package bolt

import (
	"bytes"
	"context"
	"fmt"
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

// queue returns a server's seeks, oldest first.
func queue(tx *bbolt.Tx, guildID string) ([]*storage.Seek, error) {
	b := tx.Bucket(bucketSeeks)
	if b == nil {
		return nil, nil
	}
	var out []*storage.Seek
	prefix := prefixKey(guildID)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		s, err := storage.DecodeSeek(v)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	storage.SortSeeks(out)
	return out, nil
}

// PlaceSeek puts a seek in its server's queue or makes its match.
func (db *DB) PlaceSeek(ctx context.Context, s *storage.Seek, partnerSide game.Side) (storage.SeekOutcome, error) {
	var out storage.SeekOutcome
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketSeeks)
		if err != nil {
			return err
		}
		q, err := queue(tx, s.GuildID)
		if err != nil {
			return err
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
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		q, err := queue(tx, guildID)
		out = storage.LiveSeeks(q, now)
		return err
	})
	return out, err
}

// DeleteSeek takes a member's seek out of a server's queue.
func (db *DB) DeleteSeek(ctx context.Context, guildID, userID string) (*storage.Seek, error) {
	var out *storage.Seek
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		out = nil
		b := tx.Bucket(bucketSeeks)
		var data []byte
		if b != nil {
			data = b.Get(seekKey(guildID, userID))
		}
		if data == nil {
			return fmt.Errorf("seek of %s: %w", userID, storage.ErrNotFound)
		}
		s, err := storage.DecodeSeek(data)
		if err != nil {
			return err
		}
		out = s
		return b.Delete(seekKey(guildID, userID))
	})
	return out, err
}
