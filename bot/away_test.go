package bot

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/tournament"
)

// setupRunning stores a match whose set-up time runs from T0 (a day), its
// invites done, and returns it.
func setupRunning(t *testing.T, db storage.Store) *storage.Match {
	t.Helper()
	ctx := context.Background()
	m := &storage.Match{GuildID: "g", ChannelID: "c", Rules: game.DefaultRules(game.VariantClassic), MoveTime: 24 * time.Hour, Phase: storage.PhaseSetup, Created: T0}
	m.Players[game.Red] = storage.Player{UserID: "1", Name: "a"}
	m.Players[game.Blue] = storage.Player{UserID: "2", Name: "b"}
	m, err := db.CreateMatch(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	due, err := db.DueNotices(ctx, T0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range due {
		if err := db.NoticeDone(ctx, n.ID, T0); err != nil {
			t.Fatal(err)
		}
	}
	if m, err = db.Match(ctx, m.ID); err != nil || !m.ClockRunning() || !m.Deadline.Equal(T0.Add(24*time.Hour)) {
		t.Fatalf("the set-up clock does not run from T0: %v", err)
	}
	return m
}

// dyingStore stops the process (a panic) at the ActAway after the first
// left ones.
type dyingStore struct {
	storage.Store
	left int
}

func (d *dyingStore) Act(ctx context.Context, id storage.MatchID, version uint64, a storage.Action) (*storage.Match, error) {
	if a.Kind == storage.ActAway {
		if d.left == 0 {
			panic("the process dies")
		}
		d.left--
	}
	return d.Store.Act(ctx, id, version, a)
}

// TestAwayGivenOnceThoughACrash: the bot comes back an hour after it was
// last alive and dies while it gives the clocks that hour back, one match
// done, the other not. Back again an hour later, it gives each match the
// two hours it was away in all, once: the first keeps the hour it had.
func TestAwayGivenOnceThoughACrash(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	matches := []*storage.Match{setupRunning(t, db), setupRunning(t, db)}
	if _, err := db.Alive(ctx, T0); err != nil {
		t.Fatal(err)
	}
	clock := discordtest.NewFakeClock(T0.Add(time.Hour))
	dying := New(Config{Now: clock.Now}, nil, &dyingStore{Store: db, left: 1}, nil)
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Fatal("the process did not die")
			}
		}()
		dying.creditAway(ctx)
	}()
	moved := func() (out []time.Duration) {
		for _, m := range matches {
			got, err := db.Match(ctx, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, got.Deadline.Sub(m.Deadline))
		}
		return out
	}
	if got := moved(); got[0]+got[1] != time.Hour {
		t.Fatalf("before the crash: the deadlines moved %v, want an hour for one of them", got)
	}
	clock.Advance(time.Hour)
	New(Config{Now: clock.Now}, nil, db, nil).creditAway(ctx)
	if got := moved(); got[0] != 2*time.Hour || got[1] != 2*time.Hour {
		t.Errorf("back after the crash: the deadlines moved %v, want 2h each", got)
	}
	if last, err := db.Alive(ctx, clock.Now()); err != nil || !last.Equal(clock.Now()) {
		t.Errorf("the record of being alive after the time was given back: %v, %v; want now", last, err)
	}
}

// diesAtUpdateMatch stops the process (a panic) at its first UpdateMatch.
type diesAtUpdateMatch struct{ storage.Store }

func (d diesAtUpdateMatch) UpdateMatch(context.Context, storage.MatchID, uint64, func(m *storage.Match) error) (*storage.Match, error) {
	panic("the process dies")
}

// TestTournamentAwayGivenOnceThoughACrash: the bot comes back an hour after
// it was last alive, half an hour after the deadline of a tournament round
// whose game is in set-up, and dies once it has moved the round's deadline
// on, before the match's own. Back again at once, it gives the tournament
// nothing more, but brings the match's round deadline up to the round's,
// so that the match is given its hour too, not refused as past its round.
func TestTournamentAwayGivenOnceThoughACrash(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tt, err := db.CreateTournament(ctx, &storage.Tournament{GuildID: "g", ChannelID: "c", Name: "Cup", CreatorID: "1", Created: T0,
		Rules: tournament.DefaultRules(tournament.Swiss, 1), Game: game.DefaultRules(game.VariantClassic), MoveTime: 24 * time.Hour,
		RoundTime: 24 * time.Hour, StartAt: T0, JoinBy: T0, MaxPlayers: 4}, storage.TournamentLimits{})
	if err != nil {
		t.Fatal(err)
	}
	deadline := T0.Add(30 * time.Minute)
	m := setupRunning(t, db)
	if m, err = db.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error { x.Tournament, x.RoundEnds = tt.ID, deadline; return nil }); err != nil {
		t.Fatal(err)
	}
	tt, err = db.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Log = append(x.Log, tournament.Join("1", 1500), tournament.Join("2", 1500))
		s, err := x.State()
		if err != nil {
			return err
		}
		e, err := s.NextRound()
		if err != nil {
			return err
		}
		x.Log = append(x.Log, e)
		x.Games = append(x.Games, storage.TournamentGame{Round: 1, Board: 1, Match: m.ID})
		x.RoundDeadline, x.MembersDue = deadline, T0.Add(time.Hour)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Alive(ctx, T0); err != nil {
		t.Fatal(err)
	}
	clock := discordtest.NewFakeClock(T0.Add(time.Hour))
	dying := New(Config{Now: clock.Now}, nil, diesAtUpdateMatch{db}, nil)
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Fatal("the process did not die")
			}
		}()
		dying.creditAway(ctx)
	}()
	if got, err := db.Tournament(ctx, tt.ID); err != nil || !got.RoundDeadline.Equal(deadline.Add(time.Hour)) {
		t.Fatalf("before the crash: the round's deadline moved %v (%v), want an hour", got.RoundDeadline.Sub(deadline), err)
	}
	New(Config{Now: clock.Now}, nil, db, nil).creditAway(ctx)
	got, err := db.Tournament(ctx, tt.ID)
	if err != nil || !got.RoundDeadline.Equal(deadline.Add(time.Hour)) {
		t.Errorf("back after the crash: the round's deadline moved %v (%v), want an hour, once", got.RoundDeadline.Sub(deadline), err)
	}
	after, err := db.Match(ctx, m.ID)
	if err != nil || !after.RoundEnds.Equal(deadline.Add(time.Hour)) || after.Deadline.Sub(m.Deadline) != time.Hour {
		t.Errorf("the match back after the crash: its round ends %v later, its deadline %v (%v); want an hour each", after.RoundEnds.Sub(deadline), after.Deadline.Sub(m.Deadline), err)
	}
}

// TestWebWaitsForTheTimeAway: the web server listens before the bot runs;
// alone on its database, the bot answers no request of the board in the
// browser (a move, or a page showing a deadline) until it has given the
// clocks back the time away, as Run starts. On a shared database a process
// that does not lead times nobody out, and the one that takes the lease
// gives the time back before its timers run: its pages are served at once.
func TestWebWaitsForTheTimeAway(t *testing.T) {
	t.Parallel()
	for _, shared := range []bool{false, true} {
		db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		b := New(Config{Shared: shared, Now: discordtest.NewFakeClock(T0).Now}, nil, db, nil)
		served := make(chan struct{}, 2)
		h := b.afterAway(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served <- struct{}{} }))
		gone, cancel := context.WithCancel(context.Background())
		cancel() // a request given up while it waits
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil).WithContext(gone))
		if got := len(served) == 1; got != shared {
			t.Errorf("shared %v: a request before the time away was given back was served: %v", shared, got)
		}
		b.creditAway(context.Background())
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
		if want := map[bool]int{false: 1, true: 2}[shared]; len(served) != want {
			t.Errorf("shared %v: %d requests served once the time away was given back, want %d", shared, len(served), want)
		}
	}
}
