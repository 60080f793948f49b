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
