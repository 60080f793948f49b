package storagetest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// deliverInvite marks the set-up invite to side of match id done at at, as
// the bot does once Discord answered its last part (or it gave it up), and
// checks that the store did what its own rules (Changes.StartClock) foresaw.
func deliverInvite(t *testing.T, s storage.Store, id storage.MatchID, side game.Side, at time.Time) *storage.Match {
	t.Helper()
	ctx := context.Background()
	for _, n := range must(s.DueNotices(ctx, at, 0)).in(t) {
		if n.Match != id || n.Event != storage.EventCreated || n.To != storage.Audience(side) {
			continue
		}
		if !n.StartsClock {
			t.Fatalf("the set-up invite to %s starts no clock", side)
		}
		before := must(s.Match(ctx, id)).in(t)
		foreseen, changes := s.Changes().StartClock(before, &n, at)
		must(0, s.NoticeDone(ctx, n.ID, at)).in(t)
		after := must(s.Match(ctx, id)).in(t)
		if !changes {
			foreseen = before
		}
		if !reflect.DeepEqual(after, foreseen) {
			t.Errorf("the invite's arrival as stored:\n%+v\nas the store's Changes foresaw it:\n%+v", after, foreseen)
		}
		if after.Version != before.Version {
			t.Errorf("an invite's arrival changed the version from %d to %d", before.Version, after.Version)
		}
		return after
	}
	t.Fatalf("no set-up invite to %s of match %d due at %v", side, id, at.Sub(T0))
	return nil
}

// setupWaits checks that the set-up clock of m waits at time at: no timer,
// no reminder, nothing due, and the deadline shown the earliest it can be.
func setupWaits(t *testing.T, s storage.Store, m *storage.Match, at time.Time) {
	t.Helper()
	ctx := context.Background()
	if m.Phase != storage.PhaseSetup || !m.ClockPending || m.ClockRunning() {
		t.Fatalf("match %d at %v: %s, clock pending %v: want a set-up whose clock waits", m.ID, at.Sub(T0), m.Phase, m.ClockPending)
	}
	if d, ok := storage.MatchTimer(m); ok && d.Kind != storage.DeadlineVacation {
		t.Errorf("match %d: a timer while the set-up clock waits: %+v", m.ID, d)
	}
	for _, d := range must(s.DueDeadlines(ctx, at.Add(30*24*time.Hour), 0)).in(t) {
		if d.ID == uint64(m.ID) && d.Kind != storage.DeadlineVacation {
			t.Errorf("match %d: due while the set-up clock waits: %+v", m.ID, d)
		}
	}
	_, err := s.MarkReminded(ctx, m.ID, 0, at.Add(30*24*time.Hour))
	wantErr(t, "a set-up reminder while an invite is on its way", err, storage.ErrNotDue)
	if got, want := m.DeadlineToShow(at), at.Add(m.MoveTime); at.Add(m.MoveTime).After(got) {
		t.Errorf("match %d: deadline shown at %v: %v, want at least %v", m.ID, at.Sub(T0), got.Sub(T0), want.Sub(T0))
	}
}

// testSetupClockWaitsForTheInvites: the set-up time, like a turn's, starts
// when the players have been told: when the later of the two set-up
// invites has arrived (or was given up). Until then nothing is due; then the
// set-ups are due a move time later, after any vacation.
func testSetupClockWaitsForTheInvites(t *testing.T, s storage.Store) {
	ctx := context.Background()
	day := 24 * time.Hour

	t.Run("Blue's invite held six minutes on five minutes a move", func(t *testing.T) {
		nm := NewMatch(game.VariantClassic)
		nm.MoveTime = 5 * time.Minute
		m := must(s.CreateMatch(ctx, nm)).in(t)
		setupWaits(t, s, m, T0)
		if m.InvitePending != [2]bool{true, true} {
			t.Errorf("a new match waits for the invites %v, want both", m.InvitePending)
		}
		m = deliverInvite(t, s, m.ID, game.Red, T0)
		setupWaits(t, s, m, T0)
		if m.InvitePending != [2]bool{false, true} {
			t.Errorf("after Red's invite: waits for %v, want Blue's", m.InvitePending)
		}
		// Red sends a draft meanwhile: nothing starts.
		m = must(s.SetSetup(ctx, m.ID, m.Version, game.Red, game.RandomSetup(m.Rules, 1), storage.SetupDraft, T0.Add(time.Minute))).in(t)
		setupWaits(t, s, m, T0.Add(5*time.Minute))
		// Past the deadline counted from the creation, the match is still on,
		// and may not be called off as late.
		if got := must(s.Match(ctx, m.ID)).in(t); got.Phase != storage.PhaseSetup || !got.ClockPending {
			t.Fatalf("six minutes on: %s, pending %v", got.Phase, got.ClockPending)
		}
		_, err := s.Abandon(ctx, m.ID, 0, T0.Add(6*time.Minute), storage.CallOffLateSetup)
		wantErr(t, "calling off as late while an invite is on its way", err, storage.ErrNotDue)
		arrived := T0.Add(6 * time.Minute)
		m = deliverInvite(t, s, m.ID, game.Blue, arrived)
		if m.ClockPending || m.InvitePending != [2]bool{} || !m.Deadline.Equal(arrived.Add(m.MoveTime)) {
			t.Fatalf("both invites in: pending %v (%v), deadline %v, want %v", m.ClockPending, m.InvitePending, m.Deadline.Sub(T0), arrived.Add(m.MoveTime).Sub(T0))
		}
		// The arrivals are kept: Blue's, the later, started the set-up time.
		if want := [2]time.Time{T0, arrived}; !m.InviteArrived[game.Red].Equal(want[0]) || !m.InviteArrived[game.Blue].Equal(want[1]) {
			t.Errorf("invites arrived at %v, want %v", m.InviteArrived, want)
		}
		remind := arrived.Add(m.MoveTime - m.MoveTime/4)
		if d, ok := storage.MatchTimer(m); !ok || d.Kind != storage.DeadlineReminder || !d.At.Equal(remind) {
			t.Errorf("the set-up timer once both invites are in: %+v, want the reminder at %v", d, remind.Sub(T0))
		}
		if due := must(s.DueDeadlines(ctx, remind.Add(-time.Second), 0)).in(t); len(due) != 0 {
			t.Errorf("due before the reminder counted from the arrival: %+v", due)
		}
		m = must(s.MarkReminded(ctx, m.ID, m.Version, remind)).in(t)
		if due := must(s.DueDeadlines(ctx, arrived.Add(m.MoveTime-time.Second), 0)).in(t); len(due) != 0 {
			t.Errorf("due before a whole move time from the arrival: %+v", due)
		}
		_, err = s.Abandon(ctx, m.ID, 0, arrived.Add(m.MoveTime-time.Second), storage.CallOffLateSetup)
		wantErr(t, "calling off as late a second before the set-up time ran out", err, storage.ErrNotDue)
		due := must(s.DueDeadlines(ctx, arrived.Add(m.MoveTime), 0)).in(t)
		if len(due) != 1 || due[0].ID != uint64(m.ID) || due[0].Kind != storage.DeadlineMatch {
			t.Errorf("due a move time after the arrival: %+v", due)
		}
		must(s.Abandon(ctx, m.ID, m.Version, arrived.Add(m.MoveTime), storage.CallOffLateSetup)).in(t)
		Deliver(t, s, arrived.Add(m.MoveTime))
	})

	t.Run("Red's invite held three days on a day a move, reminders from then", func(t *testing.T) {
		m := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
		m = deliverInvite(t, s, m.ID, game.Blue, T0)
		setupWaits(t, s, m, T0.Add(3*day))
		arrived := T0.Add(3 * day)
		m = deliverInvite(t, s, m.ID, game.Red, arrived)
		if m.ClockPending || !m.Deadline.Equal(arrived.Add(day)) || !m.RemindAt.Equal(arrived.Add(day-day/4)) {
			t.Fatalf("both invites in: pending %v, deadline %v, reminder %v; want %v and %v", m.ClockPending, m.Deadline.Sub(T0), m.RemindAt.Sub(T0), arrived.Add(day).Sub(T0), arrived.Add(day-day/4).Sub(T0))
		}
		remind := m.RemindAt
		m = must(s.MarkReminded(ctx, m.ID, m.Version, remind)).in(t)
		if got, want := owed(t, s, remind), []string{"reminder>red", "reminder>blue"}; !sameWords(got, want) {
			t.Errorf("the set-up reminder: owed %v, want %v", got, want)
		}
		must(s.Abandon(ctx, m.ID, 0, arrived.Add(day), storage.CallOffLateSetup)).in(t)
		Deliver(t, s, arrived.Add(day))
	})

	t.Run("a confirmed side's invite does not count, as the computer's", func(t *testing.T) {
		m := must(s.CreateMatch(ctx, NewMatch(game.VariantBarrage))).in(t)
		// The computer's set-up is confirmed at once; its invite is never read.
		m = must(s.SetSetup(ctx, m.ID, m.Version, game.Blue, game.RandomSetup(m.Rules, 3), storage.SetupConfirmed, T0)).in(t)
		setupWaits(t, s, m, T0)
		arrived := T0.Add(3 * day)
		m = deliverInvite(t, s, m.ID, game.Red, arrived)
		if m.ClockPending || !m.Deadline.Equal(arrived.Add(day)) {
			t.Fatalf("the human's invite in: pending %v, deadline %v, want %v", m.ClockPending, m.Deadline.Sub(T0), arrived.Add(day).Sub(T0))
		}
		// The computer's invite, done later, changes nothing.
		after := deliverInvite(t, s, m.ID, game.Blue, arrived.Add(time.Hour))
		if !after.Deadline.Equal(m.Deadline) || after.ClockPending {
			t.Errorf("the computer's invite moved the deadline to %v", after.Deadline.Sub(T0))
		}
		must(s.Abandon(ctx, m.ID, 0, arrived.Add(day), storage.CallOffLateSetup)).in(t)
		Deliver(t, s, arrived.Add(day))
	})

	t.Run("a set-up sent before its own invite came starts the clock", func(t *testing.T) {
		m := must(s.CreateMatch(ctx, NewMatch(game.VariantBarrage))).in(t)
		m = deliverInvite(t, s, m.ID, game.Red, T0.Add(time.Minute))
		sent := T0.Add(time.Hour)
		m = must(s.SetSetup(ctx, m.ID, m.Version, game.Blue, game.RandomSetup(m.Rules, 4), storage.SetupConfirmed, sent)).in(t)
		if m.ClockPending || !m.Deadline.Equal(sent.Add(day)) {
			t.Fatalf("Blue's set-up in before Blue's invite: pending %v, deadline %v, want %v", m.ClockPending, m.Deadline.Sub(T0), sent.Add(day).Sub(T0))
		}
		if got := must(s.Match(ctx, m.ID)).in(t); got.ClockPending || !got.Deadline.Equal(m.Deadline) {
			t.Errorf("read back: pending %v, deadline %v", got.ClockPending, got.Deadline.Sub(T0))
		}
		must(s.Abandon(ctx, m.ID, 0, sent.Add(day), storage.CallOffLateSetup)).in(t)
		Deliver(t, s, sent.Add(day))
	})

	t.Run("both set-ups in before the invites: the game starts as ever", func(t *testing.T) {
		m := must(s.CreateMatch(ctx, NewMatch(game.VariantDuel))).in(t)
		for side := game.Red; side <= game.Blue; side++ {
			m = must(s.SetSetup(ctx, m.ID, m.Version, side, game.RandomSetup(m.Rules, 5+uint64(side)), storage.SetupConfirmed, T0.Add(time.Minute))).in(t)
		}
		if m.Phase != storage.PhasePlaying || !m.ClockPending || m.InvitePending != [2]bool{} {
			t.Fatalf("both set-ups in: %s, pending %v (invites %v): want Red's clock waiting for the first board", m.Phase, m.ClockPending, m.InvitePending)
		}
		told := T0.Add(time.Hour)
		Deliver(t, s, told) // the invites (moot now), then the boards
		if got := must(s.Match(ctx, m.ID)).in(t); got.ClockPending || !got.Deadline.Equal(told.Add(day)) {
			t.Errorf("Red's first board arrived: pending %v, deadline %v, want %v", got.ClockPending, got.Deadline.Sub(T0), told.Add(day).Sub(T0))
		}
	})

	t.Run("an invite that arrives once the game began starts no turn", func(t *testing.T) {
		// Both set-ups are sent by command while Red's invite is held: the
		// game begins, and Red's first board waits behind the invite.
		m := must(s.CreateMatch(ctx, NewMatch(game.VariantDuel))).in(t)
		for side := game.Red; side <= game.Blue; side++ {
			m = must(s.SetSetup(ctx, m.ID, m.Version, side, game.RandomSetup(m.Rules, 7+uint64(side)), storage.SetupConfirmed, T0.Add(time.Minute))).in(t)
		}
		m = deliverInvite(t, s, m.ID, game.Red, T0.Add(time.Hour))
		if m.Phase != storage.PhasePlaying || !m.ClockPending || m.ClockRunning() {
			t.Fatalf("Red's invite came after the game began: %s, pending %v, deadline %v: Red's clock started without its board", m.Phase, m.ClockPending, m.Deadline.Sub(T0))
		}
		told := T0.Add(3 * time.Hour)
		Deliver(t, s, told) // Blue's invite, moot too, and then the first boards
		if got := must(s.Match(ctx, m.ID)).in(t); got.ClockPending || !got.Deadline.Equal(told.Add(day)) {
			t.Errorf("Red's first board arrived: pending %v, deadline %v, want %v", got.ClockPending, got.Deadline.Sub(T0), told.Add(day).Sub(T0))
		}
	})

	t.Run("a vacation taken while the invites are on their way", func(t *testing.T) {
		m := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
		m = must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacation, Side: game.Blue, Days: 3, At: T0.Add(time.Hour)})).in(t)
		setupWaits(t, s, m, T0.Add(time.Hour))
		if d, ok := storage.MatchTimer(m); !ok || d.Kind != storage.DeadlineVacation {
			t.Errorf("the timer of a vacation in a waiting set-up: %+v", d)
		}
		back := T0.Add(time.Hour + 3*day)
		deliverInvite(t, s, m.ID, game.Red, T0.Add(2*time.Hour))
		m = deliverInvite(t, s, m.ID, game.Blue, T0.Add(2*time.Hour))
		if m.ClockPending || !m.Deadline.Equal(back.Add(day)) {
			t.Fatalf("the invites in during Blue's vacation: pending %v, deadline %v, want a day after it, %v", m.ClockPending, m.Deadline.Sub(T0), back.Add(day).Sub(T0))
		}
		Deliver(t, s, T0.Add(2*time.Hour))
		must(s.Abandon(ctx, m.ID, 0, back.Add(day), storage.CallOffLateSetup)).in(t)
		Deliver(t, s, back.Add(day))
	})

	t.Run("an accepted challenge and a seek's match wait too", func(t *testing.T) {
		c := must(s.CreateChallenge(ctx, NewChallenge(T0, T0.Add(time.Hour)), storage.MemberLimits{})).in(t)
		accepted := must(s.AcceptChallenge(ctx, c.ID, storage.Player{UserID: "1002", Name: "Bob"}, game.Red, T0)).in(t)
		setupWaits(t, s, accepted, T0)
		must(s.PlaceSeek(ctx, NewSeek("1101", T0), game.Red)).in(t)
		out := must(s.PlaceSeek(ctx, NewSeek("1102", T0), game.Red)).in(t)
		if out.Match == nil {
			t.Fatal("two seeks made no match")
		}
		setupWaits(t, s, out.Match, T0)
		if got, want := owed(t, s, T0.Add(time.Minute)), []string{"created>red+clock", "created>blue+clock", "created>red+clock", "created>blue+clock"}; !sameWords(got, want) {
			t.Errorf("the invites: %v, want %v", got, want)
		}
		for _, id := range []storage.MatchID{accepted.ID, out.Match.ID} {
			m := must(s.Match(ctx, id)).in(t)
			if m.ClockPending || !m.Deadline.Equal(T0.Add(time.Minute).Add(m.MoveTime)) {
				t.Errorf("match %d once its invites arrived: pending %v, deadline %v, want %v", id, m.ClockPending, m.Deadline.Sub(T0), T0.Add(time.Minute).Add(m.MoveTime).Sub(T0))
			}
		}
	})
}
