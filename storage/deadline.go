package storage

import (
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// DeadlineKind says what a timer is for.
type DeadlineKind byte

// The kinds of timers.
const (
	// DeadlineMatch: the match's Deadline passed. In play the side to move
	// loses on time (Act with ActTimeOut); in set-up the match is abandoned.
	DeadlineMatch DeadlineKind = 'm'
	// DeadlineReminder: a reminder is due (send it, then MarkReminded).
	DeadlineReminder DeadlineKind = 'r'
	// DeadlineChallenge: a challenge expired (DeleteChallenge it).
	DeadlineChallenge DeadlineKind = 'c'
	// DeadlineResume: a pause agreed ran out (Act with ActResume).
	DeadlineResume DeadlineKind = 'p'
	// DeadlineVacation: a player's vacation ran out (Act with ActVacationEnd).
	DeadlineVacation DeadlineKind = 'v'
)

// String returns "match", "reminder", "challenge", "resume" or "vacation".
func (k DeadlineKind) String() string {
	switch k {
	case DeadlineMatch:
		return "match"
	case DeadlineReminder:
		return "reminder"
	case DeadlineChallenge:
		return "challenge"
	case DeadlineResume:
		return "resume"
	case DeadlineVacation:
		return "vacation"
	}
	return fmt.Sprintf("DeadlineKind(%d)", byte(k))
}

// Deadline is one timer: at At, something is due for a match or a challenge.
type Deadline struct {
	At   time.Time
	Kind DeadlineKind
	// ID is a MatchID for DeadlineMatch and DeadlineReminder, a ChallengeID for DeadlineChallenge.
	ID uint64
}

// NextDeadline returns the earliest timer: the first key of the timer index.
func (db *DB) NextDeadline(ctx context.Context) (Deadline, bool, error) {
	var d Deadline
	var ok bool
	err := db.view(ctx, func(tx *bolt.Tx) error {
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
func (db *DB) DueDeadlines(ctx context.Context, now time.Time, limit int) ([]Deadline, error) {
	var due []Deadline
	err := db.view(ctx, func(tx *bolt.Tx) error {
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
