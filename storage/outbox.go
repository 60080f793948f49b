package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The outbox: the notices that changes owe, until the bot has delivered them.
//
// bucketOutbox holds each notice under its ID. bucketOutboxQueue lists them by
// queue (one match's or challenge's audience) and ID, so the oldest of a queue
// is its first key. bucketOutboxDue lists only the queue heads, by the time
// they may next be tried: the next one due is its first key, and a later notice
// of a queue cannot overtake an earlier one that is waiting to be retried.

type noticeRecord struct {
	V         int              `json:"v"`
	ID        uint64           `json:"id"`
	Match     uint64           `json:"match,omitempty"`
	Event     string           `json:"event"`
	To        string           `json:"to"`
	Log       int              `json:"log,omitempty"`
	Version   uint64           `json:"ver,omitempty"`
	At        int64            `json:"at"`
	Clock     bool             `json:"clock,omitempty"`
	Challenge *challengeRecord `json:"challenge,omitempty"`
	Reason    string           `json:"reason,omitempty"`
	Follower  string           `json:"follower,omitempty"`
	Practice  bool             `json:"practice,omitempty"`
	Sent      int              `json:"sent,omitempty"`
	Attempts  int              `json:"attempts,omitempty"`
	NextTry   int64            `json:"next"`
}

const noticeRecordVersion = 1

func encodeNotice(n *Notice) ([]byte, error) {
	rec := noticeRecord{
		V: noticeRecordVersion, ID: n.ID, Match: uint64(n.Match), Event: n.Event.String(), To: n.To.String(),
		Log: n.Log, Version: n.Version, At: unixTime(n.At), Clock: n.StartsClock, Reason: n.Reason, Follower: n.Follower, Practice: n.Practice,
		Sent: n.Sent, Attempts: n.Attempts, NextTry: unixTime(n.NextTry),
	}
	if n.Challenge != nil {
		c := challengeToRecord(n.Challenge)
		rec.Challenge = &c
	}
	return json.Marshal(&rec)
}

func decodeNotice(data []byte) (*Notice, error) {
	var rec noticeRecord
	if err := unmarshalRecord(data, &rec, &rec.V, "notice", noticeRecordVersion); err != nil {
		return nil, err
	}
	n := &Notice{
		ID: rec.ID, Match: MatchID(rec.Match), Log: rec.Log, Version: rec.Version, At: fromUnix(rec.At), StartsClock: rec.Clock,
		Reason: rec.Reason, Follower: rec.Follower, Practice: rec.Practice, Sent: rec.Sent, Attempts: rec.Attempts, NextTry: fromUnix(rec.NextTry),
	}
	var err error
	if n.Event, err = parseEvent(rec.Event); err != nil {
		return nil, fmt.Errorf("notice %d: %v: %w", rec.ID, err, ErrCorrupt)
	}
	if n.To, err = parseAudience(rec.To); err != nil {
		return nil, fmt.Errorf("notice %d: %v: %w", rec.ID, err, ErrCorrupt)
	}
	if rec.Challenge != nil {
		if n.Challenge, err = challengeFromRecord(rec.Challenge); err != nil {
			return nil, fmt.Errorf("notice %d: %w", rec.ID, err)
		}
	}
	return n, nil
}

func queueKey(n *Notice) []byte {
	return append(prefixKey(n.queue()), idKey(n.ID)...)
}

func dueKey(at time.Time, id uint64) []byte {
	k := binary.BigEndian.AppendUint64(make([]byte, 0, 16), uint64(max(at.Unix(), 0)))
	return binary.BigEndian.AppendUint64(k, id)
}

// validNotice checks what a recorded notice must hold.
func validNotice(n *Notice) error {
	switch {
	case n.Event == 0 || int(n.Event) >= len(eventNames):
		return fmt.Errorf("a notice needs an event: %w", ErrInvalid)
	case int(n.To) >= len(audienceNames):
		return fmt.Errorf("a notice needs an audience: %w", ErrInvalid)
	case n.Match == 0 && n.Challenge == nil:
		return fmt.Errorf("a notice is about a match or a challenge: %w", ErrInvalid)
	case n.At.IsZero():
		return fmt.Errorf("a notice needs its time: %w", ErrInvalid)
	case (n.To == AudienceFollower) != (n.Follower != ""):
		return fmt.Errorf("a follower's notice, and only one, names the follower: %w", ErrInvalid)
	case n.To == AudienceFollower && (n.Match == 0 || n.StartsClock):
		return fmt.Errorf("a follower's notice is about a match and starts no clock: %w", ErrInvalid)
	}
	return nil
}

// recordNotices adds notices to the outbox, in order, each due at its time.
func recordNotices(tx *bolt.Tx, ns []Notice) error {
	b := tx.Bucket(bucketOutbox)
	for i := range ns {
		n := ns[i]
		if err := PrepareNotice(&n); err != nil {
			return err
		}
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		n.ID = id
		if err := putNotice(tx, &n); err != nil {
			return err
		}
		qk := queueKey(&n)
		if err := tx.Bucket(bucketOutboxQueue).Put(qk, []byte{}); err != nil {
			return err
		}
		if head, _ := queueHead(tx, &n); head == n.ID {
			if err := tx.Bucket(bucketOutboxDue).Put(dueKey(n.NextTry, n.ID), []byte{}); err != nil {
				return err
			}
		}
	}
	return nil
}

func putNotice(tx *bolt.Tx, n *Notice) error {
	data, err := encodeNotice(n)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketOutbox).Put(idKey(n.ID), data)
}

// queueHead returns the ID of the oldest notice in n's queue (0: none).
func queueHead(tx *bolt.Tx, n *Notice) (uint64, error) {
	prefix := prefixKey(n.queue())
	k, _ := tx.Bucket(bucketOutboxQueue).Cursor().Seek(prefix)
	if k == nil || !bytes.HasPrefix(k, prefix) || len(k) != len(prefix)+8 {
		return 0, nil
	}
	return binary.BigEndian.Uint64(k[len(prefix):]), nil
}

func (db *DB) loadNotice(tx *bolt.Tx, id uint64) (*Notice, error) {
	data := tx.Bucket(bucketOutbox).Get(idKey(id))
	if data == nil {
		return nil, fmt.Errorf("notice %d: %w", id, ErrNotFound)
	}
	return db.notices.get(id, data)
}

// Clone returns a copy of n that shares nothing with it.
func (n *Notice) Clone() *Notice {
	c := *n
	if n.Challenge != nil {
		ch := *n.Challenge
		c.Challenge = &ch
	}
	return &c
}

// NextNotice returns when the earliest waiting notice may be tried.
func (db *DB) NextNotice(ctx context.Context) (time.Time, bool, error) {
	var at time.Time
	var ok bool
	err := db.view(ctx, func(tx *bolt.Tx) error {
		if k, _ := tx.Bucket(bucketOutboxDue).Cursor().First(); len(k) == 16 {
			at, ok = time.Unix(int64(binary.BigEndian.Uint64(k)), 0).UTC(), true
		}
		return nil
	})
	return at, ok, err
}

// DueNotices returns the notices that may be tried at now, earliest first,
// but those in skip, which are not even decoded.
func (db *DB) DueNotices(ctx context.Context, now time.Time, limit int, skip ...uint64) ([]Notice, error) {
	var out []Notice
	err := db.view(ctx, func(tx *bolt.Tx) error {
		out = out[:0]
		end := uint64(max(now.Unix(), 0))
		c := tx.Bucket(bucketOutboxDue).Cursor()
		for k, _ := c.First(); len(k) == 16 && binary.BigEndian.Uint64(k) <= end; k, _ = c.Next() {
			id := binary.BigEndian.Uint64(k[8:])
			if slices.Contains(skip, id) {
				continue
			}
			n, err := db.loadNotice(tx, id)
			if err != nil {
				return err
			}
			out = append(out, *n)
			if limit > 0 && len(out) >= limit {
				break
			}
		}
		return nil
	})
	return out, err
}

// NoticeProgress records that the first sent parts of a notice are delivered.
func (db *DB) NoticeProgress(ctx context.Context, id uint64, sent int) error {
	return db.update(ctx, func(tx *bolt.Tx) error {
		n, err := db.loadNotice(tx, id)
		if err != nil {
			return err
		}
		if sent < n.Sent {
			return fmt.Errorf("notice %d has %d parts delivered, not %d: %w", id, n.Sent, sent, ErrInvalid)
		}
		n.Sent = sent
		return putNotice(tx, n)
	})
}

// NoticeRetry records a failed attempt: the notice waits until next.
func (db *DB) NoticeRetry(ctx context.Context, id uint64, next time.Time) (*Notice, error) {
	var out *Notice
	err := db.update(ctx, func(tx *bolt.Tx) error {
		n, err := db.loadNotice(tx, id)
		if err != nil {
			return err
		}
		due := tx.Bucket(bucketOutboxDue)
		if err := due.Delete(dueKey(n.NextTry, n.ID)); err != nil {
			return err
		}
		n.Attempts++
		n.NextTry = second(next)
		if err := due.Put(dueKey(n.NextTry, n.ID), []byte{}); err != nil {
			return err
		}
		out = n
		return putNotice(tx, n)
	})
	return out, err
}

// NoticeDone removes a notice that was delivered in full, or given up, at
// time at. A notice that StartsClock starts the match's clock, if the match
// still waits for that move. follow are recorded in the same transaction
// (a fallback for a notice that could not be delivered).
func (db *DB) NoticeDone(ctx context.Context, id uint64, at time.Time, follow ...Notice) error {
	return db.update(ctx, func(tx *bolt.Tx) error {
		n, err := db.loadNotice(tx, id)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketOutbox).Delete(idKey(n.ID)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketOutboxQueue).Delete(queueKey(n)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketOutboxDue).Delete(dueKey(n.NextTry, n.ID)); err != nil {
			return err
		}
		if next, _ := queueHead(tx, n); next != 0 {
			nn, err := db.loadNotice(tx, next)
			if err != nil {
				return err
			}
			if err := tx.Bucket(bucketOutboxDue).Put(dueKey(nn.NextTry, nn.ID), []byte{}); err != nil {
				return err
			}
		}
		if n.StartsClock && n.Match != 0 {
			old, err := db.loadMatch(tx, n.Match)
			if err != nil {
				return err
			}
			if m, ok := db.changes().StartClock(old, n, at); ok {
				if err := db.writeMatch(tx, old, m); err != nil {
					return err
				}
			}
		}
		return recordNotices(tx, follow)
	})
}

// ExpireChallenge removes a challenge whose time ran out and records the
// notice that says so, in one transaction.
func (db *DB) ExpireChallenge(ctx context.Context, id ChallengeID, at time.Time) (*Challenge, error) {
	var out *Challenge
	err := db.update(ctx, func(tx *bolt.Tx) error {
		c, err := loadChallenge(tx, id)
		if err != nil {
			return err
		}
		n, err := db.changes().ExpireChallenge(c, at)
		if err != nil {
			return err
		}
		if err := deleteChallenge(tx, c); err != nil {
			return err
		}
		out = c
		return recordNotices(tx, []Notice{n})
	})
	return out, err
}
