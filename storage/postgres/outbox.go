package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/storage"
)

// The outbox (migration 0002): one row per notice still owed, its record and
// the columns of its queue. Only a queue's oldest notice is ever due; it is
// found in SQL, in one statement and so in one snapshot, never by a process's
// memory, so any number of processes may deliver from one database. Notices
// of a match are numbered while its row is locked, by the change that owes
// them (or by NoticeDone, which locks it too), and so a queue's ids are in
// the order of the commits that made them: no process sees a later notice of
// a queue without the earlier ones.

// queueHead is the condition that n is the oldest notice of its queue.
const queueHead = `n.id = (SELECT min(h.id) FROM notices h WHERE h.queue = n.queue)`

// afterOwed is the condition that the queue n waits for
// (storage.NoticeWaitsFor: the queue of the match its record's "after"
// names, to the channel) holds a notice older than n; afterWaits, that n
// has an "after" and so waits, which waitEnds bounds as it does
// untilWaits.
const afterWaits = `(n.record->'after' IS NOT NULL AND ` + afterOwed + `)`

const afterOwed = `EXISTS (SELECT 1 FROM notices a WHERE a.queue = 'm' || (n.record->>'after') || '/public' AND a.id < n.id)`

// headNotAfter is the condition that n is the oldest notice of its queue,
// and waits for no older notice of another (an anti-join).
const headNotAfter = queueHead + ` AND NOT ` + afterOwed

// untilWaits is the condition that n waits for a match its record's
// "until" lists that is still on or has a notice to its channel owed
// (storage.NoticeWaitsUntil). A change that ends a match records its
// notices in the same transaction, so no snapshot sees it over without
// them. waitEnds is when that wait ends (storage.WaitEnds).
const untilWaits = `(n.record->'until' IS NOT NULL AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(n.record->'until') u(id)
		WHERE EXISTS (SELECT 1 FROM matches m WHERE m.id = u.id::bigint AND m.active)
			OR EXISTS (SELECT 1 FROM notices a WHERE a.queue = 'm' || u.id || '/public')))`

var waitEnds = fmt.Sprintf(`(to_timestamp((n.record->>'at')::bigint) + interval '%d seconds')`, int64(storage.WaitCap/time.Second))

// waits is the condition that n waits for another queue, its After
// match's or its Until matches', until waitEnds.
const waits = `(` + afterWaits + ` OR ` + untilWaits + `)`

// untilHeads is NextNotice's query of the end of the wait of each
// tournament's head that waits for another queue, its Until matches' or
// its After match's (few: one a tournament at most): the tournaments'
// queues are found by a range of the index notices_queue, which serves it
// in any collation (LIKE alone it serves only in C's, and read every
// notice). BenchmarkUntilHeads measures it among many notices of matches'
// queues, and checks its plan.
var untilHeads = `SELECT greatest(n.next_try, ` + waitEnds + `) FROM notices n
			WHERE n.queue >= 't' AND n.queue < 'u' AND n.queue LIKE 't%'
				AND (n.record->'until' IS NOT NULL OR n.record->'after' IS NOT NULL) AND ` + queueHead + ` AND ` + waits

// recordNotices adds notices to the outbox in order, each with the next id.
// The caller holds the lock of the match they are about.
func recordNotices(ctx context.Context, tx pgx.Tx, ns []storage.Notice) error {
	if len(ns) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, "SELECT nextval('notice_ids') FROM generate_series(1, $1::int) ORDER BY 1", len(ns))
	if err != nil {
		return query("next notice ids", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return query("next notice ids", err)
	}
	var batch pgx.Batch
	for i := range ns {
		n := ns[i]
		if err := storage.PrepareNotice(&n); err != nil {
			return err
		}
		n.ID = uint64(ids[i])
		data, err := storage.EncodeNotice(&n)
		if err != nil {
			return err
		}
		batch.Queue("INSERT INTO notices (id, queue, next_try, record) VALUES ($1, $2, $3, $4)", ids[i], storage.NoticeQueue(&n), n.NextTry, data)
	}
	return query("insert notices", tx.SendBatch(ctx, &batch).Close())
}

// scanNotice reads the record of notice id.
func scanNotice(row pgx.Row, id uint64) (*storage.Notice, error) {
	var data []byte
	if err := row.Scan(&data); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, fmt.Errorf("notice %d: %w", id, storage.ErrNotFound)
		}
		return nil, query(fmt.Sprintf("notice %d", id), err)
	}
	n, err := storage.DecodeNotice(data)
	if err != nil {
		return nil, err
	}
	if n.ID != id {
		return nil, fmt.Errorf("notice %d: its record says notice %d: %w", id, n.ID, storage.ErrCorrupt)
	}
	return n, nil
}

// putNotice writes a notice's changed delivery state.
func putNotice(ctx context.Context, tx pgx.Tx, n *storage.Notice) error {
	data, err := storage.EncodeNotice(n)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, "UPDATE notices SET next_try = $2, record = $3 WHERE id = $1", int64(n.ID), n.NextTry, data)
	return query(fmt.Sprintf("update notice %d", n.ID), err)
}

// NextNotice returns when the earliest waiting notice may be tried: the
// earliest next_try of the queues' oldest notices that wait for nothing,
// or the end of the wait (storage.WaitEnds) of one that waits for
// another queue, if not later.
func (db *DB) NextNotice(ctx context.Context) (time.Time, bool, error) {
	if err := db.ready(ctx); err != nil {
		return time.Time{}, false, err
	}
	// Not min(n.next_try) over every head: over headNotAfter's anti-join
	// PostgreSQL reads every notice for it, where ORDER BY … LIMIT 1 reads
	// the index notices_due from its first row (BenchmarkOutbox). A
	// tournament's head that waits for another queue is due at the end of
	// that wait, if not earlier (untilHeads).
	var at *time.Time
	err := db.pool.QueryRow(ctx, `SELECT min(t) FROM (
		(SELECT n.next_try AS t FROM notices n WHERE `+headNotAfter+` AND NOT `+untilWaits+`
			ORDER BY n.next_try, n.id LIMIT 1)
		UNION ALL
		(`+untilHeads+`)) x`).Scan(&at)
	if err == nil && at == nil {
		err = pgx.ErrNoRows
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, db.fail(query("next notice", err))
	}
	return utc(at), true, nil
}

// DueNotices returns the notices that may be tried at now, earliest first:
// of each queue only its oldest, when its next_try has come and it waits
// for nothing (another queue no longer after storage.WaitEnds), but those
// in skip.
func (db *DB) DueNotices(ctx context.Context, now time.Time, limit int, skip ...uint64) ([]storage.Notice, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	var lim any // NULL: no limit
	if limit > 0 {
		lim = limit
	}
	skipped := make([]int64, len(skip))
	for i, id := range skip {
		skipped[i] = int64(id)
	}
	// One bad record holds up no other queue.
	return identified(ctx, db, "due notices", "notice", decodeNotice, `SELECT n.id, n.record FROM notices n
		WHERE n.next_try <= $1 AND NOT n.id = ANY($3) AND `+queueHead+`
			AND NOT (`+waits+` AND `+waitEnds+` > $1)
		ORDER BY n.next_try, n.id LIMIT $2`, now, lim, skipped)
}

// decodeNotice decodes a notice's record, for identified.
func decodeNotice(data []byte) (storage.Notice, error) {
	n, err := storage.DecodeNotice(data)
	if err != nil {
		return storage.Notice{}, err
	}
	return *n, nil
}

// CountNotices returns how many notices the outbox holds: count(*) of
// the table, which PostgreSQL reads from an index where it can (an
// index-only scan) and which decodes no record.
func (db *DB) CountNotices(ctx context.Context) (int, error) {
	if err := db.ready(ctx); err != nil {
		return 0, err
	}
	var n int64
	if err := db.pool.QueryRow(ctx, "SELECT count(*) FROM notices").Scan(&n); err != nil {
		return 0, db.fail(query("count notices", err))
	}
	return int(n), nil
}

// NoticeProgress records that the first sent parts of a notice are delivered.
func (db *DB) NoticeProgress(ctx context.Context, id uint64, sent int) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		n, err := scanNotice(tx.QueryRow(ctx, "SELECT record FROM notices WHERE id = $1 FOR UPDATE", int64(id)), id)
		if err != nil {
			return err
		}
		if sent < n.Sent {
			return fmt.Errorf("notice %d has %d parts delivered, not %d: %w", id, n.Sent, sent, storage.ErrInvalid)
		}
		n.Sent = sent
		return putNotice(ctx, tx, n)
	})
}

// NoticeRetry records a failed attempt: the notice, and so its queue, waits until next.
func (db *DB) NoticeRetry(ctx context.Context, id uint64, next time.Time) (*storage.Notice, error) {
	var out *storage.Notice
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out = nil
		n, err := scanNotice(tx.QueryRow(ctx, "SELECT record FROM notices WHERE id = $1 FOR UPDATE", int64(id)), id)
		if err != nil {
			return err
		}
		n.Attempts++
		n.NextTry = utc(&next)
		if err := putNotice(ctx, tx, n); err != nil {
			return err
		}
		out = n
		return nil
	})
	return out, err
}

// NoticeDone deletes a notice delivered in full, or given up, at time at, and
// the next of its queue becomes due. A notice that StartsClock starts its
// match's clock (storage.Changes.StartClock), without a version bump; follow
// are recorded in the same transaction. The matches concerned are locked
// first, in id order, as a change locks them: the clock cannot start under a
// move, and follow-ups are numbered in their queues' order.
func (db *DB) NoticeDone(ctx context.Context, id uint64, at time.Time, follow ...storage.Notice) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		n, err := scanNotice(tx.QueryRow(ctx, "DELETE FROM notices WHERE id = $1 RETURNING record", int64(id)), id)
		if err != nil {
			return err
		}
		var lock []int64
		if n.StartsClock && n.Match != 0 {
			lock = append(lock, int64(n.Match))
		}
		for _, f := range follow {
			if f.Match != 0 {
				lock = append(lock, int64(f.Match))
			}
		}
		if len(lock) > 0 {
			slices.Sort(lock)
			if _, err := tx.Exec(ctx, "SELECT id FROM matches WHERE id = ANY($1) ORDER BY id FOR UPDATE", slices.Compact(lock)); err != nil {
				return query("lock matches", err)
			}
		}
		if n.StartsClock && n.Match != 0 {
			old, err := scanMatch(tx.QueryRow(ctx, "SELECT version, record FROM matches WHERE id = $1", int64(n.Match)), n.Match)
			if err != nil {
				return err
			}
			if m, ok := db.changes.StartClock(old, n, at); ok {
				if err := writeMatch(ctx, tx, old.Version, m); err != nil {
					return err
				}
			}
		}
		return recordNotices(ctx, tx, follow)
	})
}

// ExpireChallenge removes a challenge whose time ran out and records the
// notice that says so, in one transaction; a refusal (storage.ErrNotDue)
// rolls the delete back.
func (db *DB) ExpireChallenge(ctx context.Context, id storage.ChallengeID, at time.Time) (*storage.Challenge, error) {
	var out *storage.Challenge
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out = nil
		c, err := deleteChallenge(ctx, tx, id)
		if err != nil {
			return err
		}
		n, err := db.changes.ExpireChallenge(c, at)
		if err != nil {
			return err
		}
		if err := recordNotices(ctx, tx, []storage.Notice{n}); err != nil {
			return err
		}
		out = c
		return nil
	})
	return out, err
}
