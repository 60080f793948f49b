package bot

import (
	"context"
	"strings"
	"testing"
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
	h.reads.readOnly.Store(true)
	if err := h.bot.Healthy(ctx); err == nil || !strings.Contains(err.Error(), "takes no write") {
		t.Fatalf("with a database that takes no write, Healthy says %v", err)
	}
	h.reads.readOnly.Store(false)
	if err := h.bot.Healthy(ctx); err != nil {
		t.Fatalf("once writes go through again, Healthy says %v", err)
	}
}
