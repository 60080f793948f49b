package bolt_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
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
	for _, path := range copies {
		b, err := bolt.Open(bolt.Options{Path: path})
		if err != nil {
			t.Fatalf("backup %s: %v", path, err)
		}
		if err := b.Check(context.Background()); err != nil {
			t.Error(err)
		}
		got, err := b.Match(context.Background(), m.ID)
		if err != nil {
			t.Fatal(err)
		}
		storagetest.CheckReplay(t, got)
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
