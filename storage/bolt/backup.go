package bolt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// Backups are bbolt's consistent copies: a read transaction sees one commit,
// so the copy is a whole database while the bot goes on writing.

// backupPrefix and backupSuffix frame the periodic backups' names:
// strategobot-20250102T150405Z.db sorts by time.
const (
	backupPrefix = "strategobot-"
	backupSuffix = ".db"
	backupLayout = "20060102T150405Z"
)

// WriteBackup writes a consistent copy of the database to w and returns its size.
func (db *DB) WriteBackup(ctx context.Context, w io.Writer) (int64, error) {
	var n int64
	err := db.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupTo writes a consistent copy of the database to the file path,
// atomically: a half-written copy never takes the name.
func (db *DB) BackupTo(ctx context.Context, path string) error {
	return writeFileAtomic(path, func(f *os.File) error {
		_, err := db.WriteBackup(ctx, f)
		return err
	})
}

// BackupFile copies the database at src, which no process may be writing,
// to dest, and checks the copy before it takes dest's name. It is
// `strategobot backup` for a stopped bot; a running bot makes its own
// copies (Options.BackupDir). A copy stopped by ctx, at any point, leaves
// dest as it was and no file beside it.
func BackupFile(ctx context.Context, src, dest string, timeout time.Duration) error {
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("database %s: %w", src, err)
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if _, err := inspect(src, timeout); err != nil && !errors.Is(err, storage.ErrNewerSchema) {
		return err
	}
	bdb, err := bbolt.Open(src, 0o600, &bbolt.Options{ReadOnly: true, Timeout: timeout})
	if err != nil {
		return openError(src, err)
	}
	defer bdb.Close()
	write := func(f *os.File) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := safeView(bdb, func(tx *bbolt.Tx) error {
			_, err := tx.WriteTo(ctxWriter{ctx: ctx, w: f})
			return err
		})
		if cerr := ctx.Err(); err != nil && cerr != nil {
			return cerr // bbolt's error quotes the stop without wrapping it
		}
		return err
	}
	check := func(tmp string) error {
		if err := checkFile(tmp, dest, timeout); err != nil {
			return err
		}
		return ctx.Err() // stopped meanwhile: dest stays as it was
	}
	return writeFileAtomicChecked(dest, write, check)
}

// ctxWriter is w, which stops taking writes once ctx ends.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// checkFile opens a copy at path read-only and has bbolt check every page;
// errors call it name.
func checkFile(path, name string, timeout time.Duration) error {
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, Timeout: timeout})
	if err != nil {
		return openError(name, err)
	}
	defer bdb.Close()
	return safeView(bdb, func(tx *bbolt.Tx) error {
		var first error
		for err := range tx.Check() {
			if first == nil {
				first = fmt.Errorf("backup %s does not check out: %v: %w", name, err, storage.ErrCorrupt)
			}
		}
		return first
	})
}

// writeFileAtomic writes path through a temporary file beside it, synced and renamed into place.
func writeFileAtomic(path string, write func(*os.File) error) error {
	return writeFileAtomicChecked(path, write, nil)
}

// writeFileAtomicChecked is writeFileAtomic that has check, when not nil,
// read the temporary file, written and closed, before it takes path's
// name: an error of check leaves path as it was.
func writeFileAtomicChecked(path string, write func(*os.File) error, check func(tmp string) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	tmp := f.Name()
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && check != nil {
		err = check(tmp)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return syncDir(dir)
}

// backupLoop makes the periodic backups until Close: the first when the
// newest one in the folder is BackupEvery old (at once when there is none),
// so that a bot restarted more often than BackupEvery still makes them.
func (db *DB) backupLoop() {
	defer db.wg.Done()
	t := time.NewTimer(firstBackupWait(db.opts.BackupDir, db.opts.Now(), db.opts.BackupEvery))
	defer t.Stop()
	for {
		select {
		case <-db.closing:
			return
		case <-t.C:
			if err := db.Backup(context.Background()); err != nil {
				db.opts.Logger.Error("database backup failed", "dir", db.opts.BackupDir, "err", err)
			}
			t.Reset(db.opts.BackupEvery)
		}
	}
}

// firstBackupWait is how long after now the first backup of a process is
// due: every after the newest backup in dir (by its name), at once when
// that time has passed or dir holds none, and never later than every (a
// name from a clock that was ahead).
func firstBackupWait(dir string, now time.Time, every time.Duration) time.Duration {
	newest, ok := newestBackup(dir)
	if !ok {
		return 0
	}
	return min(max(newest.Add(every).Sub(now), 0), every)
}

// newestBackup is the time in the name of the newest periodic backup in
// dir, and false when there is none.
func newestBackup(dir string) (time.Time, bool) {
	names, err := backupNames(dir)
	if err != nil || len(names) == 0 {
		return time.Time{}, false
	}
	return backupTime(names[len(names)-1])
}

// Backups reports the periodic backups, for the bot's metrics: when the
// newest was taken, by its name (one this process made, or at Open the
// newest in Options.BackupDir; zero: none yet), and how many failed since
// Open (the copy not made, or older ones not removed). on is false when
// this database makes none (no BackupDir or BackupEvery).
func (db *DB) Backups() (last time.Time, failures uint64, on bool) {
	if db.opts.BackupDir == "" || db.opts.BackupEvery <= 0 {
		return time.Time{}, 0, false
	}
	if t := db.backupLast.Load(); t != 0 {
		last = time.Unix(t, 0).UTC()
	}
	return last, db.backupFailures.Load(), true
}

// Backup makes one backup in Options.BackupDir now and removes the oldest
// beyond Options.BackupKeep. Backups counts its failures.
func (db *DB) Backup(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			db.backupFailures.Add(1)
		}
	}()
	dir := db.opts.BackupDir
	if dir == "" {
		return errors.New("no backup directory is configured")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("backup directory: %w", err)
	}
	removeDeadTemps(dir, time.Now(), db.opts.Logger)
	at := db.opts.Now().UTC().Truncate(time.Second) // as its name says
	path := filepath.Join(dir, backupPrefix+at.Format(backupLayout)+backupSuffix)
	start := time.Now()
	if err := db.BackupTo(ctx, path); err != nil {
		return err
	}
	db.backupLast.Store(at.Unix())
	db.opts.Logger.Info("database backed up", "path", path, "took", time.Since(start))
	return pruneBackups(dir, db.opts.BackupKeep)
}

// backupNames lists the periodic backups in dir, oldest first.
func backupNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("backup directory: %w", err)
	}
	var names []string
	for _, e := range entries {
		if _, ok := backupTime(e.Name()); ok && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// backupTime is the time in a periodic backup's name, and whether name is one.
func backupTime(name string) (time.Time, bool) {
	if !strings.HasPrefix(name, backupPrefix) || !strings.HasSuffix(name, backupSuffix) {
		return time.Time{}, false
	}
	t, err := time.Parse(backupLayout, strings.TrimSuffix(strings.TrimPrefix(name, backupPrefix), backupSuffix))
	return t, err == nil
}

// deadTempAge is how long a backup's temporary file has not been written
// when the backup that wrote it is taken for dead: one being written is
// written to all the time.
const deadTempAge = time.Hour

// removeDeadTemps removes from dir the temporary files of backups that
// died before their rename (the bot killed, the machine down), which
// nothing else removes: each is as big as the database, and a bot that
// crashed a few times mid-backup filled its disk with them. It removes
// only the temporary files of periodic backups (.strategobot-TIME.db.tmp-*)
// not written for deadTempAge, and says what it removed.
func removeDeadTemps(dir string, now time.Time, logger *slog.Logger) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // the backup that follows says why
	}
	for _, e := range entries {
		name, ok := strings.CutPrefix(e.Name(), ".")
		if !ok || e.IsDir() {
			continue
		}
		i := strings.LastIndex(name, ".tmp-")
		if i < 0 {
			continue
		}
		if _, ok := backupTime(name[:i]); !ok {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < deadTempAge {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if err := os.Remove(path); err == nil {
			logger.Info("removed the temporary file of a backup that did not finish", "path", path, "size", info.Size())
		}
	}
}

// pruneBackups keeps the newest keep backups in dir; other files are left alone.
func pruneBackups(dir string, keep int) error {
	names, err := backupNames(dir)
	if err != nil {
		return err
	}
	for len(names) > keep {
		if err := os.Remove(filepath.Join(dir, names[0])); err != nil {
			return fmt.Errorf("remove old backup: %w", err)
		}
		names = names[1:]
	}
	return nil
}
