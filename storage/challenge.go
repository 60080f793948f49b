package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

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

// Challenge is an invitation to a match, waiting for an answer. An open
// challenge (no Opponent) may be accepted by anyone but its challenger;
// AcceptChallenge takes it in one transaction, so of many accepting at once
// exactly one gets the match.
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
	// RatingMin and RatingMax, when not 0, bound the rating (in the
	// challenge's variant and server) of who may accept an open challenge.
	RatingMin, RatingMax int
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
	RatingMin  int          `json:"rating_min,omitempty"`
	RatingMax  int          `json:"rating_max,omitempty"`
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
		Message: c.MessageID, RatingMin: c.RatingMin, RatingMax: c.RatingMax, Created: unixTime(c.Created), Expires: unixTime(c.Expires),
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
		MessageID: rec.Message, RatingMin: rec.RatingMin, RatingMax: rec.RatingMax, Created: fromUnix(rec.Created), Expires: fromUnix(rec.Expires),
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
	case (c.RatingMin != 0 || c.RatingMax != 0) && c.Opponent.UserID != "":
		return fmt.Errorf("a rating range is for open challenges: %w", ErrInvalid)
	case c.RatingMin < 0 || c.RatingMax < 0 || c.RatingMax != 0 && c.RatingMin > c.RatingMax:
		return fmt.Errorf("rating range %d to %d is empty: %w", c.RatingMin, c.RatingMax, ErrInvalid)
	case c.Clock.validate() != nil:
		return c.Clock.validate()
	}
	if err := c.Rules.Validate(); err != nil {
		return fmt.Errorf("rules: %v: %w", err, ErrInvalid)
	}
	return nil
}

// Open reports whether anyone but the challenger may accept the challenge.
func (c *Challenge) Open() bool { return c.Opponent.UserID == "" }

// RatingAllows reports whether a member of that rating (rounded as the
// standings show it) may accept the challenge.
func (c *Challenge) RatingAllows(rating int) bool {
	return (c.RatingMin == 0 || rating >= c.RatingMin) && (c.RatingMax == 0 || rating <= c.RatingMax)
}
