package bolt

import (
	"context"
	"fmt"

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
		version := p.Version
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
		out = p
		return tx.Bucket(bucketPlayers).Put([]byte(userID), data)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
