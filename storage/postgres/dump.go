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
	"tournament_games":  "rebuilt from the tournaments, and each match's board sent to choose among two that link it",
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

// BotSessions counts the sessions on this database named ApplicationName,
// but the one asking: a running bot's, every process of it, whether it
// holds a lease or not (a process that does not lead the timers still
// writes). A DB opened under another name (Options.ApplicationName) counts
// none of its own. pg_stat_activity shows a session's database and name
// to any role (and copydb connects as the bot's role anyway).
func (db *DB) BotSessions(ctx context.Context) (int, error) {
	if err := db.ready(ctx); err != nil {
		return 0, err
	}
	var n int
	err := db.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`, ApplicationName).Scan(&n)
	return n, db.fail(query("sessions", err))
}

// Dump sends the whole database into to, from one snapshot (a read-only,
// repeatable-read transaction), a row at a time as the server sends them:
// nothing but the record being sent is held in memory.
func (db *DB) Dump(ctx context.Context, to storage.Sink) error {
	if err := db.ready(ctx); err != nil {
		return err
	}
	var sinkErr error
	// sink calls to, and keeps its error apart: it is the target's, not
	// this database's, and passes through db.fail untouched.
	sink := func(err error) error {
		if err != nil {
			sinkErr = err
			return errSinkFailed
		}
		return nil
	}
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var m storage.Meta
		if err := tx.QueryRow(ctx, "SELECT key FROM web_key").Scan(&m.WebKey); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return query("web key", err)
		}
		var alive *time.Time
		if err := tx.QueryRow(ctx, "SELECT at FROM alive").Scan(&alive); err != nil {
			return query("alive", err)
		}
		m.Alive = utc(alive)
		seqs := []*uint64{&m.Sequences.Match, &m.Sequences.Challenge, &m.Sequences.Notice, &m.Sequences.Tournament}
		for i, name := range sequences {
			var last int64
			if err := tx.QueryRow(ctx, "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM "+name).Scan(&last); err != nil {
				return query(name, err)
			}
			*seqs[i] = uint64(last)
		}
		if err := sink(to.Meta(m)); err != nil {
			return err
		}
		if err := dumpRecords(ctx, tx, "matches", storage.DecodeMatch, to.Match, sink, "SELECT record FROM matches ORDER BY id"); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "SELECT match_id, user_id FROM followers ORDER BY match_id, user_id COLLATE \"C\"")
		if err != nil {
			return query("followers", err)
		}
		var id int64
		var user string
		if _, err := pgx.ForEachRow(rows, []any{&id, &user}, func() error {
			return sink(to.Follower(storage.MatchID(id), user))
		}); err != nil {
			return query("followers", err)
		}
		if err := dumpRecords(ctx, tx, "challenges", storage.DecodeChallenge, to.Challenge, sink, "SELECT record FROM challenges ORDER BY id"); err != nil {
			return err
		}
		if err := dumpRecords(ctx, tx, "players", storage.DecodePlayer, to.Player, sink, "SELECT record FROM players ORDER BY user_id"); err != nil {
			return err
		}
		if err := dumpRecords(ctx, tx, "servers", storage.DecodeServer, to.Server, sink, "SELECT record FROM servers ORDER BY guild_id"); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, "SELECT "+standingColumns+", guild_id, variant FROM standings ORDER BY guild_id, variant, user_id")
		if err != nil {
			return query("standings", err)
		}
		var st storage.Standing
		var last *time.Time
		var variant string
		if _, err := pgx.ForEachRow(rows, []any{&st.UserID, &st.Name, &st.Wins, &st.Losses, &st.Draws, &st.Rating, &st.RD, &st.Volatility, &last, &st.GuildID, &variant}, func() error {
			s := st
			s.LastPlayed = utc(last)
			if err := s.Variant.UnmarshalText([]byte(variant)); err != nil {
				return fmt.Errorf("standing of variant %q: %v: %w", variant, err, storage.ErrCorrupt)
			}
			return sink(to.Standing(s))
		}); err != nil {
			return query("standings", err)
		}
		if err := dumpRecords(ctx, tx, "notices", storage.DecodeNotice, to.Notice, sink, "SELECT record FROM notices ORDER BY id"); err != nil {
			return err
		}
		if err := dumpRecords(ctx, tx, "seeks", storage.DecodeSeek, to.Seek, sink, "SELECT record FROM seeks ORDER BY guild_id, user_id"); err != nil {
			return err
		}
		if err := dumpRecords(ctx, tx, "tournaments", storage.DecodeTournament, to.Tournament, sink, "SELECT record FROM tournaments ORDER BY id"); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, "SELECT match_id, tournament_id, round, board FROM tournament_games ORDER BY match_id")
		if err != nil {
			return query("tournament games", err)
		}
		var match, tournament int64
		var g storage.TournamentGame
		if _, err := pgx.ForEachRow(rows, []any{&match, &tournament, &g.Round, &g.Board}, func() error {
			g.Match, g.Tournament = storage.MatchID(match), storage.TournamentID(tournament)
			return sink(to.TournamentGame(g))
		}); err != nil {
			return query("tournament games", err)
		}
		return nil
	})
	if errors.Is(err, errSinkFailed) {
		return sinkErr
	}
	return db.fail(err)
}

// errSinkFailed stands, within Dump, for the error of the Sink, which Dump
// returns as it is.
var errSinkFailed = errors.New("the copy's target failed")

// dumpRecords sends the records sql returns, one a row, to put; sink keeps
// put's error apart.
func dumpRecords[T any](ctx context.Context, tx pgx.Tx, what string, decode func([]byte) (T, error), put func(T) error, sink func(error) error, sql string) error {
	rows, err := tx.Query(ctx, sql)
	if err != nil {
		return query(what, err)
	}
	var data []byte
	_, err = pgx.ForEachRow(rows, []any{&data}, func() error {
		r, err := decode(data)
		if err != nil {
			return err
		}
		return sink(put(r))
	})
	if errors.Is(err, errSinkFailed) {
		return err
	}
	return query(what, err)
}

// Load writes what from sends into this database, which must hold no record
// and no time alive (storage.ErrNotEmpty otherwise), in one transaction, a
// row at a time, with every index column written from the records as a
// change writes it. Each sequence goes on after the higher of the Source's
// last id and the last the database drew.
func (db *DB) Load(ctx context.Context, from storage.Source) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := emptyDatabase(ctx, tx); err != nil {
			return err
		}
		l := &loader{ctx: ctx, tx: tx}
		if err := from(ctx, l); err != nil {
			return err
		}
		if l.meta.WebKey != nil {
			if _, err := tx.Exec(ctx, "INSERT INTO web_key (key) VALUES ($1)", l.meta.WebKey); err != nil {
				return query("web key", err)
			}
		}
		if _, err := tx.Exec(ctx, "UPDATE alive SET at = $1", nullTime(l.meta.Alive)); err != nil {
			return query("alive", err)
		}
		s := l.meta.Sequences
		for i, dumped := range []uint64{s.Match, s.Challenge, s.Notice, s.Tournament} {
			// Past the ids the target drew too: a load that failed
			// left them (setval is not rolled back).
			var drawn int64
			if err := tx.QueryRow(ctx, "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM "+sequences[i]).Scan(&drawn); err != nil {
				return query(sequences[i], err)
			}
			last := max(int64(dumped), drawn)
			if last == 0 {
				continue // never called, as in a new database
			}
			if _, err := tx.Exec(ctx, "SELECT setval($1, $2, true)", sequences[i], last); err != nil {
				return query(sequences[i], err)
			}
		}
		return nil
	})
}

// loader is Load's storage.Sink: it writes each record as it comes, in
// Load's transaction.
type loader struct {
	ctx  context.Context
	tx   pgx.Tx
	meta storage.Meta
}

func (l *loader) Meta(m storage.Meta) error {
	l.meta = storage.Meta{WebKey: slices.Clone(m.WebKey), Alive: m.Alive, Sequences: m.Sequences}
	return nil
}

func (l *loader) Match(m *storage.Match) error { return writeMatch(l.ctx, l.tx, 0, m) }

func (l *loader) Follower(id storage.MatchID, user string) error {
	if _, err := l.tx.Exec(l.ctx, "INSERT INTO followers (match_id, user_id) VALUES ($1, $2)", int64(id), user); err != nil {
		return query(fmt.Sprintf("follower of match %d", id), err)
	}
	return nil
}

func (l *loader) Challenge(c *storage.Challenge) error {
	data, err := storage.EncodeChallenge(c)
	if err != nil {
		return err
	}
	if _, err := l.tx.Exec(l.ctx, `INSERT INTO challenges (id, channel_id, challenger_id, opponent_id, expires_at, record) VALUES ($1, $2, $3, $4, $5, $6)`,
		int64(c.ID), c.ChannelID, c.Challenger.UserID, nullText(c.Opponent.UserID), c.Expires, data); err != nil {
		return query(fmt.Sprintf("challenge %d", c.ID), err)
	}
	return nil
}

func (l *loader) Player(p *storage.PlayerSettings) error {
	data, err := storage.EncodePlayer(p)
	if err != nil {
		return err
	}
	if _, err := l.tx.Exec(l.ctx, "INSERT INTO players (user_id, version, record, vacation_end) VALUES ($1, $2, $3, $4)",
		p.UserID, int64(p.Version), data, nullTime(p.VacationEnds())); err != nil {
		return query("player", err)
	}
	return nil
}

func (l *loader) Server(s *storage.ServerSettings) error {
	data, err := storage.EncodeServer(s)
	if err != nil {
		return err
	}
	if _, err := l.tx.Exec(l.ctx, "INSERT INTO servers (guild_id, version, record) VALUES ($1, $2, $3)", s.GuildID, int64(s.Version), data); err != nil {
		return query("server", err)
	}
	return nil
}

func (l *loader) Standing(s storage.Standing) error {
	variant, err := variantText(s.Variant)
	if err != nil {
		return err
	}
	if _, err := l.tx.Exec(l.ctx, `INSERT INTO standings (guild_id, variant, user_id, name, wins, losses, draws, rating, rd, volatility, last_played)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		s.GuildID, variant, s.UserID, s.Name, s.Wins, s.Losses, s.Draws, s.Rating, s.RD, s.Volatility, nullTime(s.LastPlayed)); err != nil {
		return query("standing", err)
	}
	return nil
}

func (l *loader) Notice(n *storage.Notice) error {
	data, err := storage.EncodeNotice(n)
	if err != nil {
		return err
	}
	if _, err := l.tx.Exec(l.ctx, "INSERT INTO notices (id, queue, next_try, record) VALUES ($1, $2, $3, $4)",
		int64(n.ID), storage.NoticeQueue(n), n.NextTry, data); err != nil {
		return query(fmt.Sprintf("notice %d", n.ID), err)
	}
	return nil
}

func (l *loader) Seek(s *storage.Seek) error {
	data, err := storage.EncodeSeek(s)
	if err != nil {
		return err
	}
	if _, err := l.tx.Exec(l.ctx, `INSERT INTO seeks (guild_id, user_id, created_at, expires_at, record) VALUES ($1, $2, $3, $4, $5)`,
		s.GuildID, s.Player.UserID, s.Created, s.Expires, data); err != nil {
		return query("seek", err)
	}
	return nil
}

// Tournament writes t with its links as its own, as those of a tournament
// stored are: a match an older version let two tournaments link plays the
// board of the first sent until the source's is (TournamentGame), and the
// other's record keeps its link.
func (l *loader) Tournament(t *storage.Tournament) error {
	return writeTournament(l.ctx, l.tx, true, t, t.Games)
}

// TournamentGame makes g the board its match plays, as the source says,
// where the tournaments sent linked it to another (a match an older
// version let two tournaments link) and g's tournament's record holds it;
// otherwise the board the records gave stands (storage.Loader).
func (l *loader) TournamentGame(g storage.TournamentGame) error {
	var tournament int64
	var round, board int
	err := l.tx.QueryRow(l.ctx, "SELECT tournament_id, round, board FROM tournament_games WHERE match_id = $1", int64(g.Match)).Scan(&tournament, &round, &board)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && storage.TournamentID(tournament) == g.Tournament && round == g.Round && board == g.Board {
		return nil
	}
	if err != nil {
		return query(fmt.Sprintf("the board of match %d", g.Match), err)
	}
	t, err := scanTournament(l.tx.QueryRow(l.ctx, "SELECT record FROM tournaments WHERE id = $1", int64(g.Tournament)), g.Tournament)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if !slices.Contains(t.Games, g) {
		return nil
	}
	if _, err := l.tx.Exec(l.ctx, "UPDATE tournament_games SET tournament_id = $2, round = $3, board = $4 WHERE match_id = $1",
		int64(g.Match), int64(g.Tournament), g.Round, g.Board); err != nil {
		return query(fmt.Sprintf("the board of match %d", g.Match), err)
	}
	return nil
}

// emptyDatabase refuses, with storage.ErrNotEmpty, a database holding a
// row of any table that Load writes, or a time alive. A sequence that
// handed out ids is no refusal when nothing else is there: a load that
// failed or was stopped leaves its setval (never rolled back), and a
// second copy must be taken; Load sets each past the ids drawn.
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
	return nil
}

// TableCopy says what Dump and Load do with each table of the schema, for
// the test that every table is covered.
func TableCopy() map[string]string { return maps.Clone(tableCopy) }
