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
		q, unread, err := readQueue(ctx, tx, "SELECT user_id, record FROM seeks WHERE guild_id = $1", s.GuildID)
		if err != nil {
			return err
		}
		if err := rateQueue(ctx, tx, s.GuildID, q); err != nil {
			return err
		}
		var bad *storage.UnreadableError
		if errors.As(unread, &bad) {
			// Those that cannot be read and expired: dropped as PlanSeek
			// drops the others.
			if _, err := tx.Exec(ctx, "DELETE FROM seeks WHERE guild_id = $1 AND user_id = ANY($2) AND expires_at <= $3",
				s.GuildID, bad.Keys, s.Created); err != nil {
				return query("remove expired seeks", err)
			}
		}
		if errors.As(unread, &bad) && slices.Contains(bad.Keys, s.Player.UserID) {
			// The member's own, which cannot be read: the new one replaces it.
			if _, err := tx.Exec(ctx, "DELETE FROM seeks WHERE guild_id = $1 AND user_id = $2", s.GuildID, s.Player.UserID); err != nil {
				return query("remove a seek", err)
			}
		}
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
	q, unread, err := readQueue(ctx, db.pool, "SELECT user_id, record FROM seeks WHERE guild_id = $1 AND expires_at > $2", guildID, now)
	if err != nil {
		return nil, db.fail(err)
	}
	if err := rateQueue(ctx, db.pool, guildID, q); err != nil {
		return nil, db.fail(err)
	}
	return q, unread
}

// rateQueue gives each seek of a server's queue its member's rating now in
// the seek's variant (storage.Seek.Rating): the starting one without a
// standing, as Standing gives it.
func rateQueue(ctx context.Context, q interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}, guildID string, queue []*storage.Seek) error {
	if len(queue) == 0 {
		return nil
	}
	users := make([]string, len(queue))
	for k, s := range queue {
		users[k] = s.Player.UserID
	}
	rows, err := q.Query(ctx, "SELECT user_id, variant, rating FROM standings WHERE guild_id = $1 AND user_id = ANY($2)", guildID, users)
	if err != nil {
		return query("read the queue's ratings", err)
	}
	type key struct{ user, variant string }
	ratings := map[key]float64{}
	var k key
	var r float64
	if _, err := pgx.ForEachRow(rows, []any{&k.user, &k.variant, &r}, func() error {
		ratings[k] = r
		return nil
	}); err != nil {
		return query("read the queue's ratings", err)
	}
	for _, s := range queue {
		r := storage.NewStanding(guildID, s.Rules.Variant, s.Player.UserID).Rating
		if v, err := variantText(s.Rules.Variant); err == nil {
			if got, ok := ratings[key{s.Player.UserID, v}]; ok {
				r = got
			}
		}
		s.Rating = storage.RoundRating(r)
	}
	return nil
}

// readQueue runs sql, whose rows are a seek's member and record each, and
// returns the seeks, oldest first, and those it cannot read (a
// *storage.UnreadableError, which names their members).
func readQueue(ctx context.Context, q interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}, sql string, args ...any) (queue []*storage.Seek, unread, err error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, nil, query("read the queue", err)
	}
	type row struct {
		user string
		data []byte
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		err := r.Scan(&x.user, &x.data)
		return x, err
	})
	if err != nil {
		return nil, nil, query("read the queue", err)
	}
	bad := storage.NewUnreadable("seek")
	for _, r := range list {
		s, err := storage.DecodeSeek(r.data)
		if err != nil {
			bad.AddKey(0, r.user, err) // one bad record holds up no other
			continue
		}
		queue = append(queue, s)
	}
	storage.SortSeeks(queue)
	return queue, bad.Err(), nil
}

// DeleteSeek takes a member's seek out of a server's queue.
func (db *DB) DeleteSeek(ctx context.Context, guildID, userID string) (*storage.Seek, error) {
	var data []byte
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		data = nil
		err := tx.QueryRow(ctx, "DELETE FROM seeks WHERE guild_id = $1 AND user_id = $2 RETURNING record", guildID, userID).Scan(&data)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("seek of %s: %w", userID, storage.ErrNotFound)
		}
		return query("delete a seek", err)
	})
	if err != nil {
		return nil, err
	}
	return storage.DecodeSeek(data)
}
