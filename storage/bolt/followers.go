package bolt

import (
	"context"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// Followers (see storage, "The outbox") have a bucket of their own, one
// key (match id, user id) per follower: beside the match, not in it, so that
// following never changes the match's version and the players' menus stay
// valid.

// Follow adds (on) or removes a follower of a match: see storage.Store.
func (db *DB) Follow(ctx context.Context, id storage.MatchID, userID string, on bool) error {
	if userID == "" {
		return fmt.Errorf("a follower needs a user id: %w", storage.ErrInvalid)
	}
	return db.update(ctx, func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketMatches).Get(idKey(uint64(id))) == nil {
			return fmt.Errorf("match %d: %w", id, storage.ErrNotFound)
		}
		k := append(idKey(uint64(id)), userID...)
		if on {
			return tx.Bucket(bucketFollowers).Put(k, []byte{})
		}
		return tx.Bucket(bucketFollowers).Delete(k)
	})
}

// Followers returns who follows a match, ordered by user id.
func (db *DB) Followers(ctx context.Context, id storage.MatchID) ([]string, error) {
	var out []string
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		prefix := idKey(uint64(id))
		c := tx.Bucket(bucketFollowers).Cursor()
		for k, _ := c.Seek(prefix); k != nil && len(k) > len(prefix) && string(k[:len(prefix)]) == string(prefix); k, _ = c.Next() {
			out = append(out, string(k[len(prefix):]))
		}
		return nil
	})
	return out, err
}
