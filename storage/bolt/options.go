package bolt

import (
	"log/slog"
	"time"
)

// Options configure Open. The zero value is ready to use: a database file
// strategobot.db in the working directory, fsync on, no periodic backups.
type Options struct {
	// Path of the database file; "" means DefaultPath. A missing file is
	// created; an existing file that is not a readable database is refused.
	Path string
	// Timeout bounds the wait for another process's lock on the file; then Open
	// fails with ErrInUse. 0 means DefaultTimeout.
	Timeout time.Duration
	// NoSync skips fsync on commit. For tests and bulk loads only: a crash
	// may then lose acknowledged changes.
	NoSync bool

	// BackupDir, when set with BackupEvery, receives a consistent copy of the
	// database every BackupEvery while it is open, the first BackupEvery after
	// the newest in BackupDir (at once without one), so that restarts do not
	// put them off; the newest BackupKeep copies are kept (0 means
	// DefaultBackupKeep).
	BackupDir   string
	BackupEvery time.Duration
	BackupKeep  int

	// Reminders returns, for the time a turn has (its move time, and in
	// play the time given it: storage.Match.TurnTime), how long before its
	// deadline each reminder is due, earliest reminder first. nil means no
	// reminders; the bot passes its own schedule.
	Reminders func(turn time.Duration) []time.Duration

	// Logger receives the few events worth logging (backups, migrations). nil discards them.
	Logger *slog.Logger
	// Now names backup files; nil means time.Now. Game logic never reads it:
	// every change takes its time from the caller.
	Now func() time.Time
}

// Defaults used for zero Options fields.
const (
	DefaultPath       = "strategobot.db"
	DefaultTimeout    = 2 * time.Second
	DefaultBackupKeep = 7
)

func (o Options) withDefaults() Options {
	if o.Path == "" {
		o.Path = DefaultPath
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.BackupKeep <= 0 {
		o.BackupKeep = DefaultBackupKeep
	}
	if o.Reminders == nil {
		o.Reminders = func(time.Duration) []time.Duration { return nil }
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}
