package bot

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestHealthyNeedsWrites: /healthz fails while the database can be read but
// not written, as on a full disk, for no move could be stored; it is
// healthy again once writes go through.
func TestHealthyNeedsWrites(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	if err := h.bot.Healthy(ctx); err != nil {
		t.Fatalf("a bot connected to a working database is unhealthy: %v", err)
	}
	h.clock.Advance(healthWriteEvery) // the last write is due again
	h.reads.readOnly.Store(true)
	if err := h.bot.Healthy(ctx); err == nil || !strings.Contains(err.Error(), "takes no write") {
		t.Fatalf("with a database that takes no write, Healthy says %v", err)
	}
	if err := h.bot.Healthy(ctx); err == nil || !strings.Contains(err.Error(), "takes no write") {
		t.Fatalf("asked again at once, with a database that still takes no write, Healthy says %v", err)
	}
	h.reads.readOnly.Store(false)
	if err := h.bot.Healthy(ctx); err != nil {
		t.Fatalf("once writes go through again, Healthy says %v", err)
	}
}

// TestHealthyWritesOnceAMinute: a probe every few seconds (Kubernetes')
// writes to the database once a minute at most, not at each probe: a write
// is a transaction synced to disk. A failed write is tried again at the
// next probe.
func TestHealthyWritesOnceAMinute(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	before := h.reads.healthWrites.Load()
	for range 12 { // a minute of probes every five seconds
		if err := h.bot.Healthy(ctx); err != nil {
			t.Fatalf("a bot connected to a working database is unhealthy: %v", err)
		}
		h.clock.Advance(5 * time.Second)
	}
	if n := h.reads.healthWrites.Load() - before; n != 1 {
		t.Errorf("a minute of probes every five seconds wrote %d times; want once", n)
	}
	if err := h.bot.Healthy(ctx); err != nil {
		t.Fatal(err)
	}
	if n := h.reads.healthWrites.Load() - before; n != 2 {
		t.Errorf("a probe a minute after the write wrote %d times in all; want twice", n)
	}
}
