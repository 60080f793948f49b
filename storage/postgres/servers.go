package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/storage"
)

// scanServer reads a server's record; found is false when there is none.
func scanServer(row pgx.Row) (p *storage.ServerSettings, found bool, err error) {
	var data []byte
	if err := row.Scan(&data); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, false, nil
		}
		return nil, false, query("server", err)
	}
	p, err = storage.DecodeServer(data)
	return p, err == nil, err
}

// Server returns a server's settings, the defaults for a server never set up.
func (db *DB) Server(ctx context.Context, guildID string) (*storage.ServerSettings, error) {
	if guildID == "" {
		return nil, fmt.Errorf("no guild id: %w", storage.ErrInvalid)
	}
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	p, found, err := scanServer(db.pool.QueryRow(ctx, "SELECT record FROM servers WHERE guild_id = $1", guildID))
	if err != nil {
		return nil, db.fail(err)
	}
	if !found {
		return &storage.ServerSettings{GuildID: guildID}, nil
	}
	return p, nil
}

// UpdateServer changes a server's settings with fn in one transaction, on
// the server's locked row. A server never set up gets a row of defaults first,
// so that two first changes at once are made one after the other.
func (db *DB) UpdateServer(ctx context.Context, guildID string, fn func(s *storage.ServerSettings) error) (*storage.ServerSettings, error) {
	if guildID == "" {
		return nil, fmt.Errorf("no guild id: %w", storage.ErrInvalid)
	}
	var out *storage.ServerSettings
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out = nil
		const lock = "SELECT record FROM servers WHERE guild_id = $1 FOR UPDATE"
		p, found, err := scanServer(tx.QueryRow(ctx, lock, guildID))
		if err != nil {
			return err
		}
		if !found {
			data, err := storage.EncodeServer(&storage.ServerSettings{GuildID: guildID})
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "INSERT INTO servers (guild_id, version, record) VALUES ($1, 0, $2) ON CONFLICT DO NOTHING", guildID, data); err != nil {
				return query("create server", err)
			}
			if p, _, err = scanServer(tx.QueryRow(ctx, lock, guildID)); err != nil {
				return err
			}
		}
		version := p.Version
		if err := fn(p); err != nil {
			return err
		}
		if err := storage.PrepareServer(p, guildID, version); err != nil {
			return err
		}
		data, err := storage.EncodeServer(p)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE servers SET version = $2, record = $3 WHERE guild_id = $1", guildID, int64(p.Version), data); err != nil {
			return query("update server", err)
		}
		out = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
