package storage

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

// maxBatch bounds how many changes share one commit.
const maxBatch = 128

// writeReq is one change waiting for the writer.
type writeReq struct {
	ctx  context.Context
	fn   func(*bolt.Tx) error
	done chan error
}

// update runs fn in a write transaction and returns once it is committed (on
// disk unless NoSync) or refused. fn may run more than once (see runBatch), so
// it must set its results afresh on every run, and it must check everything
// before it writes anything: an error it returns rolls back its whole batch.
func (db *DB) update(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := &writeReq{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case db.writes <- req:
	case <-ctx.Done():
		return ctx.Err()
	case <-db.closing:
		return ErrClosed
	}
	return <-req.done
}

// writeLoop is the only writer. It takes whatever changes wait when the
// previous commit ends and commits them in one transaction: one fsync for
// many moves, and no added delay for a lone one (group commit).
func (db *DB) writeLoop() {
	defer db.wg.Done()
	batch := make([]*writeReq, 0, maxBatch)
	for {
		select {
		case req := <-db.writes:
			batch = append(batch[:0], req)
		gather:
			for len(batch) < maxBatch {
				select {
				case req := <-db.writes:
					batch = append(batch, req)
				default:
					break gather
				}
			}
			db.runBatch(batch)
			clear(batch)
		case <-db.closing:
			return
		}
	}
}

// runBatch commits a batch. When one change fails, the transaction is rolled
// back and every change runs again alone, so that each gets its own answer and
// a failure never takes another change with it.
func (db *DB) runBatch(batch []*writeReq) {
	live := batch[:0:0]
	for _, r := range batch {
		if err := r.ctx.Err(); err != nil {
			r.done <- err
			continue
		}
		live = append(live, r)
	}
	if len(live) == 0 {
		return
	}
	if len(live) > 1 {
		err := safeUpdate(db.bolt, func(tx *bolt.Tx) error {
			for _, r := range live {
				if err := r.fn(tx); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil {
			for _, r := range live {
				r.done <- nil
			}
			return
		}
	}
	for _, r := range live {
		r.done <- safeUpdate(db.bolt, r.fn)
	}
}
