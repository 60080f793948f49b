package storagetest

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/strategobot/strategobot/storage"
)

// testWebKey: the web signing key is drawn once, long enough, and the same
// for two first calls racing and for every call after.
func testWebKey(t *testing.T, s storage.Store) {
	ctx := context.Background()
	var keys [2][]byte
	var errs [2]error
	var wg sync.WaitGroup
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keys[i], errs[i] = s.WebKey(ctx)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("WebKey %d: %v", i, err)
		}
	}
	if len(keys[0]) < storage.WebKeyLen {
		t.Fatalf("web key of %d bytes, want at least %d", len(keys[0]), storage.WebKeyLen)
	}
	if !bytes.Equal(keys[0], keys[1]) {
		t.Fatal("two first calls to WebKey gave different keys")
	}
	if bytes.Equal(keys[0], make([]byte, len(keys[0]))) {
		t.Fatal("the web key is all zeros")
	}
	again := must(s.WebKey(ctx)).in(t)
	if !bytes.Equal(again, keys[0]) {
		t.Fatal("WebKey changed between calls")
	}
}

// testLinkGenerations: an unknown player's generation is 0; RevokeLinks bumps
// it for that player only, and the player's other settings survive.
func testLinkGenerations(t *testing.T, s storage.Store) {
	ctx := context.Background()
	if g := must(s.LinkGeneration(ctx, "1001")).in(t); g != 0 {
		t.Fatalf("generation of a player never seen: %d, want 0", g)
	}
	must(s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error {
		p.Locale = "nl"
		return nil
	})).in(t)
	for want := uint32(1); want <= 3; want++ {
		if g := must(s.RevokeLinks(ctx, "1001")).in(t); g != want {
			t.Fatalf("RevokeLinks returned %d, want %d", g, want)
		}
		if g := must(s.LinkGeneration(ctx, "1001")).in(t); g != want {
			t.Fatalf("generation after revoking: %d, want %d", g, want)
		}
	}
	if g := must(s.LinkGeneration(ctx, "1002")).in(t); g != 0 {
		t.Fatalf("another player's generation: %d, want 0", g)
	}
	p := must(s.Player(ctx, "1001")).in(t)
	if p.Locale != "nl" || p.LinkGen != 3 {
		t.Fatalf("settings after revoking: locale %q, generation %d", p.Locale, p.LinkGen)
	}
	// A later change of other settings keeps the generation.
	must(s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error {
		p.NoReminders = true
		return nil
	})).in(t)
	if g := must(s.LinkGeneration(ctx, "1001")).in(t); g != 3 {
		t.Fatalf("generation after another change: %d, want 3", g)
	}
}
