package storagetest

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// roundMatch returns a new tournament match (of tournament 1) whose
// round's deadline is roundEnds, made at T0 with a day per move.
func roundMatch(roundEnds time.Time) *storage.Match {
	m := NewMatch(game.VariantClassic)
	m.Tournament, m.RoundEnds = 1, roundEnds
	return m
}

// testNothingAfterTheRoundDeadline: in a tournament's match, once its
// round's deadline (Match.RoundEnds) has passed, nothing that would end or
// change the game is taken (ErrRoundOver) until the round's call-off,
// which still is: no move, draw, resignation, gift, vacation, set-up or
// moderator's call-off; no time-out or set-up call-off whose time ran out
// at or after the round's deadline, and no reminder due then. A second
// before, everything counts; a time that ran out before the round's
// deadline still ends the game, however late it is recorded, and a
// player's action after it is refused as too late to move (ErrTimeUp).
func testNothingAfterTheRoundDeadline(t *testing.T, s storage.Store) {
	ctx := context.Background()
	end := T0.Add(12 * time.Hour)

	// In play: Red's day to move would end after the round's deadline.
	m := Started(t, s, roundMatch(end), 51)
	if !m.RoundEnds.Equal(end) {
		t.Fatalf("the stored round's deadline %v, want %v", m.RoundEnds, end)
	}
	side, mv := RandomMove(t, m, rand.New(rand.NewPCG(51, 51)))
	m, _ = must2m(t)(s.ApplyMove(ctx, m.ID, 0, side, mv, end.Add(-2*time.Second)))
	Deliver(t, s, end.Add(-2*time.Second))
	m = must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActOfferDraw, Side: game.Red, At: end.Add(-time.Second)})).in(t)
	side, mv = RandomMove(t, m, rand.New(rand.NewPCG(52, 52)))
	if _, _, err := s.ApplyMove(ctx, m.ID, 0, side, mv, end); !errors.Is(err, storage.ErrRoundOver) {
		t.Errorf("a move at the round's deadline: %v, want ErrRoundOver", err)
	}
	for _, a := range []storage.Action{
		{Kind: storage.ActAcceptDraw, Side: game.Blue},
		{Kind: storage.ActResign, Side: game.Red},
		{Kind: storage.ActOfferDraw, Side: game.Blue},
		{Kind: storage.ActGiveTime, Side: game.Red},
		{Kind: storage.ActVacation, Side: game.Blue, Days: 3},
		{Kind: storage.ActAward, Side: game.Red},
	} {
		a.At = end.Add(time.Minute)
		if _, err := s.Act(ctx, m.ID, 0, a); !errors.Is(err, storage.ErrRoundOver) {
			t.Errorf("%s a minute after the round's deadline: %v, want ErrRoundOver", a, err)
		}
	}
	if _, err := s.MarkReminded(ctx, m.ID, 0, m.RemindAt); !m.RemindAt.IsZero() && !errors.Is(err, storage.ErrRoundOver) {
		t.Errorf("a reminder due at %v, after the round's deadline: %v, want ErrRoundOver", m.RemindAt.Sub(end), err)
	}
	late := m.Deadline.Add(time.Minute)
	if _, err := s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActTimeOut, At: late}); !errors.Is(err, storage.ErrRoundOver) {
		t.Errorf("a time-out of a time that ran out after the round's deadline: %v, want ErrRoundOver", err)
	}
	if _, err := s.Abandon(ctx, m.ID, 0, late, storage.CallOffModerator); !errors.Is(err, storage.ErrRoundOver) {
		t.Errorf("a moderator's call-off after the round's deadline: %v, want ErrRoundOver", err)
	}
	if got := must(s.Match(ctx, m.ID)).in(t); got.Version != m.Version || got.Phase != storage.PhasePlaying {
		t.Errorf("the refusals changed the match: version %d (want %d), %s", got.Version, m.Version, got.Phase)
	}
	off := must(s.Abandon(ctx, m.ID, 0, late, storage.CallOffTournament)).in(t)
	if off.Phase != storage.PhaseAbandoned || off.CalledOff != storage.CallOffTournament || off.RatingApplied {
		t.Errorf("the round's call-off: %s (%s), rated %v", off.Phase, off.CalledOff, off.RatingApplied)
	}

	// In play: Red's time ran out before the round's deadline.
	end = T0.Add(48 * time.Hour)
	m = Started(t, s, roundMatch(end), 53)
	side, mv = RandomMove(t, m, rand.New(rand.NewPCG(53, 53)))
	if _, _, err := s.ApplyMove(ctx, m.ID, 0, side, mv, end.Add(time.Hour)); !errors.Is(err, storage.ErrTimeUp) {
		t.Errorf("a move after both deadlines, Red's first: %v, want ErrTimeUp", err)
	}
	ended := must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActTimeOut, At: end.Add(time.Hour)})).in(t)
	if ended.Result != (game.Result{Outcome: game.BlueWon, Method: game.TimeForfeit}) {
		t.Errorf("Red's time ran out before the round's deadline, recorded after it: %v, want Blue on time", ended.Result)
	}

	// In set-up: the set-ups are due after the round's deadline.
	end = T0.Add(12 * time.Hour)
	m = must(s.CreateMatch(ctx, roundMatch(end))).in(t)
	Deliver(t, s, T0)
	red := game.RandomSetup(m.Rules, 55)
	m = must(s.SetSetup(ctx, m.ID, 0, game.Red, red, storage.SetupConfirmed, end.Add(-time.Second))).in(t)
	blue := game.RandomSetup(m.Rules, 56)
	for _, status := range []storage.SetupStatus{storage.SetupDraft, storage.SetupConfirmed} {
		if _, err := s.SetSetup(ctx, m.ID, 0, game.Blue, blue, status, end); !errors.Is(err, storage.ErrRoundOver) {
			t.Errorf("Blue's set-up (status %d) at the round's deadline: %v, want ErrRoundOver", status, err)
		}
	}
	if _, err := s.Abandon(ctx, m.ID, 0, m.Deadline.Add(time.Minute), storage.CallOffLateSetup); !errors.Is(err, storage.ErrRoundOver) {
		t.Errorf("the set-ups called off late, due after the round's deadline: %v, want ErrRoundOver", err)
	}
	if got := must(s.Match(ctx, m.ID)).in(t); got.Version != m.Version || got.Setups[game.Blue].Status != storage.SetupNone {
		t.Errorf("the refusals changed the match: version %d (want %d), Blue's set-up %d", got.Version, m.Version, got.Setups[game.Blue].Status)
	}

	// In set-up: the set-ups were due before the round's deadline.
	end = T0.Add(48 * time.Hour)
	m = must(s.CreateMatch(ctx, roundMatch(end))).in(t)
	Deliver(t, s, T0)
	off = must(s.Abandon(ctx, m.ID, 0, end.Add(time.Hour), storage.CallOffLateSetup)).in(t)
	if off.Phase != storage.PhaseAbandoned || off.CalledOff != storage.CallOffLateSetup {
		t.Errorf("set-ups due before the round's deadline, called off after it: %s (%s)", off.Phase, off.CalledOff)
	}
}

// must2m checks ApplyMove's answer.
func must2m(t testing.TB) func(*storage.Match, *game.Game, error) (*storage.Match, *game.Game) {
	return func(m *storage.Match, g *game.Game, err error) (*storage.Match, *game.Game) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m, g
	}
}
