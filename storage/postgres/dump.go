package postgres

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/storage"
)

// What Dump and Load do with each table (copied; rebuilt: written by Load
// from the records; left: not copied, and why). TestDumpCoversEveryTable
// fails when a table of the schema is missing here, so that a new kind of
// record is not silently left behind by strategobot copydb.
var tableCopy = map[string]string{
	"matches":           "copied, with the sequence match_ids",
	"challenges":        "copied, with the sequence challenge_ids",
	"players":           "copied",
	"standings":         "copied",
	"notices":           "copied, with the sequence notice_ids",
	"servers":           "copied",
	"followers":         "copied",
	"tournaments":       "copied, with the sequence tournament_ids",
	"tournament_games":  "rebuilt from the tournaments",
	"web_key":           "copied",
	"seeks":             "copied",
	"alive":             "copied",
	"leases":            "left: they belong to the processes of the source, which are stopped",
	"schema_migrations": "left: the target has its own",
}

// sequences are the sequences ids are drawn from, in storage.Sequences' order.
var sequences = []string{"match_ids", "challenge_ids", "notice_ids", "tournament_ids"}

var _ interface {
	storage.Dumper
	storage.Loader
} = (*DB)(nil)

// LiveLeases returns the names of the leases some process holds at at: a
// running bot holds "timers" (see bot, lease.go), and gives it up as it stops.
func (db *DB) LiveLeases(ctx context.Context, at time.Time) ([]string, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	rows, err := db.pool.Query(ctx, "SELECT name FROM leases WHERE expires > $1 ORDER BY name", at)
	if err != nil {
		return nil, db.fail(query("leases", err))
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return names, db.fail(query("leases", err))
}

// Dump reads the whole database into a storage.Dump, from one snapshot (a
// read-only, repeatable-read transaction).
func (db *DB) Dump(ctx context.Context) (*storage.Dump, error) {
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	var d *storage.Dump
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		d = &storage.Dump{Followers: map[storage.MatchID][]string{}}
		var err error
		if d.Matches, err = dumpRecords(ctx, tx, "matches", storage.DecodeMatch, "SELECT record FROM matches ORDER BY id"); err != nil {
			return err
		}
		if d.Challenges, err = dumpRecords(ctx, tx, "challenges", storage.DecodeChallenge, "SELECT record FROM challenges ORDER BY id"); err != nil {
			return err
		}
		if d.Players, err = dumpRecords(ctx, tx, "players", storage.DecodePlayer, "SELECT record FROM players ORDER BY user_id"); err != nil {
			return err
		}
		if d.Servers, err = dumpRecords(ctx, tx, "servers", storage.DecodeServer, "SELECT record FROM servers ORDER BY guild_id"); err != nil {
			return err
		}
		if d.Seeks, err = dumpRecords(ctx, tx, "seeks", storage.DecodeSeek, "SELECT record FROM seeks ORDER BY guild_id, user_id"); err != nil {
			return err
		}
		if d.Tournaments, err = dumpRecords(ctx, tx, "tournaments", storage.DecodeTournament, "SELECT record FROM tournaments ORDER BY id"); err != nil {
			return err
		}
		notices, err := dumpRecords(ctx, tx, "notices", storage.DecodeNotice, "SELECT record FROM notices ORDER BY id")
		if err != nil {
			return err
		}
		for _, n := range notices {
			d.Notices = append(d.Notices, *n)
		}
		rows, err := tx.Query(ctx, "SELECT match_id, user_id FROM followers ORDER BY match_id, user_id COLLATE \"C\"")
		if err != nil {
			return query("followers", err)
		}
		var id int64
		var user string
		if _, err := pgx.ForEachRow(rows, []any{&id, &user}, func() error {
			d.Followers[storage.MatchID(id)] = append(d.Followers[storage.MatchID(id)], user)
			return nil
		}); err != nil {
			return query("followers", err)
		}
		rows, err = tx.Query(ctx, "SELECT "+standingColumns+", guild_id, variant FROM standings ORDER BY guild_id, variant, user_id")
		if err != nil {
			return query("standings", err)
		}
		d.Standings, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (storage.Standing, error) {
			var s storage.Standing
			var last *time.Time
			var variant string
			if err := row.Scan(&s.UserID, &s.Name, &s.Wins, &s.Losses, &s.Draws, &s.Rating, &s.RD, &s.Volatility, &last, &s.GuildID, &variant); err != nil {
				return s, err
			}
			s.LastPlayed = utc(last)
			if err := s.Variant.UnmarshalText([]byte(variant)); err != nil {
				return s, fmt.Errorf("standing of variant %q: %v: %w", variant, err, storage.ErrCorrupt)
			}
			return s, nil
		})
		if err != nil {
			return query("standings", err)
		}
		if err := tx.QueryRow(ctx, "SELECT key FROM web_key").Scan(&d.WebKey); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return query("web key", err)
		}
		var alive *time.Time
		if err := tx.QueryRow(ctx, "SELECT at FROM alive").Scan(&alive); err != nil {
			return query("alive", err)
		}
		d.Alive = utc(alive)
		seqs := []*uint64{&d.Sequences.Match, &d.Sequences.Challenge, &d.Sequences.Notice, &d.Sequences.Tournament}
		for i, name := range sequences {
			var last int64
			if err := tx.QueryRow(ctx, "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM "+name).Scan(&last); err != nil {
				return query(name, err)
			}
			*seqs[i] = uint64(last)
		}
		return nil
	})
	if err != nil {
		return nil, db.fail(err)
	}
	return d, nil
}

// dumpRecords reads the records sql returns, one a row.
func dumpRecords[T any](ctx context.Context, tx pgx.Tx, what string, decode func([]byte) (T, error), sql string) ([]T, error) {
	rows, err := tx.Query(ctx, sql)
	if err != nil {
		return nil, query(what, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (T, error) {
		var data []byte
		if err := row.Scan(&data); err != nil {
			var zero T
			return zero, err
		}
		return decode(data)
	})
	return out, query(what, err)
}

// Load writes d into this database, which must hold no record and have
// handed out no id (storage.ErrNotEmpty otherwise), in one transaction,
// with every index column written from the records as a change writes it.
func (db *DB) Load(ctx context.Context, d *storage.Dump) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := emptyDatabase(ctx, tx); err != nil {
			return err
		}
		for _, m := range d.Matches {
			if err := writeMatch(ctx, tx, 0, m); err != nil {
				return err
			}
		}
		ids := make([]storage.MatchID, 0, len(d.Followers))
		for id := range d.Followers {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			for _, u := range d.Followers[id] {
				if _, err := tx.Exec(ctx, "INSERT INTO followers (match_id, user_id) VALUES ($1, $2)", int64(id), u); err != nil {
					return query(fmt.Sprintf("follower of match %d", id), err)
				}
			}
		}
		for _, c := range d.Challenges {
			data, err := storage.EncodeChallenge(c)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO challenges (id, channel_id, challenger_id, opponent_id, expires_at, record) VALUES ($1, $2, $3, $4, $5, $6)`,
				int64(c.ID), c.ChannelID, c.Challenger.UserID, nullText(c.Opponent.UserID), c.Expires, data); err != nil {
				return query(fmt.Sprintf("challenge %d", c.ID), err)
			}
		}
		for _, p := range d.Players {
			data, err := storage.EncodePlayer(p)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "INSERT INTO players (user_id, version, record, vacation_end) VALUES ($1, $2, $3, $4)",
				p.UserID, int64(p.Version), data, nullTime(p.VacationEnds())); err != nil {
				return query("player", err)
			}
		}
		for _, s := range d.Servers {
			data, err := storage.EncodeServer(s)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "INSERT INTO servers (guild_id, version, record) VALUES ($1, $2, $3)", s.GuildID, int64(s.Version), data); err != nil {
				return query("server", err)
			}
		}
		for _, s := range d.Standings {
			variant, err := variantText(s.Variant)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO standings (guild_id, variant, user_id, name, wins, losses, draws, rating, rd, volatility, last_played)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				s.GuildID, variant, s.UserID, s.Name, s.Wins, s.Losses, s.Draws, s.Rating, s.RD, s.Volatility, nullTime(s.LastPlayed)); err != nil {
				return query("standing", err)
			}
		}
		for i := range d.Notices {
			n := &d.Notices[i]
			data, err := storage.EncodeNotice(n)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "INSERT INTO notices (id, queue, next_try, record) VALUES ($1, $2, $3, $4)",
				int64(n.ID), storage.NoticeQueue(n), n.NextTry, data); err != nil {
				return query(fmt.Sprintf("notice %d", n.ID), err)
			}
		}
		for _, s := range d.Seeks {
			data, err := storage.EncodeSeek(s)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO seeks (guild_id, user_id, created_at, expires_at, record) VALUES ($1, $2, $3, $4, $5)`,
				s.GuildID, s.Player.UserID, s.Created, s.Expires, data); err != nil {
				return query("seek", err)
			}
		}
		for _, t := range d.Tournaments {
			if err := saveTournament(ctx, tx, nil, t); err != nil {
				return err
			}
		}
		if d.WebKey != nil {
			if _, err := tx.Exec(ctx, "INSERT INTO web_key (key) VALUES ($1)", d.WebKey); err != nil {
				return query("web key", err)
			}
		}
		if _, err := tx.Exec(ctx, "UPDATE alive SET at = $1", nullTime(d.Alive)); err != nil {
			return query("alive", err)
		}
		for i, last := range []uint64{d.Sequences.Match, d.Sequences.Challenge, d.Sequences.Notice, d.Sequences.Tournament} {
			if last == 0 {
				continue // never called, as in a new database
			}
			if _, err := tx.Exec(ctx, "SELECT setval($1, $2, true)", sequences[i], int64(last)); err != nil {
				return query(sequences[i], err)
			}
		}
		return nil
	})
}

// emptyDatabase refuses, with storage.ErrNotEmpty, a database holding a
// row of any table that Load writes, a time alive, or a sequence that
// handed out an id.
func emptyDatabase(ctx context.Context, tx pgx.Tx) error {
	for table, how := range tableCopy {
		if table == "alive" || strings.HasPrefix(how, "left") {
			continue
		}
		var rows bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT FROM "+table+")").Scan(&rows); err != nil {
			return query(table, err)
		}
		if rows {
			return fmt.Errorf("its table %s has rows: %w", table, storage.ErrNotEmpty)
		}
	}
	var alive bool
	if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT FROM alive WHERE at IS NOT NULL)").Scan(&alive); err != nil {
		return query("alive", err)
	}
	if alive {
		return fmt.Errorf("a bot has run on it (alive): %w", storage.ErrNotEmpty)
	}
	for _, name := range sequences {
		var called bool
		if err := tx.QueryRow(ctx, "SELECT is_called FROM "+name).Scan(&called); err != nil {
			return query(name, err)
		}
		if called {
			return fmt.Errorf("its sequence %s has handed out ids: %w", name, storage.ErrNotEmpty)
		}
	}
	return nil
}

// TableCopy says what Dump and Load do with each table of the schema, for
// the test that every table is covered.
func TableCopy() map[string]string { return maps.Clone(tableCopy) }
