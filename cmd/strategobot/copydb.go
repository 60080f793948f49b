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
it is only read: a bbolt file is brought to this version's schema first, as
run would, but a PostgreSQL database of an older schema is refused (start
this version's bot on it once, stop it, then copy). The target must be
empty: a new file, or a new PostgreSQL database (createdb) that no bot has
run on; copydb creates its tables. Then set database to the target and
start the bot.

It refuses a source or a target a running bot holds (bbolt's lock; on
PostgreSQL, a bot's lease or its sessions, named strategobot), a source
written by a newer strategobot, and a target that holds anything.

Environment (when -from is not given):
  STRATEGOBOT_CONFIG    the configuration file, as -config
  STRATEGOBOT_DATABASE  the database, over the file's
The other STRATEGOBOT_* variables are read and checked as run reads them
(strategobot run -h lists them): a wrong one stops it.

SIGINT or SIGTERM stop it; an unfinished copy writes nothing. (A copy into
a file killed outright, by kill -9 or a power cut, leaves a file that no
strategobot opens, saying so: delete it and copy again.) The copy goes a
record at a time: its memory stays bounded however large the database.

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
	// Both name the source: neither is preferred unsaid. (The
	// environment's STRATEGOBOT_CONFIG, set for the bot, gives way to -from.)
	if o.from != "" && flagSet(fs, "config") {
		return cli.UsageFailed(stderr, "strategobot copydb", copydbUsage,
			errors.New("-from and -config both name the database to copy: give one, -from DATABASE for that database or -config FILE for the database the configuration names"))
	}
	if o.from == "" {
		cfg, err := loadProcessConfig(o.configPath)
		if err != nil {
			fmt.Fprintln(stderr, "strategobot copydb:", err)
			return 2
		}
		o.from = cfg.Database
	}
	for _, db := range []struct{ flag, name string }{{"-from", o.from}, {"-to", o.to}} {
		// As the configuration refuses one (validate): not quoted, as it
		// may hold a password, nor taken for a bbolt file's name.
		if !postgres.IsURL(db.name) && keywordValue.MatchString(db.name) && !exists(db.name) {
			fmt.Fprintf(stderr, "strategobot copydb: %s looks like a PostgreSQL connection string of keywords (host=… user=…), which copydb does not read: "+
				"write it as a URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE\n", db.flag)
			return 2
		}
	}
	if sameDatabase(o.from, o.to) {
		fmt.Fprintf(stderr, "strategobot copydb: %s is the source itself: name another database with -to\n", databaseName(o.to))
		return 2
	}
	if !postgres.IsURL(o.from) {
		if _, err := os.Stat(o.from); errors.Is(err, iofs.ErrNotExist) {
			fmt.Fprintf(stderr, "strategobot copydb: there is no database %s to copy: name the bot's file with -from FILE, "+
				"or run copydb in the bot's working directory with its -config\n", databaseName(o.from))
			return 1
		}
	}
	created := false
	if !postgres.IsURL(o.to) {
		if info, err := os.Stat(filepath.Dir(o.to)); err != nil || !info.IsDir() {
			fmt.Fprintf(stderr, "strategobot copydb: the folder %s does not exist: create it, or copy to a file in a folder that exists\n", databaseName(filepath.Dir(o.to)))
			return 1
		}
		if _, err := os.Stat(o.to); err == nil {
			fmt.Fprintf(stderr, "strategobot copydb: %s exists: copy into a new file, or move that one away\n", databaseName(o.to))
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
			fmt.Fprintf(stderr, "strategobot copydb: stopped before the copy was made; %s was not written\n", databaseName(o.to))
			return 1
		}
		fmt.Fprintf(stderr, "strategobot copydb: %v\n", hidePassword(hidePassword(err, o.from), o.to))
		switch {
		case errors.Is(err, storage.ErrInUse) || errors.Is(err, errBotRunning):
			fmt.Fprintln(stderr, "The bot is running: stop it (every process of it) first, then copy.")
		case errors.Is(err, storage.ErrNotEmpty):
			fmt.Fprintln(stderr, "Copy into a new file, or into a new PostgreSQL database (createdb), which copydb fills.")
		case errors.Is(err, storage.ErrNewerSchema):
			fmt.Fprintln(stderr, "Copy it with the newer strategobot that wrote it.")
		case errors.Is(err, postgres.ErrOlderSchema):
			fmt.Fprintln(stderr, "copydb reads a PostgreSQL source as it is: stop the bot (every process of it), start this version of strategobot on it once, "+
				"which brings its schema up to date, stop it, then copy.")
		}
		if errors.Is(err, postgres.ErrSetup) || errors.Is(err, bolt.ErrPlace) {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stdout, "copied %s to %s (%s):\n  %s.\n", databaseName(o.from), databaseName(o.to), time.Since(start).Round(time.Millisecond), counts)
	target := databaseName(o.to)
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

// errBotRunning refuses a PostgreSQL database that a running bot holds.
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

// copyDatabase opens both databases, refuses a source or a target a bot
// runs on, and copies. A PostgreSQL source is opened read-only: nothing
// writes to it, not even a migration, which would bring its schema past
// what a bot of an older version still running on it reads.
func copyDatabase(ctx context.Context, o copydbOptions) (storage.Counts, error) {
	src, err := openForCopy(ctx, o.from, o.timeout, true, o.logger)
	if err != nil {
		return storage.Counts{}, onSide("source", o.from, err)
	}
	defer src.Close()
	if err := refuseRunning(ctx, src); err != nil {
		return storage.Counts{}, onSide("source", o.from, err)
	}
	dst, err := openForCopy(ctx, o.to, o.timeout, false, nil)
	if err != nil {
		return storage.Counts{}, onSide("target", o.to, err)
	}
	defer dst.Close()
	if err := refuseRunning(ctx, dst); err != nil {
		return storage.Counts{}, onSide("target", o.to, err)
	}
	return storage.Copy(ctx, src.(storage.Dumper), dst.(storage.Loader))
}

// onSide names the side of the copy (source or target) and its database
// before err, once: an error of opening it that begins "database NAME"
// already names it, and reads "the target NAME: …" in place of "the target
// NAME: database NAME: …".
func onSide(side, db string, err error) error {
	name := databaseName(db)
	if rest, ok := strings.CutPrefix(err.Error(), "database "+name); ok && (strings.HasPrefix(rest, ": ") || strings.HasPrefix(rest, " ")) {
		return &sideError{text: "the " + side + " " + name + rest, err: err}
	}
	return fmt.Errorf("the %s %s: %w", side, name, err)
}

// sideError is an error of one side of a copy, reworded (onSide).
type sideError struct {
	text string
	err  error
}

func (e *sideError) Error() string { return e.text }
func (e *sideError) Unwrap() error { return e.err }

// copydbSessions names copydb's sessions on a PostgreSQL server, so that
// they are not taken for a bot's (postgres.DB.BotSessions).
const copydbSessions = postgres.ApplicationName + " copydb"

// refuseRunning refuses, with errBotRunning, a PostgreSQL database a bot
// runs on: one of its processes holds a lease (the leader of the timers),
// or any is connected (the others write too). A bbolt file's lock refused
// one already.
func refuseRunning(ctx context.Context, db storage.Store) error {
	pg, ok := db.(*postgres.DB)
	if !ok {
		return nil
	}
	held, err := pg.LiveLeases(ctx, time.Now())
	if err != nil {
		return err
	}
	if len(held) > 0 {
		return fmt.Errorf("%w (it holds the lease %s)", errBotRunning, strings.Join(held, ", "))
	}
	n, err := pg.BotSessions(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%w (pg_stat_activity shows it connected: sessions named %s)", errBotRunning, postgres.ApplicationName)
	}
	return nil
}

// openForCopy opens a database as run does, without its backups; a
// PostgreSQL database under copydb's own name, and only to read it when
// source; logger hears of the migrations of a bbolt source.
func openForCopy(ctx context.Context, db string, timeout time.Duration, source bool, logger *slog.Logger) (storage.Store, error) {
	if postgres.IsURL(db) {
		return postgres.Open(ctx, postgres.Options{URL: db, Reminders: bot.Reminders, ReadOnly: source, ApplicationName: copydbSessions, Logger: logger})
	}
	return openUnlessStopped(ctx, func() (storage.Store, error) {
		return bolt.Open(bolt.Options{Path: db, Timeout: timeout, Reminders: bot.Reminders, Logger: logger})
	})
}
