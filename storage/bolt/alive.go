package bolt

import (
	"context"
	"encoding/binary"
	"time"

	bbolt "go.etcd.io/bbolt"
)

// keyAlive holds, in the meta bucket, when the bot was last alive (unix
// seconds, big-endian): see storage.Store.Alive.
var keyAlive = []byte("alive")

// Alive records that the process running the timers was alive at at, and
// returns the time recorded before.
func (db *DB) Alive(ctx context.Context, at time.Time) (time.Time, error) {
	var prev time.Time
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		prev = time.Time{}
		if rec := meta.Get(keyAlive); len(rec) == 8 {
			prev = time.Unix(int64(binary.BigEndian.Uint64(rec)), 0).UTC()
		}
		return meta.Put(keyAlive, binary.BigEndian.AppendUint64(nil, uint64(at.Unix())))
	})
	if err != nil {
		return time.Time{}, err
	}
	return prev, nil
}
