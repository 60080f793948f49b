package storage

import (
	"context"
	"time"

	"github.com/strategobot/strategobot/game"
)

// Store is everything the bot keeps: matches, challenges, player settings and
// standings. Every method that changes something is one transaction, durable
// when it returns. Methods taking expectVersion refuse with ErrStale when the
// match is no longer at that version; 0 means "any version" (for a move typed
// in a DM, where a repeat is refused because the turn has passed).
//
// storagetest.Run checks that an implementation behaves as documented here.
type Store interface {
	SeekStore

	// CreateMatch stores a new match and returns it with its ID and Version 1.
	// A match in set-up without a Deadline gets Created + MoveTime.
	CreateMatch(ctx context.Context, m *Match) (*Match, error)
	// CreatePractice is CreateMatch for a practice match (Match.Practice)
	// of member, one of its players, within member's limits
	// (MemberLimits.PracticeMatches): over them it stores nothing and
	// returns a *MemberLimitError. The count and the write are one
	// transaction that no other process's practice match of member can
	// interleave with.
	CreatePractice(ctx context.Context, m *Match, member string, limits MemberLimits) (*Match, error)
	// Match returns the match with that id, or ErrNotFound.
	Match(ctx context.Context, id MatchID) (*Match, error)
	// Changes returns the rules this store applies to every change, with its
	// reminder schedule: a reader that keeps a match works out a change the
	// store makes without a new load (the clock's start) by the same rules.
	Changes() Changes
	// MatchVersion returns the version of the match with that id as stored
	// now, or ErrNotFound, without reading the match: a reader that keeps a
	// match can tell whether it is still the newest.
	MatchVersion(ctx context.Context, id MatchID) (uint64, error)
	// UpdateMatch changes a match with fn in one transaction: for what has no
	// method of its own (message ids, thread, names). fn may run more than once
	// and must not keep m or act outside it. ID and Version stay the store's,
	// and the result must still replay to its stored result.
	UpdateMatch(ctx context.Context, id MatchID, expectVersion uint64, fn func(m *Match) error) (*Match, error)
	// ApplyMove plays side's move at time at: it checks the turn, lets the engine
	// check and apply the move (an illegal move returns the engine's error,
	// whose text is safe to show the mover), appends it to the log, sets the
	// next deadline or the result, and counts a finished match in the standings.
	// It returns the match and its game after the move, the one it replayed
	// (the move's record is the game's LastMove), so that the caller need not
	// replay the log again; the game is the caller's. A move dated before the
	// log's last action is recorded at that one's time, as Act records one.
	ApplyMove(ctx context.Context, id MatchID, expectVersion uint64, side game.Side, move game.Move, at time.Time) (*Match, *game.Game, error)
	// Act records a draw offer, acceptance or refusal, a resignation or a time-out
	// (whose side is the side to move, and which is refused with ErrNotDue before the deadline).
	// In set-up it takes only a vacation and its end (others: ErrNotStarted).
	// An action dated before the log's last one is recorded at that one's
	// time: the log stays in the order of its times.
	Act(ctx context.Context, id MatchID, expectVersion uint64, a Action) (*Match, error)
	// SetSetup stores side's draft (status SetupDraft) or confirms its set-up
	// (SetupConfirmed, checked against the rules). The game starts, with Red to
	// move, when both are confirmed. A set-up confirmed once the set-up time
	// ran out is refused (ErrSetupTimeUp): the match is to be called off.
	SetSetup(ctx context.Context, id MatchID, expectVersion uint64, side game.Side, setup game.Setup, status SetupStatus, at time.Time) (*Match, error)
	// Abandon ends an active match with no result, for the reason why. A
	// match is called off as late (CallOffLateSetup) only once its set-up time
	// ran out (Match.SetupOverdue; before that ErrNotDue).
	Abandon(ctx context.Context, id MatchID, expectVersion uint64, at time.Time, why CallOff) (*Match, error)
	// MarkReminded records that the reminder due at the match's RemindAt was sent.
	MarkReminded(ctx context.Context, id MatchID, expectVersion uint64, at time.Time) (*Match, error)
	// ChannelBack records, at time at, that the bot may post in the match's
	// channel again, which it could not (PublicGone): the channel's notices
	// recorded before are not posted there (PublicBack), and it is owed the
	// board as it stands (EventChannelBack). Of several callers at once one
	// changes the match; the others get ErrNotDue, as does a match whose
	// channel is within reach or was deleted; ErrGameOver once it is over.
	ChannelBack(ctx context.Context, id MatchID, at time.Time) (*Match, error)

	// Follow adds (on) or removes userID as a follower of a match, who is sent
	// its public board by DM after every change the channel is told of (see
	// AudienceFollower). It never changes the match or its version;
	// ErrNotFound for an unknown match.
	Follow(ctx context.Context, id MatchID, userID string, on bool) error
	// Followers returns the followers of a match, ordered by user id.
	Followers(ctx context.Context, id MatchID) ([]string, error)

	// PlayerMatches returns userID's active (set-up or playing) or ended
	// matches, newest first, at most limit (0: no limit). One whose record
	// cannot be read hides no other: the others are returned with an
	// *UnreadableError that names it (it counts in the limit).
	PlayerMatches(ctx context.Context, userID string, active bool, limit int) ([]*Match, error)
	// ChannelMatches does the same for a channel or thread.
	ChannelMatches(ctx context.Context, channelID string, active bool, limit int) ([]*Match, error)

	// NextDeadline returns the earliest timer of any match or challenge, and
	// false when there is none: what the bot sleeps until.
	NextDeadline(ctx context.Context) (Deadline, bool, error)
	// DueDeadlines returns the timers due at now (At <= now), earliest first, at most limit (0: no limit).
	DueDeadlines(ctx context.Context, now time.Time, limit int) ([]Deadline, error)

	// CreateChallenge stores a challenge and returns it with its ID, unless
	// it would go over the challenger's limits (MemberLimits): then it
	// stores nothing and returns a *MemberLimitError. The count and the
	// write are one transaction that no other process's challenge of
	// either member can interleave with.
	CreateChallenge(ctx context.Context, c *Challenge, limits MemberLimits) (*Challenge, error)
	// Challenge returns a pending challenge, or ErrNotFound.
	Challenge(ctx context.Context, id ChallengeID) (*Challenge, error)
	// PlayerChallenges returns the pending challenges userID made or
	// received, oldest first. One whose record cannot be read hides no
	// other: the others are returned with an *UnreadableError that names it.
	PlayerChallenges(ctx context.Context, userID string) ([]*Challenge, error)
	// ChannelChallenges does the same for the challenges posted in a channel.
	ChannelChallenges(ctx context.Context, channelID string) ([]*Challenge, error)
	// SetChallengeMessage records the id of the message showing the challenge.
	SetChallengeMessage(ctx context.Context, id ChallengeID, messageID string) (*Challenge, error)
	// DeleteChallenge removes a challenge (declined, withdrawn, expired) and
	// returns it. One whose record cannot be read is left as it is, and its
	// error returned, as the other changes of a challenge leave it.
	DeleteChallenge(ctx context.Context, id ChallengeID) (*Challenge, error)
	// AcceptChallenge turns a challenge into a match in one transaction: of two
	// players accepting at once, one gets the match and the other ErrNotFound.
	AcceptChallenge(ctx context.Context, id ChallengeID, opponent Player, challengerSide game.Side, at time.Time) (*Match, error)

	// Lead takes or renews the lease name for holder until at+ttl, and
	// reports whether holder has it: when nobody held it, when holder did, or
	// when the last holder's lease had expired by at. Of several processes on
	// one database, the one holding "timers" runs the timers and the outbox.
	// Lease times are kept to the microsecond, PostgreSQL's precision
	// (LeaseTimes): a lease runs until at+ttl rounded up, and at is rounded
	// down, so that a lease never ends before at+ttl on any backend and
	// every backend decides alike.
	Lead(ctx context.Context, name, holder string, at time.Time, ttl time.Duration) (bool, error)
	// Alive records that the process running the timers was alive at at,
	// kept to the second, and returns the time recorded before (zero: never),
	// in one transaction: of two callers at once, each gets the other's or
	// the one before. How long it returns before at is how long nobody ran
	// the timers (see Changes.Act, ActAway).
	Alive(ctx context.Context, at time.Time) (time.Time, error)
	// Server returns a server's settings, the defaults for a server never
	// set up; UpdateServer changes them with fn in one transaction.
	Server(ctx context.Context, guildID string) (*ServerSettings, error)
	UpdateServer(ctx context.Context, guildID string, fn func(s *ServerSettings) error) (*ServerSettings, error)
	// Player returns a player's settings; a player never seen has the defaults.
	Player(ctx context.Context, userID string) (*PlayerSettings, error)
	// UpdatePlayer changes a player's settings with fn in one transaction.
	UpdatePlayer(ctx context.Context, userID string, fn func(p *PlayerSettings) error) (*PlayerSettings, error)
	// PlayersOnVacation returns, ordered by user id, the players whose last
	// vacation (PlayerSettings.VacationEnds) ends after at: those on vacation
	// at at. It reads an index, not every player's settings.
	PlayersOnVacation(ctx context.Context, at time.Time) ([]string, error)

	// LinkGeneration returns the generation of userID's web board links (see
	// PlayerSettings.LinkGen): 0 for a player never seen.
	LinkGeneration(ctx context.Context, userID string) (uint32, error)
	// RevokeLinks bumps userID's link generation, so that every link signed
	// before is refused, and returns the new generation.
	RevokeLinks(ctx context.Context, userID string) (uint32, error)
	// WebKey returns the key the web board's links are signed with
	// (WebKeyLen random bytes), drawing and storing it on the first call:
	// every process sharing the database gets the same key, also when two
	// first calls race. It is secret: never show, log or export it apart
	// from a backup of the whole database.
	WebKey(ctx context.Context) ([]byte, error)

	// Standing returns a player's results and rating in a server and variant
	// (the starting rating when they have played none there).
	Standing(ctx context.Context, guildID string, v game.Variant, userID string) (Standing, error)
	// Standings returns a server's table for a variant, best rating first, at most limit (0: all).
	Standings(ctx context.Context, guildID string, v game.Variant, limit int) ([]Standing, error)

	// The outbox (see Notice and Notices). Every change above records, in its
	// own transaction, the notices it owes; the bot delivers them.

	// NextNotice returns when the earliest waiting notice may be tried, and
	// false when the outbox is empty. A notice that waits for another queue
	// (NoticeWaitsFor, NoticeWaitsUntil) counts from the end of that wait
	// (WaitEnds), if not later: till then that queue's notice is.
	NextNotice(ctx context.Context) (time.Time, bool, error)
	// DueNotices returns the notices that may be tried at now, earliest first,
	// at most limit (0: no limit): of each audience of a match or challenge
	// only the oldest, so that they are delivered in order, and not one
	// that waits for another queue's older notices (NoticeWaitsFor) or for
	// its Until matches (NoticeWaitsUntil), before WaitEnds. The notices
	// listed in skip (the caller's deliveries under way) are left out, and
	// not counted in the limit. A due notice whose record cannot be read
	// (damaged, or written by a newer strategobot) holds up no other queue:
	// the others are returned with an *UnreadableError that names it (it
	// counts in the limit), and NextNotice passes over it.
	DueNotices(ctx context.Context, now time.Time, limit int, skip ...uint64) ([]Notice, error)
	// CountNotices returns how many notices the outbox holds: every notice
	// recorded and neither delivered nor given up yet, in every queue, due
	// or not (DueNotices lists a queue's oldest alone). It reads no
	// notice's record, so a large backlog costs little more than an empty
	// outbox (it is the bot's strategobot_outbox_depth).
	CountNotices(ctx context.Context) (int, error)
	// NoticeProgress records that the first sent parts of a notice were delivered.
	NoticeProgress(ctx context.Context, id uint64, sent int) error
	// NoticeRetry records a failed attempt: the notice (and its queue) waits until next.
	NoticeRetry(ctx context.Context, id uint64, next time.Time) (*Notice, error)
	// NoticeDone removes a notice delivered in full or given up at time at; the
	// next of its queue becomes due. A notice that StartsClock starts the clock
	// of the side to move from at, if the match still waits for that move.
	// follow are recorded in the same transaction (a fallback).
	NoticeDone(ctx context.Context, id uint64, at time.Time, follow ...Notice) error
	// ExpireChallenge removes a challenge whose time ran out (ErrNotDue before)
	// and records the notice that says so.
	ExpireChallenge(ctx context.Context, id ChallengeID, at time.Time) (*Challenge, error)

	// Tournaments (see TournamentStore).
	TournamentStore

	// Close releases the store.
	Close() error
}
