package bolt

import (
	"context"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// Server returns a server's settings, the defaults for a server never set up.
func (db *DB) Server(ctx context.Context, guildID string) (*storage.ServerSettings, error) {
	if guildID == "" {
		return nil, fmt.Errorf("no guild id: %w", storage.ErrInvalid)
	}
	var s *storage.ServerSettings
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		s, err = loadServer(tx, guildID)
		return err
	})
	return s, err
}

func loadServer(tx *bbolt.Tx, guildID string) (*storage.ServerSettings, error) {
	data := tx.Bucket(bucketServers).Get([]byte(guildID))
	if data == nil {
		return &storage.ServerSettings{GuildID: guildID}, nil
	}
	return storage.DecodeServer(data)
}

// UpdateServer changes a server's settings with fn in one transaction.
func (db *DB) UpdateServer(ctx context.Context, guildID string, fn func(s *storage.ServerSettings) error) (*storage.ServerSettings, error) {
	if guildID == "" {
		return nil, fmt.Errorf("no guild id: %w", storage.ErrInvalid)
	}
	var out *storage.ServerSettings
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		out = nil
		s, err := loadServer(tx, guildID)
		if err != nil {
			return err
		}
		version := s.Version
		if err := fn(s); err != nil {
			return err
		}
		if err := storage.PrepareServer(s, guildID, version); err != nil {
			return err
		}
		data, err := storage.EncodeServer(s)
		if err != nil {
			return err
		}
		out = s
		return tx.Bucket(bucketServers).Put([]byte(guildID), data)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
