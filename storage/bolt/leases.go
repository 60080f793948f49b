package bolt

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// Lead takes or renews the lease name for holder until at+ttl: see storage.Store.
// One process opens a bbolt file at a time, so its leases only matter to
// tests and tools; they follow the same rules as every backend's.
func (db *DB) Lead(ctx context.Context, name, holder string, at time.Time, ttl time.Duration) (bool, error) {
	if name == "" || holder == "" || ttl <= 0 {
		return false, fmt.Errorf("a lease needs a name, a holder and a time: %w", storage.ErrInvalid)
	}
	now, until := storage.LeaseTimes(at, ttl) // to the microsecond, as PostgreSQL keeps them
	got := false
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketLeases)
		if rec := b.Get([]byte(name)); len(rec) >= 8 {
			expires := time.Unix(0, int64(binary.BigEndian.Uint64(rec[:8])))
			if string(rec[8:]) != holder && expires.After(now) {
				got = false
				return nil
			}
		}
		rec := binary.BigEndian.AppendUint64(nil, uint64(until.UnixNano()))
		got = true
		return b.Put([]byte(name), append(rec, holder...))
	})
	return got, err
}
