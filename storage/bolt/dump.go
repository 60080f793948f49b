package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// What Dump and Load do with each bucket and each key of meta (copied:
// read and written as records; rebuilt: an index Load writes from the
// records; left: not copied, and why). TestDumpCoversEveryBucket fails when
// a bucket or a meta key is missing here, so that a new kind of record is
// not silently left behind by strategobot copydb.
var (
	bucketCopy = map[string]string{
		"meta":                 "copied: the keys below",
		"matches":              "copied, with the bucket's sequence",
		"challenges":           "copied, with the bucket's sequence",
		"players":              "copied",
		"standings":            "copied",
		"servers":              "copied",
		"followers":            "copied",
		"outbox":               "copied, with the bucket's sequence",
		"seeks":                "copied",
		"tournaments":          "copied, with the bucket's sequence",
		"leases":               "left: they belong to the processes of the source, which are stopped",
		"idx_player":           "rebuilt",
		"idx_channel":          "rebuilt",
		"idx_timer":            "rebuilt",
		"idx_challenge":        "rebuilt",
		"idx_vacation":         "rebuilt",
		"idx_outbox_queue":     "rebuilt",
		"idx_outbox_due":       "rebuilt",
		"idx_tournament":       "rebuilt",
		"idx_tournament_wake":  "rebuilt",
		"idx_tournament_games": "rebuilt",
	}
	metaCopy = map[string]string{
		"schema":  "left: the target has its own",
		"alive":   "copied",
		"web_key": "copied",
	}
)

var _ interface {
	storage.Dumper
	storage.Loader
} = (*DB)(nil)

// Dump reads the whole file into a storage.Dump, in one read transaction.
func (db *DB) Dump(ctx context.Context) (*storage.Dump, error) {
	var d *storage.Dump
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		d = &storage.Dump{Followers: map[storage.MatchID][]string{}}
		each := func(bucket []byte, fn func(k, v []byte) error) error {
			b := tx.Bucket(bucket)
			if b == nil {
				return nil
			}
			return b.ForEach(fn)
		}
		err := each(bucketMatches, func(k, v []byte) error {
			m, err := storage.DecodeMatch(v)
			d.Matches = append(d.Matches, m)
			return err
		})
		if err == nil {
			err = each(bucketFollowers, func(k, _ []byte) error {
				if len(k) <= 8 {
					return fmt.Errorf("a follower's key of %d bytes: %w", len(k), storage.ErrCorrupt)
				}
				id := storage.MatchID(binary.BigEndian.Uint64(k))
				d.Followers[id] = append(d.Followers[id], string(k[8:]))
				return nil
			})
		}
		if err == nil {
			err = each(bucketChallenges, func(k, v []byte) error {
				c, err := storage.DecodeChallenge(v)
				d.Challenges = append(d.Challenges, c)
				return err
			})
		}
		if err == nil {
			err = each(bucketPlayers, func(k, v []byte) error {
				p, err := storage.DecodePlayer(v)
				d.Players = append(d.Players, p)
				return err
			})
		}
		if err == nil {
			err = each(bucketServers, func(k, v []byte) error {
				s, err := storage.DecodeServer(v)
				d.Servers = append(d.Servers, s)
				return err
			})
		}
		if err == nil {
			err = each(bucketStandings, func(k, v []byte) error {
				guild, rest, ok := bytes.Cut(k, []byte{0})
				if !ok || len(rest) < 2 {
					return fmt.Errorf("a standing's key of %d bytes: %w", len(k), storage.ErrCorrupt)
				}
				s, err := storage.DecodeStanding(string(guild), game.Variant(rest[0]), string(rest[1:]), v)
				d.Standings = append(d.Standings, s)
				return err
			})
		}
		if err == nil {
			err = each(bucketOutbox, func(k, v []byte) error {
				n, err := storage.DecodeNotice(v)
				if err == nil {
					d.Notices = append(d.Notices, *n)
				}
				return err
			})
		}
		if err == nil {
			err = each(bucketSeeks, func(k, v []byte) error {
				s, err := storage.DecodeSeek(v)
				d.Seeks = append(d.Seeks, s)
				return err
			})
		}
		if err == nil {
			err = each(bucketTourneys, func(k, v []byte) error {
				t, err := storage.DecodeTournament(v)
				d.Tournaments = append(d.Tournaments, t)
				return err
			})
		}
		if err != nil {
			return err
		}
		meta := tx.Bucket(bucketMeta)
		d.WebKey = bytes.Clone(meta.Get(keyWebKey))
		if rec := meta.Get(keyAlive); len(rec) == 8 {
			d.Alive = time.Unix(int64(binary.BigEndian.Uint64(rec)), 0).UTC()
		}
		d.Sequences = storage.Sequences{
			Match:      tx.Bucket(bucketMatches).Sequence(),
			Challenge:  tx.Bucket(bucketChallenges).Sequence(),
			Notice:     tx.Bucket(bucketOutbox).Sequence(),
			Tournament: tx.Bucket(bucketTourneys).Sequence(),
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Load writes d into this file, which must hold no record and have handed
// out no id (storage.ErrNotEmpty otherwise), in one transaction, with every
// index written from the records as a change writes it.
func (db *DB) Load(ctx context.Context, d *storage.Dump) error {
	return db.update(ctx, func(tx *bbolt.Tx) error {
		if err := emptyFile(tx); err != nil {
			return err
		}
		if _, err := tx.CreateBucketIfNotExists(bucketSeeks); err != nil {
			return err
		}
		for _, m := range d.Matches {
			if err := db.writeMatch(tx, nil, m); err != nil {
				return err
			}
		}
		for id, users := range d.Followers {
			for _, u := range users {
				if err := tx.Bucket(bucketFollowers).Put(append(idKey(uint64(id)), u...), []byte{}); err != nil {
					return err
				}
			}
		}
		for _, c := range d.Challenges {
			data, err := storage.EncodeChallenge(c)
			if err != nil {
				return err
			}
			if err := tx.Bucket(bucketChallenges).Put(idKey(uint64(c.ID)), data); err != nil {
				return err
			}
			if err := updateIndexes(tx, nil, challengeIndex(c)); err != nil {
				return err
			}
		}
		for _, p := range d.Players {
			data, err := storage.EncodePlayer(p)
			if err != nil {
				return err
			}
			if err := tx.Bucket(bucketPlayers).Put([]byte(p.UserID), data); err != nil {
				return err
			}
			if err := indexVacation(tx, nil, vacationKey(p)); err != nil {
				return err
			}
		}
		for _, s := range d.Servers {
			data, err := storage.EncodeServer(s)
			if err != nil {
				return err
			}
			if err := tx.Bucket(bucketServers).Put([]byte(s.GuildID), data); err != nil {
				return err
			}
		}
		for _, s := range d.Standings {
			if err := putStanding(tx, s); err != nil {
				return err
			}
		}
		if err := loadNotices(tx, d.Notices); err != nil {
			return err
		}
		for _, s := range d.Seeks {
			data, err := storage.EncodeSeek(s)
			if err != nil {
				return err
			}
			if err := tx.Bucket(bucketSeeks).Put(seekKey(s.GuildID, s.Player.UserID), data); err != nil {
				return err
			}
		}
		for _, t := range d.Tournaments {
			if err := saveTournament(tx, nil, t); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bucketMeta)
		if d.WebKey != nil {
			if err := meta.Put(keyWebKey, bytes.Clone(d.WebKey)); err != nil {
				return err
			}
		}
		if !d.Alive.IsZero() {
			if err := meta.Put(keyAlive, binary.BigEndian.AppendUint64(nil, uint64(d.Alive.Unix()))); err != nil {
				return err
			}
		}
		for _, s := range []struct {
			bucket []byte
			seq    uint64
		}{{bucketMatches, d.Sequences.Match}, {bucketChallenges, d.Sequences.Challenge},
			{bucketOutbox, d.Sequences.Notice}, {bucketTourneys, d.Sequences.Tournament}} {
			if err := tx.Bucket(s.bucket).SetSequence(s.seq); err != nil {
				return err
			}
		}
		return nil
	})
}

// loadNotices writes the outbox's notices with their ids, each in its
// queue, and the head of each queue in the index of those due.
func loadNotices(tx *bbolt.Tx, ns []storage.Notice) error {
	heads := map[string]*storage.Notice{}
	for i := range ns {
		n := &ns[i]
		if err := putNotice(tx, n); err != nil {
			return err
		}
		if err := tx.Bucket(bucketOutboxQueue).Put(queueKey(n), []byte{}); err != nil {
			return err
		}
		q := storage.NoticeQueue(n)
		if h := heads[q]; h == nil || n.ID < h.ID {
			heads[q] = n
		}
	}
	for _, n := range heads {
		if err := tx.Bucket(bucketOutboxDue).Put(dueKey(n.NextTry, n.ID), []byte{}); err != nil {
			return err
		}
	}
	return nil
}

// emptyFile refuses, with storage.ErrNotEmpty, a file that holds anything
// but its schema version (and leases): a record, an index entry, a web
// key, a time alive, or a sequence that handed out an id.
func emptyFile(tx *bbolt.Tx) error {
	return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
		switch string(name) {
		case string(bucketLeases):
			return nil
		case string(bucketMeta):
			return b.ForEach(func(k, _ []byte) error {
				if !bytes.Equal(k, keySchema) {
					return fmt.Errorf("it holds %s: %w", k, storage.ErrNotEmpty)
				}
				return nil
			})
		}
		if k, _ := b.Cursor().First(); k != nil || b.Sequence() != 0 {
			return fmt.Errorf("it holds %s: %w", name, storage.ErrNotEmpty)
		}
		return nil
	})
}
