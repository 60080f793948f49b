package bot

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
)

// TestLeaseTakeover: on a shared database a process runs the timers and the
// outbox only while it holds the lease: not while another's lease runs,
// and from the moment it expires.
func TestLeaseTakeover(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if ok, err := db.Lead(ctx, leaseTimers, "other process", T0, leaseTTL); !ok || err != nil {
		t.Fatalf("the other process's lease: %v, %v", ok, err)
	}
	// A match whose set-up invites wait in the outbox.
	m := &storage.Match{GuildID: "g", ChannelID: "c", Rules: game.DefaultRules(game.VariantClassic), MoveTime: time.Hour, Phase: storage.PhaseSetup, Created: T0}
	m.Players[game.Red] = storage.Player{UserID: "1", Name: "a"}
	m.Players[game.Blue] = storage.Player{UserID: "2", Name: "b"}
	if _, err := db.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	clock := discordtest.NewFakeClock(T0.Add(time.Second))
	b := New(Config{Shared: true, Holder: "this process", Now: clock.Now}, nil, db, nil)
	b.renewLease(ctx)
	if b.leading.Load() {
		t.Fatal("this process leads while the other's lease runs")
	}
	b.deliverDue(ctx) // would need Discord if it did anything
	b.handleDue(ctx)
	if due, err := db.DueNotices(ctx, clock.Now(), 0); err != nil || len(due) != 2 {
		t.Fatalf("the outbox changed while another process led: %d notices, %v", len(due), err)
	}
	clock.Advance(leaseTTL - 2*time.Second) // the other's lease runs until T0+10 s
	b.renewLease(ctx)
	if b.leading.Load() {
		t.Fatal("this process leads a second before the other's lease ends")
	}
	clock.Advance(time.Second)
	b.renewLease(ctx)
	if !b.leading.Load() {
		t.Fatal("this process does not lead once the other's lease ended")
	}
	if ok, _ := db.Lead(ctx, leaseTimers, "other process", clock.Now(), leaseTTL); ok {
		t.Error("the other process took the lease back while this one holds it")
	}
	alone := New(Config{}, nil, db, nil)
	if !alone.leading.Load() {
		t.Error("a bot alone on its database does not lead")
	}
}

// TestLeaseTakeoverGivesTimeBack: a process that takes the lease over
// gives the clocks back the time nobody ran the timers, before it runs
// them: nothing after a hand-over (the lease ran out and was taken within
// storage.AwayGrace of the last record of being alive), the whole time
// when the last holder died long before, past the set-up deadline too.
// Until it takes the lease it runs no timer: it times nobody out.
func TestLeaseTakeoverGivesTimeBack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		takeover time.Duration // after the other process's last record of being alive
		credit   time.Duration
	}{
		{"a hand-over", leaseTTL, 0},
		{"nobody for five minutes", 5 * time.Minute, 5 * time.Minute},
		{"nobody past the set-up deadline", 30 * time.Hour, 30 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			m := setupRunning(t, db)
			deadline := m.Deadline
			if _, err := db.Alive(ctx, T0); err != nil {
				t.Fatal(err)
			}
			if ok, err := db.Lead(ctx, leaseTimers, "other process", T0, leaseTTL); !ok || err != nil {
				t.Fatalf("the other process's lease: %v, %v", ok, err)
			}
			clock := discordtest.NewFakeClock(T0.Add(tc.takeover))
			b := New(Config{Shared: true, Holder: "this process", Now: clock.Now}, nil, db, nil)
			b.handleDue(ctx) // not leading yet
			if m, err := db.Match(ctx, m.ID); err != nil || m.Phase != storage.PhaseSetup || !m.Deadline.Equal(deadline) {
				t.Fatalf("a process that does not lead changed the match: %v", err)
			}
			b.renewLease(ctx)
			if !b.leading.Load() {
				t.Fatal("this process does not lead once the other's lease ended")
			}
			if m, err = db.Match(ctx, m.ID); err != nil || m.Deadline.Sub(deadline) != tc.credit {
				t.Errorf("the set-up deadline moved %v (%v), want %v", m.Deadline.Sub(deadline), err, tc.credit)
			}
		})
	}
}

// TestFollowerTimersWait: a process that does not lead, on a database
// with a timer due (the leader is to handle it, or holds it back while it
// fails), runs no pass and does not come back for it at once, again and
// again, as it did (it read the due deadline, ran a pass that did nothing
// for it does not lead, and read it again): it waits to be nudged, as it
// is when it takes the lease. Its outbox, with a notice due, alike.
func TestFollowerTimersWait(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := setupRunning(t, db)
	clock := discordtest.NewFakeClock(m.Deadline.Add(time.Minute)) // the set-up's deadline passed
	if ok, err := db.Lead(ctx, leaseTimers, "other process", clock.Now(), leaseTTL); !ok || err != nil {
		t.Fatalf("the other process's lease: %v, %v", ok, err)
	}
	b := New(Config{Shared: true, Holder: "this process", Now: clock.Now}, nil, db, nil)
	b.renewLease(ctx)
	if b.leading.Load() {
		t.Fatal("this process leads while the other's lease runs")
	}
	if at, ok, err := b.timersNext(ctx); err != nil || ok {
		t.Errorf("a process that does not lead runs its next pass at %s (%v, %v), want only when nudged", at, ok, err)
	}
	// The outbox alike, with the set-up invites of a new match due.
	m.ID, m.Created = 0, clock.Now()
	m.Deadline, m.RemindAt = time.Time{}, time.Time{}
	if _, err := db.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	if due, err := db.DueNotices(ctx, clock.Now(), 0); err != nil || len(due) == 0 {
		t.Fatalf("no notice due (%v)", err)
	}
	if at, ok, err := b.outboxNext(ctx); err != nil || ok {
		t.Errorf("a process that does not lead delivers next at %s (%v, %v), want only when nudged", at, ok, err)
	}
}

// TestLeaseDeafGivesWay: on a shared database a process whose gateway
// connection is lost gives up the lease at once, and takes none while it
// is lost, so that a process still connected runs the timers: that one
// takes over at once, with nothing to give back. When every process has
// lost it, nobody runs the timers; the first back takes the lease and
// gives the clocks back the time since the last one lost it.
func TestLeaseDeafGivesWay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := setupRunning(t, db)
	deadline := m.Deadline
	clock := discordtest.NewFakeClock(T0)
	one := New(Config{Shared: true, Holder: "one", Now: clock.Now}, nil, db, nil)
	two := New(Config{Shared: true, Holder: "two", Now: clock.Now}, nil, db, nil)
	one.renewLease(ctx)
	two.renewLease(ctx)
	if !one.leading.Load() || two.leading.Load() {
		t.Fatalf("leading: one %v, two %v; want one", one.leading.Load(), two.leading.Load())
	}
	clock.Advance(time.Hour)
	one.gatewayLost(ctx)
	one.renewLease(ctx)
	two.renewLease(ctx)
	if one.leading.Load() || !two.leading.Load() {
		t.Fatalf("one lost its gateway; leading: one %v, two %v; want two at once", one.leading.Load(), two.leading.Load())
	}
	clock.Advance(time.Hour)
	two.gatewayLost(ctx)
	lost := clock.Now()
	clock.Advance(30 * time.Hour) // past the set-up deadline
	for _, b := range []*Bot{one, two} {
		b.renewLease(ctx)
		b.handleDue(ctx)
		if b.leading.Load() {
			t.Fatalf("%s leads while its gateway is lost", b.cfg.Holder)
		}
	}
	if m, err := db.Match(ctx, m.ID); err != nil || m.Phase != storage.PhaseSetup || !m.Deadline.Equal(deadline) {
		t.Fatalf("the match changed while nobody heard Discord: %v", err)
	}
	one.gatewayBack(ctx, one.drops.Load())
	if !one.leading.Load() {
		t.Fatal("one does not lead once its gateway is back")
	}
	if m, err = db.Match(ctx, m.ID); err != nil || m.Phase != storage.PhaseSetup || m.Deadline.Sub(deadline) != clock.Now().Sub(lost) {
		t.Errorf("the set-up deadline moved %v (%v), want %v", m.Deadline.Sub(deadline), err, clock.Now().Sub(lost))
	}
}
