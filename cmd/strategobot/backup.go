package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/postgres"
)

const backupUsage = `usage: strategobot backup [-config FILE | -db FILE] [-timeout DURATION] PATH

Copies the bbolt database of a stopped bot to PATH (written beside it and
renamed into place, then checked page by page): the file -db names, else the
database of the bot's configuration, read as run reads it. A PATH that is a
folder gets the copy under the database's own name, as with cp. A running bot
holds the file: it makes its own copies every backup_every into backup_dir. A
PostgreSQL database is backed up with pg_dump instead, while the bot runs.

Environment (when -db is not given):
  STRATEGOBOT_CONFIG    the configuration file, as -config
  STRATEGOBOT_DATABASE  the database, over the file's
The other STRATEGOBOT_* variables are read and checked as run reads them
(strategobot run -h lists them): a wrong one stops it.

SIGINT or SIGTERM stop it at once, before it writes PATH.

Exit code: 0 copied, 1 the copy failed or was stopped, 2 usage or
configuration error.

Flags:
`

// backupOptions are backup's flags.
type backupOptions struct {
	configPath string
	db         string
	timeout    time.Duration
}

// backupFlags declares backup's flags into o.
func backupFlags(o *backupOptions, stderr io.Writer) *flag.FlagSet {
	fs := configFlags("backup", backupUsage, &o.configPath, stderr)
	fs.StringVar(&o.db, "db", "", "database file to copy (default: the configuration's database, "+bolt.DefaultPath+" without one)")
	fs.DurationVar(&o.timeout, "timeout", bolt.DefaultTimeout, "how long to wait for the file's lock")
	return fs
}

// backupOperands checks that one PATH follows the flags.
func backupOperands(n int) error {
	switch {
	case n == 0:
		return errors.New("name the PATH to copy the database to: a new file, or a folder to put the copy in")
	case n > 1:
		return fmt.Errorf("name one PATH to copy the database to, not %d", n)
	}
	return nil
}

// runBackup is `strategobot backup`.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o backupOptions
	fs := backupFlags(&o, stdout)
	if err := cli.Parse(fs, args); err != nil {
		return cli.UsageFailed(stderr, "strategobot backup", backupUsage, err)
	}
	if err := backupOperands(fs.NArg()); err != nil {
		return cli.UsageFailed(stderr, "strategobot backup", backupUsage, err)
	}
	dest := fs.Arg(0)
	// Both name the database: neither is preferred unsaid. (The
	// environment's STRATEGOBOT_CONFIG, set for the bot, gives way to -db.)
	if o.db != "" && flagSet(fs, "config") {
		return cli.UsageFailed(stderr, "strategobot backup", backupUsage,
			errors.New("-db and -config both name the database to copy: give one, -db FILE for that file or -config FILE for the database the configuration names"))
	}
	if o.db == "" {
		cfg, err := loadProcessConfig(o.configPath)
		if err != nil {
			fmt.Fprintln(stderr, "strategobot backup:", err)
			return 2
		}
		o.db = cfg.Database
	}
	if postgres.IsURL(o.db) {
		fmt.Fprintf(stderr, "strategobot backup copies a bbolt file. Back up a PostgreSQL database with pg_dump, while the bot runs:\n  %s 'postgres://USER@HOST/DATABASE'\n",
			commandLine("pg_dump", []string{"--format=custom", "--file=" + dumpFile(dest)}))
		return 2
	}
	if _, err := os.Stat(o.db); errors.Is(err, iofs.ErrNotExist) {
		fmt.Fprintf(stderr, "strategobot backup: there is no database %s to copy: name the bot's file with -db FILE, "+
			"or run backup in the bot's working directory with its -config\n", o.db)
		return 1
	}
	if info, err := os.Stat(dest); err == nil && info.IsDir() {
		dest = filepath.Join(dest, filepath.Base(o.db)) // into the folder, as cp copies
	} else if info, err := os.Stat(filepath.Dir(dest)); err != nil || !info.IsDir() {
		fmt.Fprintf(stderr, "strategobot backup: the folder %s does not exist: create it, or copy to a file in a folder that exists\n", filepath.Dir(dest))
		return 1
	}
	if a, err := os.Stat(o.db); err == nil {
		if b, err := os.Stat(dest); err == nil && os.SameFile(a, b) {
			fmt.Fprintf(stderr, "strategobot backup: %s would be the database %s itself: name a PATH elsewhere, such as a folder on another disk\n", fs.Arg(0), o.db)
			return 2
		}
	}
	start := time.Now()
	if err := backupUnlessStopped(ctx, o.db, dest, o.timeout); err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "strategobot backup: stopped before the copy was made; %s was not written\n", dest)
			return 1
		}
		fmt.Fprintf(stderr, "strategobot backup: %v\n", err)
		if errors.Is(err, storage.ErrInUse) {
			fmt.Fprintln(stderr, "The bot is running: stop it first, or use the copies it makes in backup_dir while it runs (set backup_dir to turn them on).")
		}
		return 1
	}
	fmt.Fprintf(stdout, "copied %s to %s (%s)\n", o.db, dest, time.Since(start).Round(time.Millisecond))
	return 0
}

// backupUnlessStopped is bolt.BackupFile, which waits up to timeout for a
// running bot's lock without heeding ctx, returning soon after ctx ends:
// the copy checks ctx before it writes, and one under way is given half a
// second to finish.
func backupUnlessStopped(ctx context.Context, src, dest string, timeout time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- bolt.BackupFile(ctx, src, dest, timeout) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	select {
	case err := <-done:
		return err
	case <-time.After(500 * time.Millisecond):
		return ctx.Err()
	}
}

// dumpFile is the file to suggest to pg_dump for backup's PATH: in a folder,
// strategobot.dump; a name ending in .db, which names a bbolt file, with
// .dump instead; any other name as it is.
func dumpFile(dest string) string {
	if info, err := os.Stat(dest); err == nil && info.IsDir() {
		return filepath.Join(dest, "strategobot.dump")
	}
	if base, ok := strings.CutSuffix(dest, ".db"); ok {
		return base + ".dump"
	}
	return dest
}

// flagSet reports whether the flag name was given on fs's command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
