package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/storage"
)

// LinkGeneration returns the generation of userID's web board links.
func (db *DB) LinkGeneration(ctx context.Context, userID string) (uint32, error) {
	return storage.LinkGenerationIn(ctx, db, userID)
}

// RevokeLinks bumps userID's link generation.
func (db *DB) RevokeLinks(ctx context.Context, userID string) (uint32, error) {
	return storage.RevokeLinksIn(ctx, db, userID)
}

// WebKey returns the web signing key: the first caller's random key is
// inserted, and of two first callers at once the loser's insert does
// nothing, so both read the one stored key.
func (db *DB) WebKey(ctx context.Context) ([]byte, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	fresh, err := storage.NewWebKey()
	if err != nil {
		return nil, err
	}
	if err := db.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO web_key (key) VALUES ($1) ON CONFLICT DO NOTHING", fresh)
		return query("store web key", err)
	}); err != nil {
		return nil, err
	}
	var key []byte
	if err := db.pool.QueryRow(ctx, "SELECT key FROM web_key").Scan(&key); err != nil {
		return nil, db.fail(query("web key", err))
	}
	return key, nil
}
