package storagetest

import (
	"context"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// deliverAll marks every notice due at at as delivered then.
func deliverAll(t *testing.T, s storage.Store, at time.Time) {
	t.Helper()
	ctx := context.Background()
	for {
		due := must(s.DueNotices(ctx, at, 0)).in(t)
		if len(due) == 0 {
			return
		}
		for _, n := range due {
			must(0, s.NoticeDone(ctx, n.ID, at)).in(t)
		}
	}
}

// testGameClock: a match on a 10+5 clock. Each side's time runs only from
// when it was told it is its move; a move takes the time used off the
// mover's clock and adds the increment; the side whose time runs out loses
// on time, and no reminders are sent meanwhile.
func testGameClock(t *testing.T, s storage.Store) {
	ctx := context.Background()
	clock := storage.TimeControl{Base: 10 * time.Minute, Increment: 5 * time.Second}
	ch := NewChallenge(T0, T0.Add(time.Hour))
	ch.Opponent = storage.Player{UserID: "1002", Name: "Bob"}
	ch.Clock, ch.MoveTime = clock, 15*time.Minute
	ch = must(s.CreateChallenge(ctx, ch, storage.MemberLimits{})).in(t)
	if got := must(s.Challenge(ctx, ch.ID)).in(t); got.Clock != clock {
		t.Fatalf("the challenge's clock: %+v", got.Clock)
	}
	m := must(s.AcceptChallenge(ctx, ch.ID, ch.Opponent, game.Red, T0)).in(t)
	if m.Clock != clock || m.Left != [2]time.Duration{clock.Base, clock.Base} {
		t.Fatalf("the match's clock %+v, left %v", m.Clock, m.Left)
	}
	for side := range 2 {
		m = must(s.SetSetup(ctx, m.ID, 0, game.Side(side), game.RandomSetup(m.Rules, uint64(side+1)), storage.SetupConfirmed, T0)).in(t)
	}
	deliverAll(t, s, T0.Add(10*time.Second)) // Red is told at +10 s: its 10 minutes start
	m = must(s.Match(ctx, m.ID)).in(t)
	if want := T0.Add(10*time.Second + clock.Base); m.Phase != storage.PhasePlaying || !m.Deadline.Equal(want) || !m.RemindAt.IsZero() {
		t.Fatalf("after the start: %v, deadline %v (want %v), reminder %v", m.Phase, m.Deadline, want, m.RemindAt)
	}
	g := must(m.Game()).in(t)
	m, _, err := s.ApplyMove(ctx, m.ID, 0, game.Red, g.LegalMoves()[0], T0.Add(70*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if want := clock.Base - time.Minute + clock.Increment; m.Left[game.Red] != want || m.Left[game.Blue] != clock.Base {
		t.Errorf("after Red's move in 60 s: left %v, want Red %v and Blue untouched", m.Left, want)
	}
	deliverAll(t, s, T0.Add(80*time.Second))
	m = must(s.Match(ctx, m.ID)).in(t)
	flag := T0.Add(80*time.Second + clock.Base)
	if !m.Deadline.Equal(flag) {
		t.Errorf("Blue's flag falls at %v, want %v", m.Deadline, flag)
	}
	if _, err := s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActTimeOut, At: flag.Add(-time.Second)}); err == nil {
		t.Error("Blue lost on time with a second left")
	}
	m = must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActTimeOut, At: flag})).in(t)
	if m.Result != (game.Result{Outcome: game.RedWon, Method: game.TimeForfeit}) {
		t.Errorf("after Blue's flag fell: %+v", m.Result)
	}
	if got := must(s.Match(ctx, m.ID)).in(t); got.Left != m.Left || got.Clock != clock {
		t.Errorf("stored clock %+v %v, want %+v %v", got.Clock, got.Left, clock, m.Left)
	}
	bad := NewChallenge(T0, T0.Add(time.Hour))
	bad.Clock = storage.TimeControl{Base: 10 * time.Second}
	_, err = s.CreateChallenge(ctx, bad, storage.MemberLimits{})
	wantErr(t, "a 10-second clock", err, storage.ErrInvalid)
}

// testGameClockOfACreatedMatch: a match made on a clock by CreateMatch (a
// tournament's game), not from a challenge, starts with the clock's time
// on both sides, as one accepted from a challenge does: Red, told it is its
// move, has the whole of it.
func testGameClockOfACreatedMatch(t *testing.T, s storage.Store) {
	ctx := context.Background()
	clock := storage.TimeControl{Base: 10 * time.Minute, Increment: 5 * time.Second}
	m := NewMatch(game.VariantClassic)
	m.Clock, m.MoveTime = clock, 15*time.Minute
	m = must(s.CreateMatch(ctx, m)).in(t)
	if want := [2]time.Duration{clock.Base, clock.Base}; m.Left != want {
		t.Fatalf("the created match's clocks: %v, want %v", m.Left, want)
	}
	for side := range 2 {
		m = must(s.SetSetup(ctx, m.ID, 0, game.Side(side), game.RandomSetup(m.Rules, uint64(side+1)), storage.SetupConfirmed, T0)).in(t)
	}
	deliverAll(t, s, T0.Add(10*time.Second))
	m = must(s.Match(ctx, m.ID)).in(t)
	if want := T0.Add(10*time.Second + clock.Base); m.Phase != storage.PhasePlaying || !m.Deadline.Equal(want) {
		t.Fatalf("after the start: %v, deadline %v, want %v", m.Phase, m.Deadline, want)
	}
}
