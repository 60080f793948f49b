package bot

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
)

// openHoldsDB is a bbolt database with one match under way, every notice
// of it delivered.
func openHoldsDB(t *testing.T) (*bolt.DB, *storage.Match) {
	t.Helper()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, setupRunning(t, db)
}

// deliverAll marks every notice due at now done.
func deliverAll(t *testing.T, db storage.Store, now time.Time) {
	t.Helper()
	for range 50 {
		due, err := db.DueNotices(context.Background(), now, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			return
		}
		for _, n := range due {
			if err := db.NoticeDone(context.Background(), n.ID, now); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("the notices never ran out")
}

// TestOutboxHeldWaitsForTheAnnouncement: while a notice is held back, an
// announcement waiting for its games' call-offs (Notice.Until) is not due,
// and the outbox's loop does not come back at once for it: it read it as
// far ahead as any notice may wait, past the end of its wait, and spun
// until the call-offs came or the hour was up.
func TestOutboxHeldWaitsForTheAnnouncement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, m := openHoldsDB(t)
	now := T0.Add(time.Minute)
	deliverAll(t, db, now)
	// A second match, whose first notice's done records a round's
	// announcement waiting for m, still on.
	other := *m
	other.ID, other.Created = 0, now
	if _, err := db.CreateMatch(ctx, &other); err != nil {
		t.Fatal(err)
	}
	due, err := db.DueNotices(ctx, now, 1)
	if err != nil || len(due) != 1 {
		t.Fatalf("the second match's first notice: %d, %v", len(due), err)
	}
	announcement := storage.Notice{Tournament: 1, Event: storage.EventRoundClosed, To: storage.AudiencePublic, At: now, Until: []storage.MatchID{m.ID}}
	if err := db.NoticeDone(ctx, due[0].ID, now, announcement); err != nil {
		t.Fatal(err)
	}
	deliverAll(t, db, now)

	b := New(Config{Now: discordtest.NewFakeClock(now).Now}, nil, db, nil)
	for _, held := range []bool{false, true} {
		if held {
			for range 3 { // past the tries at once
				b.outboxHolds.failed(timerKey{kind: holdNotice, id: 987654}, now)
			}
		}
		next, ok, err := b.outboxNext(ctx)
		if err != nil || ok && !next.After(now) {
			t.Errorf("a notice held %v: the loop comes back at %v (%v, %v), at once though nothing can be delivered", held, next, ok, err)
		}
	}
}

// staleReminder refuses the first reminders as stale: the match changed
// as the reminder was recorded (a draw offer, say).
type staleReminder struct {
	storage.Store
	stale int
}

func (s *staleReminder) MarkReminded(ctx context.Context, id storage.MatchID, v uint64, at time.Time) (*storage.Match, error) {
	if s.stale > 0 {
		s.stale--
		return nil, storage.ErrStale
	}
	return s.Store.MarkReminded(ctx, id, v, at)
}

// TestTimerOvertakenOnceGoesAtOnce: a reminder overtaken once by a change
// to its match is tried again at once, not held back a minute as one that
// fails; overtaken again, it is held back.
func TestTimerOvertakenOnceGoesAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, m := openHoldsDB(t)
	if m.RemindAt.IsZero() {
		t.Fatal("no reminder planned")
	}
	clock := discordtest.NewFakeClock(m.RemindAt)
	store := &staleReminder{Store: db, stale: 1}
	b := New(Config{Now: clock.Now}, nil, store, nil)
	b.handleDue(ctx)
	if at, ok, err := b.timersNext(ctx); err != nil || !ok || at.After(clock.Now()) {
		t.Fatalf("after one stale refusal the next pass is at %v (%v, %v), want now", at, ok, err)
	}
	b.handleDue(ctx)
	if after, err := db.Match(ctx, m.ID); err != nil || after.RemindersSent != m.RemindersSent+1 {
		t.Fatalf("the reminder after the second pass: %v; want it sent", err)
	}

	store.stale = 2
	db2, m2 := openHoldsDB(t)
	store.Store = db2
	clock2 := discordtest.NewFakeClock(m2.RemindAt)
	b2 := New(Config{Now: clock2.Now}, nil, store, nil)
	b2.handleDue(ctx)
	b2.handleDue(ctx)
	if at, ok, err := b2.timersNext(ctx); err != nil || !ok || !at.After(clock2.Now()) {
		t.Errorf("refused twice, the reminder's next pass is at %v (%v, %v), want it held back", at, ok, err)
	}
}
