package bot

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
)

// awayActions counts the times away in a match's log.
func awayActions(m *storage.Match) int {
	n := 0
	for _, a := range m.Log {
		if a.Kind == storage.ActAway {
			n++
		}
	}
	return n
}

// TestGatewayLostAsAStartConnects: a bot on bbolt down for ten hours
// starts; it connects, and the connection is lost at once, before the
// start gave the time away back. Two minutes later it is back: the clocks
// are given back the ten hours and the two minutes, once. Before, the
// connection lost recorded that the bot was alive then, and the ten hours
// were never given back.
func TestGatewayLostAsAStartConnects(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := setupRunning(t, db)
	clock := discordtest.NewFakeClock(T0)
	if _, err := db.Alive(ctx, clock.Now()); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Hour)
	b := New(Config{Now: clock.Now}, nil, db, nil)
	b.holdUntilHeard() // Run, before it connects
	b.drops.Add(1)     // connected, and lost at once
	b.gatewayLost(ctx)
	if got := b.creditAtStart(ctx); len(got) != 0 {
		t.Errorf("the start gave %d matches time while it could not hear Discord", len(got))
	}
	clock.Advance(2 * time.Minute)
	b.gatewayBack(ctx, b.drops.Load())
	got, err := db.Match(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if moved, want := got.Deadline.Sub(m.Deadline), 10*time.Hour+2*time.Minute; moved != want {
		t.Errorf("the set-up deadline moved %v, want %v", moved, want)
	}
	if n := awayActions(got); n != 1 {
		t.Errorf("the time away was given back %d times, want once", n)
	}
	if b.heard.Load() != nil {
		t.Error("the DMs and commands held at the start are held still")
	}
}

// TestLeaseTakenBackOnce: on a shared database a process cut off from the
// gateway for ten hours connects again as its lease loop renews: the two
// take the lease at once, and the time away is given back to each match
// once, each player told once, not twice.
func TestLeaseTakenBackOnce(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ids []storage.MatchID
	for range 30 {
		ids = append(ids, setupRunning(t, db).ID)
	}
	// A clock that moves on with each reading, so that the two takes of
	// the lease interleave with the matches given time.
	var mu sync.Mutex
	now := T0
	tick := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(300 * time.Millisecond)
		return now
	}
	b := New(Config{Shared: true, Holder: "one", Now: tick}, nil, db, nil)
	b.renewLease(ctx)
	b.drops.Add(1)
	b.gatewayLost(ctx)
	mu.Lock()
	now = now.Add(10 * time.Hour)
	mu.Unlock()
	seen := b.drops.Load()
	var wg sync.WaitGroup
	wg.Go(func() { b.gatewayBack(ctx, seen) })
	wg.Go(func() { // the lease loop's, as the connection is back
		for b.deafNow() {
			runtime.Gosched()
		}
		b.renewLease(ctx)
	})
	wg.Wait()
	for _, id := range ids {
		m, err := db.Match(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if n := awayActions(m); n != 1 {
			t.Errorf("match %d was given the time away %d times, want once", id, n)
		}
	}
}

// TestWebActionDuringOutage: Alice, on the board in the browser, moves
// past her deadline as it stood while the bot is cut off from Discord's
// gateway (her clock stands still, the time not yet given back). She is
// not told that she loses on time: she is told the clocks stand still and
// to try again; once the bot is back her time is given back, and the
// match goes on.
func TestWebActionDuringOutage(t *testing.T) {
	t.Parallel()
	h, _, _ := aliceToMove(t)
	h.advance(20 * time.Hour)
	h.outboxEmpty()
	before := h.srv.GatewayStats()
	h.srv.GatewayOutage()
	h.srv.WaitFor(t, "a reconnect refused", func() bool { return h.srv.GatewayStats().Refused > before.Refused })
	h.advance(10 * time.Hour)
	m := h.match(1)
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	asShown := func(*storage.Match, *game.Game) error { return nil }
	err = webActor{h.bot}.Move(context.Background(), m, asShown, g.ToMove(), g.LegalMoves()[0])
	if err == nil || !strings.Contains(err.Error(), txtClocksStandStill) {
		t.Errorf("a web move during the outage: %v, want %q", err, txtClocksStandStill)
	}
	h.srv.EndGatewayOutage()
	h.srv.WaitFor(t, "the time given back", func() bool { return h.srv.GatewayStats().Resumes > before.Resumes && !h.bot.deafNow() })
	h.advance(0)
	if m := h.match(1); m.Phase != storage.PhasePlaying || !m.Deadline.After(h.clock.Now()) {
		t.Errorf("after the outage: %v, deadline in %v", m.Phase, m.Deadline.Sub(h.clock.Now()))
	}
}

// TestHeldRequestAtStop: a DM held while the bot is cut off from the
// gateway, the time away not yet given back, when the bot stops, is left
// unhandled, and holds up the stop no longer than the bot's requests: it
// waited out the handler's 30 seconds, then was handled against the old
// deadline with a context already ended.
func TestHeldRequestAtStop(t *testing.T) {
	t.Parallel()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b := New(Config{}, nil, db, nil)
	b.drops.Add(1)
	b.gatewayLost(t.Context())
	handled := make(chan bool, 1)
	go b.guard(t.Context(), "message", func(ctx context.Context) { handled <- b.awaitHeard(ctx) })
	b.haltNow() // Run stopped, its requests' grace over
	if <-handled {
		t.Error("a DM held at the stop was handled, against the deadline before the time away")
	}
}

// leadHook is a store whose Lead calls during, once set, after the
// database took the lease.
type leadHook struct {
	storage.Store
	during atomic.Pointer[func()]
}

func (s *leadHook) Lead(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	ok, err := s.Store.Lead(ctx, name, holder, now, ttl)
	if f := s.during.Swap(nil); f != nil {
		(*f)()
	}
	return ok, err
}

// TestGatewayLostAsTheLeaseRenews: on a shared database the gateway is
// lost while the process renews its lease, between the database's answer
// and the process's record of it. The lease ends given up: the process
// that cannot hear Discord does not lead, and another takes the lease.
// Before, the lease was given up beside the renewal, which then took it
// back for the process cut off, and its outbox ran beside the new leader's.
func TestGatewayLostAsTheLeaseRenews(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	store := &leadHook{Store: db}
	clock := discordtest.NewFakeClock(T0)
	b := New(Config{Shared: true, Holder: "one", Now: clock.Now}, nil, store, nil)
	b.renewLease(ctx)
	if !b.leading.Load() {
		t.Fatal("the process does not lead")
	}
	var lost sync.WaitGroup
	during := func() {
		b.drops.Add(1)
		lost.Go(func() { b.gatewayLost(ctx) })
		// Until the lease is given up, or long enough for it to be.
		for end := time.Now().Add(500 * time.Millisecond); b.leading.Load() && time.Now().Before(end); {
			runtime.Gosched()
		}
	}
	store.during.Store(&during)
	b.renewLease(ctx) // the lease loop's
	lost.Wait()
	if b.leading.Load() {
		t.Error("the process cut off from the gateway leads")
	}
	if ok, err := db.Lead(ctx, leaseTimers, "two", clock.Now(), leaseTTL); err != nil || !ok {
		t.Errorf("another process could not take the lease: %v, %v", ok, err)
	}
}
