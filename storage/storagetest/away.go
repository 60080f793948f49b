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

// testTimeAway: time nobody ran the timers (ActAway) moves a running
// deadline and its reminder on by the part of it the clock ran, is kept in
// the log with its length, and tells the player who must act; a game
// clock keeps its time left; a clock stopped throughout, one whose time ran
// out before, and one still waiting for its board get nothing.
func testTimeAway(t *testing.T, s storage.Store) {
	ctx := context.Background()
	hour, day := time.Hour, 24*time.Hour
	r := rand.New(rand.NewPCG(7, 8))
	away := func(id storage.MatchID, from, to time.Time) (*storage.Match, error) {
		return s.Act(ctx, id, 0, storage.Action{Kind: storage.ActAway, Side: game.Blue, Away: to.Sub(from), At: to})
	}
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

	// Red's day runs from T0; the bot is away from 17 h to 20 h, across
	// her reminder (a quarter of the day left, at 18 h).
	m := Started(t, s, NewMatch(game.VariantClassic), 40)
	if !m.Deadline.Equal(T0.Add(day)) || !m.RemindAt.Equal(T0.Add(18*hour)) {
		t.Fatalf("Red's turn: deadline %v, reminder %v", m.Deadline.Sub(T0), m.RemindAt.Sub(T0))
	}
	must(away(m.ID, T0.Add(17*hour), T0.Add(20*hour))).in(t)
	m = must(s.Match(ctx, m.ID)).in(t) // as stored
	if !m.Deadline.Equal(T0.Add(day+3*hour)) || !m.RemindAt.Equal(T0.Add(21*hour)) || m.RemindersSent != 0 {
		t.Errorf("after three hours away: deadline %v, reminder %v (%d sent); want %v, %v, 0",
			m.Deadline.Sub(T0), m.RemindAt.Sub(T0), m.RemindersSent, day+3*hour, 21*hour)
	}
	last := m.Log[len(m.Log)-1]
	if last.Kind != storage.ActAway || last.Side != game.Red || last.Away != 3*hour || !last.AwayFrom().Equal(T0.Add(17*hour)) {
		t.Errorf("the log keeps %+v, want Red's clock given three hours from 17 h", last)
	}
	if d := timer(m.ID); d.Kind != storage.DeadlineReminder || !d.At.Equal(T0.Add(21*hour)) {
		t.Errorf("the timer after the time away: %+v, want the reminder at 21 h", d)
	}
	if got := dueEvents(t, s, T0.Add(20*hour)); got != "away>red" {
		t.Errorf("notices owed: %q, want away>red", got)
	}
	Deliver(t, s, T0.Add(20*hour))
	CheckReplay(t, m)

	// Away again from 40 h: her time ran out at 27 h, while the timers ran.
	if _, err := away(m.ID, T0.Add(40*hour), T0.Add(44*hour)); !errors.Is(err, storage.ErrNotDue) {
		t.Errorf("time away after her time ran out: %v, want ErrNotDue", err)
	}
	if _, err := s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActAway, At: T0.Add(21 * hour)}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("no time away: %v, want ErrInvalid", err)
	}

	// Paused throughout: nothing to give back, and nobody told.
	p := Started(t, s, NewMatch(game.VariantClassic), 41)
	must(s.Act(ctx, p.ID, 0, storage.Action{Kind: storage.ActOfferPause, Side: game.Blue, Days: 2, At: T0.Add(hour)})).in(t)
	p = must(s.Act(ctx, p.ID, 0, storage.Action{Kind: storage.ActAcceptPause, Side: game.Red, At: T0.Add(hour)})).in(t)
	Deliver(t, s, T0.Add(hour))
	if _, err := away(p.ID, T0.Add(2*hour), T0.Add(10*hour)); !errors.Is(err, storage.ErrNotDue) {
		t.Errorf("away during a pause: %v, want ErrNotDue", err)
	}
	// The pause runs out at 49 h, in a time away until 52 h: three hours
	// of it count.
	before := must(s.Match(ctx, p.ID)).in(t).Deadline
	p = must(away(p.ID, T0.Add(45*hour), T0.Add(52*hour))).in(t)
	if got := p.Deadline.Sub(before); got != 3*hour {
		t.Errorf("a pause that ran out while away: the deadline moved %v, want 3h", got)
	}
	Deliver(t, s, T0.Add(52*hour))

	// A game clock: Red's five minutes run from T0; away from 2 to 10
	// minutes, she keeps the three she had left.
	fast := NewMatch(game.VariantClassic)
	fast.Clock = storage.TimeControl{Base: 5 * time.Minute}
	fast.Left = [2]time.Duration{5 * time.Minute, 5 * time.Minute}
	f := Started(t, s, fast, 42)
	f = must(away(f.ID, T0.Add(2*time.Minute), T0.Add(10*time.Minute))).in(t)
	if !f.Deadline.Equal(T0.Add(13 * time.Minute)) {
		t.Errorf("a game clock after eight minutes away: deadline %v, want 13m", f.Deadline.Sub(T0))
	}
	side, mv := RandomMove(t, f, r)
	f, _ = must2m(t)(s.ApplyMove(ctx, f.ID, 0, side, mv, T0.Add(12*time.Minute)))
	if f.Left[game.Red] != time.Minute {
		t.Errorf("Red's time left after moving two minutes after the time away: %v, want 1m", f.Left[game.Red])
	}
	Deliver(t, s, T0.Add(12*time.Minute))

	// Set-up: Red's set-up is in, Blue's is not; both share one deadline,
	// and only Blue, who owes hers, is told.
	su := must(s.CreateMatch(ctx, NewMatch(game.VariantClassic))).in(t)
	Deliver(t, s, T0)
	must(s.SetSetup(ctx, su.ID, 0, game.Red, game.RandomSetup(su.Rules, 1), storage.SetupConfirmed, T0.Add(hour))).in(t)
	su = must(away(su.ID, T0.Add(3*hour), T0.Add(5*hour))).in(t)
	if !su.Deadline.Equal(T0.Add(day + 2*hour)) {
		t.Errorf("set-up after two hours away: deadline %v, want %v", su.Deadline.Sub(T0), day+2*hour)
	}
	if got := dueEvents(t, s, T0.Add(5*hour)); got != "away>blue" {
		t.Errorf("set-up: notices owed: %q, want away>blue", got)
	}
	Deliver(t, s, T0.Add(5*hour))

	// A board still on its way: its clock has not started.
	w := Started(t, s, NewMatch(game.VariantClassic), 43)
	side, mv = RandomMove(t, w, r)
	must2m(t)(s.ApplyMove(ctx, w.ID, 0, side, mv, T0.Add(hour)))
	if _, err := away(w.ID, T0.Add(2*hour), T0.Add(5*hour)); !errors.Is(err, storage.ErrNotDue) {
		t.Errorf("away while Blue's board is on its way: %v, want ErrNotDue", err)
	}
	Deliver(t, s, T0.Add(5*hour))
}

// testTournamentTimeAway: time nobody ran the timers given back to a
// tournament (Tournament.GiveAway in UpdateTournament) is a change like any
// other, at its version: before the start it moves the join deadline and
// the start, and the tournament's timer with them, and owes no
// announcement; a round under way has its deadline moved, its timer with
// it, and owes one announcement of it, after those before. The same time
// given again changes nothing and owes nothing.
func testTournamentTimeAway(t *testing.T, s storage.Store) {
	ctx := context.Background()
	hour := time.Hour
	give := func(from, to time.Time) func(x *storage.Tournament) error {
		return func(x *storage.Tournament) error {
			x.Changed = to
			_, err := x.GiveAway(from, to)
			return err
		}
	}
	tt := must(s.CreateTournament(ctx, NewTournament("g1"), storage.TournamentLimits{})).in(t)
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, joinAll("a", "b"))).in(t)
	start, joinBy := tt.StartAt, tt.JoinBy // a day after T0
	// Away from 20 h to 30 h, across the join deadline and the start.
	from, to := T0.Add(20*hour), T0.Add(30*hour)
	after := must(s.UpdateTournament(ctx, tt.ID, tt.Version, give(from, to))).in(t)
	stored := must(s.Tournament(ctx, tt.ID)).in(t)
	for _, x := range []*storage.Tournament{after, stored} {
		if x.Version != tt.Version+1 || !x.StartAt.Equal(start.Add(10*hour)) || !x.JoinBy.Equal(joinBy.Add(10*hour)) ||
			!x.AwayFrom.Equal(from) || !x.AwayUntil.Equal(to) {
			t.Fatalf("before the start, after ten hours away: version %d, start %v, join by %v, away %v to %v; want %d, %v, %v, %v to %v",
				x.Version, x.StartAt.Sub(T0), x.JoinBy.Sub(T0), x.AwayFrom.Sub(T0), x.AwayUntil.Sub(T0), tt.Version+1, 34*hour, 34*hour, 20*hour, 30*hour)
		}
	}
	if at, ok, err := s.NextTournamentWake(ctx); err != nil || !ok || !at.Equal(start.Add(10*hour)) {
		t.Errorf("the tournament's timer: %v, %v, %v; want the start moved, %v", at.Sub(T0), ok, err, 34*hour)
	}
	if got := dueEvents(t, s, to.Add(hour)); got != "" {
		t.Errorf("moving the start owes %q, want nothing", got)
	}
	if _, err := s.UpdateTournament(ctx, tt.ID, 0, give(from, to)); !errors.Is(err, storage.ErrNotDue) {
		t.Errorf("the same time given again: %v, want ErrNotDue", err)
	}
	// Round 1 paired at the start, due a week later; the bot away from a
	// day before its deadline until six hours after it.
	tt = must(s.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.MembersDue = x.StartAt.Add(30 * 24 * hour) // its players checked: its timer is the deadline
		return pairNext(after.StartAt)(x)
	})).in(t)
	Deliver(t, s, tt.StartAt)
	deadline := tt.RoundDeadline
	from, to = deadline.Add(-24*hour), deadline.Add(6*hour)
	after = must(s.UpdateTournament(ctx, tt.ID, tt.Version, give(from, to))).in(t)
	stored = must(s.Tournament(ctx, tt.ID)).in(t)
	for _, x := range []*storage.Tournament{after, stored} {
		if x.Version != tt.Version+1 || !x.RoundDeadline.Equal(deadline.Add(30*hour)) || !x.AwayFrom.Equal(from) || !x.AwayUntil.Equal(to) {
			t.Fatalf("after 30 hours away across the round's deadline: version %d, deadline moved %v; want %d, 30h", x.Version, x.RoundDeadline.Sub(deadline), tt.Version+1)
		}
	}
	if at, ok, err := s.NextTournamentWake(ctx); err != nil || !ok || !at.Equal(after.RoundDeadline) {
		t.Errorf("the tournament's timer: %v, %v, %v; want the moved deadline", at, ok, err)
	}
	due := must(s.DueNotices(ctx, to, 0)).in(t)
	if len(due) != 1 || due[0].Tournament != tt.ID || due[0].Event != storage.EventTourneyAway || due[0].To != storage.AudiencePublic ||
		due[0].Version != after.Version || due[0].Log != len(after.Log) || !due[0].At.Equal(to) {
		t.Fatalf("moving the round's deadline owes %s, want one tournament-away to the channel at the change", describeNotices(due))
	}
	Deliver(t, s, to)
	if _, err := s.UpdateTournament(ctx, tt.ID, 0, give(from, to)); !errors.Is(err, storage.ErrNotDue) {
		t.Errorf("the same time given again: %v, want ErrNotDue", err)
	}
	if got := must(s.Tournament(ctx, tt.ID)).in(t); got.Version != after.Version || !got.RoundDeadline.Equal(after.RoundDeadline) {
		t.Errorf("the same time given again changed the tournament: version %d, deadline %v", got.Version, got.RoundDeadline.Sub(deadline))
	}
	if got := dueEvents(t, s, to.Add(hour)); got != "" {
		t.Errorf("the same time given again owes %q", got)
	}
}
