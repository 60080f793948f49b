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

// The buckets of tournaments (in allBuckets): the records, and indexes kept
// in the same transaction.
var (
	bucketTourneys     = []byte("tournaments")          // id → tournament record
	bucketTourneyBy    = []byte("idx_tournament")       // guild 0 state id → ""
	bucketTourneyWake  = []byte("idx_tournament_wake")  // unix id → ""
	bucketTourneyGames = []byte("idx_tournament_games") // match id → tournament id, round, board
)

// tournamentIndex lists a tournament's index keys: its server, in the range
// of those running or done, and its next timer.
func tournamentIndex(t *storage.Tournament) []indexEntry {
	if t == nil {
		return nil
	}
	state := byte(stateActive)
	if t.Done {
		state = stateFinished
	}
	id := idKey(uint64(t.ID))
	e := []indexEntry{{bucketTourneyBy, string(append(prefixKey(t.GuildID, state), id...))}}
	if at, ok := t.Wake(); ok {
		k := binary.BigEndian.AppendUint64(nil, uint64(max(at.Unix(), 0)))
		e = append(e, indexEntry{bucketTourneyWake, string(append(k, id...))})
	}
	return e
}

// refreshTournamentWakes rewrites the index of the tournaments' timers from
// the tournaments as stored, where it differs, and writes nothing where it
// does not. A timer's key is written when its tournament is saved, so
// without this a newer rule of when a tournament wakes
// (storage.Tournament.Wake) would reach those stored by an older version
// only at their next change.
func refreshTournamentWakes(bdb *bbolt.DB) error {
	var stale, missing [][]byte
	if err := safeView(bdb, func(tx *bbolt.Tx) (err error) {
		stale, missing, err = tournamentWakesToFix(tx)
		return err
	}); err != nil || len(stale)+len(missing) == 0 {
		return err
	}
	return safeUpdate(bdb, func(tx *bbolt.Tx) error {
		stale, missing, err := tournamentWakesToFix(tx)
		if err != nil {
			return err
		}
		b := tx.Bucket(bucketTourneyWake)
		for _, k := range stale {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		for _, k := range missing {
			if err := b.Put(k, []byte{}); err != nil {
				return err
			}
		}
		return nil
	})
}

// tournamentWakesToFix compares the index of the tournaments' timers with
// what the stored tournaments say: the keys it holds that none should
// (stale), and those it lacks (missing). A record that does not decode is
// left as it is, keys and all: the bot still starts, and the tournament
// fails where it is read, with its error.
func tournamentWakesToFix(tx *bbolt.Tx) (stale, missing [][]byte, err error) {
	want := map[string]bool{}
	unread := map[string]bool{} // ids of the records that do not decode
	err = tx.Bucket(bucketTourneys).ForEach(func(k, v []byte) error {
		t, err := storage.DecodeTournament(v)
		if err != nil {
			unread[string(k)] = true
			return nil
		}
		for _, e := range tournamentIndex(t) {
			if string(e.bucket) == string(bucketTourneyWake) {
				want[e.key] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	err = tx.Bucket(bucketTourneyWake).ForEach(func(k, _ []byte) error {
		if !want[string(k)] && !(len(k) == 16 && unread[string(k[8:])]) {
			stale = append(stale, append([]byte(nil), k...))
		}
		delete(want, string(k))
		return nil
	})
	for k := range want {
		missing = append(missing, []byte(k))
	}
	return stale, missing, err
}

// saveTournament writes t and its indexes; old is the stored one (nil for a new one).
func saveTournament(tx *bbolt.Tx, old, t *storage.Tournament) error {
	var held []storage.TournamentGame
	if old != nil {
		held = old.Games
	}
	return writeTournament(tx, old, t, held)
}

// writeTournament writes t and its indexes, old's replaced (nil for a new
// one), and links its games. A game of held, a link t holds already, is
// left as it is where another tournament's board plays its match: that
// other keeps the match (MatchTournament), and t's record its link.
func writeTournament(tx *bbolt.Tx, old, t *storage.Tournament, held []storage.TournamentGame) error {
	data, err := storage.EncodeTournament(t)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bucketTourneys).Put(idKey(uint64(t.ID)), data); err != nil {
		return err
	}
	if err := updateIndexes(tx, tournamentIndex(old), tournamentIndex(t)); err != nil {
		return err
	}
	games := tx.Bucket(bucketTourneyGames)
	for _, g := range t.Games {
		v := gameLink(t.ID, g)
		switch was := games.Get(idKey(uint64(g.Match))); {
		case was == nil:
			if err := games.Put(idKey(uint64(g.Match)), v); err != nil {
				return err
			}
		case !bytes.Equal(was, v) && !slices.Contains(held, g):
			// Another board's, of another tournament: a match plays one.
			// A link the tournament held already is left as it is: its
			// next save must not fail for what was stored before.
			return fmt.Errorf("tournament %d: match %d plays another board: %w", t.ID, g.Match, storage.ErrInvalid)
		}
	}
	return nil
}

// gameLink is the value of a match's link to g's board of tournament id in
// idx_tournament_games: the tournament's id, the round and the board.
func gameLink(id storage.TournamentID, g storage.TournamentGame) []byte {
	v := binary.BigEndian.AppendUint64(nil, uint64(id))
	v = binary.BigEndian.AppendUint32(v, uint32(g.Round))
	return binary.BigEndian.AppendUint32(v, uint32(g.Board))
}

// decodeGameLink is the board a match's link in idx_tournament_games
// names, from its key and value; false when they are not a link's.
func decodeGameLink(k, v []byte) (storage.TournamentGame, bool) {
	if len(k) != 8 || len(v) != 16 {
		return storage.TournamentGame{}, false
	}
	return storage.TournamentGame{Tournament: storage.TournamentID(binary.BigEndian.Uint64(v)),
		Round: int(binary.BigEndian.Uint32(v[8:])), Board: int(binary.BigEndian.Uint32(v[12:])),
		Match: storage.MatchID(binary.BigEndian.Uint64(k))}, true
}

func loadTournament(tx *bbolt.Tx, id storage.TournamentID) (*storage.Tournament, error) {
	data := tx.Bucket(bucketTourneys).Get(idKey(uint64(id)))
	if data == nil {
		return nil, fmt.Errorf("tournament %d: %w", id, storage.ErrNotFound)
	}
	return storage.DecodeTournament(data)
}

// CreateTournament stores a new tournament.
func (db *DB) CreateTournament(ctx context.Context, t *storage.Tournament, limits storage.TournamentLimits) (*storage.Tournament, error) {
	n, err := storage.PrepareTournament(t)
	if err != nil {
		return nil, err
	}
	err = db.update(ctx, func(tx *bbolt.Tx) error {
		// Bolt has one writer at a time: the count stands until the write.
		if err := allowTournament(tx, n, limits); err != nil {
			return err
		}
		seq, err := tx.Bucket(bucketTourneys).NextSequence()
		if err != nil {
			return err
		}
		n.ID = storage.TournamentID(seq)
		return saveTournament(tx, nil, n)
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// allowTournament refuses t when its server's tournaments not yet over
// reach a limit.
func allowTournament(tx *bbolt.Tx, t *storage.Tournament, limits storage.TournamentLimits) error {
	if limits == (storage.TournamentLimits{}) {
		return nil
	}
	onServer, ofCreator := 0, 0
	each(tx.Bucket(bucketTourneyBy), prefixKey(t.GuildID, stateActive), func(id uint64) bool {
		onServer++ // one that cannot be read counts for the server, its creator unknown
		if open, err := loadTournament(tx, storage.TournamentID(id)); err == nil && open.CreatorID == t.CreatorID {
			ofCreator++
		}
		return true
	})
	return limits.Allow(onServer, ofCreator)
}

// Tournament returns a tournament.
func (db *DB) Tournament(ctx context.Context, id storage.TournamentID) (*storage.Tournament, error) {
	var t *storage.Tournament
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		t, err = loadTournament(tx, id)
		return err
	})
	return t, err
}

// UpdateTournament changes a tournament in one transaction: see storage.TournamentStore.
func (db *DB) UpdateTournament(ctx context.Context, id storage.TournamentID, expect uint64, fn func(t *storage.Tournament) error) (*storage.Tournament, error) {
	var out *storage.Tournament
	err := db.update(ctx, func(tx *bbolt.Tx) error {
		out = nil
		old, err := loadTournament(tx, id)
		if err != nil {
			return err
		}
		n, err := storage.ChangeTournament(old, expect, fn)
		if err != nil {
			return err
		}
		if err := saveTournament(tx, old, n); err != nil {
			return err
		}
		if err := recordNotices(tx, storage.TournamentNotices(old, n)); err != nil {
			return err
		}
		out = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ServerTournaments returns a server's tournaments, oldest first: those it
// can read, and a *storage.UnreadableError naming the others.
func (db *DB) ServerTournaments(ctx context.Context, guildID string, all bool) ([]*storage.Tournament, error) {
	states := []byte{stateActive}
	if all {
		states = append(states, stateFinished)
	}
	var out []*storage.Tournament
	var unread *storage.Unreadable
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		out, unread = nil, storage.NewUnreadable("tournament")
		for _, state := range states {
			each(tx.Bucket(bucketTourneyBy), prefixKey(guildID, state), func(id uint64) bool {
				t, err := loadTournament(tx, storage.TournamentID(id))
				if err != nil {
					unread.Add(id, err) // one bad record hides no other
					return true
				}
				out = append(out, t)
				return true
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if all {
		sortTournaments(out)
	}
	return out, unread.Err()
}

func sortTournaments(list []*storage.Tournament) {
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && list[j].ID < list[j-1].ID; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
}

// MatchTournament returns the board a match plays.
func (db *DB) MatchTournament(ctx context.Context, id storage.MatchID) (storage.TournamentGame, error) {
	var g storage.TournamentGame
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		var ok bool
		k := idKey(uint64(id))
		if g, ok = decodeGameLink(k, tx.Bucket(bucketTourneyGames).Get(k)); !ok {
			return fmt.Errorf("match %d plays in no tournament: %w", id, storage.ErrNotFound)
		}
		return nil
	})
	return g, err
}

// DueTournaments returns the tournaments whose timer is due at now: those
// it can read, and a *storage.UnreadableError naming the others.
func (db *DB) DueTournaments(ctx context.Context, now time.Time) ([]*storage.Tournament, error) {
	var out []*storage.Tournament
	var unread *storage.Unreadable
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		out, unread = nil, storage.NewUnreadable("tournament")
		c := tx.Bucket(bucketTourneyWake).Cursor()
		for k, _ := c.First(); len(k) == 16 && int64(binary.BigEndian.Uint64(k)) <= now.Unix(); k, _ = c.Next() {
			id := binary.BigEndian.Uint64(k[8:])
			t, err := loadTournament(tx, storage.TournamentID(id))
			if err != nil {
				unread.Add(id, err) // one bad record holds up no other
				continue
			}
			out = append(out, t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, unread.Err()
}

// NextTournamentWake returns the earliest tournament timer.
func (db *DB) NextTournamentWake(ctx context.Context) (time.Time, bool, error) {
	var at time.Time
	ok := false
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		if k, _ := tx.Bucket(bucketTourneyWake).Cursor().First(); len(k) == 16 {
			at, ok = time.Unix(int64(binary.BigEndian.Uint64(k)), 0).UTC(), true
		}
		return nil
	})
	return at, ok, err
}
