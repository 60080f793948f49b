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

	"github.com/strategobot/strategobot/storage"
)

// The outbox: the notices that changes owe, until the bot has delivered them.
//
// bucketOutbox holds each notice under its ID. bucketOutboxQueue lists them by
// queue (one match's or challenge's audience) and ID, so the oldest of a queue
// is its first key. bucketOutboxDue lists only the queue heads, by the time
// they may next be tried: the next one due is its first key, and a later notice
// of a queue cannot overtake an earlier one that is waiting to be retried.

func queueKey(n *storage.Notice) []byte {
	return append(prefixKey(storage.NoticeQueue(n)), idKey(n.ID)...)
}

func dueKey(at time.Time, id uint64) []byte {
	k := binary.BigEndian.AppendUint64(make([]byte, 0, 16), uint64(max(at.Unix(), 0)))
	return binary.BigEndian.AppendUint64(k, id)
}

// recordNotices adds notices to the outbox, in order, each due at its time.
func recordNotices(tx *bbolt.Tx, ns []storage.Notice) error {
	b := tx.Bucket(bucketOutbox)
	for i := range ns {
		n := ns[i]
		if err := storage.PrepareNotice(&n); err != nil {
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

func putNotice(tx *bbolt.Tx, n *storage.Notice) error {
	data, err := storage.EncodeNotice(n)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketOutbox).Put(idKey(n.ID), data)
}

// queueHead returns the ID of the oldest notice in n's queue (0: none).
func queueHead(tx *bbolt.Tx, n *storage.Notice) (uint64, error) {
	return headOf(tx, storage.NoticeQueue(n))
}

// headOf returns the ID of the oldest notice in queue q (0: none).
func headOf(tx *bbolt.Tx, q string) (uint64, error) {
	prefix := prefixKey(q)
	k, _ := tx.Bucket(bucketOutboxQueue).Cursor().Seek(prefix)
	if k == nil || !bytes.HasPrefix(k, prefix) || len(k) != len(prefix)+8 {
		return 0, nil
	}
	return binary.BigEndian.Uint64(k[len(prefix):]), nil
}

func (db *DB) loadNotice(tx *bbolt.Tx, id uint64) (*storage.Notice, error) {
	data := tx.Bucket(bucketOutbox).Get(idKey(id))
	if data == nil {
		return nil, fmt.Errorf("notice %d: %w", id, storage.ErrNotFound)
	}
	return db.notices.get(id, data)
}

// waiting reports whether n, a queue's head, waits for the older notices
// of another queue (after: storage.NoticeWaitsFor), or for matches still
// on or their channel's notices (until: storage.NoticeWaitsUntil); the
// caller bounds either by storage.WaitEnds. A match that cannot be read
// (other than gone) does not hold n back: one bad record must not stop
// every delivery; its error is returned for the caller to log.
func (db *DB) waiting(tx *bbolt.Tx, n *storage.Notice) (after, until bool, bad error) {
	if q := storage.NoticeWaitsFor(n); q != "" {
		if head, _ := headOf(tx, q); head != 0 && head < n.ID {
			return true, false, nil
		}
	}
	matches, queues := storage.NoticeWaitsUntil(n)
	for i, id := range matches {
		if head, _ := headOf(tx, queues[i]); head != 0 {
			return false, true, bad
		}
		m, err := db.loadMatch(tx, id)
		if errors.Is(err, storage.ErrNotFound) {
			continue // nothing left to wait for
		}
		if err != nil {
			bad = errors.Join(bad, fmt.Errorf("notice %d waits for match %d: %w", n.ID, id, err))
			continue
		}
		if m.Phase.Active() {
			return false, true, bad
		}
	}
	return false, false, bad
}

// NextNotice returns when the earliest waiting notice may be tried. One
// that waits for another queue becomes due when that queue's notice is
// done, which the delivery loop sees as it goes on, or once that wait ends
// (storage.WaitEnds), if not earlier.
func (db *DB) NextNotice(ctx context.Context) (time.Time, bool, error) {
	var at time.Time
	var ok bool
	var bad error
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		bad = nil
		at, ok = time.Time{}, false
		c := tx.Bucket(bucketOutboxDue).Cursor()
		for k, _ := c.First(); len(k) == 16; k, _ = c.Next() {
			try := time.Unix(int64(binary.BigEndian.Uint64(k)), 0).UTC()
			if ok && !try.Before(at) {
				return nil // none later in the index comes sooner
			}
			n, err := db.loadNotice(tx, binary.BigEndian.Uint64(k[8:]))
			if err != nil {
				continue // it cannot be tried: DueNotices names it
			}
			after, until, e := db.waiting(tx, n)
			bad = errors.Join(bad, e)
			if after || until {
				try = later(try, storage.WaitEnds(n))
			}
			if !ok || try.Before(at) {
				at, ok = try, true
			}
		}
		return nil
	})
	if err == nil && bad != nil {
		db.logBadWait(bad)
	}
	return at, ok, err
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// DueNotices returns the notices that may be tried at now, earliest first,
// but those in skip, which are not even decoded, and those that wait for
// another queue or for their Until matches, until that wait ends
// (storage.WaitEnds).
func (db *DB) DueNotices(ctx context.Context, now time.Time, limit int, skip ...uint64) ([]storage.Notice, error) {
	var out []storage.Notice
	var bad error
	var unread *storage.Unreadable
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		out, bad, unread = out[:0], nil, storage.NewUnreadable("notice")
		end := uint64(max(now.Unix(), 0))
		c := tx.Bucket(bucketOutboxDue).Cursor()
		for k, _ := c.First(); len(k) == 16 && binary.BigEndian.Uint64(k) <= end; k, _ = c.Next() {
			id := binary.BigEndian.Uint64(k[8:])
			if slices.Contains(skip, id) {
				continue
			}
			n, err := db.loadNotice(tx, id)
			if err == nil {
				after, until, e := db.waiting(tx, n)
				bad = errors.Join(bad, e)
				if (after || until) && now.Before(storage.WaitEnds(n)) {
					continue
				}
				out = append(out, *n)
			} else {
				unread.Add(id, err) // one bad record holds up no other queue
			}
			if limit > 0 && len(out)+unread.Len() >= limit {
				break // one that cannot be read counts, as PostgreSQL's LIMIT counts it
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if bad != nil {
		db.logBadWait(bad)
	}
	return out, unread.Err()
}

// CountNotices returns how many notices the outbox holds: the keys of the
// index by queue, one a notice, which bbolt counts page by page (a leaf
// page's header holds its count) without reading a record.
func (db *DB) CountNotices(ctx context.Context) (int, error) {
	var n int
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		n = tx.Bucket(bucketOutboxQueue).Stats().KeyN
		return nil
	})
	return n, err
}

// NoticeProgress records that the first sent parts of a notice are delivered.
func (db *DB) NoticeProgress(ctx context.Context, id uint64, sent int) error {
	return db.update(ctx, func(tx *bbolt.Tx) error {
		n, err := db.loadNotice(tx, id)
		if err != nil {
			return err
		}
		if sent < n.Sent {
			return fmt.Errorf("notice %d has %d parts delivered, not %d: %w", id, n.Sent, sent, storage.ErrInvalid)
		}
		n.Sent = sent
		return putNotice(tx, n)
	})
}

// NoticeRetry records a failed attempt: the notice waits until next.
func (db *DB) NoticeRetry(ctx context.Context, id uint64, next time.Time) (*storage.Notice, error) {
	var out *storage.Notice
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		n, err := db.loadNotice(tx, id)
		if err != nil {
			return err
		}
		due := tx.Bucket(bucketOutboxDue)
		if err := due.Delete(dueKey(n.NextTry, n.ID)); err != nil {
			return err
		}
		n.Attempts++
		n.NextTry = time.Unix(next.Unix(), 0).UTC() // as stored: whole seconds
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
func (db *DB) NoticeDone(ctx context.Context, id uint64, at time.Time, follow ...storage.Notice) error {
	return db.update(ctx, func(tx *bbolt.Tx) error {
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
			// The next of the queue is due when its record says. One that
			// cannot be read is due at once, as PostgreSQL's is at its
			// next_try (its time, never having been tried): DueNotices
			// names it, and the bot holds it back. n is done all the same:
			// failing here, the bot could not record n delivered, and held
			// it to deliver again. (Mended by hand later, its key in the
			// due index may not be its NextTry's.)
			try := at
			if nn, err := db.loadNotice(tx, next); err == nil {
				try = nn.NextTry
			}
			if err := tx.Bucket(bucketOutboxDue).Put(dueKey(try, next), []byte{}); err != nil {
				return err
			}
		}
		if n.StartsClock && n.Match != 0 {
			old, err := db.loadMatch(tx, n.Match)
			if err != nil {
				return err
			}
			if m, ok := db.Changes().StartClock(old, n, at); ok {
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
func (db *DB) ExpireChallenge(ctx context.Context, id storage.ChallengeID, at time.Time) (*storage.Challenge, error) {
	var out *storage.Challenge
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		c, err := loadChallenge(tx, id)
		if err != nil {
			return err
		}
		n, err := db.Changes().ExpireChallenge(c, at)
		if err != nil {
			return err
		}
		if err := deleteChallenge(tx, c); err != nil {
			return err
		}
		out = c
		return recordNotices(tx, []storage.Notice{n})
	})
	return out, err
}

// logBadWait logs the matches that notices wait for but that could not be
// read: they hold nothing back (waiting), and the trace says which.
func (db *DB) logBadWait(err error) {
	db.opts.Logger.Warn("a notice waits for a match that cannot be read; it is not held back", "err", err)
}
