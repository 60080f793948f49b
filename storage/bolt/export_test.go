package bolt

import (
	"context"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// PutTournamentRecord overwrites the stored record of tournament id with
// data and leaves its indexes alone, as a damaged file would: for the
// tests of records that cannot be read.
func (db *DB) PutTournamentRecord(id storage.TournamentID, data []byte) error {
	return db.update(context.Background(), func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketTourneys).Put(idKey(uint64(id)), data)
	})
}

// PutSeekRecord overwrites the stored record of user's seek in guild with
// data, as a damaged file would.
func (db *DB) PutSeekRecord(guild, user string, data []byte) error {
	return db.update(context.Background(), func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketSeeks).Put(seekKey(guild, user), data)
	})
}

// PutNoticeRecord overwrites the stored record of notice id with data, as
// a damaged file would.
func (db *DB) PutNoticeRecord(id uint64, data []byte) error {
	return db.update(context.Background(), func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketOutbox).Put(idKey(id), data)
	})
}

// PutMatchRecord overwrites the stored record of match id with data, as
// a damaged file would.
func (db *DB) PutMatchRecord(id storage.MatchID, data []byte) error {
	return db.update(context.Background(), func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketMatches).Put(idKey(uint64(id)), data)
	})
}

// PutChallengeRecord overwrites the stored record of challenge id with
// data, as a damaged file would.
func (db *DB) PutChallengeRecord(id storage.ChallengeID, data []byte) error {
	return db.update(context.Background(), func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketChallenges).Put(idKey(uint64(id)), data)
	})
}
