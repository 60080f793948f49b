package storagetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// testLeases: one holder at a time; the holder renews; another takes over
// once the lease expired.
func testLeases(t *testing.T, s storage.Store) {
	ctx := context.Background()
	const ttl = 10 * time.Second
	steps := []struct {
		holder string
		at     time.Duration
		want   bool
	}{
		{"a", 0, true},                    // free
		{"b", time.Second, false},         // a holds it
		{"a", 5 * time.Second, true},      // a renews, until 15 s
		{"b", 12 * time.Second, false},    // still a's
		{"b", 15 * time.Second, true},     // a's expired: b takes over
		{"a", 16 * time.Second, false},    // and a is out
		{"b", 16 * time.Second, true},     // b renews
		{"c", 16*time.Second + ttl, true}, // b stopped renewing
	}
	for _, st := range steps {
		got, err := s.Lead(ctx, "timers", st.holder, T0.Add(st.at), ttl)
		if err != nil || got != st.want {
			t.Errorf("%s asks at +%v: %v, %v; want %v", st.holder, st.at, got, err, st.want)
		}
	}
	if got, err := s.Lead(ctx, "other", "b", T0, ttl); err != nil || !got {
		t.Errorf("another lease is separate: %v, %v", got, err)
	}
	if _, err := s.Lead(ctx, "", "a", T0, ttl); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a lease without a name: %v", err)
	}
}

// testLeaseBoundary: a lease is not taken before the end its holder was
// given, by the smallest part of a second. Lease times are kept to the
// microsecond (storage.LeaseTimes), the end rounded up: a holds the lease
// taken at T0+500ns for 10 s until T0+10s+500ns, kept as T0+10s+1µs, and b
// takes it then, not before. Before, PostgreSQL cut both times down to
// the microsecond, so that b took it at T0+10s+400ns, while a held it
// still: two leaders of the timers and the outbox, as bbolt, comparing
// nanoseconds, never had.
func testLeaseBoundary(t *testing.T, s storage.Store) {
	ctx := context.Background()
	const ttl = 10 * time.Second
	steps := []struct {
		holder string
		at     time.Duration
		want   bool
	}{
		{"a", 500 * time.Nanosecond, true},                 // free: a's until T0+10s+500ns
		{"b", ttl + 400*time.Nanosecond, false},            // a's lease has not ended
		{"b", ttl + 999*time.Nanosecond, false},            // kept to the microsecond, rounded up
		{"b", ttl + time.Microsecond, true},                // a's lease ended: b takes over
		{"a", ttl + time.Microsecond, false},               // and a is out
		{"b", ttl + 1500*time.Nanosecond, true},            // b renews: until T0+20s+2µs
		{"a", 2*ttl + 1999*time.Nanosecond, false},         // b holds it still
		{"a", 2*ttl + 2*time.Microsecond, true},            // b stopped renewing
		{"c", 2*ttl + 2*time.Microsecond + ttl - 1, false}, // a's ends a nanosecond later, at T0+30s+2µs
		{"c", 3*ttl + 2*time.Microsecond, true},            // exactly at its end, on a microsecond
	}
	for _, st := range steps {
		got, err := s.Lead(ctx, "timers", st.holder, T0.Add(st.at), ttl)
		if err != nil || got != st.want {
			t.Errorf("%s asks at +%v: %v, %v; want %v", st.holder, st.at, got, err, st.want)
		}
	}
}

// testLeaseRaced: at the very end of a lease, its holder renewing and
// others asking at once, at that time or a nanosecond or a microsecond
// later, exactly one of them leads, and it is the one the lease then names.
func testLeaseRaced(t *testing.T, s storage.Store) {
	ctx := context.Background()
	const ttl = 10 * time.Second
	holders := []string{"a", "b", "c", "d", "e", "f"}
	held := "a"
	start := T0.Add(333 * time.Nanosecond)
	if ok, err := s.Lead(ctx, "timers", held, start, ttl); err != nil || !ok {
		t.Fatalf("a takes the free lease: %v, %v", ok, err)
	}
	end := start.Add(ttl)
	for round, late := range []time.Duration{0, time.Nanosecond, 667 * time.Nanosecond, time.Microsecond} {
		at := end.Add(late)
		got := make([]bool, len(holders))
		errs := make([]error, len(holders))
		var wg sync.WaitGroup
		for i, h := range holders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = s.Lead(ctx, "timers", h, at, ttl)
			}()
		}
		wg.Wait()
		var leaders []string
		for i, h := range holders {
			if errs[i] != nil {
				t.Fatalf("round %d: %s asks: %v", round, h, errs[i])
			}
			if got[i] {
				leaders = append(leaders, h)
			}
		}
		if len(leaders) != 1 {
			t.Fatalf("round %d, %v after the end of %s's lease: leaders %v, want one", round, late, held, leaders)
		}
		held, end = leaders[0], at.Add(ttl)
		// The one that leads holds it: the others are refused before its end.
		for _, h := range holders {
			if ok, err := s.Lead(ctx, "timers", h, end.Add(-time.Nanosecond), ttl); err != nil || ok != (h == held) {
				t.Fatalf("round %d: %s asks a nanosecond before the end of %s's lease: %v, %v", round, h, held, ok, err)
			}
		}
		end = end.Add(-time.Nanosecond).Add(ttl) // as the holder renewed it
	}
}

// testAlive: Alive returns the time recorded before, zero the first time,
// kept to the second, and keeps the one it is given.
func testAlive(t *testing.T, s storage.Store) {
	ctx := context.Background()
	steps := []struct {
		at   time.Time
		want time.Time
	}{
		{T0.Add(500 * time.Millisecond), time.Time{}}, // never recorded
		{T0.Add(30 * time.Second), T0},                // kept to the second
		{T0.Add(time.Hour), T0.Add(30 * time.Second)}, // a restart an hour later learns when it was last alive
		{T0.Add(time.Hour), T0.Add(time.Hour)},        // the same time again
	}
	for _, st := range steps {
		got, err := s.Alive(ctx, st.at)
		if err != nil || !got.Equal(st.want) {
			t.Errorf("alive at %s: %s, %v; want %s", st.at.Format(time.RFC3339Nano), got, err, st.want)
		}
	}
}
