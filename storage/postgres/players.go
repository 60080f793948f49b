package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/storage"
)

// players is the table of the players' settings, with the end of each
// one's last vacation beside it (PlayersOnVacation).
var players = &settingsTable[storage.PlayerSettings]{
	table: "players", key: "user_id", what: "player", id: "user",
	blank:   func(id string) *storage.PlayerSettings { return &storage.PlayerSettings{UserID: id} },
	version: func(p *storage.PlayerSettings) uint64 { return p.Version },
	prepare: storage.PreparePlayer,
	encode:  storage.EncodePlayer,
	decode:  storage.DecodePlayer,
	columns: []string{"vacation_end"},
	values:  func(p *storage.PlayerSettings) []any { return []any{nullTime(p.VacationEnds())} },
}

// Player returns a player's settings, the defaults for a player never seen.
func (db *DB) Player(ctx context.Context, userID string) (*storage.PlayerSettings, error) {
	return players.get(ctx, db, userID)
}

// UpdatePlayer changes a player's settings with fn in one transaction, on
// the player's locked row. A player never seen gets a row of defaults first,
// so that two first changes at once are made one after the other.
func (db *DB) UpdatePlayer(ctx context.Context, userID string, fn func(p *storage.PlayerSettings) error) (*storage.PlayerSettings, error) {
	return players.update(ctx, db, userID, fn)
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
