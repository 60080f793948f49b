package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
)

func TestRunBackup(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "bot.db")
	db, err := bolt.Open(bolt.Options{Path: src})
	if err != nil {
		t.Fatal(err)
	}
	m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), 1)
	conf := filepath.Join(dir, "bot.toml")
	if err := os.WriteFile(conf, []byte("database = \""+src+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("STRATEGOBOT_CONFIG", "")
	t.Setenv("STRATEGOBOT_DATABASE", "")
	// The cases run in order: the database is open (the bot is running)
	// until the last case closes it.
	tests := []struct {
		name   string
		args   []string
		before func()
		code   int
		stdout string
		stderr string
	}{
		{"no destination", []string{"-db", src}, nil, 2, "", "usage: strategobot backup"},
		{"two destinations", []string{"-db", src, "a", "b"}, nil, 2, "", "usage: strategobot backup"},
		{"bad flag", []string{"-frob"}, nil, 2, "", "flag provided but not defined"},
		{"help", []string{"-h"}, nil, 0, "usage: strategobot backup", ""},
		{"bot running", []string{"-db", src, "-timeout", "100ms", filepath.Join(dir, "x.db")}, nil, 1, "", "is in use by another process (is another strategobot running?)\nThe bot is running: stop it first, or use the copies it makes in backup_dir while it runs (set backup_dir to turn them on).\n"},
		{"postgres", []string{"-db", "postgres://bot:s3cret@db/strategobot", filepath.Join(dir, "z.dump")}, nil, 2, "",
			"  pg_dump --format=custom --file=" + filepath.Join(dir, "z.dump") + " 'postgres://USER@HOST/DATABASE'\n"},
		{"postgres, to a file named as a bbolt one", []string{"-db", "postgres://bot:s3cret@db/strategobot", filepath.Join(dir, "x.db")}, nil, 2, "",
			"  pg_dump --format=custom --file=" + filepath.Join(dir, "x.dump") + " 'postgres://USER@HOST/DATABASE'\n"},
		{"postgres, into a folder", []string{"-db", "postgres://bot:s3cret@db/strategobot", dir}, nil, 2, "",
			"  pg_dump --format=custom --file=" + filepath.Join(dir, "strategobot.dump") + " 'postgres://USER@HOST/DATABASE'\n"},
		{"postgres, to a name the shell would split", []string{"-db", "postgres://bot:s3cret@db/strategobot", filepath.Join(dir, "my backup.db")}, nil, 2, "",
			"  pg_dump --format=custom '--file=" + filepath.Join(dir, "my backup.dump") + "' 'postgres://USER@HOST/DATABASE'\n"},
		{"missing database", []string{"-db", filepath.Join(dir, "none.db"), filepath.Join(dir, "y.db")}, nil, 1, "",
			"strategobot backup: there is no database " + filepath.Join(dir, "none.db") + " to copy: name the bot's file with -db FILE"},
		{"both -db and -config", []string{"-db", src, "-config", conf, filepath.Join(dir, "w.db")}, nil, 2, "",
			"-db and -config both name the database to copy: give one"},
		{"-db over the environment's configuration", []string{"-db", filepath.Join(dir, "none.db"), filepath.Join(dir, "y.db")},
			func() { t.Setenv("STRATEGOBOT_CONFIG", conf) }, 1, "", "there is no database " + filepath.Join(dir, "none.db")},
		{"missing configuration", []string{"-config", filepath.Join(dir, "none.toml"), filepath.Join(dir, "y.db")}, nil, 2, "", "none.toml"},
		{"the configuration's database, running", []string{"-config", conf, "-timeout", "100ms", filepath.Join(dir, "x.db")}, nil, 1, "", "is in use by another process"},
		{"the environment's database, running", []string{"-timeout", "100ms", filepath.Join(dir, "x.db")},
			func() { t.Setenv("STRATEGOBOT_CONFIG", ""); t.Setenv("STRATEGOBOT_DATABASE", src) }, 1, "", "is in use by another process"},
		{"copied", []string{"-db", src, filepath.Join(dir, "copy.db")}, func() { db.Close() }, 0, "copied " + src, ""},
		{"copied from the configuration", []string{"-config", conf, filepath.Join(dir, "copy2.db")}, nil, 0, "copied " + src, ""},
		{"copied into a folder, as cp does", []string{"-db", src, filepath.Join(dir, "into")},
			func() { os.Mkdir(filepath.Join(dir, "into"), 0o700) }, 0, "copied " + src + " to " + filepath.Join(dir, "into", "bot.db"), ""},
		{"onto the database itself", []string{"-db", src, src}, nil, 2, "",
			"strategobot backup: " + src + " would be the database " + src + " itself: name a PATH elsewhere"},
		{"into the database's own folder, onto it", []string{"-db", src, dir}, nil, 2, "",
			"strategobot backup: " + dir + " would be the database " + src + " itself: name a PATH elsewhere"},
		{"into a folder that does not exist", []string{"-db", src, filepath.Join(dir, "nowhere", "copy.db")}, nil, 1, "",
			"strategobot backup: the folder " + filepath.Join(dir, "nowhere") + " does not exist: create it, or copy to a file in a folder that exists\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.before != nil {
				tc.before()
			}
			var out, errOut bytes.Buffer
			code := runBackup(context.Background(), tc.args, &out, &errOut)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, out.String(), errOut.String(), tc.code, tc.stdout, tc.stderr)
			}
		})
	}
	copied, err := bolt.Open(bolt.Options{Path: filepath.Join(dir, "copy.db"), Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer copied.Close()
	if got, err := copied.Match(context.Background(), m.ID); err != nil || got.Version != m.Version {
		t.Errorf("the copy holds %+v, %v", got, err)
	}
	if into, err := bolt.Open(bolt.Options{Path: filepath.Join(dir, "into", "bot.db"), Timeout: time.Second}); err != nil {
		t.Errorf("the copy into a folder: %v", err)
	} else {
		into.Close()
	}
	if _, err := os.Stat(filepath.Join(dir, "x.db")); err == nil {
		t.Errorf("a failed backup left a file")
	}
}

// TestBackupStopsAtOnce: a signal stops backup at once, even while it waits
// for the lock of a bot that holds the file, and leaves no copy; a copy
// already made stands.
func TestBackupStopsAtOnce(t *testing.T) {
	tests := []struct {
		name   string
		held   bool
		code   int
		stderr string
	}{
		{"waiting for a running bot's lock", true, 1, "strategobot backup: stopped before the copy was made;"},
		{"the file free", false, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src, dest := filepath.Join(dir, "bot.db"), filepath.Join(dir, "copy.db")
			db, err := bolt.Open(bolt.Options{Path: src})
			if err != nil {
				t.Fatal(err)
			}
			if !tc.held {
				db.Close()
			}
			// A held file stays held to the end of the tests: the stopped
			// backup, left waiting for its lock, then times out without
			// writing into a folder being removed.
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			var out, errOut bytes.Buffer
			start := time.Now()
			code := runBackup(ctx, []string{"-db", src, "-timeout", "30s", dest}, &out, &errOut)
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("took %v", took)
			}
			if code != tc.code || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, errOut.String(), tc.code, tc.stderr)
			}
			if _, err := os.Stat(dest); (err == nil) != (tc.code == 0) {
				t.Errorf("the copy: %v, want one only when copied", err)
			}
		})
	}
}
