package bolt

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	bbolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/strategobot/strategobot/internal/logsafe"
	"github.com/strategobot/strategobot/storage"
)

// DB is the storage.Store on one bbolt file: one file, one process. Its
// methods are safe for concurrent use; writes from many goroutines are
// committed together (group commit), each acknowledged only once it is on
// disk.
type DB struct {
	bdb  *bbolt.DB
	opts Options
	// matches, players and notices spare decoding a record read again (see
	// decodedCache).
	matches *decodedCache[storage.MatchID, *storage.Match]
	players *decodedCache[string, *storage.PlayerSettings]
	notices *decodedCache[uint64, *storage.Notice]

	// backupLast and backupFailures are what Backups reports: the unix
	// time of the newest periodic backup (0: none) and the failed ones.
	backupLast     atomic.Int64
	backupFailures atomic.Uint64

	writes  chan *writeReq
	closing chan struct{}
	wg      sync.WaitGroup
	once    sync.Once
}

var _ storage.Store = (*DB)(nil)

// Open opens the database file named by opts.Path, creating it when it does
// not exist, and migrates an older file forward. It refuses, with a clear
// error and without touching the file: a file locked by another process
// (storage.ErrInUse, after opts.Timeout), a damaged or foreign file
// (storage.ErrCorrupt), a file from a newer strategobot
// (storage.ErrNewerSchema), and a file a copy was never finished in
// (storage.ErrUnfinishedCopy, see Load).
func Open(opts Options) (*DB, error) {
	opts = opts.withDefaults()
	path := opts.Path
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := create(path); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fileError(path, err)
	case info.IsDir():
		return nil, fmt.Errorf("database %s is a directory, not a file", path)
	case info.Size() == 0:
		// bbolt would silently turn an empty file into a new database; a file
		// that lost its contents must be looked at by a person instead.
		return nil, corruptError(fmt.Sprintf("database %s is empty (0 bytes), so it is not a database: move it away to start a new one", path))
	}
	schema, err := inspect(path, opts.Timeout)
	if err != nil {
		return nil, err
	}
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: opts.Timeout, NoSync: opts.NoSync})
	if err != nil {
		return nil, openError(path, err)
	}
	db := &DB{bdb: bdb, opts: opts, writes: make(chan *writeReq), closing: make(chan struct{}),
		matches: newDecodedCache[storage.MatchID](decodedRecords, storage.DecodeMatch, (*storage.Match).Clone),
		players: newDecodedCache[string](decodedRecords, storage.DecodePlayer, (*storage.PlayerSettings).Clone),
		notices: newDecodedCache[uint64](decodedRecords, storage.DecodeNotice, (*storage.Notice).Clone)}
	if schema < schemaVersion {
		if err := db.migrate(schema); err != nil {
			_ = bdb.Close()
			return nil, err
		}
	}
	if err := refreshTournamentWakes(bdb); err != nil {
		_ = bdb.Close()
		return nil, fmt.Errorf("database %s: refresh the tournaments' timers: %w", path, err)
	}
	db.wg.Add(1)
	go db.writeLoop()
	if opts.BackupDir != "" && opts.BackupEvery > 0 {
		if newest, ok := newestBackup(opts.BackupDir); ok {
			db.backupLast.Store(newest.Unix())
		}
		db.wg.Add(1)
		go db.backupLoop()
	}
	return db, nil
}

// Path returns the database file's path.
func (db *DB) Path() string { return db.opts.Path }

// Close waits for writes under way, stops the background work and closes the file.
func (db *DB) Close() error {
	var err error
	db.once.Do(func() {
		close(db.closing)
		db.wg.Wait()
		err = db.bdb.Close()
	})
	return err
}

// corruptError is ErrCorrupt for a database file that cannot be opened,
// with what to do, said once: its text names the file and the fault, and
// does not repeat ErrCorrupt's own.
type corruptError string

func (e corruptError) Error() string { return string(e) }
func (e corruptError) Unwrap() error { return storage.ErrCorrupt }

// newerError is ErrNewerSchema for a database file, with what to do, said
// once.
type newerError string

func (e newerError) Error() string { return string(e) }
func (e newerError) Unwrap() error { return storage.ErrNewerSchema }

// corruptAdvice is what to do with a database file that cannot be read.
const corruptAdvice = "put a backup in its place, or move it away to start a new one"

// inUseError is ErrInUse for one file, said once: "database PATH is in use
// by another process".
type inUseError struct{ path string }

func (e inUseError) Error() string {
	return fmt.Sprintf("database %s is in use by another process (is another strategobot running?)", e.path)
}

func (e inUseError) Unwrap() error { return storage.ErrInUse }

// openError turns bbolt's open errors into ours.
func openError(path string, err error) error {
	var pe *fs.PathError
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return inUseError{path: path}
	case errors.As(err, &pe):
		return fileError(path, err)
	}
	return corruptError(fmt.Sprintf("database %s cannot be read (%v), and was left as it is: %s", path, err, corruptAdvice))
}

// fileError is an error of the file system about the database file at
// path, with what to do when that is a permission.
func fileError(path string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return placeError{fmt.Sprintf("database %s: this user may not read and write it: make the user the bot runs as its owner (and of its folder), or set database to a file it may write", path), fs.ErrPermission}
	}
	if errors.Is(err, syscall.EROFS) {
		return placeError{readOnlyText(path), syscall.EROFS}
	}
	if errors.Is(err, syscall.ENOTDIR) {
		return placeError{fmt.Sprintf("database %s: %s is a file, not a folder: set database to a file in a folder that exists", path, cmp.Or(FileAbove(path), filepath.Dir(path))), syscall.ENOTDIR}
	}
	return fmt.Errorf("database %s: %w", path, err)
}

// readOnlyText says what to do about a database file on a file system
// mounted read-only, as systemd's ProtectSystem=strict mounts every folder
// a unit does not name in ReadWritePaths.
func readOnlyText(path string) string {
	return fmt.Sprintf("database %s is on a read-only file system: set database to a file in a folder the bot may write, "+
		"or, under a systemd unit with ProtectSystem=strict (which may write only in its ReadWritePaths), add its folder to ReadWritePaths", path)
}

// FileAbove is the file in place of a folder above path, such as
// /etc/passwd of /etc/passwd/x.db, which makes the system answer ENOTDIR
// (the nearest of path's folders that exists), or "" when there is none:
// of the database file, and of the folder its backups go to.
func FileAbove(path string) string {
	for d := filepath.Dir(filepath.Clean(path)); ; d = filepath.Dir(d) {
		if info, err := os.Stat(d); err == nil {
			if info.IsDir() {
				return ""
			}
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// folderName names the folder dir, of a relative path, as the admin finds
// it: with its absolute path, which "." (the database's default is a file
// in the folder the bot runs in) does not give.
func folderName(dir string) string {
	abs, err := filepath.Abs(dir)
	switch {
	case filepath.IsAbs(dir) || err != nil:
		return dir
	case dir == ".":
		return abs + ", the folder the bot runs in"
	}
	return dir + " (" + abs + ")"
}

// placeError says what to do about a database file in a place the bot may
// not use (a missing folder, no permission): it is fs.ErrNotExist or
// fs.ErrPermission, which its text does not repeat, and ErrPlace.
type placeError struct {
	text string
	err  error
}

func (e placeError) Error() string   { return e.text }
func (e placeError) Unwrap() []error { return []error{e.err, ErrPlace} }

// ErrPlace marks a database file in a place the bot may not use: its
// configuration must change (or the folder), so restarting it unchanged
// does not help.
var ErrPlace = errors.New("the database file is in a place the bot may not use")

// create makes a new, initialised database at path. It builds it beside path
// and links it into place only when complete, so that path never holds a
// half-made file, and a file that appeared meanwhile is never replaced.
func create(path string) error {
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return placeError{fmt.Sprintf("database %s: the folder %s does not exist: create it, or set database to a file in a folder that exists", path, dir), fs.ErrNotExist}
	}
	tmp := path + ".new-" + strconv.Itoa(os.Getpid())
	_ = os.Remove(tmp)
	bdb, err := bbolt.Open(tmp, 0o600, nil)
	if errors.Is(err, fs.ErrPermission) {
		return placeError{fmt.Sprintf("database %s: this user may not create files in %s: give it write access there, or set database to a file in a folder it may write in", path, folderName(dir)), fs.ErrPermission}
	}
	if errors.Is(err, syscall.EROFS) {
		return placeError{readOnlyText(path), syscall.EROFS}
	}
	if err != nil {
		return fmt.Errorf("create database %s: %w", path, err)
	}
	err = bdb.Update(func(tx *bbolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(schemaVersion)))
	})
	if cerr := bdb.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Link(tmp, path)
		switch {
		case errors.Is(err, fs.ErrExist):
			err = nil // another process created it first: use theirs
		case err != nil:
			// A file system without hard links: rename, unless a file appeared.
			if _, serr := os.Stat(path); errors.Is(serr, fs.ErrNotExist) {
				err = os.Rename(tmp, path)
			} else {
				err = nil
			}
		}
	}
	_ = os.Remove(tmp)
	if err != nil {
		return fmt.Errorf("create database %s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// inspect checks a file read-only before it is opened for writing, and
// returns its schema version. bbolt trusts its meta page when it opens a file
// for writing and reads pages past the end of a truncated file (a fault, not
// an error), so the size is compared with the meta page's high-water mark first.
func inspect(path string, timeout time.Duration) (int, error) {
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, Timeout: timeout})
	if err != nil {
		return 0, openError(path, err)
	}
	defer bdb.Close()
	info, err := os.Stat(path)
	if err != nil {
		return 0, fmt.Errorf("database %s: %w", path, err)
	}
	schema := 0
	err = safeView(bdb, func(tx *bbolt.Tx) error {
		if tx.Size() > info.Size() {
			return corruptError(fmt.Sprintf("database %s is %d bytes but its pages reach %d: the file was truncated, and was left as it is: %s", path, info.Size(), tx.Size(), corruptAdvice))
		}
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			return corruptError(fmt.Sprintf("database %s is a bbolt file but not a strategobot database, and was left as it is: set database to the bot's file, or move it away to start a new one", path))
		}
		v, err := strconv.Atoi(string(meta.Get(keySchema)))
		if err != nil || v < 1 {
			return corruptError(fmt.Sprintf("database %s has no valid schema version, and was left as it is: %s", path, corruptAdvice))
		}
		if v > schemaVersion {
			return newerError(fmt.Sprintf("database %s is at schema %d, written by a newer strategobot; this one reads schemas up to %d, "+
				"and left it as it is: run the newer version, or put back the copy its upgrade kept, %s.schema-v%d.bak", path, v, schemaVersion, path, schemaVersion))
		}
		if meta.Get(keyCopying) != nil {
			return fmt.Errorf("database %s is %w", path, storage.ErrUnfinishedCopy)
		}
		schema = v
		return nil
	})
	return schema, err
}

// safeView runs a read transaction, turning a panic (bbolt panics on a
// damaged page) into ErrCorrupt.
func safeView(bdb *bbolt.DB, fn func(*bbolt.Tx) error) (err error) {
	defer recoverCorrupt(&err)
	return bdb.View(fn)
}

// safeUpdate runs a write transaction like safeView; bbolt rolls it back on a panic.
func safeUpdate(bdb *bbolt.DB, fn func(*bbolt.Tx) error) (err error) {
	defer recoverCorrupt(&err)
	return bdb.Update(fn)
}

func recoverCorrupt(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("database transaction failed: %s: %w", panicText(logsafe.Panic(r), r), storage.ErrCorrupt)
	}
}

// panicText words a transaction's panic for its error, which is logged.
// bbolt panics on a damaged page with what it found there, worth keeping;
// the code run in the transaction (a match's replay) may panic with a
// match's secrets, so its panic is told by logsafe's kind and site.
func panicText(rep logsafe.Report, r any) string {
	if strings.HasPrefix(rep.At, "go.etcd.io/bbolt") {
		return fmt.Sprint(r)
	}
	return rep.Kind + " at " + rep.At
}

// view runs a read transaction for a Store method.
func (db *DB) view(ctx context.Context, fn func(*bbolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-db.closing:
		return storage.ErrClosed
	default:
	}
	return safeView(db.bdb, fn)
}

// Check reads every page of the database and reports the first inconsistency
// bbolt finds. It takes time proportional to the file: for tools and tests.
func (db *DB) Check(ctx context.Context) error {
	return db.view(ctx, func(tx *bbolt.Tx) error {
		var first error
		for err := range tx.Check() { // drain: the checker stops only when read to the end
			if first == nil {
				first = fmt.Errorf("database %s: %v: %w", db.opts.Path, err, storage.ErrCorrupt)
			}
		}
		return first
	})
}
