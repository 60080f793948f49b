package bolt

import (
	"bytes"
	"context"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// keyWebKey holds the web board's signing key in the meta bucket.
var keyWebKey = []byte("web_key")

// LinkGeneration returns the generation of userID's web board links.
func (db *DB) LinkGeneration(ctx context.Context, userID string) (uint32, error) {
	return storage.LinkGenerationIn(ctx, db, userID)
}

// RevokeLinks bumps userID's link generation.
func (db *DB) RevokeLinks(ctx context.Context, userID string) (uint32, error) {
	return storage.RevokeLinksIn(ctx, db, userID)
}

// WebKey returns the web signing key, drawn and stored on the first call.
func (db *DB) WebKey(ctx context.Context) ([]byte, error) {
	var key []byte
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		key = bytes.Clone(tx.Bucket(bucketMeta).Get(keyWebKey))
		return nil
	})
	if err != nil || key != nil {
		return key, err
	}
	fresh, err := storage.NewWebKey()
	if err != nil {
		return nil, err
	}
	err = db.update(ctx, func(tx *bbolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if k := meta.Get(keyWebKey); k != nil {
			key = bytes.Clone(k)
			return nil
		}
		key = fresh
		return meta.Put(keyWebKey, fresh)
	})
	if err != nil {
		return nil, err
	}
	return key, nil
}
