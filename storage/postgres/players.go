package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/storage"
)

// scanPlayer reads a player's record; found is false when there is none.
func scanPlayer(row pgx.Row) (p *storage.PlayerSettings, found bool, err error) {
	var data []byte
	if err := row.Scan(&data); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, false, nil
		}
		return nil, false, query("player", err)
	}
	p, err = storage.DecodePlayer(data)
	return p, err == nil, err
}

// Player returns a player's settings, the defaults for a player never seen.
func (db *DB) Player(ctx context.Context, userID string) (*storage.PlayerSettings, error) {
	if userID == "" {
		return nil, fmt.Errorf("no user id: %w", storage.ErrInvalid)
	}
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	p, found, err := scanPlayer(db.pool.QueryRow(ctx, "SELECT record FROM players WHERE user_id = $1", userID))
	if err != nil {
		return nil, db.fail(err)
	}
	if !found {
		return &storage.PlayerSettings{UserID: userID}, nil
	}
	return p, nil
}

// UpdatePlayer changes a player's settings with fn in one transaction, on
// the player's locked row. A player never seen gets a row of defaults first,
// so that two first changes at once are made one after the other.
func (db *DB) UpdatePlayer(ctx context.Context, userID string, fn func(p *storage.PlayerSettings) error) (*storage.PlayerSettings, error) {
	if userID == "" {
		return nil, fmt.Errorf("no user id: %w", storage.ErrInvalid)
	}
	var out *storage.PlayerSettings
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out = nil
		const lock = "SELECT record FROM players WHERE user_id = $1 FOR UPDATE"
		p, found, err := scanPlayer(tx.QueryRow(ctx, lock, userID))
		if err != nil {
			return err
		}
		if !found {
			data, err := storage.EncodePlayer(&storage.PlayerSettings{UserID: userID})
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "INSERT INTO players (user_id, version, record) VALUES ($1, 0, $2) ON CONFLICT DO NOTHING", userID, data); err != nil {
				return query("create player", err)
			}
			if p, _, err = scanPlayer(tx.QueryRow(ctx, lock, userID)); err != nil {
				return err
			}
		}
		version := p.Version
		if err := fn(p); err != nil {
			return err
		}
		if err := storage.PreparePlayer(p, userID, version); err != nil {
			return err
		}
		data, err := storage.EncodePlayer(p)
		if err != nil {
			return err
		}
		const write = "UPDATE players SET version = $2, record = $3, vacation_end = $4 WHERE user_id = $1"
		if _, err := tx.Exec(ctx, write, userID, int64(p.Version), data, nullTime(p.VacationEnds())); err != nil {
			return query("update player", err)
		}
		out = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PlayersOnVacation returns, ordered by user id (by its bytes, as bbolt
// orders them, in whatever collation the database has), the players whose
// last vacation ends after at.
func (db *DB) PlayersOnVacation(ctx context.Context, at time.Time) ([]string, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	rows, err := db.pool.Query(ctx, `SELECT user_id FROM players WHERE vacation_end > $1 ORDER BY user_id COLLATE "C"`, at)
	if err != nil {
		return nil, db.fail(query("players on vacation", err))
	}
	users, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, db.fail(query("players on vacation", err))
	}
	return users, nil
}
