package storage

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/strategobot/strategobot/game"
)

// RatingPeriod is the idle time that counts as one Glicko-2 rating period
// without games: a player's RD grows by one period's worth for each one that
// passed since their last rated game in that server and variant.
const RatingPeriod = 7 * 24 * time.Hour

// Standing is a player's record in one server and variant.
type Standing struct {
	GuildID             string
	Variant             game.Variant
	UserID              string
	Name                string // the name in their latest rated match
	Wins, Losses, Draws int
	// Rating and RD are the Glicko-2 rating and its deviation on the Glicko
	// scale (1500 ± 350 to start); Volatility is σ.
	Rating, RD, Volatility float64
	LastPlayed             time.Time
}

// Played returns the number of rated games.
func (s Standing) Played() int { return s.Wins + s.Losses + s.Draws }

func newStanding(guild string, v game.Variant, user string) Standing {
	return Standing{GuildID: guild, Variant: v, UserID: user, Rating: initialRating, RD: initialRD, Volatility: initialVolatility}
}

// standingRecord is a Standing as stored in one record (the bbolt backend's;
// PostgreSQL keeps standings in columns, to sort its table in SQL). The
// record's key holds the server, the variant and the player.
type standingRecord struct {
	V      int     `json:"v"`
	Name   string  `json:"name,omitempty"`
	Wins   int     `json:"w,omitempty"`
	Losses int     `json:"l,omitempty"`
	Draws  int     `json:"d,omitempty"`
	Rating float64 `json:"r"`
	RD     float64 `json:"rd"`
	Sigma  float64 `json:"sigma"`
	Last   int64   `json:"last,omitempty"`
}

func encodeStanding(s Standing) ([]byte, error) {
	return json.Marshal(&standingRecord{
		V: standingRecordVersion, Name: s.Name, Wins: s.Wins, Losses: s.Losses, Draws: s.Draws,
		Rating: s.Rating, RD: s.RD, Sigma: s.Volatility, Last: unixTime(s.LastPlayed),
	})
}

// decodeStanding reads a standing record into s, which holds its key.
func decodeStanding(s Standing, data []byte) (Standing, error) {
	var rec standingRecord
	if err := unmarshalRecord(data, &rec, &rec.V, "standing", standingRecordVersion); err != nil {
		return s, fmt.Errorf("standing of %s: %w", s.UserID, err)
	}
	s.Name, s.Wins, s.Losses, s.Draws = rec.Name, rec.Wins, rec.Losses, rec.Draws
	s.Rating, s.RD, s.Volatility, s.LastPlayed = rec.Rating, rec.RD, rec.Sigma, fromUnix(rec.Last)
	return s, nil
}

// rate is one Glicko-2 rating period holding this one game, after growing
// each RD for the periods the player was idle.
func rate(m *Match, st [2]Standing) [2]Standing {
	var before [2]glicko
	for side, s := range st {
		g := glicko{R: s.Rating, RD: s.RD, Sigma: s.Volatility}
		if !s.LastPlayed.IsZero() {
			g = g.idle(int(m.Ended.Sub(s.LastPlayed) / RatingPeriod))
		}
		before[side] = g
	}
	for side := range st {
		score := 0.5
		if w, ok := m.Result.Winner(); ok {
			score = 0
			if int(w) == side {
				score = 1
			}
		}
		s := &st[side]
		switch score {
		case 1:
			s.Wins++
		case 0:
			s.Losses++
		default:
			s.Draws++
		}
		after := before[side].update([]glickoGame{{Opponent: before[1-side], Score: score}}, glickoTau)
		s.Rating, s.RD, s.Volatility = after.R, after.RD, after.Sigma
		s.Name, s.LastPlayed = m.Players[side].Name, m.Ended
	}
	return st
}

// rated reports whether the match's result counts in the standings.
func (m *Match) rated() bool {
	return m.Phase == PhaseFinished && m.Result.Over() && m.GuildID != "" && !m.Casual
}
