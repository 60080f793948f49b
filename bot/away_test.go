package bot

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
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
