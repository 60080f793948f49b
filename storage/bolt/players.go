package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

func (db *DB) loadPlayer(tx *bbolt.Tx, userID string) (*storage.PlayerSettings, error) {
	data := tx.Bucket(bucketPlayers).Get([]byte(userID))
	if data == nil {
		return &storage.PlayerSettings{UserID: userID}, nil
	}
	return db.players.get(userID, data)
}

// Player returns a player's settings, the defaults for a player never seen.
func (db *DB) Player(ctx context.Context, userID string) (*storage.PlayerSettings, error) {
	if userID == "" {
		return nil, fmt.Errorf("no user id: %w", storage.ErrInvalid)
	}
	var p *storage.PlayerSettings
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		p, err = db.loadPlayer(tx, userID)
		return err
	})
	return p, err
}

// UpdatePlayer changes a player's settings with fn in one transaction.
func (db *DB) UpdatePlayer(ctx context.Context, userID string, fn func(p *storage.PlayerSettings) error) (*storage.PlayerSettings, error) {
	if userID == "" {
		return nil, fmt.Errorf("no user id: %w", storage.ErrInvalid)
	}
	var out *storage.PlayerSettings
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		out = nil
		p, err := db.loadPlayer(tx, userID)
		if err != nil {
			return err
		}
		version, oldKey := p.Version, vacationKey(p)
		if err := fn(p); err != nil {
			return err
		}
		if err := storage.PreparePlayer(p, userID, version); err != nil {
			return err
		}
		data, err := storage.EncodePlayer(p)
		if err != nil {
			return err
		}
		if err := indexVacation(tx, oldKey, vacationKey(p)); err != nil {
			return err
		}
		out = p
		return tx.Bucket(bucketPlayers).Put([]byte(userID), data)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// indexVacation moves a player's key in the index of vacations from old to
// new (nil: none).
func indexVacation(tx *bbolt.Tx, old, new []byte) error {
	if bytes.Equal(old, new) {
		return nil
	}
	b := tx.Bucket(bucketVacations)
	if old != nil {
		if err := b.Delete(old); err != nil {
			return fmt.Errorf("unindex a vacation: %w", err)
		}
	}
	if new != nil {
		if err := b.Put(new, nil); err != nil {
			return fmt.Errorf("index a vacation: %w", err)
		}
	}
	return nil
}

// PlayersOnVacation returns, ordered by user id, the players whose last
// vacation ends after at.
func (db *DB) PlayersOnVacation(ctx context.Context, at time.Time) ([]string, error) {
	var users []string
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketVacations).Cursor()
		from := binary.BigEndian.AppendUint64(nil, uint64(max(at.Unix()+1, 0)))
		for k, _ := c.Seek(from); k != nil; k, _ = c.Next() {
			if len(k) > 8 {
				users = append(users, string(k[8:]))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(users)
	return users, nil
}
