package storagetest

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// testSecrets: every match, however it is made, gets its own secret from the
// store; it survives loads and updates, and a caller's own secret is kept.
func testSecrets(t *testing.T, s storage.Store) {
	ctx := context.Background()
	seen := map[storage.Secret]storage.MatchID{}
	note := func(how string, m *storage.Match) {
		t.Helper()
		if m.Secret.IsZero() {
			t.Fatalf("%s: match %d has no secret", how, m.ID)
		}
		if other, ok := seen[m.Secret]; ok {
			t.Fatalf("%s: matches %d and %d share a secret", how, other, m.ID)
		}
		seen[m.Secret] = m.ID
	}
	for range 20 {
		note("CreateMatch", must(s.CreateMatch(ctx, NewMatch(game.VariantBarrage))).in(t))
	}
	c := must(s.CreateChallenge(ctx, NewChallenge(T0, T0.Add(time.Hour)), storage.MemberLimits{})).in(t)
	accepted := must(s.AcceptChallenge(ctx, c.ID, storage.Player{UserID: "1002", Name: "Bob"}, game.Red, T0)).in(t)
	note("AcceptChallenge", accepted)

	m := Started(t, s, NewMatch(game.VariantClassic), 3)
	note("Started", m)
	want := m.Secret
	m = Play(t, s, m, 4, rand.New(rand.NewPCG(3, 3)))
	if got := must(s.Match(ctx, m.ID)).in(t); got.Secret != want {
		t.Error("the secret changed over moves")
	}

	own := NewMatch(game.VariantDuel)
	own.Secret = storage.Secret{1, 2, 3}
	if got := must(s.CreateMatch(ctx, own)).in(t); got.Secret != own.Secret {
		t.Error("CreateMatch replaced the caller's secret")
	}
}
