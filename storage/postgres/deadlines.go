package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/strategobot/strategobot/storage"
)

// Timers are the matches' wake_at and the challenges' expires_at, each read
// from its index in time order; the two are merged by (time, kind, id), the
// order of the bbolt backend's timer keys.
const timersSQL = `SELECT at, kind, id FROM (
	(SELECT wake_at AS at, wake_kind AS kind, id FROM matches WHERE wake_at <= $1 ORDER BY wake_at, wake_kind, id LIMIT $2)
	UNION ALL
	(SELECT expires_at, 'c', id FROM challenges WHERE expires_at <= $1 ORDER BY expires_at, id LIMIT $2)
) AS t ORDER BY at, ascii(kind), id LIMIT $2`

// NextDeadline returns the earliest timer of any match or challenge.
func (db *DB) NextDeadline(ctx context.Context) (storage.Deadline, bool, error) {
	due, err := db.timers(ctx, pgtype.Timestamptz{InfinityModifier: pgtype.Infinity, Valid: true}, 1)
	if err != nil || len(due) == 0 {
		return storage.Deadline{}, false, err
	}
	return due[0], true, nil
}

// DueDeadlines returns the timers due at now, earliest first.
func (db *DB) DueDeadlines(ctx context.Context, now time.Time, limit int) ([]storage.Deadline, error) {
	return db.timers(ctx, now, limit)
}

// timers returns the timers due by until (a time, or infinity), at most limit (0: all).
func (db *DB) timers(ctx context.Context, until any, limit int) ([]storage.Deadline, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	var lim any
	if limit > 0 {
		lim = limit
	}
	rows, err := db.pool.Query(ctx, timersSQL, until, lim)
	if err != nil {
		return nil, db.fail(query("timers", err))
	}
	due, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (storage.Deadline, error) {
		var at time.Time
		var kind string
		var id int64
		if err := row.Scan(&at, &kind, &id); err != nil {
			return storage.Deadline{}, err
		}
		if len(kind) != 1 {
			return storage.Deadline{}, fmt.Errorf("timer of %d has kind %q: %w", id, kind, storage.ErrCorrupt)
		}
		return storage.Deadline{At: utc(&at), Kind: storage.DeadlineKind(kind[0]), ID: uint64(id)}, nil
	})
	if err != nil {
		return nil, db.fail(query("timers", err))
	}
	return due, nil
}
