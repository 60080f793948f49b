package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

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

func standingKey(guild string, v game.Variant, user string) []byte {
	return append(prefixKey(guild, byte(v)), user...)
}

func loadStanding(tx *bolt.Tx, guild string, v game.Variant, user string) (Standing, error) {
	s := newStanding(guild, v, user)
	data := tx.Bucket(bucketStandings).Get(standingKey(guild, v, user))
	if data == nil {
		return s, nil
	}
	return decodeStanding(s, data)
}

func decodeStanding(s Standing, data []byte) (Standing, error) {
	var rec standingRecord
	if err := unmarshalRecord(data, &rec, &rec.V, "standing", standingRecordVersion); err != nil {
		return s, fmt.Errorf("standing of %s: %w", s.UserID, err)
	}
	s.Name, s.Wins, s.Losses, s.Draws = rec.Name, rec.Wins, rec.Losses, rec.Draws
	s.Rating, s.RD, s.Volatility, s.LastPlayed = rec.Rating, rec.RD, rec.Sigma, fromUnix(rec.Last)
	return s, nil
}

func putStanding(tx *bolt.Tx, s Standing) error {
	data, err := json.Marshal(&standingRecord{
		V: standingRecordVersion, Name: s.Name, Wins: s.Wins, Losses: s.Losses, Draws: s.Draws,
		Rating: s.Rating, RD: s.RD, Sigma: s.Volatility, Last: unixTime(s.LastPlayed),
	})
	if err != nil {
		return err
	}
	return tx.Bucket(bucketStandings).Put(standingKey(s.GuildID, s.Variant, s.UserID), data)
}

// recordResult counts a finished match in both players' standings (see
// Rate). The caller sets RatingApplied in the same transaction, so a match is
// counted exactly once.
func recordResult(tx *bolt.Tx, m *Match) error {
	var before [2]Standing
	for side := range before {
		s, err := loadStanding(tx, m.GuildID, m.Rules.Variant, m.Players[side].UserID)
		if err != nil {
			return err
		}
		before[side] = s
	}
	for _, s := range rate(m, before) {
		if err := putStanding(tx, s); err != nil {
			return err
		}
	}
	return nil
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

// Standing returns one player's standing.
func (db *DB) Standing(ctx context.Context, guildID string, v game.Variant, userID string) (Standing, error) {
	var s Standing
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		s, err = loadStanding(tx, guildID, v, userID)
		return err
	})
	return s, err
}

// Standings returns a server's table for a variant, best rating first.
func (db *DB) Standings(ctx context.Context, guildID string, v game.Variant, limit int) ([]Standing, error) {
	var out []Standing
	err := db.view(ctx, func(tx *bolt.Tx) error {
		prefix := prefixKey(guildID, byte(v))
		c := tx.Bucket(bucketStandings).Cursor()
		for k, data := c.Seek(prefix); k != nil && len(k) > len(prefix) && string(k[:len(prefix)]) == string(prefix); k, data = c.Next() {
			s, err := decodeStanding(newStanding(guildID, v, string(k[len(prefix):])), data)
			if err != nil {
				return err
			}
			out = append(out, s)
		}
		return nil
	})
	slices.SortStableFunc(out, func(a, b Standing) int {
		switch {
		case a.Rating > b.Rating:
			return -1
		case a.Rating < b.Rating:
			return 1
		}
		return 0
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, err
}
