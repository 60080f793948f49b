package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/postgres"
)

const backupUsage = `usage: strategobot backup [-db FILE] [-timeout DURATION] PATH

Copies the bbolt database of a stopped bot to PATH (written beside it and
renamed into place, then checked page by page). A running bot holds the file:
it makes its own copies every backup_every into backup_dir. A PostgreSQL
database is backed up with pg_dump instead, while the bot runs.

Exit code: 0 copied, 1 the copy failed, 2 usage error.
`

// runBackup is `strategobot backup`.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, backupUsage) }
	db := fs.String("db", storage.DefaultPath, "database file to copy")
	timeout := fs.Duration("timeout", storage.DefaultTimeout, "how long to wait for the file's lock")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprint(stderr, backupUsage)
		return 2
	}
	dest := fs.Arg(0)
	if postgres.IsURL(*db) {
		fmt.Fprintf(stderr, "strategobot backup copies a bbolt file. Back up a PostgreSQL database with pg_dump, while the bot runs:\n  pg_dump --format=custom --file=%s 'postgres://USER@HOST/DATABASE'\n", dest)
		return 2
	}
	start := time.Now()
	if err := storage.BackupFile(ctx, *db, dest, *timeout); err != nil {
		fmt.Fprintf(stderr, "strategobot backup: %v\n", err)
		if errors.Is(err, storage.ErrInUse) {
			fmt.Fprintln(stderr, "The bot is running: stop it first, or use the copies it makes in backup_dir.")
		}
		return 1
	}
	fmt.Fprintf(stdout, "copied %s to %s (%s)\n", *db, dest, time.Since(start).Round(time.Millisecond))
	return 0
}
