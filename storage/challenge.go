package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
)

// ChallengeID names a pending challenge: a small sequence number.
type ChallengeID uint64

// String returns the id in decimal.
func (id ChallengeID) String() string { return strconv.FormatUint(uint64(id), 10) }

// Errors of challenges.
var (
	// ErrNotInvited refuses an acceptance by someone the challenge does not name.
	ErrNotInvited = errors.New("this challenge is for someone else")
	// ErrExpired refuses an acceptance after the challenge's expiry.
	ErrExpired = errors.New("this challenge has expired")
)

// Challenge is an invitation to a match, waiting for an answer.
type Challenge struct {
	ID         ChallengeID
	GuildID    string // empty outside a server
	ChannelID  string
	Challenger Player
	// Opponent is the player challenged; an empty UserID means anyone may accept.
	Opponent Player
	Rules    game.Rules
	MoveTime time.Duration
	// Clock, when on, is the match's game clock (MoveTime then bounds the set-ups).
	Clock  TimeControl
	Casual bool
	// MessageID is the challenge message, edited when it is answered or expires.
	MessageID string
	Created   time.Time
	Expires   time.Time
}

type challengeRecord struct {
	V          int          `json:"v"`
	ID         uint64       `json:"id"`
	Guild      string       `json:"guild,omitempty"`
	Channel    string       `json:"channel"`
	Challenger playerRecord `json:"challenger"`
	Opponent   playerRecord `json:"opponent"`
	Rules      rulesRecord  `json:"rules"`
	MoveTime   int64        `json:"move_time"`
	Casual     bool         `json:"casual,omitempty"`
	Clock      string       `json:"clock,omitempty"` // "600+5": seconds, and seconds a move
	Message    string       `json:"message,omitempty"`
	Created    int64        `json:"created"`
	Expires    int64        `json:"expires"`
}

func encodeChallenge(c *Challenge) ([]byte, error) {
	rec := challengeToRecord(c)
	return json.Marshal(&rec)
}

func challengeToRecord(c *Challenge) challengeRecord {
	return challengeRecord{
		V: challengeRecordVersion, ID: uint64(c.ID), Guild: c.GuildID, Channel: c.ChannelID,
		Challenger: playerRecord{c.Challenger.UserID, c.Challenger.Name},
		Opponent:   playerRecord{c.Opponent.UserID, c.Opponent.Name},
		Rules:      encodeRules(c.Rules), MoveTime: int64(c.MoveTime / time.Second), Casual: c.Casual, Clock: encodeClock(c.Clock),
		Message: c.MessageID, Created: unixTime(c.Created), Expires: unixTime(c.Expires),
	}
}

func decodeChallenge(data []byte) (*Challenge, error) {
	var rec challengeRecord
	if err := unmarshalRecord(data, &rec, &rec.V, "challenge", challengeRecordVersion); err != nil {
		return nil, err
	}
	return challengeFromRecord(&rec)
}

func challengeFromRecord(rec *challengeRecord) (*Challenge, error) {
	if rec.V > challengeRecordVersion {
		return nil, fmt.Errorf("challenge record version %d (this program reads up to %d): %w", rec.V, challengeRecordVersion, ErrNewerSchema)
	}
	rules, err := decodeRules(rec.Rules)
	if err != nil {
		return nil, fmt.Errorf("challenge %d: %v: %w", rec.ID, err, ErrCorrupt)
	}
	clock, err := decodeClock(rec.Clock)
	if err != nil {
		return nil, fmt.Errorf("challenge %d: %v: %w", rec.ID, err, ErrCorrupt)
	}
	return &Challenge{
		Clock: clock,
		ID:    ChallengeID(rec.ID), GuildID: rec.Guild, ChannelID: rec.Channel,
		Challenger: Player{rec.Challenger.ID, rec.Challenger.Name},
		Opponent:   Player{rec.Opponent.ID, rec.Opponent.Name},
		Rules:      rules, MoveTime: time.Duration(rec.MoveTime) * time.Second, Casual: rec.Casual,
		MessageID: rec.Message, Created: fromUnix(rec.Created), Expires: fromUnix(rec.Expires),
	}, nil
}

func (c *Challenge) validate() error {
	switch {
	case c.Challenger.UserID == "":
		return fmt.Errorf("a challenge needs a challenger: %w", ErrInvalid)
	case c.Challenger.UserID == c.Opponent.UserID:
		return fmt.Errorf("a player cannot challenge themselves: %w", ErrInvalid)
	case c.ChannelID == "":
		return fmt.Errorf("a challenge needs a channel: %w", ErrInvalid)
	case c.Created.IsZero() || !c.Expires.After(c.Created):
		return fmt.Errorf("a challenge needs a creation time and a later expiry: %w", ErrInvalid)
	case c.MoveTime < MinMoveTime || c.MoveTime > MaxMoveTime:
		return fmt.Errorf("move time %s is outside %s to %s: %w", c.MoveTime, MinMoveTime, MaxMoveTime, ErrInvalid)
	case c.Clock.validate() != nil:
		return c.Clock.validate()
	}
	if err := c.Rules.Validate(); err != nil {
		return fmt.Errorf("rules: %v: %w", err, ErrInvalid)
	}
	return nil
}

// challengeIndex lists a challenge's index keys: its players, its channel, its expiry.
func challengeIndex(c *Challenge) []indexEntry {
	id := idKey(uint64(c.ID))
	e := []indexEntry{
		{bucketChallengesBy, string(append(prefixKey(c.Challenger.UserID, 'u'), id...))},
		{bucketChallengesBy, string(append(prefixKey(c.ChannelID, 'c'), id...))},
		{bucketTimers, string(timerKey(c.Expires, DeadlineChallenge, uint64(c.ID)))},
	}
	if c.Opponent.UserID != "" {
		e = append(e, indexEntry{bucketChallengesBy, string(append(prefixKey(c.Opponent.UserID, 'u'), id...))})
	}
	return e
}

// CreateChallenge stores a new challenge.
func (db *DB) CreateChallenge(ctx context.Context, c *Challenge) (*Challenge, error) {
	n, err := PrepareChallenge(c)
	if err != nil {
		return nil, err
	}
	err = db.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketChallenges)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		n.ID = ChallengeID(seq)
		data, err := encodeChallenge(n)
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

func loadChallenge(tx *bolt.Tx, id ChallengeID) (*Challenge, error) {
	data := tx.Bucket(bucketChallenges).Get(idKey(uint64(id)))
	if data == nil {
		return nil, fmt.Errorf("challenge %d: %w", id, ErrNotFound)
	}
	return decodeChallenge(data)
}

// Challenge returns a pending challenge.
func (db *DB) Challenge(ctx context.Context, id ChallengeID) (*Challenge, error) {
	var c *Challenge
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		c, err = loadChallenge(tx, id)
		return err
	})
	return c, err
}

// PlayerChallenges returns the challenges a player made or received.
func (db *DB) PlayerChallenges(ctx context.Context, userID string) ([]*Challenge, error) {
	return db.listChallenges(ctx, prefixKey(userID, 'u'))
}

// ChannelChallenges returns the challenges posted in a channel.
func (db *DB) ChannelChallenges(ctx context.Context, channelID string) ([]*Challenge, error) {
	return db.listChallenges(ctx, prefixKey(channelID, 'c'))
}

func (db *DB) listChallenges(ctx context.Context, prefix []byte) ([]*Challenge, error) {
	var out []*Challenge
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		each(tx.Bucket(bucketChallengesBy), prefix, func(id uint64) bool {
			var c *Challenge
			if c, err = loadChallenge(tx, ChallengeID(id)); err != nil {
				return false
			}
			out = append(out, c)
			return true
		})
		return err
	})
	return out, err
}

func deleteChallenge(tx *bolt.Tx, c *Challenge) error {
	if err := tx.Bucket(bucketChallenges).Delete(idKey(uint64(c.ID))); err != nil {
		return err
	}
	return updateIndexes(tx, challengeIndex(c), nil)
}

// DeleteChallenge removes a challenge and returns it.
func (db *DB) DeleteChallenge(ctx context.Context, id ChallengeID) (*Challenge, error) {
	var c *Challenge
	err := db.update(ctx, func(tx *bolt.Tx) error {
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
func (db *DB) SetChallengeMessage(ctx context.Context, id ChallengeID, messageID string) (*Challenge, error) {
	var c *Challenge
	err := db.update(ctx, func(tx *bolt.Tx) error {
		var err error
		if c, err = loadChallenge(tx, id); err != nil {
			return err
		}
		c.MessageID = messageID
		data, err := encodeChallenge(c)
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
func (db *DB) AcceptChallenge(ctx context.Context, id ChallengeID, opponent Player, challengerSide game.Side, at time.Time) (*Match, error) {
	var out *Match
	err := db.update(ctx, func(tx *bolt.Tx) error {
		out = nil
		c, err := loadChallenge(tx, id)
		if err != nil {
			return err
		}
		m, err := db.changes().AcceptChallenge(c, opponent, challengerSide, at)
		if err != nil {
			return err
		}
		seq, err := tx.Bucket(bucketMatches).NextSequence()
		if err != nil {
			return err
		}
		m.ID = MatchID(seq)
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
