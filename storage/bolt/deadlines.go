package bolt

import (
	"context"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// The kinds of timers.
const (
	// DeadlineMatch: the match's Deadline passed. In play the side to move
	// loses on time (Act with ActTimeOut); in set-up the match is abandoned.
	DeadlineMatch storage.DeadlineKind = 'm'
	// DeadlineReminder: a reminder is due (send it, then MarkReminded).
	DeadlineReminder storage.DeadlineKind = 'r'
	// DeadlineChallenge: a challenge expired (DeleteChallenge it).
	DeadlineChallenge storage.DeadlineKind = 'c'
	// DeadlineResume: a pause agreed ran out (Act with ActResume).
	DeadlineResume storage.DeadlineKind = 'p'
	// DeadlineVacation: a player's vacation ran out (Act with ActVacationEnd).
	DeadlineVacation storage.DeadlineKind = 'v'
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
