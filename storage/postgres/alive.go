package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Alive records that the process running the timers was alive at at, and
// returns the time recorded before: the one row, locked, read and written
// in one transaction.
func (db *DB) Alive(ctx context.Context, at time.Time) (time.Time, error) {
	var prev time.Time
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var was *time.Time
		if err := tx.QueryRow(ctx, "SELECT at FROM alive FOR UPDATE").Scan(&was); err != nil {
			return query("alive", err)
		}
		prev = time.Time{}
		if was != nil {
			prev = was.UTC()
		}
		_, err := tx.Exec(ctx, "UPDATE alive SET at = $1", time.Unix(at.Unix(), 0).UTC())
		return query("record alive", err)
	})
	if err != nil {
		return time.Time{}, err
	}
	return prev, nil
}
