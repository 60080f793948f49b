package bolt

import (
	"context"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// challengeIndex lists a challenge's index keys: its players, its channel, its expiry.
func challengeIndex(c *storage.Challenge) []indexEntry {
	id := idKey(uint64(c.ID))
	e := []indexEntry{
		{bucketChallengesBy, string(append(prefixKey(c.Challenger.UserID, 'u'), id...))},
		{bucketChallengesBy, string(append(prefixKey(c.ChannelID, 'c'), id...))},
		{bucketTimers, string(timerKey(c.Expires, storage.DeadlineChallenge, uint64(c.ID)))},
	}
	if c.Opponent.UserID != "" {
		e = append(e, indexEntry{bucketChallengesBy, string(append(prefixKey(c.Opponent.UserID, 'u'), id...))})
	}
	return e
}

// CreateChallenge stores a new challenge, within its challenger's limits.
func (db *DB) CreateChallenge(ctx context.Context, c *storage.Challenge, limits storage.MemberLimits) (*storage.Challenge, error) {
	n, err := storage.PrepareChallenge(c)
	if err != nil {
		return nil, err
	}
	err = db.update(ctx, func(tx *bbolt.Tx) error {
		// Bolt has one writer at a time: the count stands until the write.
		if limits != (storage.MemberLimits{}) {
			pending, unread := playerChallenges(tx, n.Challenger.UserID)
			if err := limits.AllowChallenge(n, pending, unread.Len()); err != nil {
				return err
			}
		}
		b := tx.Bucket(bucketChallenges)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		n.ID = storage.ChallengeID(seq)
		data, err := storage.EncodeChallenge(n)
		if err != nil {
			return err
		}
		if err := b.Put(idKey(seq), data); err != nil {
			return err
		}
		return updateIndexes(tx, nil, challengeIndex(n))
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

func loadChallenge(tx *bbolt.Tx, id storage.ChallengeID) (*storage.Challenge, error) {
	data := tx.Bucket(bucketChallenges).Get(idKey(uint64(id)))
	if data == nil {
		return nil, fmt.Errorf("challenge %d: %w", id, storage.ErrNotFound)
	}
	return storage.DecodeChallenge(data)
}

// Challenge returns a pending challenge.
func (db *DB) Challenge(ctx context.Context, id storage.ChallengeID) (*storage.Challenge, error) {
	var c *storage.Challenge
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		c, err = loadChallenge(tx, id)
		return err
	})
	return c, err
}

// PlayerChallenges returns the challenges a player made or received.
func (db *DB) PlayerChallenges(ctx context.Context, userID string) ([]*storage.Challenge, error) {
	return db.listChallenges(ctx, prefixKey(userID, 'u'))
}

// ChannelChallenges returns the challenges posted in a channel.
func (db *DB) ChannelChallenges(ctx context.Context, channelID string) ([]*storage.Challenge, error) {
	return db.listChallenges(ctx, prefixKey(channelID, 'c'))
}

// listChallenges returns the challenges under prefix of the index, oldest
// first: those it cannot read are named by the *storage.UnreadableError it
// returns with the others.
func (db *DB) listChallenges(ctx context.Context, prefix []byte) ([]*storage.Challenge, error) {
	var out []*storage.Challenge
	var unread *storage.Unreadable
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		out, unread = indexedChallenges(tx, prefix)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, unread.Err()
}

// playerChallenges returns, in tx, the challenges userID made or received,
// oldest first, and those it cannot read.
func playerChallenges(tx *bbolt.Tx, userID string) ([]*storage.Challenge, *storage.Unreadable) {
	return indexedChallenges(tx, prefixKey(userID, 'u'))
}

// indexedChallenges returns, in tx, the challenges under prefix of the
// index, oldest first, and those it cannot read.
func indexedChallenges(tx *bbolt.Tx, prefix []byte) ([]*storage.Challenge, *storage.Unreadable) {
	var out []*storage.Challenge
	unread := storage.NewUnreadable("challenge")
	each(tx.Bucket(bucketChallengesBy), prefix, func(id uint64) bool {
		if c, err := loadChallenge(tx, storage.ChallengeID(id)); err != nil {
			unread.Add(id, err) // one bad record hides no other
		} else {
			out = append(out, c)
		}
		return true
	})
	return out, unread
}

func deleteChallenge(tx *bbolt.Tx, c *storage.Challenge) error {
	if err := tx.Bucket(bucketChallenges).Delete(idKey(uint64(c.ID))); err != nil {
		return err
	}
	return updateIndexes(tx, challengeIndex(c), nil)
}

// DeleteChallenge removes a challenge and returns it.
func (db *DB) DeleteChallenge(ctx context.Context, id storage.ChallengeID) (*storage.Challenge, error) {
	var c *storage.Challenge
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		var err error
		if c, err = loadChallenge(tx, id); err != nil {
			return err
		}
		return deleteChallenge(tx, c)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// SetChallengeMessage records the id of the message that shows the challenge,
// once the bot has posted it.
func (db *DB) SetChallengeMessage(ctx context.Context, id storage.ChallengeID, messageID string) (*storage.Challenge, error) {
	var c *storage.Challenge
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		var err error
		if c, err = loadChallenge(tx, id); err != nil {
			return err
		}
		c.MessageID = messageID
		data, err := storage.EncodeChallenge(c)
		if err != nil {
			return err
		}
		return tx.Bucket(bucketChallenges).Put(idKey(uint64(id)), data)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// AcceptChallenge removes the challenge and creates its match, in set-up, in one transaction.
func (db *DB) AcceptChallenge(ctx context.Context, id storage.ChallengeID, opponent storage.Player, challengerSide game.Side, at time.Time) (*storage.Match, error) {
	var out *storage.Match
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		out = nil
		c, err := loadChallenge(tx, id)
		if err != nil {
			return err
		}
		m, err := db.Changes().AcceptChallenge(c, opponent, challengerSide, at)
		if err != nil {
			return err
		}
		seq, err := tx.Bucket(bucketMatches).NextSequence()
		if err != nil {
			return err
		}
		m.ID = storage.MatchID(seq)
		if err := db.saveMatch(tx, nil, m, nil, m.Created); err != nil {
			return err
		}
		out = m
		return deleteChallenge(tx, c)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
