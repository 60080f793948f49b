package bolt_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
)

func TestOpenCreatesANewFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.db")
	db, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "new.db" {
		t.Errorf("directory holds %v, want only new.db", entries)
	}
	db, err = bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	db.Close()
}

// TestOpenInUse: a second opener, in this process or another, gets ErrInUse
// within the timeout instead of waiting for ever.
// TestOpenUnderAFile: a database whose folder, or a folder above it, is a
// file is refused as a place the bot may not use (ErrPlace), naming that
// file, rather than with the system's bare "not a directory".
func TestOpenUnderAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes")
	if err := os.WriteFile(file, []byte("notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path string }{
		{"the folder is a file", filepath.Join(file, "x.db")},
		{"a folder above is a file", filepath.Join(file, "sub", "x.db")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := bolt.Open(bolt.Options{Path: tc.path})
			want := "database " + tc.path + ": " + file + " is a file, not a folder: set database to a file in a folder that exists"
			if !errors.Is(err, bolt.ErrPlace) || err.Error() != want {
				t.Errorf("error %v (ErrPlace: %v), want %q", err, errors.Is(err, bolt.ErrPlace), want)
			}
		})
	}
}

func TestOpenInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	t.Run("same process", func(t *testing.T) {
		db, err := bolt.Open(bolt.Options{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		checkInUse(t, path)
	})
	t.Run("another process", func(t *testing.T) {
		cmd := storagetest.ChildCommand("hold", path)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { stdin.Close(); cmd.Wait() }()
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil || line != "ready\n" {
			t.Fatalf("child: %q, %v", line, err)
		}
		checkInUse(t, path)
	})
}

func checkInUse(t *testing.T, path string) {
	t.Helper()
	start := time.Now()
	db, err := bolt.Open(bolt.Options{Path: path, Timeout: 300 * time.Millisecond})
	if err == nil {
		db.Close()
		t.Fatal("a second Open succeeded")
	}
	if !errors.Is(err, storage.ErrInUse) || !strings.Contains(err.Error(), "database "+path+" is in use by another process") ||
		strings.Count(err.Error(), "in use") != 1 {
		t.Errorf("error %q, want ErrInUse naming the file, said once", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}

// holdChild opens the database, says "ready", and holds it until stdin closes.
func holdChild(path string) {
	db, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	defer db.Close()
	fmt.Println("ready")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
}

// realDatabase writes a database with some matches and returns its path.
func realDatabase(t *testing.T, matches int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "real.db")
	db, err := bolt.Open(bolt.Options{Path: path, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	for i := range matches {
		m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), uint64(i))
		storagetest.Play(t, db, m, 20, r)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// highWater returns how far a file's pages reach.
func highWater(t testing.TB, path string) int64 {
	t.Helper()
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	var n int64
	bdb.View(func(tx *bbolt.Tx) error { n = tx.Size(); return nil })
	return n
}

// TestOpenDamaged: a damaged, foreign or newer file is refused with a clear
// error, and its bytes are left exactly as they were.
func TestOpenDamaged(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T) string
		want    error
		text    string
	}{
		{"garbage", func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), "garbage.db")
			data := make([]byte, 64<<10)
			r := rand.New(rand.NewPCG(7, 7))
			for i := range data {
				data[i] = byte(r.Uint32())
			}
			os.WriteFile(path, data, 0o600)
			return path
		}, storage.ErrCorrupt, "), and was left as it is: put a backup in its place, or move it away to start a new one"},
		{"text file", func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), "notes.db")
			os.WriteFile(path, []byte("database = \"strategobot.db\"\n"), 0o600)
			return path
		}, storage.ErrCorrupt, "cannot be read"},
		{"empty file", func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), "empty.db")
			os.WriteFile(path, nil, 0o600)
			return path
		}, storage.ErrCorrupt, "is empty"},
		{"truncated to half its pages", func(t *testing.T) string {
			path := realDatabase(t, 40)
			if err := os.Truncate(path, highWater(t, path)/2); err != nil {
				t.Fatal(err)
			}
			return path
		}, storage.ErrCorrupt, "truncated"},
		{"truncated inside the meta pages", func(t *testing.T) string {
			path := realDatabase(t, 1)
			os.Truncate(path, 5000)
			return path
		}, storage.ErrCorrupt, "cannot be read"},
		{"both meta pages overwritten", func(t *testing.T) string {
			path := realDatabase(t, 5)
			f, _ := os.OpenFile(path, os.O_RDWR, 0)
			f.WriteAt(bytes.Repeat([]byte{0xAB}, 8192), 0)
			f.Close()
			return path
		}, storage.ErrCorrupt, "cannot be read"},
		{"another program's bbolt file", func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), "other.db")
			bdb, _ := bbolt.Open(path, 0o600, nil)
			bdb.Update(func(tx *bbolt.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err })
			bdb.Close()
			return path
		}, storage.ErrCorrupt, "not a strategobot database"},
		{"a newer schema", func(t *testing.T) string {
			path := realDatabase(t, 1)
			bdb, _ := bbolt.Open(path, 0o600, nil)
			bdb.Update(func(tx *bbolt.Tx) error { return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("99")) })
			bdb.Close()
			return path
		}, storage.ErrNewerSchema, "schema 99"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.prepare(t)
			before := fileSum(t, path)
			db, err := bolt.Open(bolt.Options{Path: path, Timeout: time.Second})
			if err == nil {
				db.Close()
				t.Fatal("Open accepted it")
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %q, want %v mentioning %q and the path", err, tc.want, tc.text)
			}
			// What to do is said once, in the error's own words: the
			// sentinel's text would only repeat it after the advice.
			if strings.Contains(err.Error(), tc.want.Error()) {
				t.Errorf("error %q repeats %q", err, tc.want)
			}
			if advice := map[error]string{storage.ErrCorrupt: "move it away to start a new one", storage.ErrNewerSchema: "run the newer version"}[tc.want]; !strings.Contains(err.Error(), advice) {
				t.Errorf("error %q does not say what to do", err)
			}
			if after := fileSum(t, path); after != before {
				t.Errorf("the file changed")
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			if len(entries) != 1 {
				t.Errorf("Open left files beside it: %v", entries)
			}
		})
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(data)
}

// TestDamagedPageIsAnError: damage past the meta pages, found only when a
// page is read, gives ErrCorrupt (or bbolt's check finds it), never a crash.
func TestDamagedPageIsAnError(t *testing.T) {
	path := realDatabase(t, 40)
	hw := highWater(t, path)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Overwrite every page but the meta pages with garbage.
	garbage := bytes.Repeat([]byte{0xFF, 0x13, 0x77, 0x01}, 1024)
	for off := int64(16384); off < hw; off += 4096 {
		f.WriteAt(garbage, off)
	}
	f.Close()
	db, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		if !errors.Is(err, storage.ErrCorrupt) {
			t.Fatalf("Open: %v, want ErrCorrupt", err)
		}
		return
	}
	defer db.Close()
	ctx := context.Background()
	_, errMatch := db.Match(ctx, 1)
	errCheck := db.Check(ctx)
	if errMatch == nil && errCheck == nil {
		t.Fatal("a damaged file reads and checks clean")
	}
	for _, err := range []error{errMatch, errCheck} {
		if err != nil && !errors.Is(err, storage.ErrCorrupt) && !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("error %v, want ErrCorrupt", err)
		}
	}
}

// TestNoReminderSchedule: without Options.Reminders a match has deadlines
// but no reminders.
func TestNoReminderSchedule(t *testing.T) {
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "none.db"), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m, err := db.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantClassic))
	if err != nil {
		t.Fatal(err)
	}
	if m.Deadline.IsZero() || !m.RemindAt.IsZero() {
		t.Fatalf("deadline %v, reminder %v", m.Deadline, m.RemindAt)
	}
}

// TestOpenRefreshesTournamentTimers: a tournament's timer is indexed when it
// is saved, by the rule of the version that saved it. A file whose index
// says otherwise than the tournaments (as one written before a change of
// that rule would) is put right when it is opened: the tournament wakes when
// it says, not at a stale time. A record that does not decode does not stop
// the opening.
func TestOpenRefreshesTournamentTimers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wake.db")
	db, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	tt, err := db.CreateTournament(ctx, storagetest.NewTournament("g1"), storage.TournamentLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// The index as an older rule might have left it: the start's key gone,
	// a key a year later instead.
	bdb, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	key := func(at time.Time) []byte {
		k := make([]byte, 16)
		binary.BigEndian.PutUint64(k, uint64(at.Unix()))
		binary.BigEndian.PutUint64(k[8:], uint64(tt.ID))
		return k
	}
	err = bdb.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket([]byte("idx_tournament_wake"))
		if b.Get(key(tt.StartAt)) == nil {
			return fmt.Errorf("no timer at the start %v: the test's key is not the index's", tt.StartAt)
		}
		if err := b.Delete(key(tt.StartAt)); err != nil {
			return err
		}
		if err := b.Put(key(tt.StartAt.AddDate(1, 0, 0)), []byte{}); err != nil {
			return err
		}
		// And a record that does not decode, with a timer long after: it
		// keeps the bot from nothing.
		broken := binary.BigEndian.AppendUint64(nil, 99)
		if err := tx.Bucket([]byte("tournaments")).Put(broken, []byte("{not a tournament")); err != nil {
			return err
		}
		return b.Put(append(binary.BigEndian.AppendUint64(nil, uint64(tt.StartAt.AddDate(80, 0, 0).Unix())), broken...), []byte{})
	})
	if err := errors.Join(err, bdb.Close()); err != nil {
		t.Fatal(err)
	}
	db, err = bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if at, ok, err := db.NextTournamentWake(ctx); err != nil || !ok || !at.Equal(tt.StartAt) {
		t.Errorf("next tournament timer after reopening: %v, %v, %v; want the start %v", at, ok, err, tt.StartAt)
	}
	if due, err := db.DueTournaments(ctx, tt.StartAt); err != nil || len(due) != 1 || due[0].ID != tt.ID {
		t.Errorf("due at the start after reopening: %v, %v", due, err)
	}
	// A file whose index is right is not written to on opening.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before := fileSum(t, path)
	db, err = bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if fileSum(t, path) != before {
		t.Errorf("opening a file whose tournament timers are right changed it")
	}
}
