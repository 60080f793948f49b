package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
)

// A seek is a member's place in a server's queue: "I want a game of this
// variant at this time". PlaceSeek matches a new seek with the oldest
// compatible one waiting, in the transaction that removes it and makes the
// match, so that of several processes placing seeks at once no waiting seek
// ever makes two matches. A server holds at most one seek per member (a new
// one replaces the old) and at most MaxSeeks. Expired seeks are left out of
// every list and dropped by the next PlaceSeek of their server.

// MaxSeekHours bounds how long a server lets seeks wait: a week.
const MaxSeekHours = 168

// SeekExpiry is how long a seek waits in a server's queue: the server's
// choice, or an hour for a game on a clock and a day for a time per move.
func (s *ServerSettings) SeekExpiry(onClock bool) time.Duration {
	switch {
	case s.SeekHours > 0:
		return time.Duration(s.SeekHours) * time.Hour
	case onClock:
		return time.Hour
	}
	return 24 * time.Hour
}

// MaxSeeks bounds a server's queue.
const MaxSeeks = 50

// ErrQueueFull refuses a seek when its server's queue holds MaxSeeks.
var ErrQueueFull = errors.New("the queue of this server is full")

// Seek is one member's wish for a game, waiting in a server's queue.
type Seek struct {
	GuildID   string
	ChannelID string // where it was made
	Player    Player
	// TimeClass is the time the seek asks for, as the seeker chose it
	// ("24h", "10+5"): two seeks match only with the same one.
	TimeClass string
	Rules     game.Rules
	MoveTime  time.Duration
	Clock     TimeControl
	// Rating is the seeker's rating in the seek's server and variant,
	// rounded as the standings show it (RoundRating): as of the seek when
	// it is placed, and as of now when the store reads it (Seeks,
	// PlaceSeek), so that a rated game its member finished while it waited
	// counts; RatingMin and RatingMax (0: no bound) are the ratings the
	// seeker accepts as opponents.
	Rating               int
	RatingMin, RatingMax int
	Created, Expires     time.Time
	// Meets, when not nil, names the waiting seeks (by member) that a new
	// seek may be paired with, and the channel of each match: one both
	// members can see, which only the bot can tell ("": none). PlanSeek
	// pairs the oldest compatible seek named there with a channel, in it,
	// or one it does not name that was made in the new seek's own channel,
	// in that channel, where both members sought: a seek placed at the
	// same moment, after the bot looked at the queue; none other. nil
	// pairs any, in the new seek's channel. It is not stored.
	Meets map[string]string
}

// RoundRating is a rating to the unit, as the standings show it and as
// a seek's Rating and the rating ranges compare it.
func RoundRating(r float64) int { return int(math.Round(r)) }

// Allows reports whether the seeker accepts an opponent of that rating.
func (s *Seek) Allows(rating int) bool {
	return (s.RatingMin == 0 || rating >= s.RatingMin) && (s.RatingMax == 0 || rating <= s.RatingMax)
}

// Compatible reports whether two seeks of different members make a match:
// the same rules and time class, each inside the other's rating range. The
// rules are the whole of them, the server's rule options included as they
// were when each seek was made: a server that changed its defaults between
// two seeks of the same variant would otherwise have one seeker play rules
// their seek did not show.
func (s *Seek) Compatible(o *Seek) bool {
	return s.Player.UserID != o.Player.UserID && s.GuildID == o.GuildID &&
		s.Rules == o.Rules && s.TimeClass == o.TimeClass &&
		s.Allows(o.Rating) && o.Allows(s.Rating)
}

// SeekOutcome is what PlaceSeek did.
type SeekOutcome struct {
	// Match, when not nil, is the match the seek made with Partner, the
	// waiting seek it matched, which is gone from the queue; the new seek
	// is then not stored.
	Match   *Match
	Partner *Seek
	// Seek is the stored seek when it waits.
	Seek *Seek
	// Replaced is the member's earlier seek in the server, removed.
	Replaced *Seek
}

// SeekPlan is what a backend does to place a seek, decided by PlanSeek from
// the server's queue: the seeks to remove, and either the match to make or
// the seek to store.
type SeekPlan struct {
	Remove  []*Seek
	Outcome SeekOutcome
}

// PlanSeek decides where seek s goes in a server's queue (its seeks, oldest
// first): the oldest compatible seek still waiting at s.Created (of those
// s.Meets lets it meet, when set) makes a match, in the channel where s was
// made (its seeker is there now) or the one s.Meets names, with the waiting
// seeker on partnerSide; otherwise s waits, replacing its member's earlier
// seek. Expired seeks are removed.
func (c Changes) PlanSeek(queue []*Seek, s *Seek, partnerSide game.Side) (SeekPlan, error) {
	if err := s.validate(); err != nil {
		return SeekPlan{}, err
	}
	var plan SeekPlan
	waiting := 0
	for _, q := range queue {
		switch {
		case !s.Created.Before(q.Expires):
			plan.Remove = append(plan.Remove, q)
		case q.Player.UserID == s.Player.UserID:
			plan.Remove = append(plan.Remove, q)
			plan.Outcome.Replaced = q
		case plan.Outcome.Partner == nil && q.Compatible(s) && s.meets(q) != "":
			plan.Outcome.Partner = q
		default:
			waiting++
		}
	}
	if q := plan.Outcome.Partner; q != nil {
		ch := &Challenge{GuildID: s.GuildID, ChannelID: s.meets(q), Challenger: q.Player,
			Rules: s.Rules, MoveTime: s.MoveTime, Clock: s.Clock, Created: s.Created, Expires: s.Created.Add(time.Second)}
		m, err := c.AcceptChallenge(ch, s.Player, partnerSide, s.Created)
		if err != nil {
			return SeekPlan{}, err
		}
		// Played in the waiting seek's channel, the match is shown there by
		// no answer to s: its channel is told by a notice.
		m.Announce = ch.ChannelID != s.ChannelID
		plan.Remove = append(plan.Remove, q)
		plan.Outcome.Match = m
		return plan, nil
	}
	if waiting >= MaxSeeks {
		return SeekPlan{}, fmt.Errorf("%d seeks: %w", waiting, ErrQueueFull)
	}
	n := *s
	n.Created, n.Expires, n.Meets = second(s.Created), second(s.Expires), nil
	plan.Outcome.Seek = &n
	return plan, nil
}

// meets returns the channel where s and the waiting seek q would play (see
// Meets), "" when they are not to be paired.
func (s *Seek) meets(q *Seek) string {
	if s.Meets == nil {
		return s.ChannelID
	}
	if ch, named := s.Meets[q.Player.UserID]; named || q.ChannelID != s.ChannelID {
		return ch
	}
	return s.ChannelID
}

// LiveSeeks are the seeks of queue still waiting at now.
func LiveSeeks(queue []*Seek, now time.Time) []*Seek {
	var out []*Seek
	for _, s := range queue {
		if now.Before(s.Expires) {
			out = append(out, s)
		}
	}
	return out
}

func (s *Seek) validate() error {
	switch {
	case s.GuildID == "" || s.ChannelID == "" || s.Player.UserID == "":
		return fmt.Errorf("a seek needs a server, a channel and a member: %w", ErrInvalid)
	case s.TimeClass == "":
		return fmt.Errorf("a seek needs a time class: %w", ErrInvalid)
	case s.Created.IsZero() || !s.Expires.After(s.Created):
		return fmt.Errorf("a seek needs a creation time and a later expiry: %w", ErrInvalid)
	case s.MoveTime < MinMoveTime || s.MoveTime > MaxMoveTime:
		return fmt.Errorf("move time %s is outside %s to %s: %w", s.MoveTime, MinMoveTime, MaxMoveTime, ErrInvalid)
	case s.RatingMin < 0 || s.RatingMax < 0 || s.RatingMax != 0 && s.RatingMin > s.RatingMax:
		return fmt.Errorf("rating range %d to %d is empty: %w", s.RatingMin, s.RatingMax, ErrInvalid)
	case s.Clock.validate() != nil:
		return s.Clock.validate()
	}
	if err := s.Rules.Validate(); err != nil {
		return fmt.Errorf("rules: %v: %w", err, ErrInvalid)
	}
	return nil
}

const seekRecordVersion = 1

type seekRecord struct {
	V         int          `json:"v"`
	Guild     string       `json:"guild"`
	Channel   string       `json:"channel"`
	Player    playerRecord `json:"player"`
	TimeClass string       `json:"time_class"`
	Rules     rulesRecord  `json:"rules"`
	MoveTime  int64        `json:"move_time"`
	Clock     string       `json:"clock,omitempty"`
	Rating    int          `json:"rating"`
	RatingMin int          `json:"rating_min,omitempty"`
	RatingMax int          `json:"rating_max,omitempty"`
	Created   int64        `json:"created"`
	Expires   int64        `json:"expires"`
}

// EncodeSeek returns a seek's stored record (JSON).
func EncodeSeek(s *Seek) ([]byte, error) {
	return json.Marshal(&seekRecord{
		V: seekRecordVersion, Guild: s.GuildID, Channel: s.ChannelID, Player: playerRecord{s.Player.UserID, s.Player.Name},
		TimeClass: s.TimeClass, Rules: encodeRules(s.Rules), MoveTime: int64(s.MoveTime / time.Second), Clock: encodeClock(s.Clock),
		Rating: s.Rating, RatingMin: s.RatingMin, RatingMax: s.RatingMax, Created: unixTime(s.Created), Expires: unixTime(s.Expires),
	})
}

// DecodeSeek reads a record written by EncodeSeek.
func DecodeSeek(data []byte) (*Seek, error) {
	var rec seekRecord
	if err := unmarshalRecord(data, &rec, &rec.V, "seek", seekRecordVersion); err != nil {
		return nil, err
	}
	rules, err := decodeRules(rec.Rules)
	if err != nil {
		return nil, fmt.Errorf("seek of %s: %v: %w", rec.Player.ID, err, ErrCorrupt)
	}
	clock, err := decodeClock(rec.Clock)
	if err != nil {
		return nil, fmt.Errorf("seek of %s: %v: %w", rec.Player.ID, err, ErrCorrupt)
	}
	return &Seek{
		GuildID: rec.Guild, ChannelID: rec.Channel, Player: Player{rec.Player.ID, rec.Player.Name},
		TimeClass: rec.TimeClass, Rules: rules, MoveTime: time.Duration(rec.MoveTime) * time.Second, Clock: clock,
		Rating: rec.Rating, RatingMin: rec.RatingMin, RatingMax: rec.RatingMax, Created: fromUnix(rec.Created), Expires: fromUnix(rec.Expires),
	}, nil
}

// SeekStore is the Store's part for the queues (see Seek).
type SeekStore interface {
	// PlaceSeek puts s in its server's queue, or matches it at once with
	// the oldest compatible seek waiting there (see PlanSeek): one
	// transaction, so that a waiting seek makes one match at most, however
	// many processes place seeks at once. Each waiting seek is weighed at
	// its member's rating now (Seek.Rating), read in that transaction.
	// ErrQueueFull when the queue is full; ErrInvalid for a seek that does
	// not hold together. A waiting seek whose record cannot be read
	// (damaged, or written by a newer strategobot) is passed over, neither
	// paired nor counted, and replaced by its member's next seek.
	PlaceSeek(ctx context.Context, s *Seek, partnerSide game.Side) (SeekOutcome, error)
	// Seeks returns a server's seeks still waiting at now, oldest first,
	// each with its member's rating now (Seek.Rating); with those whose
	// record cannot be read, the others and an *UnreadableError naming
	// them (Keys: their members), until they expire, by the expiry each
	// was stored with (which a backend keeps beside the record).
	Seeks(ctx context.Context, guildID string, now time.Time) ([]*Seek, error)
	// DeleteSeek takes userID's seek out of a server's queue and returns
	// it; ErrNotFound when there is none. One whose record cannot be read
	// is taken out all the same, and its error returned.
	DeleteSeek(ctx context.Context, guildID, userID string) (*Seek, error)
}

// SortSeeks orders seeks oldest first, then by member, so that every
// backend matches the same waiting seek.
func SortSeeks(q []*Seek) {
	slices.SortFunc(q, func(a, b *Seek) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Player.UserID, b.Player.UserID)
	})
}
