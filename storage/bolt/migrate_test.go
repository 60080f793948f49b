package bolt_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
)

var updateFixture = flag.Bool("update-fixture", false, "rewrite testdata/schema-v1.db")

const fixtureV1 = "testdata/schema-v1.db"

// v1Players are the player records of the schema 1 fixture, in the v1 format
// (a boolean "classic"), with what they must read as after the migration.
var v1Players = []struct {
	id, record  string
	numbering   game.Numbering
	noReminders bool
}{
	{"1001", `{"v":1,"id":"1001","ver":4,"classic":true,"no_reminders":true}`, game.NumberingClassic, true},
	{"1002", `{"v":1,"id":"1002","ver":1,"classic":false}`, game.NumberingModern, false},
}

// writeFixtureV1 builds a schema 1 file: match records in the v1 format (no
// secret), player records in the v1 format, schema 1 in meta.
func writeFixtureV1(t *testing.T, path string) {
	db, err := bolt.Open(bolt.Options{Path: path, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), 1)
	storagetest.Play(t, db, m, 30, rand.New(rand.NewPCG(1, 1)))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	bdb, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	err = bdb.Update(func(tx *bbolt.Tx) error {
		matches := tx.Bucket([]byte("matches"))
		k, v := matches.Cursor().First()
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(v, &fields); err != nil {
			return err
		}
		delete(fields, "secret")
		fields["v"] = json.RawMessage("1")
		v1, err := json.Marshal(fields)
		if err != nil {
			return err
		}
		if err := matches.Put(append([]byte(nil), k...), v1); err != nil {
			return err
		}
		for _, p := range v1Players {
			if err := tx.Bucket([]byte("players")).Put([]byte(p.id), []byte(p.record)); err != nil {
				return err
			}
		}
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("1"))
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMigrateFromSchema1(t *testing.T) {
	if *updateFixture {
		os.Remove(fixtureV1)
		writeFixtureV1(t, fixtureV1)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	copyFile(t, fixtureV1, path)
	db, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatalf("opening the schema 1 file: %v", err)
	}
	ctx := context.Background()
	for _, want := range v1Players {
		p, err := db.Player(ctx, want.id)
		if err != nil {
			t.Fatal(err)
		}
		if p.Numbering != want.numbering || p.NoReminders != want.noReminders {
			t.Errorf("player %s after migration: %+v", want.id, p)
		}
	}
	m, err := db.Match(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if storagetest.CheckReplay(t, m); m.Moves() != 30 {
		t.Errorf("the old match has %d moves, want 30", m.Moves())
	}
	if m.Secret.IsZero() {
		t.Error("the old match got no secret")
	}
	secret := m.Secret
	if _, err := db.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error { return nil }); err != nil {
		t.Fatal(err)
	}
	// Schema 4 made the bucket of server settings.
	if _, err := db.UpdateServer(ctx, "9001", func(s *storage.ServerSettings) error { s.NoPractice = true; return nil }); err != nil {
		t.Fatal(err)
	}
	// Schema 6 made the bucket of followers.
	if err := db.Follow(ctx, m.ID, "2001", true); err != nil {
		t.Fatal(err)
	}
	// Schema 7 made the buckets of tournaments.
	if _, err := db.CreateTournament(ctx, storagetest.NewTournament("g1"), storage.TournamentLimits{}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(path + ".schema-v1.bak"); err != nil {
		t.Errorf("no copy of the old file was kept: %v", err)
	}
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	bdb.View(func(tx *bbolt.Tx) error {
		if v := string(tx.Bucket([]byte("meta")).Get([]byte("schema"))); v != "8" {
			t.Errorf("schema after migration %q, want 8", v)
		}
		if rec := string(tx.Bucket([]byte("players")).Get([]byte("1002"))); rec != `{"id":"1002","v":2,"ver":1}` {
			t.Errorf("migrated record %s", rec)
		}
		return nil
	})
	bdb.Close()
	// A second open finds nothing to migrate: the secret stays.
	db, err = bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if m, err = db.Match(ctx, 1); err != nil || m.Secret != secret {
		t.Errorf("after a second open the secret changed (%v)", err)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestMigrateVacationIndex: schema 8 indexes the players of a file at schema
// 7 by the end of their last vacation, read from their records.
// writeSchema7 builds a file at schema 7, with matches and the player
// records of the vacation index's test, and no index of vacations, and
// returns its path.
func writeSchema7(t *testing.T, dir string, matches int) string {
	t.Helper()
	path := filepath.Join(dir, "v7.db")
	db, err := bolt.Open(bolt.Options{Path: path, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	for i := range matches {
		m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), uint64(i))
		storagetest.Play(t, db, m, 20, r)
	}
	db.Close()
	bdb, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = bdb.Update(func(tx *bbolt.Tx) error {
		players := tx.Bucket([]byte("players"))
		for _, pl := range storagetest.RecordsBeforeTheVacationIndex() {
			if err := players.Put([]byte(pl.ID), []byte(pl.Record)); err != nil {
				return err
			}
		}
		if err := tx.DeleteBucket([]byte("idx_vacation")); err != nil {
			return err
		}
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("7"))
	})
	bdb.Close()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMigrateVacationIndex(t *testing.T) {
	path := writeSchema7(t, t.TempDir(), 0)
	db, err := bolt.Open(bolt.Options{Path: path, NoSync: true})
	if err != nil {
		t.Fatalf("opening the schema 7 file: %v", err)
	}
	defer db.Close()
	storagetest.CheckVacationIndex(t, db)
}

// schemaOf reads a file's schema version without migrating it.
func schemaOf(t *testing.T, path string) string {
	t.Helper()
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	var v string
	if err := bdb.View(func(tx *bbolt.Tx) error { v = string(tx.Bucket([]byte("meta")).Get([]byte("schema"))); return nil }); err != nil {
		t.Fatal(err)
	}
	return v
}

// copyLimit is the most a child that migrates with too little room may
// write to a file (RLIMIT_FSIZE): less than the copy it keeps first.
const copyLimit = 16 << 10

// migrateLimitedChild opens the database at path as a process that may
// write no file past copyLimit bytes, as on a disk that fills up while the
// copy kept before migrating is written, and prints Open's error.
func migrateLimitedChild(path string) {
	// Go ignores SIGXFSZ: a write past the limit fails with EFBIG.
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: copyLimit, Max: copyLimit}); err != nil {
		fmt.Println("setrlimit:", err)
		return
	}
	db, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	db.Close()
	fmt.Println("migrated")
}

// TestMigrateCopyFails: when the copy kept before a migration cannot be
// written whole (the disk fills up), Open fails, the file stays at its
// schema, and no part of a copy is left under the name the README and the
// refusal of a newer file tell the admin to put back; nor any temporary
// file. Once there is room, the migration keeps a whole copy, on disk.
func TestMigrateCopyFails(t *testing.T) {
	dir := t.TempDir()
	path := writeSchema7(t, dir, 8)
	if info, err := os.Stat(path); err != nil || info.Size() <= copyLimit {
		t.Fatalf("the schema 7 file: %v, %d bytes: want more than %d", err, info.Size(), copyLimit)
	}
	out, err := storagetest.ChildCommand("migrate-limited", path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "error:") || !strings.Contains(string(out), "file too large") {
		t.Fatalf("the child that may not write the copy whole: %v, output:\n%s", err, out)
	}
	if strings.Contains(string(out), "migrated") {
		t.Fatalf("migrated without its copy:\n%s", out)
	}
	if v := schemaOf(t, path); v != "7" {
		t.Fatalf("after the failed copy the file is at schema %s, want 7", v)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != filepath.Base(path) {
			info, _ := e.Info()
			t.Errorf("the failed copy left %s (%d bytes) beside the database", e.Name(), info.Size())
		}
	}
	db, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatalf("migrating with room for the copy: %v", err)
	}
	want := must(db.Match(context.Background(), 8))(t)
	db.Close()
	kept := path + ".schema-v7.bak"
	if v := schemaOf(t, kept); v != "7" {
		t.Fatalf("the copy kept is at schema %s, want 7", v)
	}
	copied := filepath.Join(t.TempDir(), "restored.db")
	data, err := os.ReadFile(kept)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, data, 0o600); err != nil {
		t.Fatal(err)
	}
	restored, err := bolt.Open(bolt.Options{Path: copied, NoSync: true})
	if err != nil {
		t.Fatalf("the copy kept, put back: %v", err)
	}
	defer restored.Close()
	if err := restored.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := must(restored.Match(context.Background(), 8))(t); got.Version != want.Version || len(got.Log) != len(want.Log) {
		t.Errorf("the copy kept holds match 8 at version %d with %d actions, the database %d with %d", got.Version, len(got.Log), want.Version, len(want.Log))
	}
}

// TestMigrateRemovesDeadCopy: the temporary file of a copy kept before a
// migration that died before its rename (the bot killed mid-copy, as big
// as the database) is removed when the migration runs again; other files
// beside the database stay.
func TestMigrateRemovesDeadCopy(t *testing.T) {
	dir := t.TempDir()
	path := writeSchema7(t, dir, 1)
	dead := filepath.Join(dir, ".v7.db.schema-v7.bak.tmp-123456")
	other := filepath.Join(dir, ".v7.db.tmp-1")
	for _, f := range []string{dead, other} {
		if err := os.WriteFile(f, []byte("part of a copy"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db, err := bolt.Open(bolt.Options{Path: path, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("the dead copy's temporary file %s is still there", dead)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("%s: %v, want it left alone", other, err)
	}
	if _, err := os.Stat(path + ".schema-v7.bak"); err != nil {
		t.Errorf("the copy kept: %v", err)
	}
}
