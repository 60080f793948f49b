package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// PlaceSeek puts a seek in its server's queue or makes its match. The
// transaction first takes an advisory lock of the server's queue: two
// processes placing seeks in one server take turns, so that the second sees
// the first's seek (and matches it) or the match it made (and not the
// partner it took), and no waiting seek makes two matches.
func (db *DB) PlaceSeek(ctx context.Context, s *storage.Seek, partnerSide game.Side) (storage.SeekOutcome, error) {
	var out storage.SeekOutcome
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out = storage.SeekOutcome{}
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended('seeks:' || $1, 0))", s.GuildID); err != nil {
			return query("lock the queue", err)
		}
		rows, err := tx.Query(ctx, "SELECT record FROM seeks WHERE guild_id = $1", s.GuildID)
		if err != nil {
			return query("read the queue", err)
		}
		q, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*storage.Seek, error) {
			var data []byte
			if err := row.Scan(&data); err != nil {
				return nil, err
			}
			return storage.DecodeSeek(data)
		})
		if err != nil {
			return query("read the queue", err)
		}
		storage.SortSeeks(q)
		plan, err := db.changes.PlanSeek(q, s, partnerSide)
		if err != nil {
			return err
		}
		for _, r := range plan.Remove {
			if _, err := tx.Exec(ctx, "DELETE FROM seeks WHERE guild_id = $1 AND user_id = $2", r.GuildID, r.Player.UserID); err != nil {
				return query("remove a seek", err)
			}
		}
		out = plan.Outcome
		if m := out.Match; m != nil {
			if m.ID, err = nextMatchID(ctx, tx); err != nil {
				return err
			}
			return saveMatch(ctx, tx, nil, m, nil, m.Created)
		}
		data, err := storage.EncodeSeek(out.Seek)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO seeks (guild_id, user_id, created_at, expires_at, record) VALUES ($1, $2, $3, $4, $5)`,
			s.GuildID, s.Player.UserID, out.Seek.Created, out.Seek.Expires, data)
		return query("insert a seek", err)
	})
	if err != nil {
		return storage.SeekOutcome{}, err
	}
	return out, nil
}

// Seeks returns a server's waiting seeks, oldest first.
func (db *DB) Seeks(ctx context.Context, guildID string, now time.Time) ([]*storage.Seek, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	q, err := records(ctx, db, "list seeks", storage.DecodeSeek,
		"SELECT record FROM seeks WHERE guild_id = $1 AND expires_at > $2", guildID, now)
	if err != nil {
		return nil, err
	}
	storage.SortSeeks(q)
	return q, nil
}

// DeleteSeek takes a member's seek out of a server's queue.
func (db *DB) DeleteSeek(ctx context.Context, guildID, userID string) (*storage.Seek, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	var data []byte
	err := db.pool.QueryRow(ctx, "DELETE FROM seeks WHERE guild_id = $1 AND user_id = $2 RETURNING record", guildID, userID).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("seek of %s: %w", userID, storage.ErrNotFound)
	}
	if err != nil {
		return nil, db.fail(query("delete a seek", err))
	}
	return storage.DecodeSeek(data)
}
