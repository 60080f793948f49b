package storage

import (
	"encoding/json"
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := &Tournament{ID: 1, Version: 1, GuildID: "g", ChannelID: "c", Name: "League", CreatorID: "u", Created: at,
				Rules: tournament.DefaultRules(tournament.RoundRobin, 0), Game: game.DefaultRules(game.VariantClassic),
				MoveTime: time.Hour, RoundTime: 7 * 24 * time.Hour, StartAt: at.Add(24 * time.Hour), JoinBy: at, MaxPlayers: 4,
				Log: tc.log, RoundDeadline: deadline, MembersDue: tc.due, Done: tc.done, Starting: tc.starting}
			data, err := EncodeTournament(x)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeTournament(data)
			if err != nil {
				t.Fatal(err)
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
