package bolt

import (
	"context"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// matchFill packs match pages fuller than bbolt's default half: ids only grow,
// so new records go to the end and pages rarely split in the middle.
const matchFill = 0.9

// CreateMatch stores a new match. Matches are normally created in set-up; a
// match in play or finished (an import) must replay to its stored result.
func (db *DB) CreateMatch(ctx context.Context, m *storage.Match) (*storage.Match, error) {
	n, err := db.Changes().NewMatch(m)
	if err != nil {
		return nil, err
	}
	var out *storage.Match
	err = db.update(ctx, func(tx *bbolt.Tx) error {
		out = n.Clone()
		seq, err := tx.Bucket(bucketMatches).NextSequence()
		if err != nil {
			return err
		}
		out.ID = storage.MatchID(seq)
		return db.saveMatch(tx, nil, out, nil, out.Created)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CreatePractice stores a new practice match of member, within member's
// limits.
func (db *DB) CreatePractice(ctx context.Context, m *storage.Match, member string, limits storage.MemberLimits) (*storage.Match, error) {
	if err := storage.CheckPractice(m, member); err != nil {
		return nil, err
	}
	n, err := db.Changes().NewMatch(m)
	if err != nil {
		return nil, err
	}
	var out *storage.Match
	err = db.update(ctx, func(tx *bbolt.Tx) error {
		// Bolt has one writer at a time: the count stands until the write.
		if limits != (storage.MemberLimits{}) {
			var active []*storage.Match
			unread := storage.NewUnreadable("match")
			each(tx.Bucket(bucketByPlayer), prefixKey(member, stateActive), func(id uint64) bool {
				if x, err := db.loadMatch(tx, storage.MatchID(id)); err != nil {
					unread.Add(id, err) // it may be a practice match: it counts
				} else {
					active = append(active, x)
				}
				return true
			})
			if err := limits.AllowPractice(active, unread.Len()); err != nil {
				return err
			}
		}
		out = n.Clone()
		seq, err := tx.Bucket(bucketMatches).NextSequence()
		if err != nil {
			return err
		}
		out.ID = storage.MatchID(seq)
		return db.saveMatch(tx, nil, out, nil, out.Created)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Changes are the rules of each change, with this database's reminder schedule.
func (db *DB) Changes() storage.Changes { return storage.Changes{Reminders: db.opts.Reminders} }

// Match returns a match by id.
func (db *DB) Match(ctx context.Context, id storage.MatchID) (*storage.Match, error) {
	var m *storage.Match
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		m, err = db.loadMatch(tx, id)
		return err
	})
	return m, err
}

// MatchVersion returns the stored version of a match.
func (db *DB) MatchVersion(ctx context.Context, id storage.MatchID) (uint64, error) {
	m, err := db.Match(ctx, id)
	if err != nil {
		return 0, err
	}
	return m.Version, nil
}

func (db *DB) loadMatch(tx *bbolt.Tx, id storage.MatchID) (*storage.Match, error) {
	data := tx.Bucket(bucketMatches).Get(idKey(uint64(id)))
	if data == nil {
		return nil, fmt.Errorf("match %d: %w", id, storage.ErrNotFound)
	}
	return db.matches.get(id, data)
}

// change is one update of a match inside a transaction. It may return the
// game it rebuilt, so that saving need not replay again.
type change func(tx *bbolt.Tx, m *storage.Match) (*game.Game, error)

// modify loads a match, checks its version, applies ch and saves it, all in
// one transaction; at is when the change happens (zero for a change that owes
// nobody a notice).
func (db *DB) modify(ctx context.Context, id storage.MatchID, expectVersion uint64, at time.Time, ch change) (*storage.Match, error) {
	var out *storage.Match
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		out = nil
		old, err := db.loadMatch(tx, id)
		if err != nil {
			return err
		}
		if err := storage.CheckVersion(old, expectVersion); err != nil {
			return err
		}
		m := old.Clone()
		g, err := ch(tx, m)
		if err != nil {
			return err
		}
		if err := db.saveMatch(tx, old, m, g, at); err != nil {
			return err
		}
		out = m
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateMatch changes a match with fn. fn gets a copy; ID and Version stay the store's.
func (db *DB) UpdateMatch(ctx context.Context, id storage.MatchID, expectVersion uint64, fn func(m *storage.Match) error) (*storage.Match, error) {
	return db.modify(ctx, id, expectVersion, time.Time{}, func(_ *bbolt.Tx, m *storage.Match) (*game.Game, error) {
		return nil, db.Changes().UpdateMatch(m, fn)
	})
}

// ApplyMove plays one move: see storage.Store.
func (db *DB) ApplyMove(ctx context.Context, id storage.MatchID, expectVersion uint64, side game.Side, move game.Move, at time.Time) (*storage.Match, *game.Game, error) {
	var played *game.Game
	m, err := db.modify(ctx, id, expectVersion, at, func(_ *bbolt.Tx, m *storage.Match) (g *game.Game, err error) {
		// This may run again (see update): played is only the last run's game.
		played, err = db.Changes().ApplyMove(m, side, move, at)
		return played, err
	})
	if err != nil {
		return nil, nil, err
	}
	return m, played, nil
}

// Act records an action other than a move: see storage.Store.
func (db *DB) Act(ctx context.Context, id storage.MatchID, expectVersion uint64, a storage.Action) (*storage.Match, error) {
	return db.modify(ctx, id, expectVersion, a.At, func(_ *bbolt.Tx, m *storage.Match) (*game.Game, error) {
		return db.Changes().Act(m, a)
	})
}

// SetSetup stores a draft or confirms a set-up: see storage.Store.
func (db *DB) SetSetup(ctx context.Context, id storage.MatchID, expectVersion uint64, side game.Side, setup game.Setup, status storage.SetupStatus, at time.Time) (*storage.Match, error) {
	return db.modify(ctx, id, expectVersion, at, func(_ *bbolt.Tx, m *storage.Match) (*game.Game, error) {
		return db.Changes().SetSetup(m, side, setup, status, at)
	})
}

// Abandon ends an active match with no result.
func (db *DB) Abandon(ctx context.Context, id storage.MatchID, expectVersion uint64, at time.Time, why storage.CallOff) (*storage.Match, error) {
	return db.modify(ctx, id, expectVersion, at, func(_ *bbolt.Tx, m *storage.Match) (*game.Game, error) {
		return nil, db.Changes().Abandon(m, at, why)
	})
}

// MarkReminded records the reminder due at RemindAt as sent and plans the next.
func (db *DB) MarkReminded(ctx context.Context, id storage.MatchID, expectVersion uint64, at time.Time) (*storage.Match, error) {
	return db.modify(ctx, id, expectVersion, at, func(_ *bbolt.Tx, m *storage.Match) (*game.Game, error) {
		return nil, db.Changes().MarkReminded(m, at)
	})
}

// ChannelBack records that the match's channel is within reach again: see storage.Store.
func (db *DB) ChannelBack(ctx context.Context, id storage.MatchID, at time.Time) (*storage.Match, error) {
	return db.modify(ctx, id, 0, at, func(_ *bbolt.Tx, m *storage.Match) (*game.Game, error) {
		return nil, db.Changes().ChannelBack(m)
	})
}

// saveMatch checks m, counts a newly finished match in the standings, records
// the notices the change owes (storage.PrepareSave says which, and whether the
// clock of the side to move waits for one), bumps the version, and writes the
// record and its index entries. old is the stored version, nil for a new match; g,
// when not nil, is m's game already rebuilt; at is when the change happened.
func (db *DB) saveMatch(tx *bbolt.Tx, old, m *storage.Match, g *game.Game, at time.Time) error {
	saved, err := storage.PrepareSave(old, m, g, at)
	if err != nil {
		return err
	}
	if saved.Rate {
		if err := recordResult(tx, m); err != nil {
			return err
		}
	}
	if err := recordNotices(tx, saved.Notices); err != nil {
		return err
	}
	return db.writeMatch(tx, old, m)
}

// writeMatch writes the record and its index entries as they are.
func (db *DB) writeMatch(tx *bbolt.Tx, old, m *storage.Match) error {
	data, err := storage.EncodeMatch(m)
	if err != nil {
		return err
	}
	b := tx.Bucket(bucketMatches)
	b.FillPercent = matchFill
	if err := b.Put(idKey(uint64(m.ID)), data); err != nil {
		return fmt.Errorf("match %d: %w", m.ID, err)
	}
	return updateIndexes(tx, matchIndex(old), matchIndex(m))
}

// PlayerMatches lists a player's matches, newest first.
func (db *DB) PlayerMatches(ctx context.Context, userID string, active bool, limit int) ([]*storage.Match, error) {
	return db.listMatches(ctx, bucketByPlayer, userID, active, limit)
}

// ChannelMatches lists a channel's (or thread's) matches, newest first.
func (db *DB) ChannelMatches(ctx context.Context, channelID string, active bool, limit int) ([]*storage.Match, error) {
	return db.listMatches(ctx, bucketByChannel, channelID, active, limit)
}

func (db *DB) listMatches(ctx context.Context, index []byte, name string, active bool, limit int) ([]*storage.Match, error) {
	state := byte(stateFinished)
	if active {
		state = stateActive
	}
	var out []*storage.Match
	var unread *storage.Unreadable
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		out, unread = nil, storage.NewUnreadable("match")
		eachReverse(tx.Bucket(index), prefixKey(name, state), func(id uint64) bool {
			if m, err := db.loadMatch(tx, storage.MatchID(id)); err != nil {
				unread.Add(id, err) // one bad record hides no other
			} else {
				out = append(out, m)
			}
			return limit <= 0 || len(out)+unread.Len() < limit // as PostgreSQL's LIMIT counts it
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, unread.Err()
}
