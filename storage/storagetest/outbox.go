package storagetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// owed lists what the outbox holds now (every queue, in order), as
// "event>audience" words, draining it with NoticeDone at at.
func owed(t *testing.T, s storage.Store, at time.Time) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for {
		due := must(s.DueNotices(ctx, at, 0)).in(t)
		if len(due) == 0 {
			return out
		}
		for _, n := range due {
			w := n.Event.String() + ">" + n.To.String()
			if n.StartsClock {
				w += "+clock"
			}
			out = append(out, w)
			if err := s.NoticeDone(ctx, n.ID, at); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// sameWords compares two lists of notice words as sets with counts: queues
// drain in order, but different queues may interleave.
func sameWords(got, want []string) bool {
	count := map[string]int{}
	for _, w := range got {
		count[w]++
	}
	for _, w := range want {
		count[w]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

// testNoticesOwed: every change records what it owes, in its own transaction.
func testNoticesOwed(t *testing.T, s storage.Store) {
	ctx := context.Background()
	t1 := T0.Add(time.Hour)
	tests := []struct {
		name   string
		change func(t *testing.T, m *storage.Match) *storage.Match
		want   []string
	}{
		{"a move tells everyone and starts the clock of the side to move", func(t *testing.T, m *storage.Match) *storage.Match {
			return Play(t, noDeliver{s}, m, 1, rand.New(rand.NewPCG(1, 2)))
		}, []string{"move>red", "move>blue+clock", "move>public"}},
		{"a draw offer asks the opponent", func(t *testing.T, m *storage.Match) *storage.Match {
			return must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Red, At: t1})).in(t)
		}, []string{"draw-offered>blue"}},
		{"a resignation ends the game for everyone, then the finale", func(t *testing.T, m *storage.Match) *storage.Match {
			return must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: t1})).in(t)
		}, []string{"ended>red", "ended>blue", "ended>public", "finale>public"}},
		{"an agreed draw likewise", func(t *testing.T, m *storage.Match) *storage.Match {
			m = must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Red, At: t1})).in(t)
			return must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActAcceptDraw, Side: game.Blue, At: t1})).in(t)
		}, []string{"draw-offered>blue", "ended>red", "ended>blue", "ended>public", "finale>public", "offer-settled>blue"}},
		{"a declined offer tells the offerer, and the DM that asked is edited", func(t *testing.T, m *storage.Match) *storage.Match {
			m = must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Red, At: t1})).in(t)
			return must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActDeclineDraw, Side: game.Blue, At: t1})).in(t)
		}, []string{"draw-offered>blue", "draw-declined>red", "offer-settled>blue"}},
		{"an offer taken back tells nobody: the DM that asked is edited", func(t *testing.T, m *storage.Match) *storage.Match {
			m = must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Red, At: t1})).in(t)
			return must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActDeclineDraw, Side: game.Red, At: t1})).in(t)
		}, []string{"draw-offered>blue", "offer-settled>blue"}},
		{"a resignation with an offer standing ends it too", func(t *testing.T, m *storage.Match) *storage.Match {
			m = must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Blue, At: t1})).in(t)
			return must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: t1})).in(t)
		}, []string{"draw-offered>red", "offer-settled>red", "ended>red", "ended>blue", "ended>public", "finale>public"}},
		{"a time-out ends the game", func(t *testing.T, m *storage.Match) *storage.Match {
			return must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActTimeOut, At: m.Deadline})).in(t)
		}, []string{"ended>red", "ended>blue", "ended>public", "finale>public"}},
		{"a reminder goes to the side to move", func(t *testing.T, m *storage.Match) *storage.Match {
			return must(s.MarkReminded(ctx, m.ID, m.Version, m.RemindAt)).in(t)
		}, []string{"reminder>red"}},
		{"an abandoned match tells everyone", func(t *testing.T, m *storage.Match) *storage.Match {
			return must(s.Abandon(ctx, m.ID, m.Version, t1, storage.CallOffModerator)).in(t)
		}, []string{"abandoned>red", "abandoned>blue", "abandoned>public"}},
		{"a change of names owes nothing", func(t *testing.T, m *storage.Match) *storage.Match {
			return must(s.UpdateMatch(ctx, m.ID, m.Version, func(m *storage.Match) error { m.Players[game.Red].Name = "Ann B."; return nil })).in(t)
		}, nil},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := Started(t, s, NewMatch(game.VariantClassic), uint64(100+i))
			if got := owed(t, s, T0); len(got) != 0 {
				t.Fatalf("Started left notices: %v", got)
			}
			changed := tc.change(t, m)
			if got := owed(t, s, T0.Add(48*time.Hour)); !sameWords(got, tc.want) {
				t.Errorf("owed %v, want %v", got, tc.want)
			}
			// Each notice names the version its change produced: the last
			// change's are the match as returned, so a reader holding it
			// need not load it again.
			due, err := s.DueNotices(ctx, T0.Add(48*time.Hour), 100)
			if err != nil {
				t.Fatal(err)
			}
			newest := uint64(0)
			for _, n := range due {
				if n.Version == 0 || n.Version > changed.Version {
					t.Errorf("%s notice of version %d; the match is at %d", n.Event, n.Version, changed.Version)
				}
				newest = max(newest, n.Version)
			}
			if len(due) > 0 && newest != changed.Version {
				t.Errorf("the last change's notices name version %d, want %d", newest, changed.Version)
			}
		})
	}

	t.Run("a new match invites both players; the start tells everyone", func(t *testing.T) {
		m := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
		if got, want := owed(t, s, T0), []string{"created>red+clock", "created>blue+clock"}; !sameWords(got, want) {
			t.Errorf("created: owed %v, want %v", got, want)
		}
		m = must(s.SetSetup(ctx, m.ID, m.Version, game.Red, game.RandomSetup(m.Rules, 1), storage.SetupConfirmed, T0)).in(t)
		if got := owed(t, s, T0); len(got) != 0 {
			t.Errorf("one set-up confirmed: owed %v, want nothing", got)
		}
		remindAt := m.RemindAt
		m = must(s.MarkReminded(ctx, m.ID, m.Version, remindAt)).in(t)
		if got, want := owed(t, s, remindAt), []string{"reminder>blue"}; !sameWords(got, want) {
			t.Errorf("set-up reminder: owed %v, want %v (only the player still placing pieces)", got, want)
		}
		must(s.SetSetup(ctx, m.ID, m.Version, game.Blue, game.RandomSetup(m.Rules, 2), storage.SetupConfirmed, T0)).in(t)
		if got, want := owed(t, s, T0), []string{"started>red+clock", "started>blue", "started>public"}; !sameWords(got, want) {
			t.Errorf("started: owed %v, want %v", got, want)
		}
	})
	t.Run("a game played to its end owes each move and the finale", func(t *testing.T) {
		m := Started(t, s, NewMatch(game.VariantBarrage), 5)
		r := rand.New(rand.NewPCG(5, 5))
		moves := 0
		for m.Phase == storage.PhasePlaying && moves < 2000 {
			m = Play(t, noDeliver{s}, m, 1, r)
			moves++
			words := owed(t, s, lastTime(m))
			want := []string{"move>red", "move>blue", "move>public"}
			if m.Phase == storage.PhasePlaying {
				want[m.ToMove()] += "+clock"
			} else {
				want = append(want, "finale>public")
			}
			if !sameWords(words, want) {
				t.Fatalf("move %d: owed %v, want %v", moves, words, want)
			}
		}
		if m.Phase != storage.PhaseFinished {
			t.Fatalf("the game did not end in %d moves", moves)
		}
	})
	t.Run("an expired challenge", func(t *testing.T) {
		c := must(s.CreateChallenge(ctx, NewChallenge(T0, T0.Add(time.Hour)), storage.MemberLimits{})).in(t)
		_, err := s.ExpireChallenge(ctx, c.ID, T0.Add(time.Minute))
		wantErr(t, "ExpireChallenge before its time", err, storage.ErrNotDue)
		must(s.ExpireChallenge(ctx, c.ID, T0.Add(time.Hour))).in(t)
		_, err = s.Challenge(ctx, c.ID)
		wantErr(t, "Challenge after it expired", err, storage.ErrNotFound)
		due := must(s.DueNotices(ctx, T0.Add(time.Hour), 0)).in(t)
		if len(due) != 1 || due[0].Event != storage.EventChallengeExpired || due[0].To != storage.AudiencePublic ||
			due[0].Challenge == nil || due[0].Challenge.ID != c.ID || due[0].Challenge.MessageID != "msg1" || due[0].Challenge.Challenger != c.Challenger {
			t.Fatalf("after expiry: %+v", due)
		}
		must(0, s.NoticeDone(ctx, due[0].ID, T0.Add(time.Hour))).in(t)
	})
}

// noDeliver is a store whose outbox is never drained by the suite's helpers.
type noDeliver struct{ storage.Store }

func (noDeliver) DueNotices(context.Context, time.Time, int, ...uint64) ([]storage.Notice, error) {
	return nil, nil
}

// testOutboxOrder: notices to one audience of one match go out one at a time,
// in order; a retried one holds back its own queue only.
func testOutboxOrder(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 7)
	m = Play(t, noDeliver{s}, m, 2, rand.New(rand.NewPCG(7, 7)))
	at := lastTime(m)
	heads := must(s.DueNotices(ctx, at, 0)).in(t)
	if len(heads) != 3 {
		t.Fatalf("%d notices due after two moves, want the 3 queue heads: %+v", len(heads), heads)
	}
	for _, n := range heads {
		if n.Event != storage.EventMove || n.Log != 1 {
			t.Fatalf("head %+v, want move 1's notice", n)
		}
	}
	// Heads being delivered already are skipped, and not counted in the
	// limit; what waits behind them in their queues stays there.
	if got := must(s.DueNotices(ctx, at, 1, heads[0].ID)).in(t); len(got) != 1 || got[0].ID != heads[1].ID {
		t.Errorf("skipping the first head, limit 1: %+v, want the second head", got)
	}
	if got := must(s.DueNotices(ctx, at, 0, heads[0].ID, heads[2].ID)).in(t); len(got) != 1 || got[0].ID != heads[1].ID {
		t.Errorf("skipping the first and last heads: %+v, want the second head alone", got)
	}
	red := heads[storage.AudienceRed]
	if red.To != storage.AudienceRed {
		t.Fatalf("heads not in recording order: %+v", heads)
	}
	// Red's first notice fails: it waits a minute, and Red's second waits behind it.
	retried := must(s.NoticeRetry(ctx, red.ID, at.Add(time.Minute))).in(t)
	if retried.Attempts != 1 || !retried.NextTry.Equal(at.Add(time.Minute)) {
		t.Errorf("after a retry: %+v", retried)
	}
	if next, ok, err := s.NextNotice(ctx); err != nil || !ok || !next.Equal(heads[storage.AudienceBlue].NextTry) {
		t.Errorf("NextNotice %v %v %v, want %v (Blue's queue)", next, ok, err, heads[storage.AudienceBlue].NextTry)
	}
	for _, n := range must(s.DueNotices(ctx, at, 0)).in(t) {
		if n.To == storage.AudienceRed {
			t.Errorf("Red's queue is due while its head waits: %+v", n)
		}
		must(0, s.NoticeDone(ctx, n.ID, at)).in(t)
	}
	// Blue's and the public's second notices are due now; Red's are not.
	for _, n := range must(s.DueNotices(ctx, at, 0)).in(t) {
		if n.To == storage.AudienceRed || n.Log != 2 {
			t.Errorf("due: %+v, want move 2's notices to Blue and the public", n)
		}
		must(0, s.NoticeDone(ctx, n.ID, at)).in(t)
	}
	later := at.Add(time.Minute)
	due := must(s.DueNotices(ctx, later, 0)).in(t)
	if len(due) != 1 || due[0].ID != red.ID {
		t.Fatalf("a minute later: %+v, want Red's first notice again", due)
	}
	// Parts: a notice sent in two messages remembers the first.
	must(0, s.NoticeProgress(ctx, red.ID, 1)).in(t)
	if got := must(s.DueNotices(ctx, later, 0)).in(t); len(got) != 1 || got[0].Sent != 1 {
		t.Fatalf("after progress: %+v", got)
	}
	if err := s.NoticeProgress(ctx, red.ID, 0); err == nil {
		t.Error("progress went backwards")
	}
	must(0, s.NoticeDone(ctx, red.ID, later)).in(t)
	due = must(s.DueNotices(ctx, later, 0)).in(t)
	if len(due) != 1 || due[0].To != storage.AudienceRed || due[0].Log != 2 {
		t.Fatalf("after Red's first: %+v, want Red's second", due)
	}
	// A follow-up recorded with NoticeDone, in the same transaction.
	fallback := storage.Notice{Match: m.ID, Event: storage.EventFallback, To: storage.AudiencePublic, At: later, Reason: "dm-closed"}
	must(0, s.NoticeDone(ctx, due[0].ID, later, fallback)).in(t)
	due = must(s.DueNotices(ctx, later, 0)).in(t)
	if len(due) != 1 || due[0].Event != storage.EventFallback || due[0].Reason != "dm-closed" {
		t.Fatalf("after the fallback: %+v", due)
	}
	must(0, s.NoticeDone(ctx, due[0].ID, later)).in(t)
	if _, ok, _ := s.NextNotice(ctx); ok {
		t.Error("the outbox is not empty after every notice is done")
	}
	if err := s.NoticeDone(ctx, due[0].ID, later); err == nil {
		t.Error("a notice was done twice")
	}
	// Notices are checked like everything else.
	bad := storage.Notice{Match: m.ID, To: storage.AudiencePublic, At: later}
	if err := s.NoticeDone(ctx, red.ID, later, bad); err == nil {
		t.Error("a follow-up without an event was recorded")
	}
}

// testCountNotices: CountNotices counts every notice owed, in every queue,
// due or not: not only the queues' oldest that DueNotices lists.
func testCountNotices(t *testing.T, s storage.Store) {
	ctx := context.Background()
	count := func(want int, when string) {
		t.Helper()
		if got := must(s.CountNotices(ctx)).in(t); got != want {
			t.Errorf("%s: CountNotices %d, want %d", when, got, want)
		}
	}
	count(0, "an empty outbox")
	must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	waiting := must(s.CountNotices(ctx)).in(t)
	if invites := owed(t, s, T0); waiting == 0 || waiting != len(invites) {
		t.Errorf("a new match: CountNotices %d, and its notices were %v", waiting, invites)
	}
	count(0, "once they are done")
	m := Started(t, s, NewMatch(game.VariantClassic), 3)
	count(0, "a match started, its notices done")
	m = Play(t, noDeliver{s}, m, 2, rand.New(rand.NewPCG(3, 3)))
	at := lastTime(m)
	heads := must(s.DueNotices(ctx, at, 0)).in(t)
	if len(heads) != 3 {
		t.Fatalf("%d notices due after two moves, want the 3 queue heads: %+v", len(heads), heads)
	}
	count(6, "two moves, three queues of two")
	// A notice that failed and waits still counts, as do those behind it.
	must(s.NoticeRetry(ctx, heads[0].ID, at.Add(time.Hour))).in(t)
	must(0, s.NoticeProgress(ctx, heads[1].ID, 1)).in(t)
	count(6, "after a retry and a notice's first part")
	must(0, s.NoticeDone(ctx, heads[1].ID, at)).in(t)
	count(5, "after one is done")
	fallback := storage.Notice{Match: m.ID, Event: storage.EventFallback, To: storage.AudiencePublic, At: at, Reason: "dm-closed"}
	must(0, s.NoticeDone(ctx, heads[2].ID, at, fallback)).in(t)
	count(5, "after one is done with a follow-up")
	owed(t, s, at.Add(time.Hour))
	count(0, "once every notice is done")
}

// testClockWaitsForTheNotice: the side to move's time does not run until it
// has been told it is their turn.
func testClockWaitsForTheNotice(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 9)
	m = Play(t, noDeliver{s}, m, 1, rand.New(rand.NewPCG(9, 9)))
	moved := lastTime(m)
	if !m.ClockPending {
		t.Fatal("after a move the clock of the side to move runs before it was told")
	}
	if d, ok, _ := s.NextDeadline(ctx); ok {
		t.Errorf("a timer while the clock waits: %+v", d)
	}
	tooLate := moved.Add(3 * m.MoveTime)
	_, err := s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActTimeOut, At: tooLate})
	wantErr(t, "time-out while the notice waits", err, storage.ErrNotDue)
	_, err = s.MarkReminded(ctx, m.ID, 0, tooLate)
	wantErr(t, "reminder while the notice waits", err, storage.ErrNotDue)

	// Blue is told two hours later (Discord was down): Blue's day starts then.
	told := moved.Add(2 * time.Hour)
	var clock *storage.Notice
	for _, n := range must(s.DueNotices(ctx, told, 0)).in(t) {
		if n.StartsClock {
			clock = &n
			continue
		}
		must(0, s.NoticeDone(ctx, n.ID, told)).in(t)
	}
	if clock == nil || clock.To != storage.AudienceBlue {
		t.Fatalf("no clock notice to Blue: %+v", clock)
	}
	if got := must(s.Match(ctx, m.ID)).in(t); !got.ClockPending {
		t.Error("other notices started Blue's clock")
	}
	// What the store's own rules say the clock's start gives, a reader that
	// keeps the match works out without a load; the store must agree.
	pending := must(s.Match(ctx, m.ID)).in(t)
	foreseen, ok := s.Changes().StartClock(pending, clock, told)
	if !ok {
		t.Fatal("the store's rules start no clock with Blue's notice")
	}
	// The bot tells Blue, in the same transaction, when their time started.
	late := storage.Notice{Match: m.ID, Event: storage.EventLateBoard, To: storage.AudienceBlue, Log: clock.Log, At: told}
	must(0, s.NoticeDone(ctx, clock.ID, told, late)).in(t)
	var lateTold []storage.Notice
	for _, n := range must(s.DueNotices(ctx, told, 0)).in(t) {
		if n.Event == storage.EventLateBoard {
			lateTold = append(lateTold, n)
		}
	}
	if got := must(s.Match(ctx, m.ID)).in(t); !reflect.DeepEqual(got, foreseen) {
		t.Errorf("the clock's start as stored:\n%+v\nas the store's Changes foresaw it:\n%+v", got, foreseen)
	}
	if len(lateTold) != 1 || lateTold[0].To != storage.AudienceBlue || !lateTold[0].At.Equal(told) || lateTold[0].Log != clock.Log {
		t.Errorf("the note of when Blue's time started: %+v", lateTold)
	}
	for _, n := range lateTold {
		must(0, s.NoticeDone(ctx, n.ID, told)).in(t)
	}
	got := must(s.Match(ctx, m.ID)).in(t)
	if got.ClockPending || !got.Deadline.Equal(told.Add(m.MoveTime)) {
		t.Errorf("after Blue was told: pending %v, deadline %v, want %v", got.ClockPending, got.Deadline, told.Add(m.MoveTime))
	}
	if got.Version != m.Version {
		t.Errorf("starting the clock changed the version from %d to %d: the menus Blue holds would go stale", m.Version, got.Version)
	}
	if d, ok, _ := s.NextDeadline(ctx); !ok || d.ID != uint64(m.ID) {
		t.Errorf("no timer once the clock runs: %+v", d)
	}
	if _, err := s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActTimeOut, At: told.Add(m.MoveTime - time.Second)}); err == nil {
		t.Error("Blue lost on time before a full move time after being told")
	}

	// A clock notice delivered after its turn has passed changes nothing.
	m = must(s.Match(ctx, m.ID)).in(t)
	m = Play(t, noDeliver{s}, m, 2, rand.New(rand.NewPCG(10, 10)))
	now := lastTime(m)
	heads := must(s.DueNotices(ctx, now, 0)).in(t)
	for _, n := range heads {
		if n.Log != len(m.Log)-1 {
			t.Fatalf("heads %s, want the notices of the move before the last", describeNotices(heads))
		}
		must(0, s.NoticeDone(ctx, n.ID, now)).in(t)
	}
	if got := must(s.Match(ctx, m.ID)).in(t); !got.ClockPending {
		t.Errorf("a stale clock notice (%s) started the clock of a later turn", describeNotices(heads))
	}
	Deliver(t, s, now)
	if got := must(s.Match(ctx, m.ID)).in(t); got.ClockPending || !got.Deadline.Equal(now.Add(m.MoveTime)) {
		t.Errorf("the last move's notice did not start the clock: %+v", got.Deadline)
	}
}

// testClockWaitsThroughOtherActions: a draw offer made while the side to
// move has not yet been told it is their turn neither starts their clock
// nor stops the notice that will.
func testClockWaitsThroughOtherActions(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 9)
	m = Play(t, noDeliver{s}, m, 1, rand.New(rand.NewPCG(9, 9)))
	moved := lastTime(m)
	offered := must(s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Red, At: moved.Add(time.Second)})).in(t)
	if !offered.ClockPending {
		t.Fatal("Red's draw offer started Blue's clock before Blue was told of Red's move")
	}
	if d, ok, _ := s.NextDeadline(ctx); ok {
		t.Errorf("a timer while Blue's clock waits: %+v", d)
	}
	told := moved.Add(3 * time.Hour)
	Deliver(t, s, told)
	got := must(s.Match(ctx, m.ID)).in(t)
	if got.ClockPending || !got.Deadline.Equal(told.Add(m.MoveTime)) {
		t.Errorf("after Blue was told: pending %v, deadline %v after the move, want %v", got.ClockPending, got.Deadline.Sub(moved), told.Add(m.MoveTime).Sub(moved))
	}
}

// testNothingAfterTheDeadline: once the time of the side to move ran out,
// what either player does is refused (ErrTimeUp) until the time-out is
// recorded, which still is; a second before, it counts.
func testNothingAfterTheDeadline(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 41)
	side, mv := RandomMove(t, m, rand.New(rand.NewPCG(41, 41)))
	late := m.Deadline
	m = must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActOfferDraw, Side: game.Blue, At: late.Add(-time.Second)})).in(t)
	if _, _, err := s.ApplyMove(ctx, m.ID, 0, side, mv, late); !errors.Is(err, storage.ErrTimeUp) {
		t.Errorf("a move at the deadline: %v, want ErrTimeUp", err)
	}
	for _, a := range []storage.Action{
		{Kind: storage.ActVacation, Side: game.Red, Days: 3},
		{Kind: storage.ActGiveTime, Side: game.Blue},
		{Kind: storage.ActAcceptDraw, Side: game.Red},
		{Kind: storage.ActResign, Side: game.Blue},
	} {
		a.At = late.Add(time.Minute)
		if _, err := s.Act(ctx, m.ID, 0, a); !errors.Is(err, storage.ErrTimeUp) {
			t.Errorf("%s a minute after the deadline: %v, want ErrTimeUp", a, err)
		}
	}
	if got := must(s.Match(ctx, m.ID)).in(t); got.Version != m.Version {
		t.Errorf("the refusals changed the match: version %d, want %d", got.Version, m.Version)
	}
	ended := must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActTimeOut, At: late.Add(time.Minute)})).in(t)
	if ended.Result.Outcome != game.BlueWon || ended.Result.Method != game.TimeForfeit {
		t.Errorf("the time-out after the refusals: %v, want Blue on time", ended.Result)
	}
}

// testGiftsOfTime: a player gives the opponent a day, three times a match at
// most: to the deadline of a turn under way, or to the next turn when the
// opponent's clock does not run. The opponent is told; the gifts stay in the
// log and replay.
func testGiftsOfTime(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 11)
	Deliver(t, s, T0)
	day := 24 * time.Hour
	give := func(side game.Side, at time.Time) (*storage.Match, error) {
		t.Helper()
		return s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActGiveTime, Side: side, At: at})
	}
	// Red's turn is under way: Blue's gift moves Red's deadline a day on.
	m = must(give(game.Blue, T0.Add(time.Hour))).in(t)
	if want := T0.Add(2 * day); !m.Deadline.Equal(want) || m.ClockPending {
		t.Errorf("after Blue's gift: deadline %v, want %v", m.Deadline.Sub(T0), want.Sub(T0))
	}
	told := must(s.DueNotices(ctx, T0.Add(time.Hour), 0)).in(t)
	if len(told) != 1 || told[0].Event != storage.EventTimeGiven || told[0].To != storage.AudienceRed {
		t.Fatalf("a gift owes %s, want time-given>red", describeNotices(told))
	}
	Deliver(t, s, T0.Add(time.Hour))

	// Red moves; before Blue is told, Red gives a day: Blue's turn, when it
	// starts, is two days.
	m = Play(t, noDeliver{s}, must(s.Match(ctx, m.ID)).in(t), 1, rand.New(rand.NewPCG(11, 11)))
	moved := lastTime(m)
	m = must(give(game.Red, moved.Add(time.Second))).in(t)
	if !m.ClockPending {
		t.Fatal("a gift started the clock of a player not yet told of the turn")
	}
	toldAt := moved.Add(time.Hour)
	Deliver(t, s, toldAt)
	m = must(s.Match(ctx, m.ID)).in(t)
	if want := toldAt.Add(2 * day); !m.Deadline.Equal(want) {
		t.Errorf("Blue's turn with Red's gift: deadline %v after being told, want %v", m.Deadline.Sub(toldAt), 2*day)
	}
	// Gifts are used up by the turn they were given for.
	m = Play(t, s, m, 2, rand.New(rand.NewPCG(12, 12)))
	if m.Phase != storage.PhasePlaying {
		t.Fatalf("the seeded game ended early (%v): pick another seed", m.Result)
	}
	if got := m.TurnTime(int(m.ToMove())); got != m.MoveTime {
		t.Errorf("a later turn of %s has %v, want the move time %v", m.ToMove(), got, m.MoveTime)
	}

	// Three gifts a player at most; the fourth is refused and changes nothing.
	at := lastTime(m)
	for k := 2; k <= storage.MaxGifts; k++ {
		m = must(give(game.Red, at)).in(t)
	}
	if got := m.GiftsBy(game.Red); got != storage.MaxGifts {
		t.Fatalf("Red gave %d times, want %d", got, storage.MaxGifts)
	}
	_, err := give(game.Red, at)
	wantErr(t, "a fourth gift", err, storage.ErrNoGiftsLeft)
	reloaded := must(s.Match(ctx, m.ID)).in(t)
	if reloaded.GiftsBy(game.Red) != storage.MaxGifts || reloaded.GiftsBy(game.Blue) != 1 || reloaded.Version != m.Version {
		t.Errorf("reloaded: Red %d gifts, Blue %d, version %d (want %d, 1, %d)", reloaded.GiftsBy(game.Red), reloaded.GiftsBy(game.Blue), reloaded.Version, storage.MaxGifts, m.Version)
	}
	CheckReplay(t, reloaded)
}

// testPauseByAgreement: Red proposes a pause of three days, Blue accepts.
// Red's deadline and reminders move on by the pause, no time-out is due
// while it lasts, the end of the pause is a timer of its own, and every
// step is in the log and told. A pause agreed while a clock waits for its
// notice is added when it starts.
func testPauseByAgreement(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 13)
	Deliver(t, s, T0)
	day := 24 * time.Hour
	act := func(kind storage.ActionKind, side game.Side, days int, at time.Time) (*storage.Match, error) {
		t.Helper()
		return s.Act(ctx, m.ID, 0, storage.Action{Kind: kind, Side: side, Days: days, At: at})
	}
	for _, bad := range []struct {
		name string
		kind storage.ActionKind
		days int
		err  error
	}{
		{"a pause of 15 days", storage.ActOfferPause, 15, storage.ErrInvalid},
		{"an answer with no proposal", storage.ActAcceptPause, 0, storage.ErrNoPauseOffer},
	} {
		_, err := act(bad.kind, game.Red, bad.days, T0)
		wantErr(t, bad.name, err, bad.err)
	}
	must(act(storage.ActOfferPause, game.Red, 3, T0.Add(time.Hour))).in(t)
	_, err := act(storage.ActAcceptPause, game.Red, 0, T0.Add(time.Hour))
	wantErr(t, "accepting one's own proposal", err, storage.ErrNoPauseOffer)
	if got := dueEvents(t, s, T0.Add(time.Hour)); got != "pause-offered>blue" {
		t.Errorf("a proposal owes %s, want pause-offered>blue", got)
	}
	Deliver(t, s, T0.Add(time.Hour))

	agreed := T0.Add(2 * time.Hour)
	m = must(act(storage.ActAcceptPause, game.Blue, 0, agreed)).in(t)
	until := agreed.Add(3 * day)
	if !m.PausedUntil().Equal(until) || !m.Deadline.Equal(T0.Add(4*day)) {
		t.Errorf("paused until %v, deadline %v; want %v and %v", m.PausedUntil().Sub(T0), m.Deadline.Sub(T0), until.Sub(T0), 4*day)
	}
	if got := dueEvents(t, s, agreed); got != "paused>red paused>blue paused>public" {
		t.Errorf("the pause owes %s", got)
	}
	Deliver(t, s, agreed)
	if d, ok, _ := s.NextDeadline(ctx); !ok || d.Kind != storage.DeadlineResume || !d.At.Equal(until) {
		t.Errorf("the next timer while paused: %+v, want the resumption at %v", d, until.Sub(T0))
	}
	_, err = s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActTimeOut, At: T0.Add(2 * day)})
	wantErr(t, "a time-out during the pause", err, storage.ErrNotDue)
	_, err = act(storage.ActResume, 0, 0, until.Add(-time.Second))
	wantErr(t, "resuming early", err, storage.ErrNotDue)
	m = must(act(storage.ActResume, 0, 0, until)).in(t)
	if !m.PausedUntil().IsZero() || !m.Deadline.Equal(T0.Add(4*day)) {
		t.Errorf("after the pause: paused until %v, deadline %v", m.PausedUntil(), m.Deadline.Sub(T0))
	}
	if got := dueEvents(t, s, until); got != "resumed>red resumed>blue resumed>public" {
		t.Errorf("the end of the pause owes %s", got)
	}
	Deliver(t, s, until)
	if d, ok, _ := s.NextDeadline(ctx); !ok || d.Kind != storage.DeadlineReminder || !d.At.After(until) || !d.At.Before(m.Deadline) {
		t.Errorf("after the pause the next timer is %+v, want Red's reminder before the moved deadline", d)
	}

	// Red moves; before Blue is told, they agree on two days: Blue's turn,
	// when it starts, is a day plus what is left of the pause.
	m = Play(t, noDeliver{s}, must(s.Match(ctx, m.ID)).in(t), 1, rand.New(rand.NewPCG(13, 13)))
	moved := lastTime(m)
	must(act(storage.ActOfferPause, game.Red, 2, moved)).in(t)
	m = must(act(storage.ActAcceptPause, game.Blue, 0, moved)).in(t)
	if !m.ClockPending {
		t.Fatal("agreeing on a pause started the clock of a player not yet told of the turn")
	}
	told := moved.Add(time.Hour)
	Deliver(t, s, told)
	m = must(s.Match(ctx, m.ID)).in(t)
	if want := moved.Add(3 * day); !m.Deadline.Equal(want) {
		t.Errorf("Blue's turn after the pause: deadline %v after the move, want %v", m.Deadline.Sub(moved), 3*day)
	}

	// Blue moves anyway during the pause: the pause goes on, and Red's turn
	// waits for its end.
	m = Play(t, noDeliver{s}, m, 1, rand.New(rand.NewPCG(13, 14)))
	Deliver(t, s, lastTime(m).Add(time.Minute))
	m = must(s.Match(ctx, m.ID)).in(t)
	if again := moved.Add(2 * day); !m.PausedUntil().Equal(again) || !m.Deadline.Equal(again.Add(m.MoveTime)) {
		t.Errorf("after a move during the pause: paused until %v, Red's deadline %v after the move; want %v and %v",
			m.PausedUntil().Sub(moved), m.Deadline.Sub(moved), 2*day, 2*day+m.MoveTime)
	}
	if d, ok, _ := s.NextDeadline(ctx); !ok || d.Kind != storage.DeadlineResume || !d.At.Equal(moved.Add(2*day)) {
		t.Errorf("the next timer after a move during the pause: %+v, want its end", d)
	}
	reloaded := must(s.Match(ctx, m.ID)).in(t)
	var pauses []string
	for _, a := range reloaded.Log {
		if a.Kind != storage.ActMove {
			pauses = append(pauses, a.String())
		}
	}
	if got, want := strings.Join(pauses, " "), "pause:R:3 pause-accept:B:3 resume:R pause:R:2 pause-accept:B:2"; got != want {
		t.Errorf("the log keeps %q, want %q", got, want)
	}
	CheckReplay(t, reloaded)

	// A game on the clock does not pause.
	fast := NewMatch(game.VariantClassic)
	fast.Clock, fast.Left = storage.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}, [2]time.Duration{5 * time.Minute, 5 * time.Minute}
	fast = Started(t, s, fast, 14)
	_, err = s.Act(ctx, fast.ID, 0, storage.Action{Kind: storage.ActOfferPause, Side: game.Red, Days: 1, At: T0})
	wantErr(t, "pausing a game on the clock", err, storage.ErrNotCorrespondence)
}

// testPauseOffersLimited: a player proposes a pause at most
// storage.MaxPauseOffers times a match, each proposal made again for other
// days or declined counting, so that the opponent is not asked without end;
// the opponent keeps their own proposals.
func testPauseOffersLimited(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 15)
	at := T0
	act := func(kind storage.ActionKind, side game.Side, days int) (*storage.Match, error) {
		t.Helper()
		at = at.Add(time.Minute)
		return s.Act(ctx, m.ID, 0, storage.Action{Kind: kind, Side: side, Days: days, At: at})
	}
	must(act(storage.ActOfferPause, game.Red, 3)).in(t)
	must(act(storage.ActOfferPause, game.Red, 2)).in(t) // made again for other days
	must(act(storage.ActDeclinePause, game.Blue, 0)).in(t)
	m = must(act(storage.ActOfferPause, game.Red, 1)).in(t)
	if got := m.PauseOffersBy(game.Red); got != storage.MaxPauseOffers {
		t.Fatalf("Red proposed %d times, want %d", got, storage.MaxPauseOffers)
	}
	must(act(storage.ActDeclinePause, game.Red, 0)).in(t) // withdrawn
	_, err := act(storage.ActOfferPause, game.Red, 1)
	wantErr(t, "a fourth proposal", err, storage.ErrNoPauseOffersLeft)
	must(act(storage.ActOfferPause, game.Blue, 2)).in(t)
	m = must(act(storage.ActAcceptPause, game.Red, 0)).in(t)
	if m.PausedUntil().IsZero() {
		t.Error("Red could not accept Blue's proposal after using up its own")
	}
	if reloaded := must(s.Match(ctx, m.ID)).in(t); reloaded.PauseOffersBy(game.Red) != storage.MaxPauseOffers || reloaded.PauseOffersBy(game.Blue) != 1 {
		t.Errorf("reloaded: Red proposed %d times, Blue %d; want %d and 1", reloaded.PauseOffersBy(game.Red), reloaded.PauseOffersBy(game.Blue), storage.MaxPauseOffers)
	}
}

// testVacation: a player's vacations are kept with their settings, the
// server's allowance with its settings, and in a match a vacation moves the
// deadline of its player's turn on, its end is a timer, an early end gives
// the days not taken back, and a turn that starts during a vacation starts
// after it.
func testVacation(t *testing.T, s storage.Store) {
	ctx := context.Background()
	day := 24 * time.Hour
	must(s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error { return p.StartVacation(T0, 5) })).in(t)
	p := must(s.Player(ctx, "1001")).in(t)
	if v, on := p.OnVacation(T0.Add(day)); !on || !v.End.Equal(T0.Add(5*day)) || p.VacationDaysUsed(T0) != 5 {
		t.Errorf("a vacation of 5 days read back as %+v (on %v), %d days used", p.Vacations, on, p.VacationDaysUsed(T0))
	}
	p = must(s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error {
		if !p.EndVacation(T0.Add(36 * time.Hour)) {
			t.Error("no vacation to end")
		}
		return nil
	})).in(t)
	if _, on := must(s.Player(ctx, "1001")).in(t).OnVacation(T0.Add(2 * day)); on || p.VacationDaysUsed(T0) != 2 {
		t.Errorf("after ending it early: on vacation %v, %d days used, want 2 (each started day)", on, p.VacationDaysUsed(T0))
	}
	// A vacation taken back, having stopped no clock, costs nothing, read
	// back as after a restart.
	must(s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error { return p.StartVacation(T0.Add(3*day), 4) })).in(t)
	must(s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error {
		if !p.CancelVacation(T0.Add(3 * day)) {
			t.Error("no vacation to take back")
		}
		return nil
	})).in(t)
	if p := must(s.Player(ctx, "1001")).in(t); len(p.Vacations) != 1 || p.VacationDaysUsed(T0) != 2 {
		t.Errorf("after taking back a vacation: %+v, %d days used, want the first alone, 2", p.Vacations, p.VacationDaysUsed(T0))
	}
	ten, many := 10, storage.MaxVacationDays+1
	srv := must(s.UpdateServer(ctx, "g1", func(srv *storage.ServerSettings) error { srv.VacationDays = &ten; return nil })).in(t)
	if got := must(s.Server(ctx, "g1")).in(t).VacationAllowance(); got != 10 || srv.VacationAllowance() != 10 {
		t.Errorf("the server's allowance read back as %d", got)
	}
	_, err := s.UpdateServer(ctx, "g1", func(srv *storage.ServerSettings) error { srv.VacationDays = &many; return nil })
	wantErr(t, "an allowance above the most", err, storage.ErrInvalid)

	m := Started(t, s, NewMatch(game.VariantClassic), 15)
	Deliver(t, s, T0)
	act := func(kind storage.ActionKind, side game.Side, days int, at time.Time) *storage.Match {
		t.Helper()
		return must(s.Act(ctx, m.ID, 0, storage.Action{Kind: kind, Side: side, Days: days, At: at})).in(t)
	}
	away := T0.Add(time.Hour)
	m = act(storage.ActVacation, game.Red, 5, away)
	if back := away.Add(5 * day); !m.VacationUntil(game.Red).Equal(back) || !m.Deadline.Equal(T0.Add(6*day)) {
		t.Errorf("Red's vacation until %v, deadline %v; want %v and %v", m.VacationUntil(game.Red).Sub(T0), m.Deadline.Sub(T0), back.Sub(T0), 6*day)
	}
	if got := dueEvents(t, s, away); got != "vacation>blue" {
		t.Errorf("a vacation owes %s, want vacation>blue", got)
	}
	Deliver(t, s, away)
	if d, ok, _ := s.NextDeadline(ctx); !ok || d.Kind != storage.DeadlineVacation || !d.At.Equal(away.Add(5*day)) {
		t.Errorf("the next timer: %+v, want the end of Red's vacation", d)
	}
	_, err = s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 2, At: away})
	wantErr(t, "a second vacation at once", err, storage.ErrInvalid)

	// Back after two days: the three not taken are not kept.
	early := away.Add(2 * day)
	m = act(storage.ActVacationEnd, game.Red, 0, early)
	if !m.VacationUntil(game.Red).IsZero() || !m.Deadline.Equal(T0.Add(3*day)) {
		t.Errorf("after the early return: vacation until %v, deadline %v, want none and %v", m.VacationUntil(game.Red), m.Deadline.Sub(T0), 3*day)
	}
	// Blue is told Red is back; Red, to move, the deadline that came nearer.
	if got := dueEvents(t, s, early); got != "vacation-over>blue vacation-over>red" {
		t.Errorf("the return owes %s, want vacation-over>blue vacation-over>red", got)
	}
	Deliver(t, s, early)

	// Blue leaves while Red is to move: Blue's next turn starts when Blue is back.
	blueAway := early.Add(time.Hour)
	m = act(storage.ActVacation, game.Blue, 3, blueAway)
	if !m.Deadline.Equal(T0.Add(3 * day)) {
		t.Errorf("Blue's vacation moved Red's deadline to %v", m.Deadline.Sub(T0))
	}
	Deliver(t, s, blueAway)
	m = Play(t, noDeliver{s}, m, 1, rand.New(rand.NewPCG(15, 15)))
	told := lastTime(m).Add(time.Hour)
	Deliver(t, s, told)
	m = must(s.Match(ctx, m.ID)).in(t)
	if want := blueAway.Add(3 * day).Add(m.MoveTime); !m.Deadline.Equal(want) {
		t.Errorf("Blue's turn during the vacation ends %v after it, want a move time after it: %v", m.Deadline.Sub(blueAway.Add(3*day)), m.MoveTime)
	}
	var tokens []string
	for _, a := range must(s.Match(ctx, m.ID)).in(t).Log {
		if a.Kind != storage.ActMove {
			tokens = append(tokens, a.String())
		}
	}
	if got, want := strings.Join(tokens, " "), "vacation:R:5 back:R vacation:B:3"; got != want {
		t.Errorf("the log keeps %q, want %q", got, want)
	}

	// A pause agreed during a vacation stops no clock twice: the deadline
	// moves by the later of their ends, and the early return gives back
	// only what the pause does not cover.
	m = Started(t, s, NewMatch(game.VariantClassic), 16)
	Deliver(t, s, T0)
	act = func(kind storage.ActionKind, side game.Side, days int, at time.Time) *storage.Match {
		t.Helper()
		return must(s.Act(ctx, m.ID, 0, storage.Action{Kind: kind, Side: side, Days: days, At: at})).in(t)
	}
	act(storage.ActVacation, game.Red, 10, away)
	act(storage.ActOfferPause, game.Blue, 5, away.Add(time.Hour))
	m = act(storage.ActAcceptPause, game.Red, 0, away.Add(2*time.Hour))
	if want := T0.Add(11 * day); !m.Deadline.Equal(want) {
		t.Errorf("a 5-day pause inside a 10-day vacation: deadline %v, want %v", m.Deadline.Sub(T0), want.Sub(T0))
	}
	m = act(storage.ActVacationEnd, game.Red, 0, away.Add(3*time.Hour))
	if want := away.Add(2*time.Hour + 5*day).Add(T0.Add(day).Sub(away)); !m.Deadline.Equal(want) {
		t.Errorf("back from vacation during the pause: deadline %v, want the pause's end plus what was left of the turn when the vacation began, %v", m.Deadline.Sub(T0), want.Sub(T0))
	}
	CheckReplay(t, must(s.Match(ctx, m.ID)).in(t))
}

// testStopsKeepReminders: a pause or a vacation that begins after the turn's
// reminder moves the deadline on and keeps the reminder sent, so that none
// is due again, during a vacation or when the clock runs on; and a vacation
// that runs out inside a pause ends then, not when the pause does.
func testStopsKeepReminders(t *testing.T, s storage.Store) {
	ctx := context.Background()
	day := 24 * time.Hour
	// timer is the match's one timer.
	timer := func(id storage.MatchID) storage.Deadline {
		t.Helper()
		for _, d := range must(s.DueDeadlines(ctx, T0.Add(365*day), 0)).in(t) {
			if storage.MatchID(d.ID) == id {
				return d
			}
		}
		t.Fatalf("match %d has no timer", id)
		return storage.Deadline{}
	}
	for k, stop := range []storage.ActionKind{storage.ActAcceptPause, storage.ActVacation} {
		name := [...]string{"a pause", "a vacation"}[k]
		m := Started(t, s, NewMatch(game.VariantClassic), uint64(30+k))
		Deliver(t, s, T0)
		m = must(s.MarkReminded(ctx, m.ID, m.Version, T0.Add(18*time.Hour))).in(t) // a quarter of Red's day left
		at := T0.Add(19 * time.Hour)
		if stop == storage.ActAcceptPause {
			must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActOfferPause, Side: game.Blue, Days: 2, At: at})).in(t)
		}
		m = must(s.Act(ctx, m.ID, 0, storage.Action{Kind: stop, Side: game.Red, Days: 2, At: at})).in(t)
		if m.RemindersSent != 1 || !m.RemindAt.IsZero() || !m.Deadline.Equal(T0.Add(3*day)) {
			t.Errorf("%s after the reminder: %d reminders sent, next at %v, deadline %v; want 1, none, %v",
				name, m.RemindersSent, m.RemindAt, m.Deadline.Sub(T0), 3*day)
		}
		if d := timer(m.ID); !d.At.Equal(at.Add(2*day)) || d.Kind == storage.DeadlineReminder {
			t.Errorf("%s after the reminder: the timer %+v, want the stop's end at %v", name, d, at.Add(2*day).Sub(T0))
		}
		Deliver(t, s, at)
	}

	// Red leaves for a day with 23 hours of her turn left, then a pause of
	// three days: her return is due inside the pause, and ends her vacation
	// then; her turn ends 23 hours after the pause.
	m := Started(t, s, NewMatch(game.VariantClassic), 32)
	Deliver(t, s, T0)
	must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 1, At: T0.Add(time.Hour)})).in(t)
	must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActOfferPause, Side: game.Blue, Days: 3, At: T0.Add(2 * time.Hour)})).in(t)
	must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActAcceptPause, Side: game.Red, At: T0.Add(2 * time.Hour)})).in(t)
	if d := timer(m.ID); d.Kind != storage.DeadlineVacation || !d.At.Equal(T0.Add(day+time.Hour)) {
		t.Errorf("a vacation of a day in a pause of three: the timer %+v, want the vacation's end at %v", d, day+time.Hour)
	}
	m = must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacationEnd, Side: game.Red, At: T0.Add(day + time.Hour)})).in(t)
	if d := timer(m.ID); d.Kind != storage.DeadlineResume || !d.At.Equal(T0.Add(3*day+2*time.Hour)) || !m.Deadline.Equal(T0.Add(4*day+time.Hour)) {
		t.Errorf("back inside the pause: the timer %+v, deadline %v; want the pause's end and the rest of the day after it", d, m.Deadline.Sub(T0))
	}
	Deliver(t, s, T0.Add(day+time.Hour))
}

// dueEvents names the notices due at at: "event>audience ...".
func dueEvents(t *testing.T, s storage.Store, at time.Time) string {
	t.Helper()
	var w []string
	for _, n := range must(s.DueNotices(context.Background(), at, 0)).in(t) {
		w = append(w, n.Event.String()+">"+n.To.String())
	}
	return strings.Join(w, " ")
}

func describeNotices(ns []storage.Notice) string {
	var w []string
	for _, n := range ns {
		w = append(w, fmt.Sprintf("%s>%s@%d", n.Event, n.To, n.Log))
	}
	return strings.Join(w, " ")
}

// testPracticeNoticesMarked: a practice match's notices say so, so that the
// bot can deliver people's first; other matches' do not.
func testPracticeNoticesMarked(t *testing.T, s storage.Store) {
	ctx := context.Background()
	practice := NewMatch(game.VariantBarrage)
	practice.Casual, practice.Computer = true, "hard"
	practice = Started(t, s, practice, 11)
	people := Started(t, s, NewMatch(game.VariantBarrage), 12)
	r := rand.New(rand.NewPCG(5, 6))
	for _, m := range []*storage.Match{practice, people} {
		side, mv := RandomMove(t, m, r)
		if _, _, err := s.ApplyMove(ctx, m.ID, m.Version, side, mv, T0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[storage.MatchID]int{}
	for _, n := range must(s.DueNotices(ctx, T0.Add(time.Minute), 0)).in(t) {
		seen[n.Match]++
		if want := n.Match == practice.ID; n.Practice != want {
			t.Errorf("notice %d (%s>%s) of match %d: Practice %v, want %v", n.ID, n.Event, n.To, n.Match, n.Practice, want)
		}
	}
	if seen[practice.ID] == 0 || seen[people.ID] == 0 {
		t.Fatalf("no notices to compare: %v", seen)
	}
	Deliver(t, s, T0.Add(time.Minute))
}

// testVacationInSetup: while the players send their set-ups, a vacation of
// either moves the match's one set-up deadline on, and its reminder with it;
// a second player's vacation adds only what the first's does not cover; an
// early return gives back what no longer stops it; a vacation still under
// way when the game begins stops the clock of its player's first turn. The
// set-up's log keeps the vacations, and nothing else is taken there.
func testVacationInSetup(t *testing.T, s storage.Store) {
	ctx := context.Background()
	day := 24 * time.Hour
	m := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	Deliver(t, s, T0)
	act := func(kind storage.ActionKind, side game.Side, days int, at time.Time) *storage.Match {
		t.Helper()
		return must(s.Act(ctx, m.ID, 0, storage.Action{Kind: kind, Side: side, Days: days, At: at})).in(t)
	}
	setUp := func(side game.Side, at time.Time) *storage.Match {
		t.Helper()
		setup := game.RandomSetup(m.Rules, 40+uint64(side))
		return must(s.SetSetup(ctx, m.ID, 0, side, setup, storage.SetupConfirmed, at)).in(t)
	}
	blueBack := T0.Add(time.Hour + 3*day)
	steps := []struct {
		name     string
		at       time.Time
		do       func(at time.Time) *storage.Match
		deadline time.Time // the set-up deadline after the step
		owed     string    // the notices the step owes
		wake     storage.DeadlineKind
	}{
		{"Blue leaves for 3 days", T0.Add(time.Hour), func(at time.Time) *storage.Match { return act(storage.ActVacation, game.Blue, 3, at) },
			T0.Add(4 * day), "vacation>red", storage.DeadlineVacation},
		{"Red's set-up is in", T0.Add(2 * time.Hour), func(at time.Time) *storage.Match { return setUp(game.Red, at) },
			T0.Add(4 * day), "", storage.DeadlineVacation},
		{"Red leaves for 5 days too", T0.Add(3 * time.Hour), func(at time.Time) *storage.Match { return act(storage.ActVacation, game.Red, 5, at) },
			T0.Add(6*day + 2*time.Hour), "vacation>blue", storage.DeadlineVacation},
		{"Red is back after a day", T0.Add(day + 3*time.Hour), func(at time.Time) *storage.Match { return act(storage.ActVacationEnd, game.Red, 0, at) },
			T0.Add(4 * day), "vacation-over>blue", storage.DeadlineVacation},
		// Blue, whose invite gave the deadline before his vacation moved it, is told it too.
		{"Blue's vacation runs out", blueBack, func(at time.Time) *storage.Match { return act(storage.ActVacationEnd, game.Blue, 0, at) },
			T0.Add(4 * day), "vacation-over>red vacation-over>blue", storage.DeadlineReminder},
	}
	for _, st := range steps {
		m = st.do(st.at)
		if m.Phase != storage.PhaseSetup || !m.Deadline.Equal(st.deadline) {
			t.Errorf("%s: %s, set-up deadline %v, want %v", st.name, m.Phase, m.Deadline.Sub(T0), st.deadline.Sub(T0))
		}
		// The reminder moves with the deadline: a quarter of the day before it.
		if want := st.deadline.Add(-day / 4); !m.RemindAt.Equal(want) {
			t.Errorf("%s: reminder at %v, want %v", st.name, m.RemindAt.Sub(T0), want.Sub(T0))
		}
		if got := dueEvents(t, s, st.at); got != st.owed {
			t.Errorf("%s: owes %q, want %q", st.name, got, st.owed)
		}
		Deliver(t, s, st.at)
		if d, ok, _ := s.NextDeadline(ctx); !ok || d.Kind != st.wake || d.ID != uint64(m.ID) {
			t.Errorf("%s: the next timer is %+v, want a %s of match %d", st.name, d, st.wake, m.ID)
		}
		if loaded := must(s.Match(ctx, m.ID)).in(t); !loaded.Deadline.Equal(m.Deadline) || !loaded.RemindAt.Equal(m.RemindAt) || len(loaded.Log) != len(m.Log) {
			t.Errorf("%s: read back with deadline %v, reminder %v, %d actions", st.name, loaded.Deadline.Sub(T0), loaded.RemindAt.Sub(T0), len(loaded.Log))
		}
	}
	_, err := s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacationEnd, Side: game.Blue, At: blueBack})
	wantErr(t, "ending a vacation over already", err, storage.ErrNotDue)
	for _, kind := range []storage.ActionKind{storage.ActOfferDraw, storage.ActOfferPause, storage.ActGiveTime, storage.ActResign} {
		_, err := s.Act(ctx, m.ID, 0, storage.Action{Kind: kind, Side: game.Red, Days: 1, At: blueBack})
		wantErr(t, storage.Action{Kind: kind, Side: game.Red}.String()+" in set-up", err, storage.ErrNotStarted)
	}
	start := blueBack.Add(time.Hour)
	m = setUp(game.Blue, start)
	if m.Phase != storage.PhasePlaying || !m.Deadline.Equal(start.Add(m.MoveTime)) {
		t.Errorf("the game begins: %s, deadline %v after it, want %v", m.Phase, m.Deadline.Sub(start), m.MoveTime)
	}
	if got, want := owed(t, s, start), []string{"started>red+clock", "started>blue", "started>public"}; !sameWords(got, want) {
		t.Errorf("the start owes %v, want %v", got, want)
	}
	for _, n := range must(s.DueNotices(ctx, start, 0)).in(t) {
		if n.Log != len(m.Log) {
			t.Errorf("the start's notice to %s shows the game after %d actions, want all %d", n.To, n.Log, len(m.Log))
		}
	}
	var tokens []string
	for _, a := range m.Log {
		tokens = append(tokens, a.String())
	}
	if got, want := strings.Join(tokens, " "), "vacation:B:3 vacation:R:5 back:R back:B"; got != want {
		t.Errorf("the log keeps %q, want %q", got, want)
	}
	CheckReplay(t, m)
	Deliver(t, s, start)
	Play(t, s, m, 2, rand.New(rand.NewPCG(41, 41)))

	// Red leaves during the set-ups and is still away when they are in: the
	// game waits for Red's first move until Red is back.
	m = must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	Deliver(t, s, T0)
	away := T0.Add(time.Hour)
	m = act(storage.ActVacation, game.Red, 5, away)
	setUp(game.Blue, away.Add(time.Hour))
	start = away.Add(2 * time.Hour)
	m = setUp(game.Red, start)
	Deliver(t, s, start)
	m = must(s.Match(ctx, m.ID)).in(t)
	back := away.Add(5 * day)
	if !m.VacationUntil(game.Red).Equal(back) || m.ClockPending || !m.Deadline.Equal(back.Add(m.MoveTime)) {
		t.Errorf("Red's first turn: vacation until %v, deadline %v (pending %v), want a move time after %v", m.VacationUntil(game.Red).Sub(T0), m.Deadline.Sub(T0), m.ClockPending, back.Sub(T0))
	}
	var timer storage.Deadline
	for _, d := range must(s.DueDeadlines(ctx, back.Add(30*day), 0)).in(t) {
		if d.ID == uint64(m.ID) && d.Kind != storage.DeadlineChallenge {
			timer = d
			break
		}
	}
	if timer.Kind != storage.DeadlineVacation || !timer.At.Equal(back) {
		t.Errorf("the match's next timer: %+v, want the end of Red's vacation at %v", timer, back.Sub(T0))
	}
	CheckReplay(t, m)

	// Games on a clock, and matches called off, take no vacation.
	fast := NewMatch(game.VariantClassic)
	fast.MoveTime = time.Hour
	fast = must(s.CreateMatch(ctx, fast)).in(t)
	_, err = s.Act(ctx, fast.ID, 0, storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 1, At: T0})
	wantErr(t, "a vacation in a game of an hour a move", err, storage.ErrNotCorrespondence)
	off := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	must(s.Abandon(ctx, off.ID, off.Version, T0.Add(day), storage.CallOffModerator)).in(t)
	_, err = s.Act(ctx, off.ID, 0, storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 1, At: T0.Add(day)})
	wantErr(t, "a vacation in a match called off", err, storage.ErrGameOver)
}

// testVacationOverToldOnce: a vacation that runs out on time tells the
// player their move's deadline only when nothing since it began told it:
// not when the game began during it (the start's board gave the deadline
// it moved), nor when a pause ran out during it (the pause's end gave it).
func testVacationOverToldOnce(t *testing.T, s storage.Store) {
	ctx := context.Background()
	day := 24 * time.Hour
	for _, tc := range []struct {
		name   string
		during func(m *storage.Match, at time.Time) // what happens in Red's vacation, from at on
	}{
		{"the game begins during it", func(m *storage.Match, at time.Time) {
			must(s.SetSetup(ctx, m.ID, 0, game.Blue, game.RandomSetup(m.Rules, 51), storage.SetupConfirmed, at)).in(t)
		}},
		{"a pause runs out during it", func(m *storage.Match, at time.Time) {
			must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActOfferPause, Side: game.Blue, Days: 1, At: at})).in(t)
			must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActAcceptPause, Side: game.Red, Days: 1, At: at.Add(time.Hour)})).in(t)
			Deliver(t, s, at.Add(time.Hour))
			must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActResume, Side: game.Red, At: at.Add(time.Hour + day)})).in(t)
		}},
	} {
		m := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
		must(s.SetSetup(ctx, m.ID, 0, game.Red, game.RandomSetup(m.Rules, 50), storage.SetupConfirmed, T0)).in(t)
		if tc.name != "the game begins during it" {
			must(s.SetSetup(ctx, m.ID, 0, game.Blue, game.RandomSetup(m.Rules, 51), storage.SetupConfirmed, T0)).in(t)
		}
		Deliver(t, s, T0)
		leaves := T0.Add(time.Hour)
		must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 3, At: leaves})).in(t)
		Deliver(t, s, leaves)
		tc.during(m, leaves.Add(time.Hour))
		Deliver(t, s, leaves.Add(2*day))
		back := leaves.Add(3 * day)
		if m = must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacationEnd, Side: game.Red, At: back})).in(t); !m.Owes(game.Red) {
			t.Fatalf("%s: Red owes nothing when back", tc.name)
		}
		if got, want := dueEvents(t, s, back), "vacation-over>blue"; got != want {
			t.Errorf("%s: the vacation's end owes %q, want %q", tc.name, got, want)
		}
		Deliver(t, s, back)
	}
}
