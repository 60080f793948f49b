package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/postgres"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestRunCopydb moves a bbolt file with a match under way to PostgreSQL and
// back to a new file, and checks the refusals: a source a bot holds (its
// lock, its lease, its sessions), one from a newer strategobot, one from
// an older one (left at its schema), a target a bot holds or that is not
// empty. No message shows the password of a URL.
func TestRunCopydb(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Chdir(dir) // where a database named by keywords would be taken for a file
	src := filepath.Join(dir, "bot.db")
	db, err := bolt.Open(bolt.Options{Path: src, Reminders: storagetest.Reminders})
	if err != nil {
		t.Fatal(err)
	}
	m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), 1)
	m = storagetest.Play(t, db, m, 4, rand.New(rand.NewPCG(1, 2)))
	conf := filepath.Join(dir, "bot.toml")
	if err := os.WriteFile(conf, []byte("database = \""+src+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("STRATEGOBOT_CONFIG", "")
	t.Setenv("STRATEGOBOT_DATABASE", "")
	withPassword := func(u string) string {
		p, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		q := p.Query()
		q.Set("password", "s3cret") // the test server trusts its socket: ignored, and never to be shown
		p.RawQuery = q.Encode()
		return p.String()
	}
	pg, held, newer := withPassword(pgtest.NewDatabase(t)), pgtest.NewDatabase(t), pgtest.NewDatabase(t)
	for _, u := range []string{held, newer} {
		pdb, err := postgres.Open(ctx, postgres.Options{URL: u})
		if err != nil {
			t.Fatal(err)
		}
		if u == held {
			if _, err := pdb.Lead(ctx, "timers", "a bot", time.Now(), time.Hour); err != nil {
				t.Fatal(err)
			}
		}
		pdb.Close()
	}
	if _, err := pgtest.Pool(t, newer).Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", postgres.SchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	// An older bot runs on older, one schema behind (migration 10 undone),
	// and holds the lease; a process of a bot that does not lead the
	// timers is connected to busy.
	older, busy := pgtest.NewDatabase(t), pgtest.NewDatabase(t)
	for _, u := range []string{older, busy} {
		pdb, err := postgres.Open(ctx, postgres.Options{URL: u})
		if err != nil {
			t.Fatal(err)
		}
		if u == busy {
			defer pdb.Close()
			continue
		}
		if _, err := pdb.Lead(ctx, "timers", "an older bot", time.Now(), time.Hour); err != nil {
			t.Fatal(err)
		}
		pdb.Close()
	}
	if _, err := pgtest.Pool(t, older).Exec(ctx, "DROP TABLE alive; DELETE FROM schema_migrations WHERE version = 10"); err != nil {
		t.Fatal(err)
	}
	back := filepath.Join(dir, "back.db")

	// The cases run in order: the file is open (the bot is running) until
	// the first copy.
	tests := []struct {
		name   string
		args   []string
		before func()
		code   int
		stdout string
		stderr string
	}{
		{"no target", []string{"-from", src}, nil, 2, "", "name the empty database to copy into with -to"},
		{"an operand", []string{"-from", src, "-to", pg, "x.db"}, nil, 2, "", "usage: strategobot copydb"},
		{"help", []string{"-h"}, nil, 0, "usage: strategobot copydb", ""},
		{"onto itself", []string{"-from", src, "-to", src}, nil, 2, "", "is the source itself"},
		{"both -from and -config", []string{"-from", filepath.Join(dir, "none.db"), "-config", conf, "-to", filepath.Join(dir, "both.db")}, nil, 2, "",
			"-from and -config both name the database to copy: give one"},
		{"bot running", []string{"-config", conf, "-timeout", "100ms", "-to", pg}, nil, 1, "",
			"strategobot copydb: the source " + src + " is in use by another process (is another strategobot running?)\nThe bot is running: stop it (every process of it) first, then copy.\n"},
		{"missing source", []string{"-from", filepath.Join(dir, "none.db"), "-to", pg}, nil, 1, "", "there is no database " + filepath.Join(dir, "none.db")},
		{"into a folder that does not exist", []string{"-from", src, "-to", filepath.Join(dir, "nowhere", "x.db")}, nil, 1, "", "the folder " + filepath.Join(dir, "nowhere") + " does not exist"},
		{"bbolt to PostgreSQL", []string{"-config", conf, "-to", pg}, func() { db.Close() }, 0,
			"copied " + src + " to " + postgres.Redacted(pg), ""},
		// A connection string of keywords is no file's name: refused, without its password.
		{"into a connection string of keywords", []string{"-from", src, "-to", "host=db password=s3cret"}, nil, 2, "",
			"-to looks like a PostgreSQL connection string of keywords (host=… user=…), which copydb does not read: write it as a URL"},
		{"from a connection string of keywords", []string{"-from", "host=db password=s3cret", "-to", filepath.Join(dir, "kw.db")}, nil, 2, "",
			"-from looks like a PostgreSQL connection string of keywords"},
		{"into a running bot's PostgreSQL", []string{"-from", src, "-to", held}, nil, 1, "",
			"the target " + postgres.Redacted(held) + ": a bot is running on it (it holds the lease timers)\nThe bot is running"},
		{"into a database that is not empty", []string{"-from", src, "-to", pg}, nil, 1, "", "the target database is not empty"},
		{"into a file that exists", []string{"-from", pg, "-to", src}, nil, 1, "", src + " exists: copy into a new file"},
		{"from a running bot's PostgreSQL", []string{"-from", held, "-to", filepath.Join(dir, "held.db")}, nil, 1, "",
			"a bot is running on it (it holds the lease timers)\nThe bot is running"},
		{"from an older bot's PostgreSQL", []string{"-from", older, "-to", filepath.Join(dir, "older.db")}, nil, 1, "",
			"start this version of strategobot on it once, which brings its schema up to date, stop it, then copy"},
		{"from a bot's process that holds no lease", []string{"-from", busy, "-to", filepath.Join(dir, "busy.db")}, nil, 1, "",
			"a bot is running on it (pg_stat_activity shows it connected: sessions named strategobot)\nThe bot is running"},
		{"from a newer strategobot's PostgreSQL", []string{"-from", newer, "-to", filepath.Join(dir, "newer.db")}, nil, 1, "",
			"strategobot copydb: the source " + postgres.Redacted(newer) + ": it is at schema"},
		{"PostgreSQL to bbolt", []string{"-from", pg, "-to", back}, nil, 0, "1 match (1 under way)", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.before != nil {
				tc.before()
			}
			var out, errOut bytes.Buffer
			code := runCopydb(ctx, tc.args, &out, &errOut)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, out.String(), errOut.String(), tc.code, tc.stdout, tc.stderr)
			}
			if strings.Contains(out.String()+errOut.String(), "s3cret") {
				t.Errorf("the password is shown: stdout %q, stderr %q", out.String(), errOut.String())
			}
		})
	}
	for _, f := range []string{"both.db", "held.db", "newer.db", "kw.db", "host=db password=s3cret", "older.db", "busy.db"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("a refused copy left the new file %s", f)
		}
	}
	// The older bot's database is as it was: copydb brought it to no newer schema.
	var schema int
	if err := pgtest.Pool(t, older).QueryRow(ctx, "SELECT max(version) FROM schema_migrations").Scan(&schema); err != nil || schema != 9 {
		t.Errorf("the older bot's database after copydb: schema %d (%v), want 9", schema, err)
	}
	// The match came back as it was, log, version, set-ups and all.
	copied, err := bolt.Open(bolt.Options{Path: back, Reminders: storagetest.Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer copied.Close()
	got, err := copied.Match(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != m.Version || len(got.Log) != len(m.Log) || got.Setups != m.Setups || got.Secret != m.Secret {
		t.Errorf("the match after bbolt, PostgreSQL and bbolt again: version %d, %d actions; want %d, %d, and the same set-ups and secret",
			got.Version, len(got.Log), m.Version, len(m.Log))
	}
	if _, err := copied.Match(ctx, m.ID+1); err == nil || !strings.Contains(err.Error(), storage.ErrNotFound.Error()) {
		t.Errorf("a match that was never made: %v", err)
	}
}

// TestCopydbOlderSource: copydb migrates a source of an older schema, as
// run would, and says so, naming the copy kept before, which an older
// strategobot reads: it said the source was left as it was.
func TestCopydbOlderSource(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "bot.db")
	olderSchema(t, src)
	var out, errOut bytes.Buffer
	if code := runCopydb(context.Background(), []string{"-from", src, "-to", filepath.Join(dir, "copy.db")}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	want := "The source was of an older schema, and was migrated to this version's first, as run would; the copy kept before, " + src + ".schema-v1.bak, is the one an older strategobot reads."
	if !strings.Contains(out.String(), want) || strings.Contains(out.String(), "left as it was") {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	out.Reset()
	if code := runCopydb(context.Background(), []string{"-from", src, "-to", filepath.Join(dir, "again.db")}, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "The source is left as it was") {
		t.Errorf("a source of this schema: exit %d, stdout %q", code, out.String())
	}
}
