package bolt_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/clocktest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestPeriodicBackups: while moves go on, backups appear every BackupEvery,
// only the newest BackupKeep stay, and each is a whole database.
func TestPeriodicBackups(t *testing.T) {
	dir := t.TempDir()
	backups := filepath.Join(dir, "backups")
	os.MkdirAll(backups, 0o700)
	os.WriteFile(filepath.Join(backups, "notes.txt"), []byte("keep me"), 0o600)
	clock := clocktest.New(storagetest.T0)
	minuteApart := func() time.Time { return clock.Tick(time.Minute) } // for backup names
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(dir, "live.db"), NoSync: true,
		BackupDir: backups, BackupEvery: 20 * time.Millisecond, BackupKeep: 3, Now: minuteApart})
	if err != nil {
		t.Fatal(err)
	}
	m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), 1)
	r := rand.New(rand.NewPCG(2, 2))
	// Play on for ten backup periods at least, until 3 copies (and the notes) remain.
	start := time.Now()
	for {
		m = storagetest.Play(t, db, m, 1, r)
		entries, _ := os.ReadDir(backups)
		if len(entries) == 4 && time.Since(start) > 200*time.Millisecond {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("backups: %v", entries)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(backups)
	var copies []string
	for _, e := range entries {
		if e.Name() != "notes.txt" {
			copies = append(copies, filepath.Join(backups, e.Name()))
		}
	}
	if len(copies) != 3 {
		t.Fatalf("%d backups kept, want 3: %v", len(copies), entries)
	}
	// Named by the time each was taken: the newest, taken while the moves
	// went on, holds the match (an older one, on a busy machine, may be
	// from before it was made).
	slices.Sort(copies)
	for i, path := range copies {
		b, err := bolt.Open(bolt.Options{Path: path})
		if err != nil {
			t.Fatalf("backup %s: %v", path, err)
		}
		if err := b.Check(context.Background()); err != nil {
			t.Error(err)
		}
		if i == len(copies)-1 {
			got, err := b.Match(context.Background(), m.ID)
			if err != nil {
				t.Fatalf("the newest backup, %s: %v", path, err)
			}
			storagetest.CheckReplay(t, got)
		}
		b.Close()
	}
}

func TestBackupFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "bot.db")
	dest := filepath.Join(dir, "copy.db")
	db, err := bolt.Open(bolt.Options{Path: src})
	if err != nil {
		t.Fatal(err)
	}
	m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantBarrage), 1)
	ctx := context.Background()
	// While the bot runs, the file is in use: the copy must come from the bot.
	err = bolt.BackupFile(ctx, src, dest, 200*time.Millisecond)
	if !errors.Is(err, storage.ErrInUse) {
		t.Errorf("BackupFile of a running database: %v, want ErrInUse", err)
	}
	var buf bytes.Buffer
	if n, err := db.WriteBackup(ctx, &buf); err != nil || n != int64(buf.Len()) || n == 0 {
		t.Errorf("WriteBackup: %d bytes, %v", n, err)
	}
	db.Close()
	if err := bolt.BackupFile(ctx, src, dest, 0); err != nil {
		t.Fatal(err)
	}
	b, err := bolt.Open(bolt.Options{Path: dest})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got, err := b.Match(ctx, m.ID); err != nil || got.Version != m.Version {
		t.Errorf("the copy holds %+v, %v", got, err)
	}
	if err := bolt.BackupFile(ctx, filepath.Join(dir, "missing.db"), dest, 0); err == nil {
		t.Error("BackupFile of a missing file succeeded")
	}
}

// stopAfter is a context that ends (context.Canceled) once Err has been
// asked n times: a SIGINT that comes at a set point of a copy.
type stopAfter struct {
	context.Context
	n atomic.Int64
}

func (c *stopAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestBackupFileStopped: a copy stopped at any point after it began to
// write (asked once more whether to go on) leaves neither PATH (an older
// copy there stays as it was) nor a temporary file beside it, and says it
// was stopped: strategobot backup tells the admin that PATH was not
// written.
func TestBackupFileStopped(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "bot.db")
	db, err := bolt.Open(bolt.Options{Path: src})
	if err != nil {
		t.Fatal(err)
	}
	storagetest.Started(t, db, storagetest.NewMatch(game.VariantBarrage), 1)
	db.Close()
	// asks is how often a whole copy asks whether to go on.
	whole := &stopAfter{Context: context.Background()}
	whole.n.Store(1 << 40)
	if err := bolt.BackupFile(whole, src, filepath.Join(t.TempDir(), "whole.db"), 0); err != nil {
		t.Fatal(err)
	}
	asks := 1<<40 - whole.n.Load()
	tests := []struct {
		name   string
		answer int64 // the questions answered before the stop
		old    bool  // an older copy is at PATH
	}{
		{name: "as it begins to write", answer: 1},
		{name: "while it writes", answer: 2},
		{name: "at its last question", answer: asks - 1},
		{name: "over an older copy", answer: 2, old: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			dest := filepath.Join(out, "copy.db")
			if tc.old {
				if err := os.WriteFile(dest, []byte("older"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			ctx := &stopAfter{Context: context.Background()}
			ctx.n.Store(tc.answer)
			err := bolt.BackupFile(ctx, src, dest, 0)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("BackupFile stopped after %d of %d questions: %v, want context.Canceled", tc.answer, asks, err)
			}
			entries, _ := os.ReadDir(out)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			want := 0
			if tc.old {
				want = 1
				if b, err := os.ReadFile(dest); err != nil || string(b) != "older" {
					t.Errorf("the older copy became %d bytes (%v)", len(b), err)
				}
			}
			if len(names) != want {
				t.Errorf("the folder holds %v after the stop", names)
			}
		})
	}
}

// TestBackupAfterRestart: a bot restarted more often than BackupEvery
// still makes its backups: the first one of a process is due BackupEvery
// after the newest in the folder, here long past, and not BackupEvery
// after the start, which each restart put off again.
func TestBackupAfterRestart(t *testing.T) {
	dir := t.TempDir()
	backups := filepath.Join(dir, "backups")
	os.MkdirAll(backups, 0o700)
	now := storagetest.T0
	old := filepath.Join(backups, "strategobot-"+now.Add(-2*time.Hour).Format("20060102T150405Z")+".db")
	if err := os.WriteFile(old, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(dir, "live.db"), NoSync: true,
		BackupDir: backups, BackupEvery: time.Hour, BackupKeep: 7, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := filepath.Join(backups, "strategobot-"+now.Format("20060102T150405Z")+".db")
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(want); err == nil {
			break
		}
		if time.Since(start) > 10*time.Second {
			entries, _ := os.ReadDir(backups)
			t.Fatalf("no backup after the restart, the newest being two hours old with one due every hour: %v", entries)
		}
	}
}

// TestBackupRemovesDeadTemps: the temporary file of a periodic backup that
// died before its rename (the bot killed mid-copy) is removed by the next
// backup, once nothing has written it for an hour; one being written, and
// every other file, stay. Nothing removed them, each as big as the
// database.
func TestBackupRemovesDeadTemps(t *testing.T) {
	dir := t.TempDir()
	backups := filepath.Join(dir, "backups")
	os.MkdirAll(backups, 0o700)
	dead := filepath.Join(backups, ".strategobot-20250301T060000Z.db.tmp-123456")
	live := filepath.Join(backups, ".strategobot-20250301T120000Z.db.tmp-654321")
	other := filepath.Join(backups, ".notes.tmp-1")
	for _, f := range []string{dead, live, other} {
		if err := os.WriteFile(f, bytes.Repeat([]byte{1}, 4096), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-2 * time.Hour)
	for _, f := range []string{dead, other} {
		if err := os.Chtimes(f, long, long); err != nil {
			t.Fatal(err)
		}
	}
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(dir, "live.db"), NoSync: true, BackupDir: backups, BackupKeep: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Backup(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("the dead backup's temporary file %s is still there", dead)
	}
	for _, f := range []string{live, other} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s: %v, want it left alone", f, err)
		}
	}
}

// TestBackupsReported: Backups tells the bot's metrics when the newest
// periodic backup was taken (at Open, the newest in the folder, by its
// name) and how many failed since Open, and that a database without
// backup_dir makes none. Failures were in the log alone.
func TestBackupsReported(t *testing.T) {
	dir := t.TempDir()
	plain := openTemp(t, true)
	defer plain.Close()
	if last, failures, on := plain.Backups(); on || !last.IsZero() || failures != 0 {
		t.Errorf("without backup_dir: Backups %v %d %v, want none", last, failures, on)
	}
	backups := filepath.Join(dir, "backups")
	os.MkdirAll(backups, 0o700)
	clock := clocktest.New(storagetest.T0)
	newest := storagetest.T0.Add(-10 * time.Minute)
	for _, at := range []time.Time{newest.Add(-time.Hour), newest} {
		if err := os.WriteFile(filepath.Join(backups, "strategobot-"+at.Format("20060102T150405Z")+".db"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The next periodic backup is due in 50 minutes of the clock, which
	// does not move by itself: only the calls below make backups.
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(dir, "live.db"), NoSync: true,
		BackupDir: backups, BackupEvery: time.Hour, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	check := func(when string, wantLast time.Time, wantFailures uint64) {
		t.Helper()
		if last, failures, on := db.Backups(); !on || !last.Equal(wantLast) || failures != wantFailures {
			t.Errorf("%s: Backups %v %d %v, want %v %d true", when, last, failures, on, wantLast, wantFailures)
		}
	}
	check("at Open", newest, 0)
	clock.Advance(time.Minute)
	if err := db.Backup(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("after a backup", storagetest.T0.Add(time.Minute), 0)
	// backup_dir taken by a file: the next backup fails, the last success stays.
	if err := os.RemoveAll(backups); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(backups, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if err := db.Backup(context.Background()); err == nil {
		t.Fatal("a backup into a file succeeded")
	}
	check("after a failed backup", storagetest.T0.Add(time.Minute), 1)
}
