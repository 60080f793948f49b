package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

const standingColumns = "user_id, name, wins, losses, draws, rating, rd, volatility, last_played"

// rateMatch counts a finished match in both players' standings, in the
// transaction that finishes it. Both rows are created if missing and then
// locked, in the order of the user ids, so that two matches of the same
// players finishing at once are counted one after the other and never lock
// each other out.
func rateMatch(ctx context.Context, tx pgx.Tx, m *storage.Match) error {
	variant, err := variantText(m.Rules.Variant)
	if err != nil {
		return err
	}
	users := []string{m.Players[game.Red].UserID, m.Players[game.Blue].UserID}
	slices.Sort(users)
	start := storage.NewStanding(m.GuildID, m.Rules.Variant, "")
	for _, u := range users {
		_, err := tx.Exec(ctx, `INSERT INTO standings (guild_id, variant, user_id, name, wins, losses, draws, rating, rd, volatility)
			VALUES ($1, $2, $3, '', 0, 0, 0, $4, $5, $6) ON CONFLICT DO NOTHING`,
			m.GuildID, variant, u, start.Rating, start.RD, start.Volatility)
		if err != nil {
			return query("create standing", err)
		}
	}
	var before [2]storage.Standing
	for _, u := range users {
		s, err := scanStanding(tx.QueryRow(ctx, "SELECT "+standingColumns+` FROM standings
			WHERE guild_id = $1 AND variant = $2 AND user_id = $3 FOR UPDATE`, m.GuildID, variant, u), m.GuildID, m.Rules.Variant)
		if err != nil {
			return query("lock standing", err)
		}
		side, _ := m.SideOf(u)
		before[side] = s
	}
	for _, s := range storage.Rate(m, before) {
		_, err := tx.Exec(ctx, `UPDATE standings SET name = $4, wins = $5, losses = $6, draws = $7, rating = $8, rd = $9, volatility = $10, last_played = $11
			WHERE guild_id = $1 AND variant = $2 AND user_id = $3`,
			m.GuildID, variant, s.UserID, s.Name, s.Wins, s.Losses, s.Draws, s.Rating, s.RD, s.Volatility, nullTime(s.LastPlayed))
		if err != nil {
			return query("update standing", err)
		}
	}
	return nil
}

func variantText(v game.Variant) (string, error) {
	text, err := v.MarshalText()
	if err != nil {
		return "", fmt.Errorf("variant %d: %v: %w", v, err, storage.ErrInvalid)
	}
	return string(text), nil
}

// scanStanding reads a row of standingColumns.
func scanStanding(row pgx.Row, guildID string, v game.Variant) (storage.Standing, error) {
	s := storage.Standing{GuildID: guildID, Variant: v}
	var last *time.Time
	err := row.Scan(&s.UserID, &s.Name, &s.Wins, &s.Losses, &s.Draws, &s.Rating, &s.RD, &s.Volatility, &last)
	s.LastPlayed = utc(last)
	return s, err
}

// Standing returns one player's standing, the starting one when they have none.
func (db *DB) Standing(ctx context.Context, guildID string, v game.Variant, userID string) (storage.Standing, error) {
	if err := db.ready(ctx); err != nil {
		return storage.Standing{}, err
	}
	variant, err := variantText(v)
	if err != nil {
		return storage.Standing{}, err
	}
	s, err := scanStanding(db.pool.QueryRow(ctx, "SELECT "+standingColumns+` FROM standings
		WHERE guild_id = $1 AND variant = $2 AND user_id = $3`, guildID, variant, userID), guildID, v)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return storage.NewStanding(guildID, v, userID), nil
	case err != nil:
		return storage.Standing{}, db.fail(query("standing", err))
	}
	return s, nil
}

// Standings returns a server's table for a variant, best rating first (ties
// in the order of the user ids' bytes, as the bbolt backend gives them).
func (db *DB) Standings(ctx context.Context, guildID string, v game.Variant, limit int) ([]storage.Standing, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	variant, err := variantText(v)
	if err != nil {
		return nil, err
	}
	var lim any
	if limit > 0 {
		lim = limit
	}
	rows, err := db.pool.Query(ctx, "SELECT "+standingColumns+` FROM standings
		WHERE guild_id = $1 AND variant = $2 ORDER BY rating DESC, user_id COLLATE "C" LIMIT $3`, guildID, variant, lim)
	if err != nil {
		return nil, db.fail(query("standings", err))
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (storage.Standing, error) {
		return scanStanding(row, guildID, v)
	})
	if err != nil {
		return nil, db.fail(query("standings", err))
	}
	return out, nil
}
