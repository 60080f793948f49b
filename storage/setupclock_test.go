package storage

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
)

// setupMatch is a match in set-up made at base, a day a move.
func setupMatch(base time.Time) *Match {
	m := &Match{
		ID: 3, Version: 1, GuildID: "g", ChannelID: "c", Rules: game.DefaultRules(game.VariantClassic),
		MoveTime: 24 * time.Hour, Phase: PhaseSetup, Created: base, Deadline: base.Add(24 * time.Hour),
		Secret: Secret{1},
	}
	m.Players[game.Red] = Player{UserID: "1", Name: "Ann"}
	m.Players[game.Blue] = Player{UserID: "2", Name: "Bob"}
	return m
}

// TestSetupClockRecord: the invites a set-up waits for are kept in the
// record, under names a person can read, and read back.
func TestSetupClockRecord(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m := setupMatch(base)
	m.ClockPending, m.InvitePending = true, [2]bool{false, true}
	m.InviteArrived[game.Red] = base.Add(time.Minute)
	m.ClockStarted = base.Add(2 * time.Minute) // kept as it would be once the clock runs
	data, err := encodeMatch(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"invites_pending":["blue"]`) {
		t.Errorf("the record does not name Blue's invite as pending: %s", data)
	}
	if want := fmt.Sprintf(`"invites_arrived":[%d,0]`, base.Add(time.Minute).Unix()); !strings.Contains(string(data), want) {
		t.Errorf("the record does not say when Red's invite arrived (%s): %s", want, data)
	}
	got, err := decodeMatch(data)
	if err != nil {
		t.Fatal(err)
	}
	if !got.ClockPending || got.InvitePending != m.InvitePending || got.InviteArrived != m.InviteArrived || !got.ClockStarted.Equal(m.ClockStarted) {
		t.Errorf("read back: pending %v, invites %v, arrived %v", got.ClockPending, got.InvitePending, got.InviteArrived)
	}
	var rec map[string]any
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	rec["invites_pending"] = []string{"public"}
	bad, _ := json.Marshal(rec)
	if _, err := decodeMatch(bad); err == nil {
		t.Error("a record waiting for the public's invite was read")
	}
}

// TestOldSetupClockRuns: a match stored in set-up before the set-up clock
// waited for the invites has none pending: its deadline counts from its
// creation as it did, and the invites' arrival changes nothing.
func TestOldSetupClockRuns(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m := setupMatch(base)
	m.setDeadline(m.Deadline, func(d time.Duration) []time.Duration { return []time.Duration{d / 4} })
	data, err := encodeMatch(m)
	if err != nil {
		t.Fatal(err)
	}
	old, err := decodeMatch(data)
	if err != nil {
		t.Fatal(err)
	}
	if at, kind, ok := old.wake(); !ok || kind != DeadlineReminder || !at.Equal(base.Add(18*time.Hour)) {
		t.Errorf("an old set-up's timer: %v %v %v, want its reminder at 18h", at.Sub(base), kind, ok)
	}
	if !old.ClockRunning() || !old.DeadlineToShow(base.Add(time.Hour)).Equal(base.Add(24*time.Hour)) {
		t.Errorf("an old set-up's clock: running %v, shown %v", old.ClockRunning(), old.DeadlineToShow(base.Add(time.Hour)).Sub(base))
	}
	for _, clock := range []bool{false, true} {
		n := &Notice{Match: old.ID, Event: EventCreated, To: AudienceBlue, StartsClock: clock, At: base}
		if _, ok := (Changes{}).StartClock(old, n, base.Add(3*time.Hour)); ok {
			t.Errorf("an invite (starts clock %v) arriving late moved an old set-up's clock", clock)
		}
	}
	// A change in set-up keeps it running.
	after := old.Clone()
	if _, err := (Changes{}).SetSetup(after, game.Red, game.RandomSetup(old.Rules, 1), SetupConfirmed, base.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareSave(old, after, nil, base.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if after.ClockPending || !after.Deadline.Equal(base.Add(24*time.Hour)) {
		t.Errorf("after a set-up: pending %v, deadline %v", after.ClockPending, after.Deadline.Sub(base))
	}
}

// TestInviteArrivalsForgottenOnceTheGameBegins: the invites' arrivals say
// whose invite started the set-up time; once both set-ups are in, they are
// no longer kept.
func TestInviteArrivalsForgottenOnceTheGameBegins(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	old := setupMatch(base)
	old.InviteArrived = [2]time.Time{base, base.Add(time.Hour)}
	m := old.Clone()
	c := Changes{}
	for side := game.Red; side <= game.Blue; side++ {
		if _, err := c.SetSetup(m, side, game.RandomSetup(m.Rules, uint64(side)+1), SetupConfirmed, base.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareSave(old, m, g, base.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if m.Phase != PhasePlaying || m.InviteArrived != [2]time.Time{} {
		t.Errorf("both set-ups in: %s, invites arrived %v: want the game on and the arrivals forgotten", m.Phase, m.InviteArrived)
	}
}

// TestToldUnreachableRecord: when the channel was told a player's DMs do
// not reach them is kept in the record and read back; a match that told
// nobody records nothing.
func TestToldUnreachableRecord(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m := setupMatch(base)
	data, err := encodeMatch(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "told_unreachable") {
		t.Errorf("a match that told nobody records it: %s", data)
	}
	m.ToldUnreachable[game.Blue] = base.Add(time.Minute)
	if data, err = encodeMatch(m); err != nil {
		t.Fatal(err)
	}
	got, err := decodeMatch(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.ToldUnreachable != m.ToldUnreachable {
		t.Errorf("read back %v, want %v", got.ToldUnreachable, m.ToldUnreachable)
	}
}

// TestActNotBeforeTheLog: an action dated before the last one of the log
// (its caller took the time before an action made meanwhile) is recorded
// at that last one's time, in set-up and in play: the log stays in the
// order of its times.
func TestActNotBeforeTheLog(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m := setupMatch(base)
	c := Changes{}
	if _, err := c.Act(m, Action{Kind: ActVacation, Side: game.Blue, Days: 2, At: base.Add(2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Act(m, Action{Kind: ActVacation, Side: game.Red, Days: 2, At: base.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	for side := game.Red; side <= game.Blue; side++ {
		if _, err := c.SetSetup(m, side, game.RandomSetup(m.Rules, uint64(side)+1), SetupConfirmed, base.Add(3*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if m.Phase != PhasePlaying {
		t.Fatalf("both set-ups in: %s", m.Phase)
	}
	if _, err := c.Act(m, Action{Kind: ActVacationEnd, Side: game.Blue, At: base.Add(4 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Act(m, Action{Kind: ActVacationEnd, Side: game.Red, At: base.Add(3 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{2 * time.Hour, 2 * time.Hour, 4 * time.Hour, 4 * time.Hour}
	if len(m.Log) != len(want) {
		t.Fatalf("log %v, want %d actions", m.Log, len(want))
	}
	for i, a := range m.Log {
		if !a.At.Equal(base.Add(want[i])) {
			t.Errorf("action %d (%s) at %v, want %v", i, a, a.At.Sub(base), want[i])
		}
	}
}

// TestMoveNotBeforeTheLog: a move dated before the last action of the log
// (its caller took the time before an action made meanwhile: the mover's
// own vacation begun by another request, the opponent's gift, a pause
// agreed) is recorded at that action's time, as Act records one: the log
// stays in the order of its times. It was recorded at its own, and the
// move that ended a vacation ended it, as the log told it, before it began
// (VacationEndedByMove, which the bot reads to end it everywhere).
func TestMoveNotBeforeTheLog(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	later := base.Add(3 * time.Hour)
	for _, tc := range []struct {
		name   string
		before Action // at later, Red to move
	}{
		{"Red's vacation", Action{Kind: ActVacation, Side: game.Red, Days: 2}},
		{"Blue's gift", Action{Kind: ActGiveTime, Side: game.Blue}},
		{"Blue's proposal to pause", Action{Kind: ActOfferPause, Side: game.Blue, Days: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := setupMatch(base)
			m.MoveTime = 24 * time.Hour
			c := Changes{}
			for side := game.Red; side <= game.Blue; side++ {
				if _, err := c.SetSetup(m, side, game.RandomSetup(m.Rules, uint64(side)+1), SetupConfirmed, base); err != nil {
					t.Fatal(err)
				}
			}
			a := tc.before
			a.At = later
			if _, err := c.Act(m, a); err != nil {
				t.Fatal(err)
			}
			g, err := m.Game()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.ApplyMove(m, game.Red, g.LegalMoves()[0], later.Add(-time.Second)); err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(m.Log); i++ {
				if m.Log[i].At.Before(m.Log[i-1].At) {
					t.Errorf("action %d (%s) at %v, before action %d (%s) at %v", i, m.Log[i], m.Log[i].At.Sub(base), i-1, m.Log[i-1], m.Log[i-1].At.Sub(base))
				}
			}
			if a.Kind == ActVacation {
				if at, ok := m.VacationEndedByMove(game.Red, later); !ok || at.Before(later) {
					t.Errorf("Red's move ended the vacation begun at %v at %v (%v)", later.Sub(base), at.Sub(base), ok)
				}
			}
		})
	}
}

// TestSetupClockStarted: the set-up time starts as the last invite a side
// that owes its set-up waits for arrives, or as the side whose invite is
// still on its way confirms its set-up by a command: either way the match
// keeps when (ClockStarted), from which the time the bot is away is given
// back, and a later invite, of a side that confirmed already, moves it not.
func TestSetupClockStarted(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c := Changes{}
	blueInvite := Notice{Match: 3, Event: EventCreated, To: AudienceBlue, StartsClock: true}
	for _, tc := range []struct {
		name string
		act  func(m *Match) (*Match, error)
		want time.Time
	}{
		{"Blue's invite arrives", func(m *Match) (*Match, error) {
			got, ok := c.StartClock(m, &blueInvite, base.Add(5*time.Minute))
			if !ok {
				return nil, fmt.Errorf("the invite's arrival changed nothing")
			}
			return got, nil
		}, base.Add(5 * time.Minute)},
		{"Blue confirms before it", func(m *Match) (*Match, error) {
			_, err := c.SetSetup(m, game.Blue, game.RandomSetup(m.Rules, 1), SetupConfirmed, base.Add(3*time.Minute))
			if err != nil {
				return nil, err
			}
			later, ok := c.StartClock(m, &blueInvite, base.Add(9*time.Minute))
			if ok {
				m = later
			}
			return m, nil
		}, base.Add(3 * time.Minute)},
	} {
		m := setupMatch(base)
		m.ClockPending, m.InvitePending = true, [2]bool{false, true}
		m.InviteArrived[game.Red] = base.Add(time.Minute)
		got, err := tc.act(m)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got.ClockPending || !got.ClockStarted.Equal(tc.want) {
			t.Errorf("%s: clock pending %v, started %v, want %v", tc.name, got.ClockPending, got.ClockStarted, tc.want)
		}
	}
}
