package storage

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/tournament"
)

// TestTournamentRecordAllAtOnce: a round robin's rules keep whether it is
// played all at once, and a record stored before the flag existed reads
// as played round by round.
func TestTournamentRecordAllAtOnce(t *testing.T) {
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	base := &Tournament{ID: 1, Version: 1, GuildID: "g", ChannelID: "c", Name: "League", CreatorID: "u", Created: at,
		Rules: tournament.DefaultRules(tournament.RoundRobin, 0), Game: game.DefaultRules(game.VariantClassic),
		MoveTime: time.Hour, RoundTime: 24 * time.Hour, StartAt: at, JoinBy: at, MaxPlayers: 4}
	tests := []struct {
		name  string
		flag  bool
		strip bool // remove the flag from the record, as an old one lacks it
	}{
		{"all at once", true, false},
		{"round by round", false, false},
		{"stored before the flag", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rr := base.Clone()
			rr.Rules.AllAtOnce = tc.flag
			data, err := EncodeTournament(rr)
			if err != nil {
				t.Fatal(err)
			}
			if tc.strip {
				var rec map[string]any
				if err := json.Unmarshal(data, &rec); err != nil {
					t.Fatal(err)
				}
				delete(rec["rules"].(map[string]any), "AllAtOnce")
				if data, err = json.Marshal(rec); err != nil {
					t.Fatal(err)
				}
			}
			got, err := DecodeTournament(data)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.flag && !tc.strip; got.Rules.AllAtOnce != want {
				t.Errorf("all at once %v, want %v", got.Rules.AllAtOnce, want)
			}
		})
	}
}

// TestTournamentWakeMembers: while a round is under way, a tournament wakes
// at its round's deadline or at the check of its players' membership,
// whichever comes first, and at once when they were never checked; before
// the start, done, or starting its matches, the check plays no part; one
// starting its matches is due at once even when done (cancelled meanwhile).
// The check's time is kept by the record.
func TestTournamentWakeMembers(t *testing.T) {
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	deadline := at.Add(7 * 24 * time.Hour)
	paired := []tournament.Event{tournament.Join("a", 1500), tournament.Join("b", 1500)}
	paired = append(paired, tournament.Event{Kind: tournament.Paired, Round: 1, Games: []tournament.Pairing{{Red: "a", Blue: "b"}}})
	tests := []struct {
		name     string
		log      []tournament.Event
		due      time.Time // MembersDue
		done     bool
		starting bool
		want     time.Time
		ok       bool
	}{
		{"before the start", paired[:2], at.Add(time.Hour), false, false, at.Add(24 * time.Hour), true},
		{"never checked", paired, time.Time{}, false, false, at, true},
		{"check first", paired, at.Add(25 * time.Hour), false, false, at.Add(25 * time.Hour), true},
		{"deadline first", paired, deadline.Add(time.Hour), false, false, deadline, true},
		{"starting", paired, at.Add(25 * time.Hour), false, true, at, true},
		{"done", paired, at.Add(25 * time.Hour), true, false, time.Time{}, false},
		{"cancelled while starting", paired, at.Add(25 * time.Hour), true, true, at, true},
		{"cancelled, its games to call off", paired, at.Add(25 * time.Hour), true, false, at.Add(25 * time.Hour), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := &Tournament{ID: 1, Version: 1, GuildID: "g", ChannelID: "c", Name: "League", CreatorID: "u", Created: at,
				Rules: tournament.DefaultRules(tournament.RoundRobin, 0), Game: game.DefaultRules(game.VariantClassic),
				MoveTime: time.Hour, RoundTime: 7 * 24 * time.Hour, StartAt: at.Add(24 * time.Hour), JoinBy: at, MaxPlayers: 4,
				Log: tc.log, RoundDeadline: deadline, MembersDue: tc.due, Done: tc.done, Starting: tc.starting,
				CallingOff: strings.HasSuffix(tc.name, "to call off")}
			data, err := EncodeTournament(x)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeTournament(data)
			if err != nil {
				t.Fatal(err)
			}
			if got.CallingOff != x.CallingOff {
				t.Errorf("the record keeps calling off %v, want %v", got.CallingOff, x.CallingOff)
			}
			if !got.MembersDue.Equal(tc.due) {
				t.Errorf("the record keeps the check at %v, want %v", got.MembersDue, tc.due)
			}
			if wake, ok := got.Wake(); ok != tc.ok || !wake.Equal(tc.want) {
				t.Errorf("wakes at %v (%v), want %v (%v)", wake, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestTournamentGiveAway: of the time nobody ran the timers, from A to B,
// a tournament is given back what its players raced against: the deadline
// of a round with a game still on moves on by all of it (the games' clocks
// stood still, so must the round's), and, before the start, while members
// could still join, the join deadline and the start with it. Nothing moves
// for a deadline or a join deadline passed before A, a round whose games
// all ended (its deadline only marks the next round due), a tournament
// over, or time given back already (AwayUntil).
func TestTournamentGiveAway(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	hour := time.Hour
	a, b := t0.Add(10*hour), t0.Add(16*hour) // the bot away from a to b
	base := func() *Tournament {
		return &Tournament{ID: 1, Version: 1, GuildID: "g", ChannelID: "c", Name: "League", CreatorID: "u", Created: t0,
			Rules: tournament.DefaultRules(tournament.Swiss, 3), Game: game.DefaultRules(game.VariantClassic),
			MoveTime: 24 * hour, RoundTime: 72 * hour, StartAt: t0.Add(12 * hour), JoinBy: t0.Add(11 * hour), MaxPlayers: 4,
			Log: []tournament.Event{tournament.Join("x", 1500), tournament.Join("y", 1500)}}
	}
	paired := func(deadline time.Time) func(*Tournament) {
		return func(tt *Tournament) {
			s, err := tt.State()
			if err != nil {
				t.Fatal(err)
			}
			e, err := s.NextRound()
			if err != nil {
				t.Fatal(err)
			}
			tt.Log = append(tt.Log, e)
			tt.StartAt, tt.JoinBy, tt.RoundDeadline = t0, t0, deadline
		}
	}
	tests := []struct {
		name              string
		change            func(*Tournament)
		round             time.Duration // how far the round's deadline moves
		join, start       time.Duration // how far the join deadline and the start move
		wantMoved, wantOK bool
	}{
		{name: "joining open across the outage", join: 6 * hour, start: 6 * hour, wantOK: true},
		{name: "joining closed before it", change: func(tt *Tournament) { tt.JoinBy = t0.Add(9 * hour) }},
		{name: "a round due after it", change: paired(t0.Add(20 * hour)), round: 6 * hour, wantMoved: true, wantOK: true},
		{name: "a round due during it", change: paired(t0.Add(11 * hour)), round: 6 * hour, wantMoved: true, wantOK: true},
		{name: "a round due before it", change: paired(t0.Add(9 * hour))},
		{name: "a round whose games all ended", change: func(tt *Tournament) {
			paired(t0.Add(20 * hour))(tt)
			tt.Log = append(tt.Log, tournament.Record(1, 1, tournament.RedWon))
		}},
		{name: "over", change: func(tt *Tournament) { paired(t0.Add(20 * hour))(tt); tt.Done = true }},
		{name: "given back already", change: func(tt *Tournament) { paired(t0.Add(20 * hour))(tt); tt.AwayFrom, tt.AwayUntil = a, b }},
		{name: "given back in part", change: func(tt *Tournament) {
			paired(t0.Add(20 * hour))(tt)
			tt.AwayFrom, tt.AwayUntil = a, a.Add(2*hour)
		}, round: 4 * hour, wantMoved: true, wantOK: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := base()
			if tc.change != nil {
				tc.change(tt)
			}
			before := tt.Clone()
			moved, err := tt.GiveAway(a, b)
			if (err == nil) != tc.wantOK || moved != tc.wantMoved {
				t.Fatalf("GiveAway: moved the round's deadline %v, %v; want %v, ok %v", moved, err, tc.wantMoved, tc.wantOK)
			}
			if got := tt.RoundDeadline.Sub(before.RoundDeadline); got != tc.round {
				t.Errorf("the round's deadline moved %v, want %v", got, tc.round)
			}
			if got := tt.JoinBy.Sub(before.JoinBy); got != tc.join {
				t.Errorf("the join deadline moved %v, want %v", got, tc.join)
			}
			if got := tt.StartAt.Sub(before.StartAt); got != tc.start {
				t.Errorf("the start moved %v, want %v", got, tc.start)
			}
			if tc.wantOK && !tt.AwayUntil.Equal(b) {
				t.Errorf("the time given back runs until %v, want %v", tt.AwayUntil, b)
			}
		})
	}
}

// TestTournamentOffThrough: the record keeps how many rounds are known
// over, and a change may count no more rounds than were paired.
func TestTournamentOffThrough(t *testing.T) {
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	old, err := PrepareTournament(&Tournament{ID: 1, GuildID: "g", ChannelID: "c", Name: "Cup", CreatorID: "u", Created: at,
		Rules: tournament.DefaultRules(tournament.Swiss, 3), Game: game.DefaultRules(game.VariantClassic),
		MoveTime: time.Hour, RoundTime: 24 * time.Hour, StartAt: at, JoinBy: at, MaxPlayers: 4})
	if err != nil {
		t.Fatal(err)
	}
	paired, err := ChangeTournament(old, 0, func(x *Tournament) error {
		x.Log = append(x.Log, tournament.Join("a", 1500), tournament.Join("b", 1500), tournament.Join("c", 1500), tournament.Join("d", 1500))
		s, err := x.State()
		if err != nil {
			return err
		}
		e, err := s.NextRound()
		if err != nil {
			return err
		}
		x.Log = append(x.Log, e, tournament.Record(1, 1, tournament.RedWon), tournament.Record(1, 2, tournament.BlueWon))
		s, err = x.State()
		if err != nil {
			return err
		}
		if e, err = s.NextRound(); err != nil {
			return err
		}
		x.Log = append(x.Log, e)
		x.OffThrough = 1
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := EncodeTournament(paired)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeTournament(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.OffThrough != 1 {
		t.Errorf("the record reads %d rounds known over, want 1", got.OffThrough)
	}
	for _, n := range []int{-1, 3} {
		if _, err := ChangeTournament(paired, 0, func(x *Tournament) error {
			x.OffThrough = n
			return nil
		}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%d rounds known over of 2 paired: %v, want ErrInvalid", n, err)
		}
	}
}
