package storagetest

import (
	"context"
	"errors"
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
