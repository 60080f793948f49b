package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/strategobot/strategobot/storage"
)

// saveTournament writes t (inserting it when old is nil) and links its games.
func saveTournament(ctx context.Context, tx pgx.Tx, old, t *storage.Tournament) error {
	var held []storage.TournamentGame
	if old != nil {
		held = old.Games
	}
	return writeTournament(ctx, tx, old == nil, t, held)
}

// writeTournament writes t (inserting it when insert) and links its games.
// A game of held, a link t holds already, is left as it is where another
// tournament's board plays its match: that other keeps the match
// (MatchTournament), and t's record its link.
func writeTournament(ctx context.Context, tx pgx.Tx, insert bool, t *storage.Tournament, held []storage.TournamentGame) error {
	data, err := storage.EncodeTournament(t)
	if err != nil {
		return err
	}
	var wake any
	if at, ok := t.Wake(); ok {
		wake = at
	}
	if insert {
		_, err = tx.Exec(ctx, `INSERT INTO tournaments (id, guild_id, done, wake, version, record) VALUES ($1, $2, $3, $4, $5, $6)`,
			int64(t.ID), t.GuildID, t.Done, wake, int64(t.Version), data)
	} else {
		_, err = tx.Exec(ctx, `UPDATE tournaments SET done = $2, wake = $3, version = $4, record = $5 WHERE id = $1`,
			int64(t.ID), t.Done, wake, int64(t.Version), data)
	}
	if err != nil {
		return query(fmt.Sprintf("save tournament %d", t.ID), err)
	}
	for _, g := range t.Games {
		// Linked now, or already to this board: a match another
		// tournament's board plays is refused, as bbolt refuses it.
		var linked bool
		if err := tx.QueryRow(ctx, `WITH ins AS (INSERT INTO tournament_games (match_id, tournament_id, round, board) VALUES ($1, $2, $3, $4)
				ON CONFLICT (match_id) DO NOTHING RETURNING 1)
			SELECT EXISTS (SELECT 1 FROM ins) OR EXISTS (SELECT 1 FROM tournament_games
				WHERE match_id = $1 AND tournament_id = $2 AND round = $3 AND board = $4)`,
			int64(g.Match), int64(t.ID), g.Round, g.Board).Scan(&linked); err != nil {
			return query("link a tournament's match", err)
		}
		if !linked && !slices.Contains(held, g) {
			// A link the tournament held already is left as it is: its
			// next save must not fail for what was stored before.
			return fmt.Errorf("tournament %d: match %d plays another board: %w", t.ID, g.Match, storage.ErrInvalid)
		}
	}
	return nil
}

func scanTournament(row pgx.Row, id storage.TournamentID) (*storage.Tournament, error) {
	var data []byte
	if err := row.Scan(&data); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, fmt.Errorf("tournament %d: %w", id, storage.ErrNotFound)
		}
		return nil, query(fmt.Sprintf("tournament %d", id), err)
	}
	return storage.DecodeTournament(data)
}

// CreateTournament stores a new tournament.
func (db *DB) CreateTournament(ctx context.Context, t *storage.Tournament, limits storage.TournamentLimits) (*storage.Tournament, error) {
	n, err := storage.PrepareTournament(t)
	if err != nil {
		return nil, err
	}
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if err := allowTournament(ctx, tx, n, limits); err != nil {
			return err
		}
		var id int64
		if err := tx.QueryRow(ctx, "SELECT nextval('tournament_ids')").Scan(&id); err != nil {
			return query("next tournament id", err)
		}
		n.ID = storage.TournamentID(id)
		return saveTournament(ctx, tx, nil, n)
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// allowTournament refuses t when its server's tournaments not yet over
// reach a limit. It first takes a lock of the server's tournament creates
// until the transaction ends, so that two processes' creates cannot both
// count before either writes.
func allowTournament(ctx context.Context, tx pgx.Tx, t *storage.Tournament, limits storage.TournamentLimits) error {
	if limits == (storage.TournamentLimits{}) {
		return nil
	}
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", tournamentCreateLock(t.GuildID)); err != nil {
		return query("lock the server's tournament creates", err)
	}
	var onServer, ofCreator int
	err := tx.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE record->>'creator' = $2)
		FROM tournaments WHERE guild_id = $1 AND NOT done`, t.GuildID, t.CreatorID).Scan(&onServer, &ofCreator)
	if err != nil {
		return query("count the server's tournaments", err)
	}
	return limits.Allow(onServer, ofCreator)
}

// tournamentCreateLock is the key of the advisory lock of a server's
// tournament creates: a hash of its ID, kept apart from the migration
// lock's key by its prefix.
func tournamentCreateLock(guildID string) int64 {
	h := fnv.New64a()
	h.Write([]byte("tournament create " + guildID))
	return int64(h.Sum64())
}

// Tournament returns a tournament.
func (db *DB) Tournament(ctx context.Context, id storage.TournamentID) (*storage.Tournament, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	t, err := scanTournament(db.pool.QueryRow(ctx, "SELECT record FROM tournaments WHERE id = $1", int64(id)), id)
	return t, db.fail(err)
}

// UpdateTournament changes a tournament in one transaction, the row locked
// against other processes: see storage.TournamentStore.
func (db *DB) UpdateTournament(ctx context.Context, id storage.TournamentID, expect uint64, fn func(t *storage.Tournament) error) (*storage.Tournament, error) {
	var out *storage.Tournament
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out = nil
		old, err := scanTournament(tx.QueryRow(ctx, "SELECT record FROM tournaments WHERE id = $1 FOR UPDATE", int64(id)), id)
		if err != nil {
			return err
		}
		n, err := storage.ChangeTournament(old, expect, fn)
		if err != nil {
			return err
		}
		if err := saveTournament(ctx, tx, old, n); err != nil {
			return err
		}
		if err := recordNotices(ctx, tx, storage.TournamentNotices(old, n)); err != nil {
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
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	return db.tournaments(ctx, "list tournaments",
		"SELECT id, record FROM tournaments WHERE guild_id = $1 AND (NOT done OR $2) ORDER BY id", guildID, all)
}

// tournaments runs sql, whose rows are a tournament's id and record each,
// and decodes them: those it cannot are named by the *UnreadableError it
// returns with the others. what names the query in errors.
func (db *DB) tournaments(ctx context.Context, what, sql string, args ...any) ([]*storage.Tournament, error) {
	return identified(ctx, db, what, "tournament", storage.DecodeTournament, sql, args...)
}

// MatchTournament returns the board a match plays.
func (db *DB) MatchTournament(ctx context.Context, id storage.MatchID) (storage.TournamentGame, error) {
	if err := db.ready(ctx); err != nil {
		return storage.TournamentGame{}, err
	}
	var tid int64
	g := storage.TournamentGame{Match: id}
	err := db.pool.QueryRow(ctx, "SELECT tournament_id, round, board FROM tournament_games WHERE match_id = $1", int64(id)).Scan(&tid, &g.Round, &g.Board)
	if errors.Is(err, pgx.ErrNoRows) {
		return g, fmt.Errorf("match %d plays in no tournament: %w", id, storage.ErrNotFound)
	}
	if err != nil {
		return g, db.fail(query("match's tournament", err))
	}
	g.Tournament = storage.TournamentID(tid)
	return g, nil
}

// refreshTournamentWakes sets the wake of every tournament not yet over (or
// still starting its matches) to what the tournament says, where it
// differs. The column is written when a tournament is saved, so without
// this a newer rule of when a tournament
// wakes (storage.Tournament.Wake) would reach those stored by an older
// version only at their next change. A row changed meanwhile (its version
// moved on) was saved by the current rule already and is left as it is, and
// so is one whose record does not decode.
func refreshTournamentWakes(ctx context.Context, pool *pgxpool.Pool) error {
	type fix struct {
		id, version int64
		wake        any
	}
	// A tournament cancelled while its matches were being started, or
	// with games still to call off, is not over for its timer
	// (storage.Tournament.Wake): it is read too.
	rows, err := pool.Query(ctx, "SELECT id, version, wake, record FROM tournaments WHERE NOT done OR (record->>'starting')::boolean OR (record->>'calling_off')::boolean")
	if err != nil {
		return query("read the tournaments' timers", err)
	}
	fixes, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (fix, error) {
		var f fix
		var stored *time.Time
		var data []byte
		if err := row.Scan(&f.id, &f.version, &stored, &data); err != nil {
			return fix{}, err
		}
		t, err := storage.DecodeTournament(data)
		if err != nil {
			// Left as it is: the bot still starts, and the tournament fails
			// where it is read, with its error.
			return fix{}, nil
		}
		at, ok := t.Wake()
		switch {
		case ok && (stored == nil || !stored.Equal(at.Truncate(time.Microsecond))):
			f.wake = at
		case !ok && stored != nil:
			f.wake = nil
		default:
			f.id = 0 // right as it is
		}
		return f, nil
	})
	if err != nil {
		return query("read the tournaments' timers", err)
	}
	for _, f := range fixes {
		if f.id == 0 {
			continue
		}
		if _, err := pool.Exec(ctx, "UPDATE tournaments SET wake = $3 WHERE id = $1 AND version = $2", f.id, f.version, f.wake); err != nil {
			return query(fmt.Sprintf("refresh tournament %d's timer", f.id), err)
		}
	}
	return nil
}

// DueTournaments returns the tournaments whose timer is due at now: those
// it can read, and a *storage.UnreadableError naming the others.
func (db *DB) DueTournaments(ctx context.Context, now time.Time) ([]*storage.Tournament, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	return db.tournaments(ctx, "due tournaments", "SELECT id, record FROM tournaments WHERE wake <= $1 ORDER BY wake, id", now)
}

// NextTournamentWake returns the earliest tournament timer.
func (db *DB) NextTournamentWake(ctx context.Context) (time.Time, bool, error) {
	if err := db.ready(ctx); err != nil {
		return time.Time{}, false, err
	}
	var at *time.Time
	if err := db.pool.QueryRow(ctx, "SELECT min(wake) FROM tournaments").Scan(&at); err != nil {
		return time.Time{}, false, db.fail(query("next tournament timer", err))
	}
	if at == nil {
		return time.Time{}, false, nil
	}
	return utc(at), true, nil
}
