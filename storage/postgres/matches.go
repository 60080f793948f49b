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

// CreateMatch stores a new match: see storage.Store.
func (db *DB) CreateMatch(ctx context.Context, m *storage.Match) (*storage.Match, error) {
	n, err := db.changes.NewMatch(m)
	if err != nil {
		return nil, err
	}
	var out *storage.Match
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		out = n.Clone()
		var err error
		if out.ID, err = nextMatchID(ctx, tx); err != nil {
			return err
		}
		return saveMatch(ctx, tx, nil, out, nil, out.Created)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CreatePractice stores a new practice match of member, within member's
// limits: under member's lock (lockMembers), so that two processes'
// practice matches of one member cannot both count before either writes.
func (db *DB) CreatePractice(ctx context.Context, m *storage.Match, member string, limits storage.MemberLimits) (*storage.Match, error) {
	if err := storage.CheckPractice(m, member); err != nil {
		return nil, err
	}
	n, err := db.changes.NewMatch(m)
	if err != nil {
		return nil, err
	}
	var out *storage.Match
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		out = nil
		if limits != (storage.MemberLimits{}) {
			if err := lockMembers(ctx, tx, member); err != nil {
				return err
			}
			active, err := identifiedIn(ctx, tx, "list matches", "match", storage.DecodeMatch,
				"SELECT id, record FROM matches WHERE (red_id = $1 OR blue_id = $1) AND active ORDER BY id", member)
			var unread *storage.UnreadableError
			passed := 0
			if errors.As(err, &unread) {
				passed, err = len(unread.IDs), nil // each may be a practice match
			}
			if err != nil {
				return err
			}
			if err := limits.AllowPractice(active, passed); err != nil {
				return err
			}
		}
		out = n.Clone()
		if out.ID, err = nextMatchID(ctx, tx); err != nil {
			return err
		}
		return saveMatch(ctx, tx, nil, out, nil, out.Created)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func nextMatchID(ctx context.Context, tx pgx.Tx) (storage.MatchID, error) {
	var id int64
	if err := tx.QueryRow(ctx, "SELECT nextval('match_ids')").Scan(&id); err != nil {
		return 0, query("next match id", err)
	}
	return storage.MatchID(id), nil
}

// Match returns a match by id.
func (db *DB) Match(ctx context.Context, id storage.MatchID) (*storage.Match, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	m, err := scanMatch(db.pool.QueryRow(ctx, "SELECT version, record FROM matches WHERE id = $1", int64(id)), id)
	return m, db.fail(err)
}

// MatchVersion returns the stored version of a match.
func (db *DB) MatchVersion(ctx context.Context, id storage.MatchID) (uint64, error) {
	if err := db.ready(ctx); err != nil {
		return 0, err
	}
	var version int64
	if err := db.pool.QueryRow(ctx, "SELECT version FROM matches WHERE id = $1", int64(id)).Scan(&version); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return 0, fmt.Errorf("match %d: %w", id, storage.ErrNotFound)
		}
		return 0, db.fail(query(fmt.Sprintf("the version of match %d", id), err))
	}
	return uint64(version), nil
}

// scanMatch reads the version column and the record of match id.
func scanMatch(row pgx.Row, id storage.MatchID) (*storage.Match, error) {
	var version int64
	var data []byte
	if err := row.Scan(&version, &data); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, fmt.Errorf("match %d: %w", id, storage.ErrNotFound)
		}
		return nil, query(fmt.Sprintf("match %d", id), err)
	}
	m, err := storage.DecodeMatch(data)
	if err != nil {
		return nil, err
	}
	if m.ID != id || m.Version != uint64(version) {
		return nil, fmt.Errorf("match %d: the row (version %d) and its record (match %d version %d) disagree: %w", id, version, m.ID, m.Version, storage.ErrCorrupt)
	}
	return m, nil
}

// change is one update of a match inside a transaction, on a copy of the
// stored match. It may return the game it rebuilt, so that saving need not
// replay again.
type change func(m *storage.Match) (*game.Game, error)

// modify runs one change in one transaction: it locks the match's row (of two
// changes to one match, the second waits for the first to commit and then sees
// its version), checks the version, applies ch and saves the result with the
// notices it owes. at is when the change happens (zero for a change that owes
// nobody a notice).
func (db *DB) modify(ctx context.Context, id storage.MatchID, expectVersion uint64, at time.Time, ch change) (*storage.Match, error) {
	var out *storage.Match
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out = nil
		old, err := scanMatch(tx.QueryRow(ctx, "SELECT version, record FROM matches WHERE id = $1 FOR UPDATE", int64(id)), id)
		if err != nil {
			return err
		}
		if err := storage.CheckVersion(old, expectVersion); err != nil {
			return err
		}
		m := old.Clone()
		g, err := ch(m)
		if err != nil {
			return err
		}
		if err := saveMatch(ctx, tx, old, m, g, at); err != nil {
			return err
		}
		out = m
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateMatch changes a match with fn: see storage.Store.
func (db *DB) UpdateMatch(ctx context.Context, id storage.MatchID, expectVersion uint64, fn func(m *storage.Match) error) (*storage.Match, error) {
	return db.modify(ctx, id, expectVersion, time.Time{}, func(m *storage.Match) (*game.Game, error) {
		return nil, db.changes.UpdateMatch(m, fn)
	})
}

// ApplyMove plays one move: see storage.Store.
func (db *DB) ApplyMove(ctx context.Context, id storage.MatchID, expectVersion uint64, side game.Side, move game.Move, at time.Time) (*storage.Match, *game.Game, error) {
	var played *game.Game
	m, err := db.modify(ctx, id, expectVersion, at, func(m *storage.Match) (g *game.Game, err error) {
		// This may run again (see inTx): played is only the last run's game.
		played, err = db.changes.ApplyMove(m, side, move, at)
		return played, err
	})
	if err != nil {
		return nil, nil, err
	}
	return m, played, nil
}

// Act records an action other than a move: see storage.Store.
func (db *DB) Act(ctx context.Context, id storage.MatchID, expectVersion uint64, a storage.Action) (*storage.Match, error) {
	return db.modify(ctx, id, expectVersion, a.At, func(m *storage.Match) (*game.Game, error) {
		return db.changes.Act(m, a)
	})
}

// SetSetup stores a draft or confirms a set-up: see storage.Store.
func (db *DB) SetSetup(ctx context.Context, id storage.MatchID, expectVersion uint64, side game.Side, setup game.Setup, status storage.SetupStatus, at time.Time) (*storage.Match, error) {
	return db.modify(ctx, id, expectVersion, at, func(m *storage.Match) (*game.Game, error) {
		return db.changes.SetSetup(m, side, setup, status, at)
	})
}

// Abandon ends an active match with no result.
func (db *DB) Abandon(ctx context.Context, id storage.MatchID, expectVersion uint64, at time.Time, why storage.CallOff) (*storage.Match, error) {
	return db.modify(ctx, id, expectVersion, at, func(m *storage.Match) (*game.Game, error) {
		return nil, db.changes.Abandon(m, at, why)
	})
}

// MarkReminded records the reminder due at RemindAt as sent and plans the next.
func (db *DB) MarkReminded(ctx context.Context, id storage.MatchID, expectVersion uint64, at time.Time) (*storage.Match, error) {
	return db.modify(ctx, id, expectVersion, at, func(m *storage.Match) (*game.Game, error) {
		return nil, db.changes.MarkReminded(m, at)
	})
}

// ChannelBack records that the match's channel is within reach again: see storage.Store.
func (db *DB) ChannelBack(ctx context.Context, id storage.MatchID, at time.Time) (*storage.Match, error) {
	return db.modify(ctx, id, 0, at, func(m *storage.Match) (*game.Game, error) {
		return nil, db.changes.ChannelBack(m)
	})
}

// saveMatch checks m, counts a newly finished match in the standings, records
// the notices the change owes, bumps its version and writes its row (see
// storage.PrepareSave). old is the stored match, nil for a new one; g, when
// not nil, is m's game already rebuilt; at is when the change happened.
func saveMatch(ctx context.Context, tx pgx.Tx, old, m *storage.Match, g *game.Game, at time.Time) error {
	saved, err := storage.PrepareSave(old, m, g, at)
	if err != nil {
		return err
	}
	if saved.Rate {
		if err := rateMatch(ctx, tx, m); err != nil {
			return err
		}
	}
	if err := recordNotices(ctx, tx, saved.Notices); err != nil {
		return err
	}
	var oldVersion uint64
	if old != nil {
		oldVersion = old.Version
	}
	return writeMatch(ctx, tx, oldVersion, m)
}

// writeMatch writes m's row as it is: an insert when oldVersion is 0, else an
// update of the row still at oldVersion (the row is locked, so this only
// guards the rule in the database too).
func writeMatch(ctx context.Context, tx pgx.Tx, oldVersion uint64, m *storage.Match) error {
	data, err := storage.EncodeMatch(m)
	if err != nil {
		return err
	}
	var wakeAt, wakeKind any // NULL: no timer
	if d, ok := storage.MatchTimer(m); ok {
		wakeAt, wakeKind = d.At, string(rune(d.Kind))
	}
	thread := m.ThreadID
	if thread == m.ChannelID {
		thread = "" // the channel's index already lists it
	}
	args := []any{int64(m.ID), int64(m.Version), m.Phase.String(), m.Phase.Active(), m.GuildID, m.ChannelID, nullText(thread),
		m.Players[game.Red].UserID, m.Players[game.Blue].UserID, wakeAt, wakeKind, data}
	if oldVersion == 0 {
		_, err := tx.Exec(ctx, `INSERT INTO matches (id, version, phase, active, guild_id, channel_id, thread_id, red_id, blue_id, wake_at, wake_kind, record)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, args...)
		return query(fmt.Sprintf("insert match %d", m.ID), err)
	}
	tag, err := tx.Exec(ctx, `UPDATE matches SET version = $2, phase = $3, active = $4, guild_id = $5, channel_id = $6, thread_id = $7,
			red_id = $8, blue_id = $9, wake_at = $10, wake_kind = $11, record = $12
		WHERE id = $1 AND version = $13`, append(args, int64(oldVersion))...)
	if err != nil {
		return query(fmt.Sprintf("update match %d", m.ID), err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("match %d is no longer at version %d: %w", m.ID, oldVersion, storage.ErrStale)
	}
	return nil
}

// PlayerMatches lists a player's matches, newest first: each side's index
// read backwards, at most limit from each, merged.
func (db *DB) PlayerMatches(ctx context.Context, userID string, active bool, limit int) ([]*storage.Match, error) {
	if userID == "" {
		return nil, db.ready(ctx)
	}
	return db.listMatches(ctx, `SELECT id, record FROM (
		(SELECT id, record FROM matches WHERE red_id = $1 AND active = $2 ORDER BY id DESC LIMIT $3)
		UNION ALL
		(SELECT id, record FROM matches WHERE blue_id = $1 AND active = $2 ORDER BY id DESC LIMIT $3)
	) AS m ORDER BY id DESC LIMIT $3`, userID, active, limit)
}

// ChannelMatches lists a channel's or a thread's matches, newest first.
func (db *DB) ChannelMatches(ctx context.Context, channelID string, active bool, limit int) ([]*storage.Match, error) {
	if channelID == "" {
		return nil, db.ready(ctx)
	}
	return db.listMatches(ctx, `SELECT id, record FROM (
		(SELECT id, record FROM matches WHERE channel_id = $1 AND active = $2 ORDER BY id DESC LIMIT $3)
		UNION ALL
		(SELECT id, record FROM matches WHERE thread_id = $1 AND active = $2 ORDER BY id DESC LIMIT $3)
	) AS m ORDER BY id DESC LIMIT $3`, channelID, active, limit)
}

// listMatches runs a query of matches' ids and records with the parameters
// name, active and limit (0: no limit, which is LIMIT NULL): those it
// cannot read are named by the *storage.UnreadableError it returns with
// the others.
func (db *DB) listMatches(ctx context.Context, sql, name string, active bool, limit int) ([]*storage.Match, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	var lim any
	if limit > 0 {
		lim = limit
	}
	return identified(ctx, db, "list matches", "match", storage.DecodeMatch, sql, name, active, lim)
}
