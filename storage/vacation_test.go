package storage_test

import (
	"errors"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// TestCancelVacation: a vacation that stopped no clock is taken back, and
// costs no days; the player's other vacations stay as they were.
func TestCancelVacation(t *testing.T) {
	day := 24 * time.Hour
	jan := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		cancel   time.Time // when the vacation to take back began
		ok       bool
		wantUsed int // days used in the year after
	}{
		{name: "the vacation just begun", cancel: jan.Add(20 * day), ok: true, wantUsed: 2},
		{name: "within the second it began", cancel: jan.Add(20*day + 400*time.Millisecond), ok: true, wantUsed: 2},
		{name: "no vacation began then", cancel: jan.Add(21 * day), ok: false, wantUsed: 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p storage.PlayerSettings
			if err := p.StartVacation(jan, 2); err != nil {
				t.Fatal(err)
			}
			if err := p.StartVacation(jan.Add(20*day), 5); err != nil {
				t.Fatal(err)
			}
			if ok := p.CancelVacation(tc.cancel); ok != tc.ok {
				t.Errorf("CancelVacation reported %v, want %v", ok, tc.ok)
			}
			if used := p.VacationDaysUsed(jan.Add(20 * day)); used != tc.wantUsed {
				t.Errorf("%d days used after it, want %d (vacations %v)", used, tc.wantUsed, p.Vacations)
			}
			if _, on := p.OnVacation(jan.Add(20*day + time.Hour)); on != !tc.ok {
				t.Errorf("on vacation after it: %v, want %v", on, !tc.ok)
			}
		})
	}
}

// TestStartVacationOnceAcrossASecond: a vacation asked for at a time read
// before another began (its request read its time later, maybe in the next
// second, and recorded first) is refused, as one asked during it is: it
// would cost the days twice. One asked once the other ended, early or
// on time, is not.
func TestStartVacationOnceAcrossASecond(t *testing.T) {
	day := 24 * time.Hour
	first := time.Date(2026, 12, 6, 12, 0, 1, 20e6, time.UTC) // begins at 12:00:01
	tests := []struct {
		name    string
		endedAt time.Time // the first ended early then; zero: it runs its course
		at      time.Time // when the second was asked for
		ok      bool
	}{
		{name: "read 100 ms before, in the second before", at: first.Add(-100 * time.Millisecond)},
		{name: "read in the same second, before", at: first.Add(-10 * time.Millisecond)},
		{name: "read a minute before", at: first.Add(-time.Minute)},
		{name: "during it", at: first.Add(day)},
		{name: "once it ran its course", at: first.Add(5 * day), ok: true},
		{name: "once it ended early", endedAt: first.Add(day), at: first.Add(day + time.Second), ok: true},
		{name: "in the second it ended early", endedAt: first.Add(day + 300*time.Millisecond), at: first.Add(day + 100*time.Millisecond), ok: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p storage.PlayerSettings
			if err := p.StartVacation(first, 5); err != nil {
				t.Fatal(err)
			}
			if !tc.endedAt.IsZero() && !p.EndVacation(tc.endedAt) {
				t.Fatal("no vacation to end")
			}
			if _, on := p.VacationSince(tc.at); on == tc.ok {
				t.Errorf("VacationSince(%v) reported %v, want %v", tc.at, on, !tc.ok)
			}
			err := p.StartVacation(tc.at, 5)
			if ok := err == nil; ok != tc.ok {
				t.Errorf("StartVacation(%v): error %v; want accepted %v (vacations %+v)", tc.at, err, tc.ok, p.Vacations)
			}
			if !tc.ok && (len(p.Vacations) != 1 || !errors.Is(err, storage.ErrInvalid)) {
				t.Errorf("refused with %v, vacations %+v; want ErrInvalid and the first alone", err, p.Vacations)
			}
		})
	}
}

// TestVacationOpenAtEnd: a match that ended while a player's vacation held
// their clock says so, for that player only; one still on, or one whose
// vacation was ended, by its end or a move of theirs, or ran out before the
// end, does not.
func TestVacationOpenAtEnd(t *testing.T) {
	day := 24 * time.Hour
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	away := storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 5, At: t0}
	tests := []struct {
		name  string
		phase storage.Phase
		ended time.Time
		log   []storage.Action
		want  [2]bool
	}{
		{name: "ended during the vacation", phase: storage.PhaseFinished, ended: t0.Add(day), log: []storage.Action{away}, want: [2]bool{true, false}},
		{name: "abandoned during the vacation", phase: storage.PhaseAbandoned, ended: t0.Add(day), log: []storage.Action{away}, want: [2]bool{true, false}},
		{name: "still on", phase: storage.PhasePlaying, log: []storage.Action{away}},
		{name: "ended after the vacation ran out", phase: storage.PhaseFinished, ended: t0.Add(6 * day), log: []storage.Action{away}},
		{name: "ended after her return", phase: storage.PhaseFinished, ended: t0.Add(3 * day),
			log: []storage.Action{away, {Kind: storage.ActVacationEnd, Side: game.Red, At: t0.Add(2 * day)}}},
		{name: "ended after a move of hers", phase: storage.PhaseFinished, ended: t0.Add(3 * day),
			log: []storage.Action{away, {Kind: storage.ActMove, Side: game.Red, At: t0.Add(2 * day)}}},
		{name: "no vacation", phase: storage.PhaseFinished, ended: t0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &storage.Match{Phase: tc.phase, Ended: tc.ended, Log: tc.log}
			for side := game.Red; side <= game.Blue; side++ {
				if got := m.VacationOpenAtEnd(side); got != tc.want[side] {
					t.Errorf("%s: %v, want %v", side, got, tc.want[side])
				}
			}
		})
	}
}

// TestVacationHeldUntil: when a vacation of Red's that began at or after a
// time stopped holding her clock in a match, from the match's log.
func TestVacationHeldUntil(t *testing.T) {
	day := 24 * time.Hour
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	away := func(at time.Time, days int) storage.Action {
		return storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: days, At: at}
	}
	tests := []struct {
		name  string
		log   []storage.Action
		ended time.Time // zero: the match is still in play
		want  time.Time // zero: none began since start
	}{
		{name: "no vacation", log: nil},
		{name: "one that began before", log: []storage.Action{away(start.Add(-day), 5)}},
		{name: "Blue's", log: []storage.Action{{Kind: storage.ActVacation, Side: game.Blue, Days: 5, At: start}}},
		{name: "still holding the clock", log: []storage.Action{away(start, 5)}, want: start.Add(5 * day)},
		{name: "the match ended during it", log: []storage.Action{away(start, 5)}, ended: start.Add(2 * day), want: start.Add(2 * day)},
		{name: "the match ended after it ran out", log: []storage.Action{away(start, 5)}, ended: start.Add(7 * day), want: start.Add(5 * day)},
		{name: "ended early", log: []storage.Action{away(start, 5), {Kind: storage.ActVacationEnd, Side: game.Red, At: start.Add(day)}},
			ended: start.Add(3 * day), want: start.Add(day)},
		{name: "ended by her move", log: []storage.Action{away(start, 5), {Kind: storage.ActMove, Side: game.Red, At: start.Add(2 * day)}},
			want: start.Add(2 * day)},
		{name: "Blue's end ends nothing of Red's", log: []storage.Action{away(start, 5), {Kind: storage.ActVacationEnd, Side: game.Blue, At: start.Add(day)}},
			ended: start.Add(3 * day), want: start.Add(3 * day)},
		{name: "carried in later", log: []storage.Action{away(start.Add(day), 3)}, ended: start.Add(2 * day), want: start.Add(2 * day)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &storage.Match{Phase: storage.PhasePlaying, Log: tc.log}
			if !tc.ended.IsZero() {
				m.Phase, m.Ended = storage.PhaseFinished, tc.ended
			}
			if got := m.VacationHeldUntil(game.Red, start); !got.Equal(tc.want) {
				t.Errorf("held until %v, want %v", got, tc.want)
			}
		})
	}
}

// TestVacationDaysAcrossTheNewYear: each started day of a vacation costs
// one day of the allowance of the year it starts in, so a vacation over
// the new year costs each year only its own days, and the longest vacation
// one may start late in December uses what is left of this year and then
// next year's allowance.
func TestVacationDaysAcrossTheNewYear(t *testing.T) {
	day := 24 * time.Hour
	at := func(month time.Month, d, hour int) time.Time {
		return time.Date(2026, month, d, hour, 0, 0, 0, time.UTC)
	}
	for _, c := range []struct {
		name               string
		taken              []storage.Vacation
		now                time.Time
		used2026, used2027 int
		longest            int // from now, with an allowance of 30
	}{
		{"one day from noon on 31 December", []storage.Vacation{{Start: at(12, 31, 12), End: at(12, 31, 12).Add(day)}}, time.Time{}, 1, 0, 0},
		{"four days from 30 December", []storage.Vacation{{Start: at(12, 30, 9), End: at(12, 30, 9).Add(4 * day)}}, time.Time{}, 2, 2, 0},
		{"ended after an hour", []storage.Vacation{{Start: at(6, 1, 9), End: at(6, 1, 10)}}, at(6, 2, 9), 1, 0, 29},
		{"two short ones cost a day each", []storage.Vacation{{Start: at(6, 1, 9), End: at(6, 1, 10)}, {Start: at(6, 3, 9), End: at(6, 3, 10)}}, at(6, 4, 9), 2, 0, 28},
		{"28 used, asking on 30 December", []storage.Vacation{{Start: at(3, 1, 0), End: at(3, 1, 0).Add(28 * day)}}, at(12, 30, 9), 28, 0, 32},
		{"all used, asking on 31 December", []storage.Vacation{{Start: at(3, 1, 0), End: at(3, 1, 0).Add(30 * day)}}, at(12, 31, 9), 30, 0, 0},
		{"nothing taken, in mid-year", nil, at(6, 1, 0), 0, 0, 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &storage.PlayerSettings{Vacations: c.taken}
			if got := p.VacationDaysUsed(at(7, 1, 0)); got != c.used2026 {
				t.Errorf("2026: %d days used, want %d", got, c.used2026)
			}
			if got := p.VacationDaysUsed(at(7, 1, 0).AddDate(1, 0, 0)); got != c.used2027 {
				t.Errorf("2027: %d days used, want %d", got, c.used2027)
			}
			if c.now.IsZero() {
				return
			}
			if got := p.VacationDaysLeft(c.now, 30); got != c.longest {
				t.Errorf("the longest vacation from %v: %d days, want %d", c.now, got, c.longest)
			}
		})
	}
}

// TestVacationFits: a vacation under way fits a yearly allowance when, in
// each year it has days in, the days counted there, its own and the
// player's other vacations', are no more than the allowance: what a
// vacation asked for within that allowance would have been held to. A
// year it has no day in does not count, however full.
func TestVacationFits(t *testing.T) {
	day := 24 * time.Hour
	at := func(year int, month time.Month, d, hour int) time.Time {
		return time.Date(year, month, d, hour, 0, 0, 0, time.UTC)
	}
	earlier := storage.Vacation{Start: at(2026, 3, 1, 9), End: at(2026, 3, 1, 9).Add(3 * day)}
	for _, c := range []struct {
		name      string
		v         storage.Vacation
		others    []storage.Vacation
		allowance int
		fits      bool
	}{
		{"three days of five", storage.Vacation{Start: at(2026, 6, 1, 9), End: at(2026, 6, 1, 9).Add(3 * day)}, nil, 5, true},
		{"five days of five", storage.Vacation{Start: at(2026, 6, 1, 9), End: at(2026, 6, 1, 9).Add(5 * day)}, nil, 5, true},
		{"twenty days of five", storage.Vacation{Start: at(2026, 6, 1, 9), End: at(2026, 6, 1, 9).Add(20 * day)}, nil, 5, false},
		{"three days after three taken, of five", storage.Vacation{Start: at(2026, 6, 1, 9), End: at(2026, 6, 1, 9).Add(3 * day)}, []storage.Vacation{earlier}, 5, false},
		{"three days after three taken, of six", storage.Vacation{Start: at(2026, 6, 1, 9), End: at(2026, 6, 1, 9).Add(3 * day)}, []storage.Vacation{earlier}, 6, true},
		{"ended early: the two days it took, of two", storage.Vacation{Start: at(2026, 6, 1, 9), End: at(2026, 6, 2, 10)}, nil, 2, true},
		{"six days across the new year, three in each, of three", storage.Vacation{Start: at(2026, 12, 29, 9), End: at(2026, 12, 29, 9).Add(6 * day)}, nil, 3, true},
		{"six days across the new year, of two", storage.Vacation{Start: at(2026, 12, 29, 9), End: at(2026, 12, 29, 9).Add(6 * day)}, nil, 2, false},
		{"in the new year, after a full old one", storage.Vacation{Start: at(2027, 1, 5, 9), End: at(2027, 1, 5, 9).Add(2 * day)},
			[]storage.Vacation{{Start: at(2026, 3, 1, 9), End: at(2026, 3, 1, 9).Add(20 * day)}}, 5, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &storage.PlayerSettings{Vacations: append(c.others, c.v)}
			if got := p.VacationFits(c.v, c.allowance); got != c.fits {
				t.Errorf("VacationFits(%v–%v, %d) = %v, want %v", c.v.Start, c.v.End, c.allowance, got, c.fits)
			}
		})
	}
}

// TestStoppedAt: a side's clock is stopped at a time while a pause agreed,
// or a vacation of its own, is under way then; not before, not once it
// ran out or was ended, by its end or a move of that side's, and not by
// the opponent's vacation.
func TestStoppedAt(t *testing.T) {
	day := 24 * time.Hour
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	pause := []storage.Action{{Kind: storage.ActOfferPause, Side: game.Red, Days: 2, At: t0}, {Kind: storage.ActAcceptPause, Side: game.Blue, Days: 2, At: t0.Add(time.Hour)}}
	away := storage.Action{Kind: storage.ActVacation, Side: game.Blue, Days: 3, At: t0}
	tests := []struct {
		name string
		log  []storage.Action
		side game.Side
		at   time.Time
		want bool
	}{
		{"during a pause", pause, game.Blue, t0.Add(day), true},
		{"before the pause was agreed", pause, game.Blue, t0.Add(time.Minute), false},
		{"once the pause ran out", pause, game.Red, t0.Add(time.Hour + 2*day), false},
		{"during one's vacation", []storage.Action{away}, game.Blue, t0.Add(day), true},
		{"during the opponent's vacation", []storage.Action{away}, game.Red, t0.Add(day), false},
		{"once the vacation ran out", []storage.Action{away}, game.Blue, t0.Add(3 * day), false},
		{"after its end", []storage.Action{away, {Kind: storage.ActVacationEnd, Side: game.Blue, At: t0.Add(day)}}, game.Blue, t0.Add(2 * day), false},
		{"after a move of one's own", []storage.Action{away, {Kind: storage.ActMove, Side: game.Blue, At: t0.Add(day)}}, game.Blue, t0.Add(2 * day), false},
		{"before that move", []storage.Action{away, {Kind: storage.ActMove, Side: game.Blue, At: t0.Add(day)}}, game.Blue, t0.Add(time.Hour), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &storage.Match{Phase: storage.PhasePlaying, Log: tc.log}
			if got := m.StoppedAt(tc.side, tc.at); got != tc.want {
				t.Errorf("StoppedAt: %v, want %v", got, tc.want)
			}
		})
	}
}

// TestVacationEndedByMove: a move of the player's own, made before the end
// of their vacation that began in the match at or after since, ended it;
// not one after it ran out or was ended, one of the opponent's, or one that
// ended an older vacation.
func TestVacationEndedByMove(t *testing.T) {
	day := 24 * time.Hour
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	away := storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 5, At: t0}
	move := func(side game.Side, at time.Time) storage.Action {
		return storage.Action{Kind: storage.ActMove, Side: side, At: at}
	}
	tests := []struct {
		name  string
		since time.Time
		log   []storage.Action
		want  time.Time // zero: none
	}{
		{name: "her move in it", since: t0, log: []storage.Action{away, move(game.Blue, t0.Add(day)), move(game.Red, t0.Add(2*day))}, want: t0.Add(2 * day)},
		{name: "his move only", since: t0, log: []storage.Action{away, move(game.Blue, t0.Add(day))}},
		{name: "her move after it ran out", since: t0, log: []storage.Action{away, move(game.Red, t0.Add(6*day))}},
		{name: "her move after its end", since: t0, log: []storage.Action{away, {Kind: storage.ActVacationEnd, Side: game.Red, At: t0.Add(day)}, move(game.Red, t0.Add(2*day))}},
		{name: "an older vacation", since: t0.Add(time.Hour), log: []storage.Action{away, move(game.Red, t0.Add(2*day))}},
		{name: "no vacation", since: t0, log: []storage.Action{move(game.Red, t0)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &storage.Match{Phase: storage.PhasePlaying, Log: tc.log}
			at, ok := m.VacationEndedByMove(game.Red, tc.since)
			if ok != !tc.want.IsZero() || !at.Equal(tc.want) {
				t.Errorf("VacationEndedByMove: %v, %v; want %v", at, ok, tc.want)
			}
		})
	}
}

// TestMovedOnVacation: the log's last action is a move of Red's made while
// the match held a vacation of Red's open, whatever the match was when the
// move's command read it; not a move after its end, a move of the
// opponent's, or another action last. A move that ended the match counts.
func TestMovedOnVacation(t *testing.T) {
	day := 24 * time.Hour
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	away := storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 5, At: t0}
	move := func(side game.Side, at time.Time) storage.Action {
		return storage.Action{Kind: storage.ActMove, Side: side, At: at}
	}
	for _, tc := range []struct {
		name  string
		phase storage.Phase
		log   []storage.Action
		want  bool
	}{
		{"her move in it", storage.PhasePlaying, []storage.Action{away, move(game.Red, t0)}, true},
		{"her move that ended the game", storage.PhaseFinished, []storage.Action{away, move(game.Red, t0.Add(day))}, true},
		{"her move after its end", storage.PhasePlaying, []storage.Action{away, {Kind: storage.ActVacationEnd, Side: game.Red, At: t0.Add(day)}, move(game.Red, t0.Add(day))}, false},
		{"her second move", storage.PhasePlaying, []storage.Action{away, move(game.Red, t0), move(game.Blue, t0), move(game.Red, t0.Add(day))}, false},
		{"his move", storage.PhasePlaying, []storage.Action{away, move(game.Blue, t0)}, false},
		{"a gift last", storage.PhasePlaying, []storage.Action{away, move(game.Red, t0), {Kind: storage.ActGiveTime, Side: game.Blue, At: t0}}, false},
		{"no vacation", storage.PhasePlaying, []storage.Action{move(game.Red, t0)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &storage.Match{Phase: tc.phase, Log: tc.log}
			if got := m.MovedOnVacation(game.Red); got != tc.want {
				t.Errorf("MovedOnVacation: %v, want %v", got, tc.want)
			}
		})
	}
}
