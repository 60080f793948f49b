package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strategobot/strategobot/bot"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/postgres"
)

const copydbUsage = `usage: strategobot copydb [-config FILE | -from DATABASE] -to DATABASE [-timeout DURATION]

Copies the whole database of a stopped bot into an empty one, from a bbolt
file to a PostgreSQL database (a postgres:// URL) or back, or to a new file:
every match with its log and version, the notices not yet sent, players'
settings, saved set-ups, vacations and ratings, servers' settings,
challenges, seeks, tournaments, followers, timers, the web links' key and
revoked links, and when the bot was last alive (so the bot gives its
players the time it was down back, as after any stop). The source is the
database -from names, else the bot's configuration's, read as run reads it;
it is only read (brought to this version's schema first, as run would). The
target must be empty: a new file, or a new PostgreSQL database (createdb)
that no bot has run on; copydb creates its tables. Then set database to the
target and start the bot.

It refuses a source a running bot holds (bbolt's lock; on PostgreSQL, a
bot's lease), a source written by a newer strategobot, and a target that
holds anything.

Environment (when -from is not given):
  STRATEGOBOT_CONFIG    the configuration file, as -config
  STRATEGOBOT_DATABASE  the database, over the file's

SIGINT or SIGTERM stop it; an unfinished copy writes nothing.

Exit code: 0 copied, 1 the copy failed, was refused or was stopped, 2 usage
or configuration error.

Flags:
`

// copydbOptions are copydb's flags.
type copydbOptions struct {
	configPath string
	from, to   string
	timeout    time.Duration
	logger     *slog.Logger // the source's Open logs to it
}

// copydbFlags declares copydb's flags into o.
func copydbFlags(o *copydbOptions, stderr io.Writer) *flag.FlagSet {
	fs := configFlags("copydb", copydbUsage, &o.configPath, stderr)
	fs.StringVar(&o.from, "from", "", "database to copy, a bbolt file or a postgres:// URL (default: the configuration's database, "+bolt.DefaultPath+" without one)")
	fs.StringVar(&o.to, "to", "", "empty database to copy into, a bbolt file (created) or a postgres:// URL")
	fs.DurationVar(&o.timeout, "timeout", bolt.DefaultTimeout, "how long to wait for a bbolt file's lock")
	return fs
}

// dbName is a database as copydb's messages name it: a file as it is, a
// URL without its password.
func dbName(db string) string {
	if postgres.IsURL(db) {
		return postgres.Redacted(db)
	}
	return db
}

// runCopydb is `strategobot copydb`.
func runCopydb(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o copydbOptions
	fs := copydbFlags(&o, stdout)
	if err := cli.Parse(fs, args); err != nil {
		return cli.UsageFailed(stderr, "strategobot copydb", copydbUsage, err)
	}
	if fs.NArg() > 0 {
		return cli.UsageFailed(stderr, "strategobot copydb", copydbUsage,
			fmt.Errorf("name the databases with -from and -to, not as %q", fs.Arg(0)))
	}
	if o.to == "" {
		return cli.UsageFailed(stderr, "strategobot copydb", copydbUsage,
			errors.New("name the empty database to copy into with -to: a new bbolt file, or a postgres:// URL"))
	}
	if o.from == "" {
		cfg, err := loadProcessConfig(o.configPath)
		if err != nil {
			fmt.Fprintln(stderr, "strategobot copydb:", err)
			return 2
		}
		o.from = cfg.Database
	}
	if sameDatabase(o.from, o.to) {
		fmt.Fprintf(stderr, "strategobot copydb: %s is the source itself: name another database with -to\n", dbName(o.to))
		return 2
	}
	if !postgres.IsURL(o.from) {
		if _, err := os.Stat(o.from); errors.Is(err, iofs.ErrNotExist) {
			fmt.Fprintf(stderr, "strategobot copydb: there is no database %s to copy: name the bot's file with -from FILE, "+
				"or run copydb in the bot's working directory with its -config\n", o.from)
			return 1
		}
	}
	created := false
	if !postgres.IsURL(o.to) {
		if info, err := os.Stat(filepath.Dir(o.to)); err != nil || !info.IsDir() {
			fmt.Fprintf(stderr, "strategobot copydb: the folder %s does not exist: create it, or copy to a file in a folder that exists\n", filepath.Dir(o.to))
			return 1
		}
		if _, err := os.Stat(o.to); err == nil {
			fmt.Fprintf(stderr, "strategobot copydb: %s exists: copy into a new file, or move that one away\n", o.to)
			return 1
		}
		created = true
	}

	start := time.Now()
	var migrated migrations
	o.logger = slog.New(&migrated)
	counts, err := copyDatabase(ctx, o)
	if err != nil {
		if created {
			os.Remove(o.to) // the new, empty file Open made
		}
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "strategobot copydb: stopped before the copy was made; %s was not written\n", dbName(o.to))
			return 1
		}
		fmt.Fprintf(stderr, "strategobot copydb: %v\n", err)
		switch {
		case errors.Is(err, storage.ErrInUse) || errors.Is(err, errBotRunning):
			fmt.Fprintln(stderr, "The bot is running: stop it (every process of it) first, then copy.")
		case errors.Is(err, storage.ErrNotEmpty):
			fmt.Fprintln(stderr, "Copy into a new file, or into a new PostgreSQL database (createdb), which copydb fills.")
		case errors.Is(err, storage.ErrNewerSchema):
			fmt.Fprintln(stderr, "Copy it with the newer strategobot that wrote it.")
		}
		if errors.Is(err, postgres.ErrSetup) || errors.Is(err, bolt.ErrPlace) {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stdout, "copied %s to %s (%s):\n  %s.\n", dbName(o.from), dbName(o.to), time.Since(start).Round(time.Millisecond), counts)
	target := o.to
	if postgres.IsURL(o.to) {
		target = "the URL given to -to" // shown here without its password
	}
	fmt.Fprintf(stdout, "Next: set database to %s (in the configuration file, or STRATEGOBOT_DATABASE), then start the bot.\n", target)
	switch {
	case migrated.backup != "":
		fmt.Fprintf(stdout, "The source was of an older schema, and was migrated to this version's first, as run would; the copy kept before, "+
			"%s, is the one an older strategobot reads. Keep them until the bot runs well on the copy, and start no bot on them meanwhile.\n", migrated.backup)
	case migrated.n > 0:
		fmt.Fprintln(stdout, "The source was of an older schema, and was migrated to this version's first, as run would: an older strategobot "+
			"no longer reads it. Keep it until the bot runs well on the copy, and start no bot on it meanwhile.")
	default:
		fmt.Fprintln(stdout, "The source is left as it was: keep it until the bot runs well on the copy, and start no bot on it meanwhile.")
	}
	return 0
}

// migrations is the log of the source's Open: it notes the migrations
// ("database migrated") and the copy of the file kept before them, so that
// copydb says the source was left as it was only when it was.
type migrations struct {
	n      int
	backup string
}

func (m *migrations) Enabled(context.Context, slog.Level) bool { return true }
func (m *migrations) WithAttrs([]slog.Attr) slog.Handler       { return m }
func (m *migrations) WithGroup(string) slog.Handler            { return m }
func (m *migrations) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "database migrated" {
		m.n++
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "backup" && m.backup == "" {
				m.backup = a.Value.String()
			}
			return true
		})
	}
	return nil
}

// errBotRunning refuses a PostgreSQL source that a running bot holds.
var errBotRunning = errors.New("a bot is running on it")

// sameDatabase reports whether a and b name the same database: the same
// string, or the same file.
func sameDatabase(a, b string) bool {
	if a == b {
		return true
	}
	if postgres.IsURL(a) || postgres.IsURL(b) {
		return false
	}
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}

// copyDatabase opens both databases, refuses a source a bot holds, and
// copies.
func copyDatabase(ctx context.Context, o copydbOptions) (storage.Counts, error) {
	src, err := openForCopy(ctx, o.from, o.timeout, o.logger)
	if err != nil {
		return storage.Counts{}, fmt.Errorf("the source %s: %w", dbName(o.from), err)
	}
	defer src.Close()
	if pg, ok := src.(*postgres.DB); ok {
		held, err := pg.LiveLeases(ctx, time.Now())
		if err != nil {
			return storage.Counts{}, fmt.Errorf("the source %s: %w", dbName(o.from), err)
		}
		if len(held) > 0 {
			return storage.Counts{}, fmt.Errorf("the source %s: %w (it holds the lease %s)", dbName(o.from), errBotRunning, strings.Join(held, ", "))
		}
	}
	dst, err := openForCopy(ctx, o.to, o.timeout, nil)
	if err != nil {
		return storage.Counts{}, fmt.Errorf("the target %s: %w", dbName(o.to), err)
	}
	defer dst.Close()
	return storage.Copy(ctx, src.(storage.Dumper), dst.(storage.Loader))
}

// openForCopy opens a database as run does, without its backups.
func openForCopy(ctx context.Context, db string, timeout time.Duration, logger *slog.Logger) (storage.Store, error) {
	if postgres.IsURL(db) {
		return postgres.Open(ctx, postgres.Options{URL: db, Reminders: bot.Reminders, Logger: logger})
	}
	return openUnlessStopped(ctx, func() (storage.Store, error) {
		return bolt.Open(bolt.Options{Path: db, Timeout: timeout, Reminders: bot.Reminders, Logger: logger})
	})
}
