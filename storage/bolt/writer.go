package bolt

import (
	"context"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// maxBatch bounds how many changes share one commit.
const maxBatch = 128

// writeReq is one change waiting for the writer.
type writeReq struct {
	ctx  context.Context
	fn   func(*bbolt.Tx) error
	done chan error
}

// update runs fn in a write transaction and returns once it is committed (on
// disk unless NoSync) or refused. fn may run more than once (see runBatch), so
// it must set its results afresh on every run, and it must check everything
// before it writes anything: an error it returns rolls back its whole batch.
func (db *DB) update(ctx context.Context, fn func(*bbolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := &writeReq{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case db.writes <- req:
	case <-ctx.Done():
		return ctx.Err()
	case <-db.closing:
		return storage.ErrClosed
	}
	return <-req.done
}

// writeLoop is the only writer. It takes whatever changes wait when the
// previous commit ends and commits them in one transaction: one fsync for
// many moves, and no added delay for a lone one (group commit).
//
// bbolt's own DB.Batch also joins concurrent writes, but it starts a batch
// with a timer (MaxBatchDelay, 10 ms by default) and commits when the timer
// fires or MaxBatchSize changes are in: a lone move, the common case, would
// wait the whole delay, and a shorter delay gives smaller batches under
// load. Here the batch is whatever queued during the previous commit, so an
// idle database commits at once and a busy one batches by itself. The loop
// also drops a change whose context ended while it waited, before running it.
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
		err := safeUpdate(db.bdb, func(tx *bbolt.Tx) error {
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
		r.done <- safeUpdate(db.bdb, r.fn)
	}
}
