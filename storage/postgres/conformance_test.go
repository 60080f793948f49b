package postgres_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/postgres"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// openURL opens a store on url and closes it when t ends.
func openURL(t testing.TB, url string) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), postgres.Options{URL: url, Reminders: storagetest.Reminders})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestConformance runs the Store suite on a new database per test.
func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store {
		return openURL(t, pgtest.NewDatabase(t))
	})
}

// TestConformanceRepeatableRead runs the suite on two pools, as
// TestConformanceTwoPools does, on a database whose transactions are
// REPEATABLE READ unless they say otherwise (an admin's
// default_transaction_isolation): the store's counts under its advisory
// locks (a member's limits, a server's seeks) must see what the holder
// before them wrote, which a snapshot taken before the lock was granted
// does not.
func TestConformanceRepeatableRead(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store {
		url := pgtest.NewDatabase(t)
		admin, err := pgx.Connect(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close(context.Background())
		if _, err := admin.Exec(context.Background(), "ALTER DATABASE "+pgx.Identifier{admin.Config().Database}.Sanitize()+" SET default_transaction_isolation = 'repeatable read'"); err != nil {
			t.Fatal(err)
		}
		return &twoPools{dbs: [2]*postgres.DB{openURL(t, url), openURL(t, url)}}
	})
}

// TestConformanceTwoPools runs the suite on a store whose calls alternate
// between two stores on one database, each with its own connection pool, as
// two bot processes would: the races of the suite (the same move sent many
// times at once, two players accepting one challenge, two events ending one
// match) then run between the two, and nothing held in one process's memory
// can decide them.
func TestConformanceTwoPools(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store {
		url := pgtest.NewDatabase(t)
		return &twoPools{dbs: [2]*postgres.DB{openURL(t, url), openURL(t, url)}}
	})
}

// twoPools sends each call to one of two stores in turn.
type twoPools struct {
	dbs  [2]*postgres.DB
	next atomic.Uint64
}

func (p *twoPools) pick() storage.Store { return p.dbs[p.next.Add(1)%2] }

func (p *twoPools) CreateMatch(ctx context.Context, m *storage.Match) (*storage.Match, error) {
	return p.pick().CreateMatch(ctx, m)
}
func (p *twoPools) CreatePractice(ctx context.Context, m *storage.Match, member string, l storage.MemberLimits) (*storage.Match, error) {
	return p.pick().CreatePractice(ctx, m, member, l)
}
func (p *twoPools) Match(ctx context.Context, id storage.MatchID) (*storage.Match, error) {
	return p.pick().Match(ctx, id)
}
func (p *twoPools) Changes() storage.Changes { return p.dbs[0].Changes() }
func (p *twoPools) MatchVersion(ctx context.Context, id storage.MatchID) (uint64, error) {
	return p.pick().MatchVersion(ctx, id)
}
func (p *twoPools) UpdateMatch(ctx context.Context, id storage.MatchID, v uint64, fn func(m *storage.Match) error) (*storage.Match, error) {
	return p.pick().UpdateMatch(ctx, id, v, fn)
}
func (p *twoPools) ApplyMove(ctx context.Context, id storage.MatchID, v uint64, side game.Side, mv game.Move, at time.Time) (*storage.Match, *game.Game, error) {
	return p.pick().ApplyMove(ctx, id, v, side, mv, at)
}
func (p *twoPools) Act(ctx context.Context, id storage.MatchID, v uint64, a storage.Action) (*storage.Match, error) {
	return p.pick().Act(ctx, id, v, a)
}
func (p *twoPools) SetSetup(ctx context.Context, id storage.MatchID, v uint64, side game.Side, s game.Setup, st storage.SetupStatus, at time.Time) (*storage.Match, error) {
	return p.pick().SetSetup(ctx, id, v, side, s, st, at)
}
func (p *twoPools) Abandon(ctx context.Context, id storage.MatchID, v uint64, at time.Time, why storage.CallOff) (*storage.Match, error) {
	return p.pick().Abandon(ctx, id, v, at, why)
}
func (p *twoPools) MarkReminded(ctx context.Context, id storage.MatchID, v uint64, at time.Time) (*storage.Match, error) {
	return p.pick().MarkReminded(ctx, id, v, at)
}
func (p *twoPools) ChannelBack(ctx context.Context, id storage.MatchID, at time.Time) (*storage.Match, error) {
	return p.pick().ChannelBack(ctx, id, at)
}
func (p *twoPools) PlayerMatches(ctx context.Context, user string, active bool, limit int) ([]*storage.Match, error) {
	return p.pick().PlayerMatches(ctx, user, active, limit)
}
func (p *twoPools) ChannelMatches(ctx context.Context, channel string, active bool, limit int) ([]*storage.Match, error) {
	return p.pick().ChannelMatches(ctx, channel, active, limit)
}
func (p *twoPools) NextDeadline(ctx context.Context) (storage.Deadline, bool, error) {
	return p.pick().NextDeadline(ctx)
}
func (p *twoPools) DueDeadlines(ctx context.Context, now time.Time, limit int) ([]storage.Deadline, error) {
	return p.pick().DueDeadlines(ctx, now, limit)
}
func (p *twoPools) CreateChallenge(ctx context.Context, c *storage.Challenge, l storage.MemberLimits) (*storage.Challenge, error) {
	return p.pick().CreateChallenge(ctx, c, l)
}
func (p *twoPools) Challenge(ctx context.Context, id storage.ChallengeID) (*storage.Challenge, error) {
	return p.pick().Challenge(ctx, id)
}
func (p *twoPools) PlayerChallenges(ctx context.Context, user string) ([]*storage.Challenge, error) {
	return p.pick().PlayerChallenges(ctx, user)
}
func (p *twoPools) ChannelChallenges(ctx context.Context, channel string) ([]*storage.Challenge, error) {
	return p.pick().ChannelChallenges(ctx, channel)
}
func (p *twoPools) SetChallengeMessage(ctx context.Context, id storage.ChallengeID, msg string) (*storage.Challenge, error) {
	return p.pick().SetChallengeMessage(ctx, id, msg)
}
func (p *twoPools) DeleteChallenge(ctx context.Context, id storage.ChallengeID) (*storage.Challenge, error) {
	return p.pick().DeleteChallenge(ctx, id)
}
func (p *twoPools) AcceptChallenge(ctx context.Context, id storage.ChallengeID, opp storage.Player, side game.Side, at time.Time) (*storage.Match, error) {
	return p.pick().AcceptChallenge(ctx, id, opp, side, at)
}
func (p *twoPools) Player(ctx context.Context, user string) (*storage.PlayerSettings, error) {
	return p.pick().Player(ctx, user)
}
func (p *twoPools) UpdatePlayer(ctx context.Context, user string, fn func(p *storage.PlayerSettings) error) (*storage.PlayerSettings, error) {
	return p.pick().UpdatePlayer(ctx, user, fn)
}
func (p *twoPools) PlayersOnVacation(ctx context.Context, at time.Time) ([]string, error) {
	return p.pick().PlayersOnVacation(ctx, at)
}
func (p *twoPools) Follow(ctx context.Context, id storage.MatchID, user string, on bool) error {
	return p.pick().Follow(ctx, id, user, on)
}
func (p *twoPools) Followers(ctx context.Context, id storage.MatchID) ([]string, error) {
	return p.pick().Followers(ctx, id)
}
func (p *twoPools) Lead(ctx context.Context, name, holder string, at time.Time, ttl time.Duration) (bool, error) {
	return p.pick().Lead(ctx, name, holder, at, ttl)
}
func (p *twoPools) Alive(ctx context.Context, at time.Time) (time.Time, error) {
	return p.pick().Alive(ctx, at)
}
func (p *twoPools) Server(ctx context.Context, guild string) (*storage.ServerSettings, error) {
	return p.pick().Server(ctx, guild)
}
func (p *twoPools) UpdateServer(ctx context.Context, guild string, fn func(s *storage.ServerSettings) error) (*storage.ServerSettings, error) {
	return p.pick().UpdateServer(ctx, guild, fn)
}
func (p *twoPools) Standing(ctx context.Context, guild string, v game.Variant, user string) (storage.Standing, error) {
	return p.pick().Standing(ctx, guild, v, user)
}
func (p *twoPools) Standings(ctx context.Context, guild string, v game.Variant, limit int) ([]storage.Standing, error) {
	return p.pick().Standings(ctx, guild, v, limit)
}
func (p *twoPools) NextNotice(ctx context.Context) (time.Time, bool, error) {
	return p.pick().NextNotice(ctx)
}
func (p *twoPools) DueNotices(ctx context.Context, now time.Time, limit int, skip ...uint64) ([]storage.Notice, error) {
	return p.pick().DueNotices(ctx, now, limit, skip...)
}
func (p *twoPools) CountNotices(ctx context.Context) (int, error) {
	return p.pick().CountNotices(ctx)
}
func (p *twoPools) NoticeProgress(ctx context.Context, id uint64, sent int) error {
	return p.pick().NoticeProgress(ctx, id, sent)
}
func (p *twoPools) NoticeRetry(ctx context.Context, id uint64, next time.Time) (*storage.Notice, error) {
	return p.pick().NoticeRetry(ctx, id, next)
}
func (p *twoPools) NoticeDone(ctx context.Context, id uint64, at time.Time, follow ...storage.Notice) error {
	return p.pick().NoticeDone(ctx, id, at, follow...)
}
func (p *twoPools) ExpireChallenge(ctx context.Context, id storage.ChallengeID, at time.Time) (*storage.Challenge, error) {
	return p.pick().ExpireChallenge(ctx, id, at)
}

// Close is left to openURL's cleanup.
func (p *twoPools) Close() error { return nil }
func (p *twoPools) LinkGeneration(ctx context.Context, user string) (uint32, error) {
	return p.pick().LinkGeneration(ctx, user)
}
func (p *twoPools) RevokeLinks(ctx context.Context, user string) (uint32, error) {
	return p.pick().RevokeLinks(ctx, user)
}
func (p *twoPools) WebKey(ctx context.Context) ([]byte, error) {
	return p.pick().WebKey(ctx)
}

// TestUnreadableTournaments: a damaged tournament record, or one a newer
// strategobot wrote into the shared database, holds up no other.
func TestUnreadableTournaments(t *testing.T) {
	storagetest.UnreadableTournaments(t, func(t *testing.T) (storage.Store, storagetest.Damage) {
		url := pgtest.NewDatabase(t)
		return openURL(t, url), func(t *testing.T, id storage.TournamentID, data []byte) {
			ctx := context.Background()
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			if _, err := conn.Exec(ctx, "UPDATE tournaments SET record = $2 WHERE id = $1", int64(id), string(data)); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestUnreadableSeeks: a damaged seek, or one a newer strategobot wrote,
// holds up no other of its queue.
func TestUnreadableSeeks(t *testing.T) {
	storagetest.UnreadableSeeks(t, func(t *testing.T) (storage.Store, storagetest.DamageSeek) {
		url := pgtest.NewDatabase(t)
		return openURL(t, url), func(t *testing.T, guild, user string, data []byte) {
			ctx := context.Background()
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			if _, err := conn.Exec(ctx, "UPDATE seeks SET record = $3 WHERE guild_id = $1 AND user_id = $2", guild, user, string(data)); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestUnreadableNotices: a damaged notice, or one a newer strategobot
// wrote, holds up no other queue.
func TestUnreadableNotices(t *testing.T) {
	storagetest.UnreadableNotices(t, func(t *testing.T) (storage.Store, storagetest.DamageNotice) {
		url := pgtest.NewDatabase(t)
		return openURL(t, url), func(t *testing.T, id uint64, data []byte) {
			ctx := context.Background()
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			if _, err := conn.Exec(ctx, "UPDATE notices SET record = $2 WHERE id = $1", int64(id), string(data)); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestUnreadableMatches: a damaged match, or one a newer strategobot
// wrote, hides no other of its lists.
func TestUnreadableMatches(t *testing.T) {
	storagetest.UnreadableMatches(t, func(t *testing.T) (storage.Store, storagetest.DamageMatch) {
		url := pgtest.NewDatabase(t)
		return openURL(t, url), func(t *testing.T, id storage.MatchID, data []byte) {
			ctx := context.Background()
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			if _, err := conn.Exec(ctx, "UPDATE matches SET record = $2 WHERE id = $1", int64(id), string(data)); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestUnreadableChallenges: a damaged challenge, or one a newer
// strategobot wrote, hides no other of its lists.
func TestUnreadableChallenges(t *testing.T) {
	storagetest.UnreadableChallenges(t, func(t *testing.T) (storage.Store, storagetest.DamageChallenge) {
		url := pgtest.NewDatabase(t)
		return openURL(t, url), func(t *testing.T, id storage.ChallengeID, data []byte) {
			ctx := context.Background()
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			if _, err := conn.Exec(ctx, "UPDATE challenges SET record = $2 WHERE id = $1", int64(id), string(data)); err != nil {
				t.Fatal(err)
			}
		}
	})
}
