package bolt

import (
	"context"
	"slices"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// standingKey is the key of a standing record: guild 0 variant user.
func standingKey(guild string, v game.Variant, user string) []byte {
	return append(prefixKey(guild, byte(v)), user...)
}

func loadStanding(tx *bbolt.Tx, guild string, v game.Variant, user string) (storage.Standing, error) {
	data := tx.Bucket(bucketStandings).Get(standingKey(guild, v, user))
	if data == nil {
		return storage.NewStanding(guild, v, user), nil
	}
	return storage.DecodeStanding(guild, v, user, data)
}

func putStanding(tx *bbolt.Tx, s storage.Standing) error {
	data, err := storage.EncodeStanding(s)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketStandings).Put(standingKey(s.GuildID, s.Variant, s.UserID), data)
}

// recordResult counts a finished match in both players' standings (see
// storage.Rate). The caller sets RatingApplied in the same transaction, so a
// match is counted exactly once.
func recordResult(tx *bbolt.Tx, m *storage.Match) error {
	var before [2]storage.Standing
	for side := range before {
		s, err := loadStanding(tx, m.GuildID, m.Rules.Variant, m.Players[side].UserID)
		if err != nil {
			return err
		}
		before[side] = s
	}
	for _, s := range storage.Rate(m, before) {
		if err := putStanding(tx, s); err != nil {
			return err
		}
	}
	return nil
}

// Standing returns one player's standing.
func (db *DB) Standing(ctx context.Context, guildID string, v game.Variant, userID string) (storage.Standing, error) {
	var s storage.Standing
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		s, err = loadStanding(tx, guildID, v, userID)
		return err
	})
	return s, err
}

// Standings returns a server's table for a variant, best rating first.
func (db *DB) Standings(ctx context.Context, guildID string, v game.Variant, limit int) ([]storage.Standing, error) {
	var out []storage.Standing
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		prefix := prefixKey(guildID, byte(v))
		c := tx.Bucket(bucketStandings).Cursor()
		for k, data := c.Seek(prefix); k != nil && len(k) > len(prefix) && string(k[:len(prefix)]) == string(prefix); k, data = c.Next() {
			s, err := storage.DecodeStanding(guildID, v, string(k[len(prefix):]), data)
			if err != nil {
				return err
			}
			out = append(out, s)
		}
		return nil
	})
	slices.SortStableFunc(out, func(a, b storage.Standing) int {
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
