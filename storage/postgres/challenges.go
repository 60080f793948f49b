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

// CreateChallenge stores a new challenge, within its challenger's limits.
func (db *DB) CreateChallenge(ctx context.Context, c *storage.Challenge, limits storage.MemberLimits) (*storage.Challenge, error) {
	n, err := storage.PrepareChallenge(c)
	if err != nil {
		return nil, err
	}
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if err := allowChallenge(ctx, tx, n, limits); err != nil {
			return err
		}
		var id int64
		if err := tx.QueryRow(ctx, "SELECT nextval('challenge_ids')").Scan(&id); err != nil {
			return query("next challenge id", err)
		}
		n.ID = storage.ChallengeID(id)
		data, err := storage.EncodeChallenge(n)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO challenges (id, channel_id, challenger_id, opponent_id, expires_at, record)
			VALUES ($1, $2, $3, $4, $5, $6)`, id, n.ChannelID, n.Challenger.UserID, nullText(n.Opponent.UserID), n.Expires, data)
		return query("insert challenge", err)
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// allowChallenge refuses c when it would go over its challenger's limits.
// It first takes the locks of both members (lockMembers), so that two
// processes' challenges of one member, or between the same two, cannot
// both count before either writes.
func allowChallenge(ctx context.Context, tx pgx.Tx, c *storage.Challenge, limits storage.MemberLimits) error {
	if limits == (storage.MemberLimits{}) {
		return nil
	}
	if err := lockMembers(ctx, tx, c.Challenger.UserID, c.Opponent.UserID); err != nil {
		return err
	}
	pending, err := identifiedIn(ctx, tx, "list challenges", "challenge", storage.DecodeChallenge,
		"SELECT id, record FROM challenges WHERE challenger_id = $1 OR opponent_id = $1 ORDER BY id", c.Challenger.UserID)
	var unread *storage.UnreadableError
	passed := 0
	if errors.As(err, &unread) {
		passed, err = len(unread.IDs), nil // each may be one the challenger made
	}
	if err != nil {
		return err
	}
	return limits.AllowChallenge(c, pending, passed)
}

// lockMembers takes the advisory locks of members ("" skipped) until the
// transaction ends, in the order of their ids, so that two transactions
// locking the same two never wait for each other. What a member starts
// within limits (MemberLimits) is counted and written under their lock.
func lockMembers(ctx context.Context, tx pgx.Tx, members ...string) error {
	ids := slices.Sorted(slices.Values(slices.DeleteFunc(slices.Clone(members), func(id string) bool { return id == "" })))
	for _, id := range slices.Compact(ids) {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended('member:' || $1, 0))", id); err != nil {
			return query("lock a member's limits", err)
		}
	}
	return nil
}

// scanChallenge reads the record of challenge id.
func scanChallenge(row pgx.Row, id storage.ChallengeID) (*storage.Challenge, error) {
	var data []byte
	if err := row.Scan(&data); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, fmt.Errorf("challenge %d: %w", id, storage.ErrNotFound)
		}
		return nil, query(fmt.Sprintf("challenge %d", id), err)
	}
	return storage.DecodeChallenge(data)
}

// Challenge returns a pending challenge.
func (db *DB) Challenge(ctx context.Context, id storage.ChallengeID) (*storage.Challenge, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	c, err := scanChallenge(db.pool.QueryRow(ctx, "SELECT record FROM challenges WHERE id = $1", int64(id)), id)
	return c, db.fail(err)
}

// PlayerChallenges returns the challenges a player made or received, oldest first.
func (db *DB) PlayerChallenges(ctx context.Context, userID string) ([]*storage.Challenge, error) {
	return db.listChallenges(ctx, "SELECT id, record FROM challenges WHERE challenger_id = $1 OR opponent_id = $1 ORDER BY id", userID)
}

// ChannelChallenges returns the challenges posted in a channel, oldest first.
func (db *DB) ChannelChallenges(ctx context.Context, channelID string) ([]*storage.Challenge, error) {
	return db.listChallenges(ctx, "SELECT id, record FROM challenges WHERE channel_id = $1 ORDER BY id", channelID)
}

// listChallenges runs sql, whose rows are a challenge's id and record
// each, with the parameter name: those it cannot read are named by the
// *storage.UnreadableError it returns with the others.
func (db *DB) listChallenges(ctx context.Context, sql, name string) ([]*storage.Challenge, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	return identified(ctx, db, "list challenges", "challenge", storage.DecodeChallenge, sql, name)
}

// SetChallengeMessage records the id of the message that shows the challenge.
func (db *DB) SetChallengeMessage(ctx context.Context, id storage.ChallengeID, messageID string) (*storage.Challenge, error) {
	var out *storage.Challenge
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		c, err := scanChallenge(tx.QueryRow(ctx, "SELECT record FROM challenges WHERE id = $1 FOR UPDATE", int64(id)), id)
		if err != nil {
			return err
		}
		c.MessageID = messageID
		data, err := storage.EncodeChallenge(c)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE challenges SET record = $2 WHERE id = $1", int64(id), data); err != nil {
			return query("update challenge", err)
		}
		out = c
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// deleteChallenge deletes a challenge and returns it: of two transactions
// deleting one challenge, the second waits for the first and finds nothing.
func deleteChallenge(ctx context.Context, tx pgx.Tx, id storage.ChallengeID) (*storage.Challenge, error) {
	return scanChallenge(tx.QueryRow(ctx, "DELETE FROM challenges WHERE id = $1 RETURNING record", int64(id)), id)
}

// DeleteChallenge removes a challenge and returns it, in a transaction: one
// whose record cannot be read is left as it was, with its error, as bbolt
// leaves it (deleted outside one, it was gone with the error returned).
func (db *DB) DeleteChallenge(ctx context.Context, id storage.ChallengeID) (*storage.Challenge, error) {
	var out *storage.Challenge
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		c, err := deleteChallenge(ctx, tx, id)
		out = c
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AcceptChallenge deletes the challenge and creates its match in one
// transaction. The delete comes first and locks the row: of two players
// accepting at once, the second waits, finds no challenge (ErrNotFound) and
// takes no match id. A refused acceptance rolls the delete back.
func (db *DB) AcceptChallenge(ctx context.Context, id storage.ChallengeID, opponent storage.Player, challengerSide game.Side, at time.Time) (*storage.Match, error) {
	var out *storage.Match
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out = nil
		c, err := deleteChallenge(ctx, tx, id)
		if err != nil {
			return err
		}
		m, err := db.changes.AcceptChallenge(c, opponent, challengerSide, at)
		if err != nil {
			return err
		}
		if m.ID, err = nextMatchID(ctx, tx); err != nil {
			return err
		}
		if err := saveMatch(ctx, tx, nil, m, nil, m.Created); err != nil {
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
