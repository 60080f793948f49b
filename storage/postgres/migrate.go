package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"regexp"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/strategobot/strategobot/storage"
)

// The schema's history is the numbered SQL files of migrations/, kept in the
// repository and built into the program: NNNN_what.sql brings a database from
// schema NNNN-1 to NNNN. A file, once released, never changes; a change of
// the schema is a new file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations are the embedded files, checked when the program starts.
var migrations = mustLoadMigrations(migrationFiles)

// migration is one file of migrations/.
type migration struct {
	version int
	name    string // the file's name
	sql     string
}

var migrationName = regexp.MustCompile(`^([0-9]{4})_[a-z0-9_]+\.sql$`)

// loadMigrations reads the *.sql files of fsys's migrations folder, which must
// be numbered 0001, 0002, … without a gap.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var list []migration
	for _, p := range names { // Glob sorts them
		name := path.Base(p)
		match := migrationName.FindStringSubmatch(name)
		if match == nil {
			return nil, fmt.Errorf("migration %s: name it NNNN_what.sql (four digits, lower-case words)", name)
		}
		n, _ := strconv.Atoi(match[1])
		if n != len(list)+1 {
			return nil, fmt.Errorf("migration %s: expected number %04d next", name, len(list)+1)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		list = append(list, migration{version: n, name: name, sql: string(data)})
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("no migrations")
	}
	return list, nil
}

func mustLoadMigrations(fsys fs.FS) []migration {
	list, err := loadMigrations(fsys)
	if err != nil {
		panic(err) // a build that ships a misnamed file; TestMigrationFiles catches it first
	}
	return list
}

// SchemaVersion is the schema this program writes: its newest migration.
func SchemaVersion() int { return len(migrations) }

// migrationLock is the key of the advisory lock that lets one process at a
// time migrate a database; any number fixed forever ("strat" in ASCII).
const migrationLock = 0x7374726174

// The table recording the migrations applied, created by the first start.
const createSchemaTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)`

// migrate brings the database up to the last of list, one migration per
// transaction. Each transaction takes the advisory lock, then reads the
// version: of two processes starting at once, the second waits and then finds
// the work done. A database at a version past list is refused with
// storage.ErrNewerSchema, and nothing is changed.
func migrate(ctx context.Context, pool *pgxpool.Pool, where string, list []migration, logger *slog.Logger) error {
	for {
		var applied *migration
		done := false
		// READ COMMITTED (inTx says why): the version read under the lock
		// must be the one the process before wrote.
		err := pgx.BeginTxFunc(ctx, pool, readCommitted, func(tx pgx.Tx) error {
			applied, done = nil, false
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrationLock)); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, createSchemaTable); err != nil {
				return err
			}
			var current int
			if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_migrations").Scan(&current); err != nil {
				return err
			}
			switch {
			case current > len(list):
				return fmt.Errorf("it is at schema %d, written by a newer strategobot; this one knows schemas up to %d: run the newer version, or restore a backup made before the upgrade: %w",
					current, len(list), storage.ErrNewerSchema)
			case current == len(list):
				done = true
				return nil
			}
			m := &list[current]
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.version, m.name); err != nil {
				return err
			}
			applied = m
			return nil
		})
		if err != nil {
			return fmt.Errorf("database %s: %w", where, err)
		}
		if done {
			return nil
		}
		logger.Info("database migrated", "database", where, "to", applied.version, "migration", applied.name)
	}
}

// checkSchema refuses, changing nothing, a database that is not at the last
// schema of list: one at a newer schema with storage.ErrNewerSchema, at an
// older one with ErrOlderSchema, and one without strategobot's tables.
func checkSchema(ctx context.Context, pool *pgxpool.Pool, where string, list []migration) error {
	var tables bool
	if err := pool.QueryRow(ctx, "SELECT to_regclass('schema_migrations') IS NOT NULL").Scan(&tables); err != nil {
		return err
	}
	if !tables {
		return fmt.Errorf("database %s holds no strategobot tables: name the database a bot ran on", where)
	}
	var current int
	if err := pool.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_migrations").Scan(&current); err != nil {
		return err
	}
	switch {
	case current > len(list):
		return fmt.Errorf("database %s: it is at schema %d, written by a newer strategobot; this one knows schemas up to %d: run the newer version, or restore a backup made before the upgrade: %w",
			where, current, len(list), storage.ErrNewerSchema)
	case current < len(list):
		return fmt.Errorf("database %s: it is at schema %d, this strategobot's is %d: %w", where, current, len(list), ErrOlderSchema)
	}
	return nil
}
