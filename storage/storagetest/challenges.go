package storagetest

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// NewChallenge returns an open Classic challenge by user "1001" in guild "g1", channel "c1".
func NewChallenge(created, expires time.Time) *storage.Challenge {
	return &storage.Challenge{
		GuildID: "g1", ChannelID: "c1",
		Challenger: storage.Player{UserID: "1001", Name: "Ann"},
		Rules:      game.DefaultRules(game.VariantClassic),
		MoveTime:   12 * time.Hour,
		MessageID:  "msg1",
		Created:    created, Expires: expires,
	}
}

func testChallenges(t *testing.T, s storage.Store) {
	ctx := context.Background()
	open := must(s.CreateChallenge(ctx, NewChallenge(T0, T0.Add(time.Hour)), storage.MemberLimits{})).in(t)
	named := NewChallenge(T0, T0.Add(time.Hour))
	named.Opponent = storage.Player{UserID: "1002", Name: "Bob"}
	named.ChannelID = "c2"
	named = must(s.CreateChallenge(ctx, named, storage.MemberLimits{})).in(t)
	if open.ID == 0 || named.ID == open.ID {
		t.Fatalf("ids %d and %d", open.ID, named.ID)
	}
	if got := must(s.Challenge(ctx, named.ID)).in(t); !reflect.DeepEqual(got, named) {
		t.Fatalf("loaded %+v\nwant %+v", got, named)
	}
	if got := must(s.SetChallengeMessage(ctx, named.ID, "msg2")).in(t); got.MessageID != "msg2" || got.ID != named.ID {
		t.Fatalf("after SetChallengeMessage: %+v", got)
	}
	if got := must(s.Challenge(ctx, named.ID)).in(t); got.MessageID != "msg2" {
		t.Fatalf("the message id was not kept: %q", got.MessageID)
	}
	named.MessageID = "msg2"
	if _, err := s.SetChallengeMessage(ctx, 9999, "x"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("SetChallengeMessage of a missing challenge: %v", err)
	}
	ids := func(l []*storage.Challenge) (out []storage.ChallengeID) {
		for _, c := range l {
			out = append(out, c.ID)
		}
		return out
	}
	lists := []struct {
		name string
		got  []*storage.Challenge
		want []storage.ChallengeID
	}{
		{"Ann", must(s.PlayerChallenges(ctx, "1001")).in(t), []storage.ChallengeID{open.ID, named.ID}},
		{"Bob", must(s.PlayerChallenges(ctx, "1002")).in(t), []storage.ChallengeID{named.ID}},
		{"Cy", must(s.PlayerChallenges(ctx, "1003")).in(t), nil},
		{"c1", must(s.ChannelChallenges(ctx, "c1")).in(t), []storage.ChallengeID{open.ID}},
		{"c2", must(s.ChannelChallenges(ctx, "c2")).in(t), []storage.ChallengeID{named.ID}},
	}
	for _, l := range lists {
		if got := ids(l.got); !reflect.DeepEqual(got, l.want) {
			t.Errorf("%s: %v, want %v", l.name, got, l.want)
		}
	}

	bad := []struct {
		name   string
		change func(c *storage.Challenge)
	}{
		{"self", func(c *storage.Challenge) { c.Opponent = c.Challenger }},
		{"no channel", func(c *storage.Challenge) { c.ChannelID = "" }},
		{"expires before created", func(c *storage.Challenge) { c.Expires = c.Created }},
		{"bad rules", func(c *storage.Challenge) { c.Rules.MaxMoves = -1 }},
	}
	for _, tc := range bad {
		c := NewChallenge(T0, T0.Add(time.Hour))
		tc.change(c)
		if _, err := s.CreateChallenge(ctx, c, storage.MemberLimits{}); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}

	cy := storage.Player{UserID: "1003", Name: "Cy"}
	at := T0.Add(time.Minute)
	_, err := s.AcceptChallenge(ctx, named.ID, cy, game.Red, at)
	wantErr(t, "accept someone else's challenge", err, storage.ErrNotInvited)
	_, err = s.AcceptChallenge(ctx, open.ID, open.Challenger, game.Red, at)
	wantErr(t, "accept own challenge", err, storage.ErrInvalid)
	_, err = s.AcceptChallenge(ctx, open.ID, cy, game.Red, T0.Add(time.Hour))
	wantErr(t, "accept expired", err, storage.ErrExpired)

	m := must(s.AcceptChallenge(ctx, named.ID, named.Opponent, game.Blue, at)).in(t)
	if m.Players[game.Blue] != named.Challenger || m.Players[game.Red] != named.Opponent || m.Phase != storage.PhaseSetup ||
		m.Rules != named.Rules || m.MoveTime != named.MoveTime || m.ChannelID != "c2" || !m.Created.Equal(at) {
		t.Fatalf("match from challenge: %+v", m)
	}
	if stored := must(s.Match(ctx, m.ID)).in(t); stored.LiveMessage != "msg2" {
		t.Errorf("the match's live message is %q, want the challenge's msg2", stored.LiveMessage)
	}
	_, err = s.Challenge(ctx, named.ID)
	wantErr(t, "accepted challenge", err, storage.ErrNotFound)
	if got := ids(must(s.PlayerChallenges(ctx, "1002")).in(t)); got != nil {
		t.Errorf("Bob still has challenges %v", got)
	}

	// Two players accept the open challenge at once: one match.
	var wg sync.WaitGroup
	results := make([]error, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := storage.Player{UserID: "20" + string(rune('0'+i)), Name: "P"}
			_, results[i] = s.AcceptChallenge(ctx, open.ID, p, game.Red, at)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range results {
		switch {
		case err == nil:
			won++
		default:
			wantErr(t, "losing acceptance", err, storage.ErrNotFound)
		}
	}
	if won != 1 {
		t.Fatalf("%d acceptances succeeded, want 1", won)
	}
	if l := must(s.ChannelMatches(ctx, "c1", true, 0)).in(t); len(l) != 1 {
		t.Errorf("%d matches in c1, want 1", len(l))
	}

	c := must(s.CreateChallenge(ctx, NewChallenge(T0, T0.Add(time.Hour)), storage.MemberLimits{})).in(t)
	if got := must(s.DeleteChallenge(ctx, c.ID)).in(t); got.ID != c.ID {
		t.Errorf("deleted %d", got.ID)
	}
	_, err = s.DeleteChallenge(ctx, c.ID)
	wantErr(t, "delete twice", err, storage.ErrNotFound)
	if d, ok := must2(t)(s.NextDeadline(ctx)); ok && d.Kind == storage.DeadlineChallenge {
		t.Errorf("a removed challenge left a timer: %+v", d)
	}
}
