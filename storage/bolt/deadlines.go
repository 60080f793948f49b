package bolt

import (
	"context"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// NextDeadline returns the earliest timer: the first key of the timer index.
func (db *DB) NextDeadline(ctx context.Context) (storage.Deadline, bool, error) {
	var d storage.Deadline
	var ok bool
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		k, _ := tx.Bucket(bucketTimers).Cursor().First()
		if k != nil {
			d, ok = parseTimerKey(k)
		}
		return nil
	})
	return d, ok, err
}

// DueDeadlines returns the timers due at now: a walk from the first key that
// stops at the first one in the future.
func (db *DB) DueDeadlines(ctx context.Context, now time.Time, limit int) ([]storage.Deadline, error) {
	var due []storage.Deadline
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketTimers).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			d, ok := parseTimerKey(k)
			if !ok {
				continue
			}
			if d.At.After(now) || (limit > 0 && len(due) >= limit) {
				break
			}
			due = append(due, d)
		}
		return nil
	})
	return due, err
}
