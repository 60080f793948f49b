// Package storagetest is the conformance suite of storage.Store: every backend
// (bbolt in storage/bolt, and PostgreSQL in storage/postgres) runs it
// unchanged from its own tests, so that the bot may rely on exactly what the
// Store interface documents. The crash test is here too (CrashTest: the child
// that plays matches until it is killed, the kills, and the checks after
// each, CheckAfterCrash), with the harness that runs a test binary again as
// a child process (PlayChild, ChildCommand), so that every backend is killed
// in the same way.
//
//	func TestConformance(t *testing.T) {
//		storagetest.Run(t, func(t *testing.T) storage.Store { return openMyStore(t) })
//	}
package storagetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// Run runs every conformance test. open must return a new, empty store for
// each call, whose reminder schedule is Reminders; Run closes it when the
// test ends.
func Run(t *testing.T, open func(t *testing.T) storage.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s storage.Store)
	}{
		{"CreateAndLoad", testCreateAndLoad},
		{"CreateRefusesBadMatches", testCreateRefusesBadMatches},
		{"Setup", testSetup},
		{"Moves", testMoves},
		{"PlayToTheEnd", testPlayToTheEnd},
		{"Actions", testActions},
		{"Abandon", testAbandon},
		{"UpdateMatch", testUpdateMatch},
		{"ChannelBack", testChannelBack},
		{"Lists", testLists},
		{"Deadlines", testDeadlines},
		{"Challenges", testChallenges},
		{"MemberLimits", testMemberLimits},
		{"MemberLimitsRaced", testMemberLimitsRaced},
		{"Seeks", testSeeks},
		{"SeeksRaced", testSeeksRaced},
		{"SeekRatings", testSeekRatings},
		{"Players", testPlayers},
		{"Servers", testServers},
		{"Ratings", testRatings},
		{"RatingOnceWhenTwoEventsEndTheGame", testRatingOnce},
		{"RatingsOfMatchesEndingAtOnce", testRatingsOfMatchesEndingAtOnce},
		{"ConcurrentMatches", testConcurrentMatches},
		{"SameMoveRaced", testSameMoveRaced},
		{"Secrets", testSecrets},
		{"NoticesOwed", testNoticesOwed},
		{"OutboxOrder", testOutboxOrder},
		{"CountNotices", testCountNotices},
		{"ClockWaitsForTheNotice", testClockWaitsForTheNotice},
		{"ClockWaitsThroughOtherActions", testClockWaitsThroughOtherActions},
		{"GiftsOfTime", testGiftsOfTime},
		{"NothingAfterTheDeadline", testNothingAfterTheDeadline},
		{"NothingAfterTheRoundDeadline", testNothingAfterTheRoundDeadline},
		{"PauseByAgreement", testPauseByAgreement},
		{"PauseOffersLimited", testPauseOffersLimited},
		{"PauseRaced", testPauseRaced},
		{"PauseCrossed", testPauseCrossed},
		{"GiftsRaced", testGiftsRaced},
		{"OwnWithdrawalNamesDays", testOwnWithdrawalNamesDays},
		{"GiftsNumbered", testGiftsNumbered},
		{"Vacation", testVacation},
		{"StopsKeepReminders", testStopsKeepReminders},
		{"VacationInSetup", testVacationInSetup},
		{"VacationOverToldOnce", testVacationOverToldOnce},
		{"NothingAfterTheSetupDeadline", testNothingAfterTheSetupDeadline},
		{"TimeAway", testTimeAway},
		{"TournamentTimeAway", testTournamentTimeAway},
		{"PlayersOnVacation", testPlayersOnVacation},
		{"VacationKeptToTheSecond", testVacationKeptToTheSecond},
		{"SetupClockWaitsForTheInvites", testSetupClockWaitsForTheInvites},
		{"GameClock", testGameClock},
		{"GameClockOfACreatedMatch", testGameClockOfACreatedMatch},
		{"Leases", testLeases},
		{"LeaseBoundary", testLeaseBoundary},
		{"LeaseRaced", testLeaseRaced},
		{"Alive", testAlive},
		{"Followers", testFollowers},
		{"PracticeNoticesMarked", testPracticeNoticesMarked},
		{"Tournaments", testTournaments},
		{"TournamentAppendRace", testTournamentAppendRace},
		{"TournamentLists", testTournamentLists},
		{"TournamentGames", testTournamentGames},
		{"TournamentWake", testTournamentWake},
		{"TournamentPlayerNotices", testTournamentPlayerNotices},
		{"TournamentOneLeaderPairs", testTournamentOneLeaderPairs},
		{"WebKey", testWebKey},
		{"LinkGenerations", testLinkGenerations},
		{"TournamentNotices", testTournamentNotices},
		{"TournamentResultAfterTheGame", testTournamentResultAfterTheGame},
		{"TournamentClosedAfterTheCallOffs", testTournamentClosedAfterTheCallOffs},
		{"TournamentCallOffWaitCapped", testTournamentCallOffWaitCapped},
		{"TournamentAllAtOnce", testTournamentAllAtOnce},
		{"TournamentCreateLimits", testTournamentCreateLimits},
		{"TournamentChannelLost", testTournamentChannelLost},
		{"TournamentHeldUp", testTournamentHeldUp},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tc.fn(t, s)
		})
	}
}

// Reminders is the reminder schedule the suite expects: one reminder, when a
// quarter of the turn's time is left.
func Reminders(turn time.Duration) []time.Duration {
	return []time.Duration{turn / 4}
}

// T0 is the time the suite's matches start at.
var T0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// NewMatch returns a match in set-up between users "1001" (Red) and "1002"
// (Blue) in guild "g1", channel "c1", with the variant's default rules, a day
// per move, created at T0.
func NewMatch(v game.Variant) *storage.Match {
	m := &storage.Match{
		GuildID: "g1", ChannelID: "c1",
		Rules:    game.DefaultRules(v),
		MoveTime: 24 * time.Hour,
		Created:  T0,
	}
	m.Players[game.Red] = storage.Player{UserID: "1001", Name: "Ann"}
	m.Players[game.Blue] = storage.Player{UserID: "1002", Name: "Bob"}
	return m
}

// Started creates m and confirms both set-ups (seeded random set-ups) at T0,
// returning the match in play.
func Started(t testing.TB, s storage.Store, m *storage.Match, seed uint64) *storage.Match {
	t.Helper()
	ctx := context.Background()
	m, err := s.CreateMatch(ctx, m)
	if err != nil {
		t.Fatalf("CreateMatch: %v", err)
	}
	for side := game.Red; side <= game.Blue; side++ {
		setup := game.RandomSetup(m.Rules, seed*2+uint64(side))
		if m, err = s.SetSetup(ctx, m.ID, m.Version, side, setup, storage.SetupConfirmed, T0); err != nil {
			t.Fatalf("SetSetup %s: %v", side, err)
		}
	}
	if m.Phase != storage.PhasePlaying {
		t.Fatalf("phase after both set-ups: %s, want playing", m.Phase)
	}
	Deliver(t, s, T0)
	return must(s.Match(ctx, m.ID)).in(t)
}

// RandomMove returns a random legal move of the match's side to move.
func RandomMove(t testing.TB, m *storage.Match, r *rand.Rand) (game.Side, game.Move) {
	t.Helper()
	g, err := m.Game()
	if err != nil {
		t.Fatalf("match %d does not replay: %v", m.ID, err)
	}
	moves := g.LegalMoves()
	if len(moves) == 0 {
		t.Fatalf("match %d: no legal move in a game still on", m.ID)
	}
	return g.ToMove(), moves[r.IntN(len(moves))]
}

// Play applies n random moves (fewer when the game ends) a minute apart,
// starting a minute after the last action, and returns the match.
func Play(t testing.TB, s storage.Store, m *storage.Match, n int, r *rand.Rand) *storage.Match {
	t.Helper()
	at := lastTime(m)
	for i := 0; i < n && m.Phase == storage.PhasePlaying; i++ {
		side, mv := RandomMove(t, m, r)
		at = at.Add(time.Minute)
		var err error
		if m, _, err = s.ApplyMove(context.Background(), m.ID, m.Version, side, mv, at); err != nil {
			t.Fatalf("match %d ply %d: ApplyMove %s: %v", m.ID, i, mv, err)
		}
		if Deliver(t, s, at) > 0 {
			m = must(s.Match(context.Background(), m.ID)).in(t)
		}
	}
	return m
}

// Deliver does what the bot's outbox loop does when every message goes
// through at once: it marks every notice due at at as done at at (which starts
// the clock of the side to move), and returns how many there were.
func Deliver(t testing.TB, s storage.Store, at time.Time) int {
	t.Helper()
	ctx := context.Background()
	done := 0
	for {
		due := must(s.DueNotices(ctx, at, 0)).in(t)
		if len(due) == 0 {
			return done
		}
		for _, n := range due {
			if err := s.NoticeDone(ctx, n.ID, at); err != nil {
				t.Fatalf("NoticeDone %d: %v", n.ID, err)
			}
			done++
		}
	}
}

func lastTime(m *storage.Match) time.Time {
	if n := len(m.Log); n > 0 {
		return m.Log[n-1].At
	}
	if !m.Started.IsZero() {
		return m.Started
	}
	return m.Created
}

// CheckReplay fails unless m replays and its stored result and phase agree
// with the replay. A match that never started has no game: it returns nil.
func CheckReplay(t testing.TB, m *storage.Match) *game.Game {
	t.Helper()
	if m.Setups[game.Red].Status != storage.SetupConfirmed || m.Setups[game.Blue].Status != storage.SetupConfirmed {
		if m.Result.Over() || m.Phase == storage.PhasePlaying || m.Phase == storage.PhaseFinished || m.Moves() > 0 {
			t.Fatalf("match %d without both set-ups: %s result %v", m.ID, describe(m), m.Result)
		}
		return nil
	}
	g, err := m.Game()
	if err != nil {
		t.Fatalf("match %d does not replay: %v", m.ID, err)
	}
	if g.Result() != m.Result {
		t.Fatalf("match %d: stored result %v, replay %v", m.ID, m.Result, g.Result())
	}
	if (m.Phase == storage.PhaseFinished) != g.Result().Over() {
		t.Fatalf("match %d: phase %s with result %v", m.ID, m.Phase, g.Result())
	}
	return g
}

func wantErr(t testing.TB, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: error %v, want %v", what, err, want)
	}
}

// checked holds a result until the test that needs it is known: must(f()).in(t).
type checked[T any] struct {
	v   T
	err error
}

func must[T any](v T, err error) checked[T] { return checked[T]{v, err} }

// in returns the value, or fails t with the error.
func (c checked[T]) in(t testing.TB) T {
	t.Helper()
	if c.err != nil {
		t.Fatal(c.err)
	}
	return c.v
}

func describe(m *storage.Match) string {
	return fmt.Sprintf("match %d v%d %s %d actions", m.ID, m.Version, m.Phase, len(m.Log))
}
