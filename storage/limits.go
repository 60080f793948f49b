package storage

import (
	"errors"
	"fmt"
)

// MemberLimits bounds what one member may have open at once, which
// CreateChallenge and CreatePractice keep to: they count and write in one
// transaction that no other process's count of that member can come
// between, so that members whose commands reach several processes sharing
// a database (shards) keep to them as well. 0 (false) sets no bound.
//
// A record of the member's that cannot be read (damaged, or written by a
// newer strategobot) may be one the limit counts: it counts against the
// allowance, as the bot's own lists count it.
type MemberLimits struct {
	// OpenChallenges bounds the pending challenges a member made.
	OpenChallenges int
	// OnePerPair allows one pending challenge between two members, made
	// by either of them.
	OnePerPair bool
	// PracticeMatches bounds the practice matches (Match.Practice) a
	// member plays at once: those in set-up or under way.
	PracticeMatches int
}

// The refusals of MemberLimits, which a *MemberLimitError carries.
var (
	// ErrTooManyChallenges: the challenger has OpenChallenges pending.
	ErrTooManyChallenges = errors.New("too many challenges waiting for an answer")
	// ErrChallengeExists: a challenge between the two members is pending
	// (OnePerPair).
	ErrChallengeExists = errors.New("a challenge between the two members is waiting for an answer")
	// ErrTooManyPractice: the member plays PracticeMatches practice
	// matches already.
	ErrTooManyPractice = errors.New("too many practice matches at once")
)

// MemberLimitError is the refusal of CreateChallenge or CreatePractice
// when the member would go over its MemberLimits: errors.Is sees Err.
type MemberLimitError struct {
	Err error // ErrTooManyChallenges, ErrChallengeExists or ErrTooManyPractice
	// Open is how many the member has, those that cannot be read counted
	// (ErrTooManyChallenges, ErrTooManyPractice).
	Open int
	// Guild is the server of the newest of the member's challenges that
	// could be read, "" outside a server or when none could
	// (ErrTooManyChallenges).
	Guild string
	// Challenge is the challenge pending between the two members
	// (ErrChallengeExists).
	Challenge ChallengeID
}

func (e *MemberLimitError) Error() string {
	if errors.Is(e.Err, ErrChallengeExists) {
		return fmt.Sprintf("%v (#%d)", e.Err, e.Challenge)
	}
	return fmt.Sprintf("%v (%d)", e.Err, e.Open)
}

func (e *MemberLimitError) Unwrap() error { return e.Err }

// AllowChallenge returns a *MemberLimitError when c would go over l, given
// the pending challenges its challenger made or received (oldest first)
// and how many of those could not be read; nil when it would not.
func (l MemberLimits) AllowChallenge(c *Challenge, pending []*Challenge, unread int) error {
	me, them := c.Challenger.UserID, c.Opponent.UserID
	made, guild := unread, ""
	for _, p := range pending {
		if l.OnePerPair && them != "" && them != me &&
			(p.Challenger.UserID == me && p.Opponent.UserID == them || p.Challenger.UserID == them && p.Opponent.UserID == me) {
			return &MemberLimitError{Err: ErrChallengeExists, Challenge: p.ID}
		}
		if p.Challenger.UserID == me {
			made, guild = made+1, p.GuildID
		}
	}
	if l.OpenChallenges > 0 && made >= l.OpenChallenges {
		return &MemberLimitError{Err: ErrTooManyChallenges, Open: made, Guild: guild}
	}
	return nil
}

// AllowPractice returns a *MemberLimitError when one more practice match
// would go over l, given the member's active matches and how many of
// theirs could not be read; nil when it would not.
func (l MemberLimits) AllowPractice(active []*Match, unread int) error {
	running := unread
	for _, m := range active {
		if m.Practice() {
			running++
		}
	}
	if l.PracticeMatches > 0 && running >= l.PracticeMatches {
		return &MemberLimitError{Err: ErrTooManyPractice, Open: running}
	}
	return nil
}

// CheckPractice refuses, as ErrInvalid, a match a backend's CreatePractice
// cannot count: not a practice match, or member not one of its players.
func CheckPractice(m *Match, member string) error {
	if !m.Practice() {
		return fmt.Errorf("a practice match needs the computer's level: %w", ErrInvalid)
	}
	if _, ok := m.SideOf(member); !ok || member == "" {
		return fmt.Errorf("the member is not a player of the practice match: %w", ErrInvalid)
	}
	return nil
}
