package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/storage"
)

// Follow adds (on) or removes a follower of a match: see storage.Store.
func (db *DB) Follow(ctx context.Context, id storage.MatchID, userID string, on bool) error {
	if userID == "" {
		return fmt.Errorf("a follower needs a user id: %w", storage.ErrInvalid)
	}
	// One statement each way, which also says whether the match exists.
	change := `INSERT INTO followers (match_id, user_id) SELECT id, $2 FROM m ON CONFLICT DO NOTHING`
	if !on {
		change = `DELETE FROM followers WHERE match_id = $1 AND user_id = $2`
	}
	var exists bool
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		return query("follow", tx.QueryRow(ctx, `WITH m AS (SELECT id FROM matches WHERE id = $1), changed AS (`+change+`)
			SELECT EXISTS (SELECT 1 FROM m)`, int64(id), userID).Scan(&exists))
	})
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("match %d: %w", id, storage.ErrNotFound)
	}
	return nil
}

// Followers returns who follows a match, ordered by user id: by its bytes,
// as bbolt orders them, in whatever collation the database has.
func (db *DB) Followers(ctx context.Context, id storage.MatchID) ([]string, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	rows, err := db.pool.Query(ctx, `SELECT user_id FROM followers WHERE match_id = $1 ORDER BY user_id COLLATE "C"`, int64(id))
	if err != nil {
		return nil, db.fail(query("followers", err))
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, db.fail(query("followers", err))
	}
	return out, nil
}
