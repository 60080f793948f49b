package storage

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
)

// TestAwayCredit: of the time nobody ran the timers, from A to B, a match
// is given back the part its clock ran: not what a pause or a vacation
// already stopped, nor what an earlier ActAway gave back, nothing while its
// clock waited for its board or after its time had run out.
func TestAwayCredit(t *testing.T) {
	day := 24 * time.Hour
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	a, b := t0.Add(10*time.Hour), t0.Add(16*time.Hour) // the bot away from a to b
	red := func(k ActionKind, at time.Time, days int) Action {
		return Action{Kind: k, Side: game.Red, At: at, Days: days}
	}
	blue := func(k ActionKind, at time.Time, days int) Action {
		return Action{Kind: k, Side: game.Blue, At: at, Days: days}
	}
	move := Action{Kind: ActMove, Side: game.Red, At: t0} // Blue to move from t0
	tests := []struct {
		name     string
		phase    Phase
		log      []Action
		deadline time.Time
		pending  bool
		want     time.Duration
	}{
		{"the deadline after the outage", PhasePlaying, []Action{move}, t0.Add(day), false, 6 * time.Hour},
		{"the deadline in the outage", PhasePlaying, []Action{move}, t0.Add(12 * time.Hour), false, 6 * time.Hour},
		{"the time ran out before it", PhasePlaying, []Action{move}, a, false, 0},
		{"the board still on its way", PhasePlaying, []Action{move}, t0.Add(day), true, 0},
		{"nobody must act", PhaseFinished, []Action{move}, time.Time{}, false, 0},
		{"paused throughout", PhasePlaying, []Action{move, blue(ActOfferPause, t0, 3), red(ActAcceptPause, t0.Add(time.Hour), 3)}, t0.Add(4 * day), false, 0},
		{"a pause ran out in it", PhasePlaying, []Action{move, blue(ActOfferPause, t0.Add(-day), 1), red(ActAcceptPause, a.Add(-day+2*time.Hour), 1)}, t0.Add(2 * day), false, 4 * time.Hour},
		{"a vacation of the side to move ran out in it", PhasePlaying, []Action{move, blue(ActVacation, a.Add(-day+time.Hour), 1)}, t0.Add(2 * day), false, 5 * time.Hour},
		{"a vacation ended before it", PhasePlaying, []Action{move, blue(ActVacation, t0, 3), blue(ActVacationEnd, t0.Add(time.Hour), 0)}, t0.Add(day), false, 6 * time.Hour},
		{"a vacation of the side that waits", PhasePlaying, []Action{move, red(ActVacation, t0, 3)}, t0.Add(day), false, 6 * time.Hour},
		{"set-up", PhaseSetup, nil, t0.Add(day), false, 6 * time.Hour},
		{"set-up, a vacation of either throughout", PhaseSetup, []Action{red(ActVacation, t0, 2)}, t0.Add(3 * day), false, 0},
		{"set-up, a vacation ran out in it", PhaseSetup, []Action{blue(ActVacation, a.Add(-day+3*time.Hour), 1)}, t0.Add(3 * day), false, 3 * time.Hour},
		{"given back already", PhasePlaying, []Action{move, {Kind: ActAway, Side: game.Blue, At: b, Away: b.Sub(a)}}, t0.Add(day + 6*time.Hour), false, 0},
		{"its first hours given back already", PhasePlaying, []Action{move, {Kind: ActAway, Side: game.Blue, At: a.Add(2 * time.Hour), Away: 4 * time.Hour}}, t0.Add(day + 2*time.Hour), false, 4 * time.Hour},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &Match{Phase: tc.phase, Log: tc.log, Deadline: tc.deadline, ClockPending: tc.pending, MoveTime: day}
			if got := m.awayCredit(a, b); got != tc.want {
				t.Errorf("credit %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAwayCreditFromArrival: a board that arrived while nobody ran the
// timers (the outbox runs while the gateway is lost) started its clock
// then: only the time after it is given back.
func TestAwayCreditFromArrival(t *testing.T) {
	day := 24 * time.Hour
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	a, b := t0.Add(10*time.Hour), t0.Add(16*time.Hour) // away from a to b
	move := Action{Kind: ActMove, Side: game.Red, At: t0}
	for _, tc := range []struct {
		name    string
		started time.Time
		want    time.Duration
	}{
		{"before the time away", t0.Add(time.Hour), 6 * time.Hour},
		{"in it", a.Add(4 * time.Hour), 2 * time.Hour},
		{"as it ended", b, 0},
	} {
		m := &Match{Phase: PhasePlaying, Log: []Action{move}, Deadline: tc.started.Add(day), ClockStarted: tc.started, MoveTime: day}
		if got := m.awayCredit(a, b); got != tc.want {
			t.Errorf("the board arrived %s: credit %v, want %v", tc.name, got, tc.want)
		}
	}
}
