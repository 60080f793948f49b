package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/strategobot/strategobot/storage"
)

// Options configure Open.
type Options struct {
	// URL is the connection string: postgres://USER:PASSWORD@HOST:PORT/DATABASE
	// with optional parameters (?sslmode=verify-full, ?host=/run/postgresql for
	// a Unix socket, ?pool_max_conns=8, ?connect_timeout=5, and any server
	// setting such as ?synchronous_commit=off); the keyword/value form
	// ("host=… dbname=…") works too.
	URL string
	// Reminders returns, for the time a turn has (its move time, and in
	// play the time given it: storage.Match.TurnTime), how long before its
	// deadline each reminder is due; nil means none (the bot passes its own
	// schedule).
	Reminders func(turn time.Duration) []time.Duration
	// Logger receives the few events worth logging (migrations). nil discards them.
	Logger *slog.Logger
	// ReadOnly opens the database only to read it, as strategobot copydb
	// reads its source, which a bot of another version may still run on:
	// its sessions are read-only (default_transaction_read_only), and Open
	// neither migrates it nor sets tournaments' wakes. A database of an
	// older schema is refused with ErrOlderSchema, one of a newer schema
	// with storage.ErrNewerSchema, and both are left as they are.
	ReadOnly bool
	// ApplicationName names the sessions (pg_stat_activity's
	// application_name) over the URL's; "" keeps the URL's, else
	// ApplicationName.
	ApplicationName string
}

// ApplicationName names a bot's sessions on the server unless its URL names
// them otherwise: BotSessions counts them.
const ApplicationName = "strategobot"

// ErrOlderSchema refuses to open read-only (Options.ReadOnly) a database
// that an older strategobot wrote: it is left as it is.
var ErrOlderSchema = errors.New("the database was written by an older strategobot, and was opened only to be read")

// Defaults for what the URL does not set.
const (
	// DefaultConnectTimeout bounds each attempt to connect (connect_timeout).
	DefaultConnectTimeout = 10 * time.Second
	// DefaultMaxConns bounds the pool (pool_max_conns). Moves committed at
	// the same time share the server's WAL flushes, so more connections than
	// cores pay: in one run of BenchmarkApplyMove, 16 committed 2.2 to 2.4
	// times the moves per second of 4, with 16 or 64 matches in play.
	DefaultMaxConns = 16
)

// maxAttempts bounds the runs of one transaction that PostgreSQL aborted to
// break a deadlock or a serialization conflict.
const maxAttempts = 5

// DB is the PostgreSQL Store: a pool of connections to one database, which
// any number of processes may share. It keeps nothing in memory between
// calls; every check of a version or a turn is made on rows locked in the
// database. Its methods are safe for concurrent use.
type DB struct {
	pool    *pgxpool.Pool
	changes storage.Changes
	closed  atomic.Bool
}

var _ storage.Store = (*DB)(nil)

// IsURL reports whether a database setting names a PostgreSQL server
// (postgres:// or postgresql://) rather than a bbolt file.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Redacted returns a connection string fit for logs and messages: a URL with
// its passwords replaced by "xxxxx", the user's in the user part or in the
// query (?password=) and that of the client's key (?sslpassword=), which
// libpq and pgx take there too; or a placeholder for any other form.
func Redacted(connString string) string {
	if !IsURL(connString) {
		return "(a PostgreSQL keyword/value connection string)"
	}
	u, err := url.Parse(connString)
	if err != nil {
		return "postgres://(an address that does not parse)"
	}
	q, hidden := u.Query(), false
	for _, key := range []string{"password", "sslpassword"} {
		if q.Has(key) {
			q.Set(key, "xxxxx")
			hidden = true
		}
	}
	if hidden {
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// Open connects to the database at opts.URL and brings its schema up to date
// (see the package documentation, "Migrations"), unless opts.ReadOnly. It refuses a database
// migrated by a newer strategobot (storage.ErrNewerSchema), and one the
// server refuses until its setup or the URL changes (ErrSetup), saying what
// to change.
func Open(ctx context.Context, opts Options) (*DB, error) {
	where := Redacted(opts.URL)
	cfg, err := pgxpool.ParseConfig(opts.URL)
	if err != nil {
		// pgx's reason may quote the string, password and all.
		return nil, fmt.Errorf("database %s is not a valid PostgreSQL connection string: write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE", where)
	}
	if opts.ApplicationName != "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = opts.ApplicationName
	} else if _, ok := cfg.ConnConfig.RuntimeParams["application_name"]; !ok {
		cfg.ConnConfig.RuntimeParams["application_name"] = ApplicationName
	}
	if opts.ReadOnly {
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = DefaultConnectTimeout
	}
	if !strings.Contains(opts.URL, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", where, err)
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if opts.ReadOnly {
		if err := checkSchema(ctx, pool, where, migrations); err != nil {
			pool.Close()
			return nil, explainOpen(where, cfg.ConnConfig.User, cfg.ConnConfig.Database, err)
		}
		return &DB{pool: pool, changes: storage.Changes{Reminders: opts.Reminders}}, nil
	}
	if err := migrate(ctx, pool, where, migrations, logger); err != nil {
		pool.Close()
		return nil, explainOpen(where, cfg.ConnConfig.User, cfg.ConnConfig.Database, err)
	}
	if err := refreshTournamentWakes(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("database %s: %w", where, err)
	}
	return &DB{pool: pool, changes: storage.Changes{Reminders: opts.Reminders}}, nil
}

// Close closes every connection; calls after it fail with storage.ErrClosed.
func (db *DB) Close() error {
	if db.closed.CompareAndSwap(false, true) {
		db.pool.Close()
	}
	return nil
}

// ready refuses a call on a closed store or with a finished context.
func (db *DB) ready(ctx context.Context) error {
	if db.closed.Load() {
		return storage.ErrClosed
	}
	return ctx.Err()
}

// inTx runs fn in a READ COMMITTED transaction and commits it. When
// PostgreSQL aborted it to break a deadlock or a serialization conflict, it
// runs fn again, so fn must set its results afresh on every run. fn's own
// errors roll it back and come back unchanged.
//
// READ COMMITTED is asked of each transaction (readCommitted), whatever
// the database's default_transaction_isolation, and not as a setting of
// the connection, which a pooler such as PgBouncer refuses: a count made
// under an advisory lock (a member's limits, a server's seeks) must see what
// the lock's holder before it wrote, which a REPEATABLE READ snapshot taken
// before the lock was granted does not; and a row two processes write at
// once (a lease, a follower) waits for the other, where REPEATABLE READ
// fails the second.
func (db *DB) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	if err := db.ready(ctx); err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		err := pgx.BeginTxFunc(ctx, db.pool, readCommitted, fn)
		if err == nil || attempt == maxAttempts || !retryable(err) {
			return db.fail(err)
		}
	}
}

// readCommitted is every writing transaction's level (inTx).
var readCommitted = pgx.TxOptions{IsoLevel: pgx.ReadCommitted}

// retryable reports a transaction that PostgreSQL aborted and may succeed if run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001") // deadlock_detected, serialization_failure
}

// Changes are the rules of each change, with this database's reminder schedule.
func (db *DB) Changes() storage.Changes { return db.changes }

// fail turns the errors of a closed pool into storage.ErrClosed.
func (db *DB) fail(err error) error {
	if err != nil && db.closed.Load() && !errors.Is(err, storage.ErrClosed) {
		return fmt.Errorf("%v: %w", err, storage.ErrClosed)
	}
	return err
}

// identified runs sql, whose rows are a record's id and the record each,
// and decodes them: those it cannot are named by the *storage.UnreadableError
// (of records of kind) it returns with the others, so that one bad record
// hides no other. what names the query in errors.
func identified[T any](ctx context.Context, db *DB, what, kind string, decode func([]byte) (T, error), sql string, args ...any) ([]T, error) {
	out, err := identifiedIn(ctx, db.pool, what, kind, decode, sql, args...)
	var unread *storage.UnreadableError
	if errors.As(err, &unread) {
		return out, err
	}
	return out, db.fail(err)
}

// identifiedIn is identified on q: the pool, or a transaction.
func identifiedIn[T any](ctx context.Context, q interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}, what, kind string, decode func([]byte) (T, error), sql string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, query(what, err)
	}
	type row struct {
		id   int64
		data []byte
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		err := r.Scan(&x.id, &x.data)
		return x, err
	})
	if err != nil {
		return nil, query(what, err)
	}
	unread := storage.NewUnreadable(kind)
	var out []T
	for _, r := range list {
		x, err := decode(r.data)
		if err != nil {
			unread.Add(uint64(r.id), err)
			continue
		}
		out = append(out, x)
	}
	return out, unread.Err()
}

// query wraps an error of the database itself with what was being done.
func query(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("database: %s: %w", what, err)
}

// nullTime is t for a timestamptz column, NULL for the zero time.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// nullText is s for a text column, NULL for "".
func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// utc reads a timestamptz as storage keeps times: whole seconds, UTC, the
// zero time for NULL.
func utc(t *time.Time) time.Time {
	if t == nil || t.IsZero() {
		return time.Time{}
	}
	return time.Unix(t.Unix(), 0).UTC()
}
