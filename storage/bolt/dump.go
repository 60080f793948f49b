package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
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
		"idx_tournament_games": "rebuilt from the tournaments, and each match's board sent to choose among two that link it (a malformed entry skipped)",
		"idx_seek_expiry":      "rebuilt",
	}
	metaCopy = map[string]string{
		"schema":  "left: the target has its own",
		"alive":   "copied",
		"web_key": "copied",
		"copying": "left: the target's mark of a copy under way (Load), gone once it is whole",
	}
)

var _ interface {
	storage.Dumper
	storage.Loader
} = (*DB)(nil)

// keyCopying marks, in the meta bucket, a file Load writes into and has
// not finished: Open refuses it (storage.ErrUnfinishedCopy).
var keyCopying = []byte("copying")

// Dump sends the whole file into to, from one read transaction, a record
// at a time: nothing but the record being sent is held in memory.
func (db *DB) Dump(ctx context.Context, to storage.Sink) error {
	return db.view(ctx, func(tx *bbolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		m := storage.Meta{WebKey: bytes.Clone(meta.Get(keyWebKey)), Sequences: storage.Sequences{
			Match:      tx.Bucket(bucketMatches).Sequence(),
			Challenge:  tx.Bucket(bucketChallenges).Sequence(),
			Notice:     tx.Bucket(bucketOutbox).Sequence(),
			Tournament: tx.Bucket(bucketTourneys).Sequence(),
		}}
		if rec := meta.Get(keyAlive); len(rec) == 8 {
			m.Alive = time.Unix(int64(binary.BigEndian.Uint64(rec)), 0).UTC()
		}
		if err := to.Meta(m); err != nil {
			return err
		}
		each := func(bucket []byte, fn func(k, v []byte) error) error {
			b := tx.Bucket(bucket)
			if b == nil {
				return nil
			}
			c := b.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := fn(k, v); err != nil {
					return err
				}
			}
			return nil
		}
		err := each(bucketMatches, func(k, v []byte) error {
			m, err := storage.DecodeMatch(v)
			if err != nil {
				return err
			}
			return to.Match(m)
		})
		if err == nil {
			err = each(bucketFollowers, func(k, _ []byte) error {
				if len(k) <= 8 {
					return fmt.Errorf("a follower's key of %d bytes: %w", len(k), storage.ErrCorrupt)
				}
				return to.Follower(storage.MatchID(binary.BigEndian.Uint64(k)), string(k[8:]))
			})
		}
		if err == nil {
			err = each(bucketChallenges, func(k, v []byte) error {
				c, err := storage.DecodeChallenge(v)
				if err != nil {
					return err
				}
				return to.Challenge(c)
			})
		}
		if err == nil {
			err = each(bucketPlayers, func(k, v []byte) error {
				p, err := storage.DecodePlayer(v)
				if err != nil {
					return err
				}
				return to.Player(p)
			})
		}
		if err == nil {
			err = each(bucketServers, func(k, v []byte) error {
				s, err := storage.DecodeServer(v)
				if err != nil {
					return err
				}
				return to.Server(s)
			})
		}
		if err == nil {
			err = each(bucketStandings, func(k, v []byte) error {
				guild, rest, ok := bytes.Cut(k, []byte{0})
				if !ok || len(rest) < 2 {
					return fmt.Errorf("a standing's key of %d bytes: %w", len(k), storage.ErrCorrupt)
				}
				s, err := storage.DecodeStanding(string(guild), game.Variant(rest[0]), string(rest[1:]), v)
				if err != nil {
					return err
				}
				return to.Standing(s)
			})
		}
		if err == nil {
			err = each(bucketOutbox, func(k, v []byte) error {
				n, err := storage.DecodeNotice(v)
				if err != nil {
					return err
				}
				return to.Notice(n)
			})
		}
		if err == nil {
			err = each(bucketSeeks, func(k, v []byte) error {
				s, err := storage.DecodeSeek(v)
				if err != nil {
					return err
				}
				return to.Seek(s)
			})
		}
		if err == nil {
			err = each(bucketTourneys, func(k, v []byte) error {
				t, err := storage.DecodeTournament(v)
				if err != nil {
					return err
				}
				return to.Tournament(t)
			})
		}
		if err == nil {
			err = each(bucketTourneyGames, func(k, v []byte) error {
				g, ok := decodeGameLink(k, v)
				if !ok {
					// An index entry, not a record: the match keeps the
					// board the tournaments' records give it, as the
					// index is written from them (storage.Loader). The
					// file is copied, as it was while this index was
					// only rebuilt.
					return nil
				}
				return to.TournamentGame(g)
			})
		}
		return err
	})
}

// loadBatch bounds what Load holds before it commits: the bytes of the
// records it was sent (bbolt keeps each value written until the commit),
// and their number.
const (
	loadBatchBytes   = 8 << 20
	loadBatchRecords = 20_000
)

// Load writes what from sends into this file, which must hold no record and
// have handed out no id (storage.ErrNotEmpty otherwise), with every index
// written from the records as a change writes it. It commits every
// loadBatchBytes or so, so that its memory stays bounded however large the
// database: the file is marked an unfinished copy (keyCopying, which Open
// refuses) from the first commit until the last, which writes the outbox's
// due heads, the web key, the time alive and the sequences.
func (db *DB) Load(ctx context.Context, from storage.Source) error {
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		if err := emptyFile(tx); err != nil {
			return err
		}
		if _, err := tx.CreateBucketIfNotExists(bucketSeeks); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put(keyCopying, []byte{})
	})
	if err != nil {
		return err
	}
	l := &loader{db: db, ctx: ctx, heads: map[string]noticeHead{}}
	if err := from(ctx, l); err != nil {
		return err
	}
	if err := l.add(0, l.finish); err != nil {
		return err
	}
	return l.flush()
}

// noticeHead is the oldest notice of a queue Load was sent.
type noticeHead struct {
	id      uint64
	nextTry time.Time
}

// loader is Load's storage.Sink: it gathers the writes of the records it is
// sent and commits them by batches.
type loader struct {
	db      *DB
	ctx     context.Context
	meta    storage.Meta
	heads   map[string]noticeHead // by queue
	batch   []func(tx *bbolt.Tx) error
	pending int // bytes in batch
}

// add adds a write of about size bytes to the batch, and commits the batch
// once it is large enough.
func (l *loader) add(size int, write func(tx *bbolt.Tx) error) error {
	l.batch = append(l.batch, write)
	l.pending += size
	if l.pending >= loadBatchBytes || len(l.batch) >= loadBatchRecords {
		return l.flush()
	}
	return nil
}

// flush commits the batch in one transaction.
func (l *loader) flush() error {
	if len(l.batch) == 0 {
		return nil
	}
	err := l.db.update(l.ctx, func(tx *bbolt.Tx) error {
		for _, w := range l.batch {
			if err := w(tx); err != nil {
				return err
			}
		}
		return nil
	})
	clear(l.batch)
	l.batch, l.pending = l.batch[:0], 0
	return err
}

// put adds the write of a record, encoded, under key in bucket.
func (l *loader) put(bucket, key []byte, data []byte, err error, then func(tx *bbolt.Tx) error) error {
	if err != nil {
		return err
	}
	return l.add(len(key)+len(data), func(tx *bbolt.Tx) error {
		if err := tx.Bucket(bucket).Put(key, data); err != nil {
			return err
		}
		if then == nil {
			return nil
		}
		return then(tx)
	})
}

func (l *loader) Meta(m storage.Meta) error {
	l.meta = storage.Meta{WebKey: bytes.Clone(m.WebKey), Alive: m.Alive, Sequences: m.Sequences}
	return nil
}

func (l *loader) Match(m *storage.Match) error {
	data, err := storage.EncodeMatch(m)
	if err != nil {
		return err
	}
	id, index := m.ID, matchIndex(m)
	return l.add(len(data), func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketMatches)
		b.FillPercent = matchFill
		if err := b.Put(idKey(uint64(id)), data); err != nil {
			return fmt.Errorf("match %d: %w", id, err)
		}
		return updateIndexes(tx, nil, index)
	})
}

func (l *loader) Follower(id storage.MatchID, user string) error {
	return l.put(bucketFollowers, append(idKey(uint64(id)), user...), []byte{}, nil, nil)
}

func (l *loader) Challenge(c *storage.Challenge) error {
	data, err := storage.EncodeChallenge(c)
	index := challengeIndex(c)
	return l.put(bucketChallenges, idKey(uint64(c.ID)), data, err, func(tx *bbolt.Tx) error { return updateIndexes(tx, nil, index) })
}

func (l *loader) Player(p *storage.PlayerSettings) error {
	data, err := storage.EncodePlayer(p)
	vacation := vacationKey(p)
	return l.put(bucketPlayers, []byte(p.UserID), data, err, func(tx *bbolt.Tx) error { return indexVacation(tx, nil, vacation) })
}

func (l *loader) Server(s *storage.ServerSettings) error {
	data, err := storage.EncodeServer(s)
	return l.put(bucketServers, []byte(s.GuildID), data, err, nil)
}

func (l *loader) Standing(s storage.Standing) error {
	return l.add(128, func(tx *bbolt.Tx) error { return putStanding(tx, s) })
}

func (l *loader) Notice(n *storage.Notice) error {
	data, err := storage.EncodeNotice(n)
	if err != nil {
		return err
	}
	q := storage.NoticeQueue(n)
	if h, ok := l.heads[q]; !ok || n.ID < h.id {
		l.heads[q] = noticeHead{n.ID, n.NextTry}
	}
	queue := queueKey(n)
	return l.put(bucketOutbox, idKey(n.ID), data, nil, func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketOutboxQueue).Put(queue, []byte{})
	})
}

func (l *loader) Seek(s *storage.Seek) error {
	data, err := storage.EncodeSeek(s)
	if err != nil {
		return err
	}
	k, expires := seekKey(s.GuildID, s.Player.UserID), s.Expires
	return l.add(len(k)+len(data), func(tx *bbolt.Tx) error { return putSeekRecord(tx, k, data, expires) })
}

func (l *loader) Tournament(t *storage.Tournament) error {
	data, err := storage.EncodeTournament(t)
	if err != nil {
		return err
	}
	// Its links are its own, as those of a tournament stored are: a match
	// an older version let two tournaments link plays the board of the
	// first sent until the source's is (TournamentGame), and the other's
	// record keeps its link.
	return l.add(len(data), func(tx *bbolt.Tx) error { return writeTournament(tx, nil, t, t.Games) })
}

// TournamentGame makes g the board its match plays, as the source says,
// where the tournaments sent linked it to another (a match an older
// version let two tournaments link) and g's tournament's record holds it;
// otherwise the board the records gave stands (storage.Loader).
func (l *loader) TournamentGame(g storage.TournamentGame) error {
	return l.add(32, func(tx *bbolt.Tx) error {
		games := tx.Bucket(bucketTourneyGames)
		k, v := idKey(uint64(g.Match)), gameLink(g.Tournament, g)
		if was := games.Get(k); was == nil || bytes.Equal(was, v) {
			return nil
		}
		t, err := loadTournament(tx, g.Tournament)
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if !slices.Contains(t.Games, g) {
			return nil
		}
		return games.Put(k, v)
	})
}

// finish writes, in Load's last transaction, the head of each queue of the
// outbox in the index of those due, what lives beside the records, and
// takes the mark of a copy under way away.
func (l *loader) finish(tx *bbolt.Tx) error {
	for _, h := range l.heads {
		if err := tx.Bucket(bucketOutboxDue).Put(dueKey(h.nextTry, h.id), []byte{}); err != nil {
			return err
		}
	}
	meta := tx.Bucket(bucketMeta)
	if l.meta.WebKey != nil {
		if err := meta.Put(keyWebKey, l.meta.WebKey); err != nil {
			return err
		}
	}
	if !l.meta.Alive.IsZero() {
		if err := meta.Put(keyAlive, binary.BigEndian.AppendUint64(nil, uint64(l.meta.Alive.Unix()))); err != nil {
			return err
		}
	}
	s := l.meta.Sequences
	for _, seq := range []struct {
		bucket []byte
		last   uint64
	}{{bucketMatches, s.Match}, {bucketChallenges, s.Challenge}, {bucketOutbox, s.Notice}, {bucketTourneys, s.Tournament}} {
		if err := tx.Bucket(seq.bucket).SetSequence(seq.last); err != nil {
			return err
		}
	}
	return meta.Delete(keyCopying)
}

// emptyFile refuses, with storage.ErrNotEmpty, a file that holds anything
// but its schema version (and leases): a record, an index entry, a web
// key, a time alive, a copy under way, or a sequence that handed out an id.
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
