package main

import (
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/postgres"
)

// TestDatabaseInAPlaceItCannotBe runs the built bot with its database in a
// folder that does not exist or that it may not write (also an older file
// it may write, whose copy kept before migrating it may not), in a file that is
// no database it can read, or in place of a folder, or with a backup_dir
// it may not write, or a configuration file it may not read: it stops before
// asking Discord anything, with exit code 2 (a bad configuration, which
// systemd does not restart unchanged), naming the folder or file and what
// to do, and leaks no name of its own making (the file it builds beside
// the database).
func TestDatabaseInAPlaceItCannotBe(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	dir := t.TempDir()
	closed := filepath.Join(dir, "closed")
	if err := os.Mkdir(closed, 0o555); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "read-only.db")
	db, err := bolt.Open(bolt.Options{Path: readOnly})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := os.Chmod(readOnly, 0o444); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "damaged.db")
	if err := os.WriteFile(damaged, []byte("these are not the pages of a bbolt database, but a file of notes\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(damaged, 0o666); err != nil { // whoever runs the bot may write it
		t.Fatal(err)
	}
	// A file of an older schema, which the bot may write, in a folder
	// where it may not create the copy it keeps before migrating.
	olderDir := filepath.Join(dir, "older")
	if err := os.Mkdir(olderDir, 0o755); err != nil {
		t.Fatal(err)
	}
	older := filepath.Join(olderDir, "bot.db")
	olderSchema(t, older)
	if os.Geteuid() == 0 {
		if err := chownNobody(older); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(olderDir, 0o555); err != nil {
		t.Fatal(err)
	}
	private := filepath.Join(dir, "private.toml")
	if err := os.WriteFile(private, []byte("threads = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := asNobody(t, bin, dir)
	tests := []struct {
		name      string
		database  string
		backupDir string
		want      string
		config    string
	}{
		{"a folder that does not exist", filepath.Join(dir, "missing", "bot.db"), "",
			"database " + filepath.Join(dir, "missing", "bot.db") + ": the folder " + filepath.Join(dir, "missing") +
				" does not exist: create it, or set database to a file in a folder that exists", ""},
		{"a folder it may not write", filepath.Join(closed, "bot.db"), "",
			"this user may not create files in " + closed + ": give it write access there", ""},
		// The default, a file in the folder the bot runs in: the folder named by its path, not as ".".
		{"the folder it runs in, which it may not write", "strategobot.db", "",
			"database strategobot.db: this user may not create files in " + closed + ", the folder the bot runs in: give it write access there", ""},
		{"a folder under the one it runs in, which it may not write", filepath.Join("closed", "bot.db"), "",
			"this user may not create files in closed (" + closed + "): give it write access there", ""},
		{"a file it may not write", readOnly, "",
			"database " + readOnly + ": this user may not read and write it: make the user the bot runs as its owner", ""},
		{"a file that is no database", damaged, "",
			"database " + damaged + " cannot be read", ""},
		{"a folder in place of the file", closed, "",
			"database " + closed + " is a folder: set database to a file, such as " + filepath.Join(closed, "strategobot.db"), ""},
		{"a file in place of its folder", "/etc/passwd/x.db", "",
			"database /etc/passwd/x.db: /etc/passwd is a file, not a folder: set database to a file in a folder that exists", ""},
		{"a file in place of a folder above", filepath.Join(damaged, "sub", "bot.db"), "",
			"database " + filepath.Join(damaged, "sub", "bot.db") + ": " + damaged + " is a file, not a folder", ""},
		{"a backup_dir it may not create", filepath.Join(dir, "bot.db"), filepath.Join(closed, "backups"),
			"backup_dir " + filepath.Join(closed, "backups") + ": the bot may not write its backups there", ""},
		{"a backup_dir under a file", filepath.Join(dir, "bot.db"), filepath.Join(damaged, "backups"),
			"backup_dir " + filepath.Join(damaged, "backups") + ": " + damaged + " is a file, not a folder: set backup_dir to a folder in one that exists", ""},
		{"a backup_dir in a folder that does not exist", filepath.Join(dir, "bot.db"), filepath.Join(dir, "missing", "backups"),
			"backup_dir " + filepath.Join(dir, "missing", "backups") + ": the folder " + filepath.Join(dir, "missing") + " does not exist: create it, or set backup_dir to a folder in one that exists", ""},
		{"an older file in a folder where its copy may not be kept", older, "",
			"database " + older + ": before migrating it from schema 1 the bot keeps a copy beside it, bot.db.schema-v1.bak, " +
				"and this user may not create files in " + olderDir + ": give it write access there", ""},
		{"a configuration file it may not read", filepath.Join(dir, "bot.db"), "",
			"config " + private + ": this user may not read it: make the user the bot runs as its owner", private},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.config != "" && os.Geteuid() != 0 {
				t.Skip("the tests' own user may read the file it wrote; nobody, as which root runs the bot, may not")
			}
			cmd := run()
			cmd.Dir = dir
			if tc.database == "strategobot.db" {
				cmd.Dir = closed
			}
			cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG="+tc.config,
				"STRATEGOBOT_API_BASE_URL=http://127.0.0.1:1/api/v9/", "STRATEGOBOT_DATABASE="+tc.database, "STRATEGOBOT_BACKUP_DIR="+tc.backupDir)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 {
				t.Fatalf("ended with %v, want exit code 2; output:\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("output\n%s\nwant %q", out, tc.want)
			}
			if strings.Contains(string(out), ".new-") || strings.Contains(string(out), "connect to Discord") {
				t.Errorf("output\n%s\nnames the bot's temporary file or went on to Discord", out)
			}
		})
	}
	bdb, err := bbolt.Open(older, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	_ = bdb.View(func(tx *bbolt.Tx) error {
		if v := string(tx.Bucket([]byte("meta")).Get([]byte("schema"))); v != "1" {
			t.Errorf("the older file, not migrated without its copy, is at schema %s, want 1", v)
		}
		return nil
	})
}

// olderSchema writes a bbolt database at path and sets its schema to 1,
// so that opening it migrates it.
func olderSchema(t *testing.T, path string) {
	t.Helper()
	db, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	bdb, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	if err := bdb.Update(func(tx *bbolt.Tx) error { return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("1")) }); err != nil {
		t.Fatal(err)
	}
}

// chownNobody gives path to the user nobody, as which asNobody runs the
// bot when the tests run as root.
func chownNobody(path string) error {
	nobody, err := user.Lookup("nobody")
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	return os.Chown(path, uid, gid)
}

// TestTwoBotsOnOneFile: a second bot on a bbolt file another one holds
// stops within the lock's wait, with exit code 1, saying what to do.
func TestTwoBotsOnOneFile(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.db")
	first, err := bolt.Open(bolt.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG=",
		"STRATEGOBOT_API_BASE_URL=http://127.0.0.1:1/api/v9/", "STRATEGOBOT_DATABASE="+path)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("ended with %v, want exit code 1; output:\n%s", err, out)
	}
	want := "database " + path + " is in use by another process (is another strategobot running?): stop that one first, or give this one a database of its own"
	if !strings.Contains(string(out), want) {
		t.Errorf("output\n%s\nwant %q", out, want)
	}
}

// asNobody returns a maker of commands that run bin as a user who may not
// write where root may: root may write anywhere, so when the tests run as
// root the bot runs as nobody, from a copy of bin in dir, which is opened
// to every user. Otherwise the bot runs as the tests' own user.
func asNobody(t *testing.T, bin, dir string) func() *exec.Cmd {
	t.Helper()
	if os.Geteuid() != 0 {
		return func() *exec.Cmd { return exec.Command(bin) }
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Fatalf("the tests run as root, and the user nobody to run the bot as is missing: %v", err)
	}
	uid, err1 := strconv.ParseUint(nobody.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(nobody.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		t.Fatalf("nobody's ids %q, %q", nobody.Uid, nobody.Gid)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, "strategobot")
	if err := os.WriteFile(copied, data, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} { // t.TempDir and its parent are the tests' own
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return func() *exec.Cmd {
		cmd := exec.Command(copied)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
		return cmd
	}
}

// TestDatabaseThatMustChange runs the built bot on databases that no
// restart mends: written by a newer strategobot (bbolt or PostgreSQL), a
// PostgreSQL database or role the server does not have, a setting it does
// not know. It stops with exit code 2, which systemd does not restart,
// saying what to do in its own words rather than pgx's. A PostgreSQL server
// that cannot be reached is worth a restart: exit code 1, saying what to
// check.
func TestDatabaseThatMustChange(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	dir := t.TempDir()
	newerFile := filepath.Join(dir, "newer.db")
	db, err := bolt.Open(bolt.Options{Path: newerFile})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	bdb, err := bbolt.Open(newerFile, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := bdb.Update(func(tx *bbolt.Tx) error { return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("99")) }); err != nil {
		t.Fatal(err)
	}
	bdb.Close()

	pg := pgtest.NewDatabase(t)
	newerPG := pgtest.NewDatabase(t)
	ctx := context.Background()
	pdb, err := postgres.Open(ctx, postgres.Options{URL: newerPG})
	if err != nil {
		t.Fatal(err)
	}
	pdb.Close()
	if _, err := pgtest.Pool(t, newerPG).Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", postgres.SchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	with := func(change func(u *url.URL, q url.Values)) string {
		u, err := url.Parse(pg)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		change(u, q)
		u.RawQuery = q.Encode()
		return u.String()
	}
	tests := []struct {
		name     string
		database string
		code     int
		want     string
	}{
		{"a bbolt file of a newer strategobot", newerFile, 2, "database " + newerFile + " is at schema 99, written by a newer strategobot; this one reads schemas up to"},
		{"a PostgreSQL database of a newer strategobot", newerPG, 2, "written by a newer strategobot; this one knows schemas up to"},
		{"no such PostgreSQL database", with(func(u *url.URL, _ url.Values) { u.Path = "/nodb" }), 2,
			`the PostgreSQL server has no database "nodb": create it, owned by the bot's role (sudo -u postgres createuser --pwprompt strategobot, then sudo -u postgres createdb --owner strategobot nodb`},
		{"no such PostgreSQL role", with(func(u *url.URL, _ url.Values) { u.User = url.User("nouser") }), 2,
			`the PostgreSQL server has no role (user) "nouser": create it and a database it owns`},
		{"a misspelt setting", with(func(_ *url.URL, q url.Values) { q.Set("statment_timeout", "5000") }), 2,
			`the URL sets "statment_timeout", which is no PostgreSQL setting: correct its spelling or remove it`},
		{"no PostgreSQL server there", with(func(_ *url.URL, q url.Values) { q.Set("host", t.TempDir()) }), 1,
			"the PostgreSQL server cannot be reached (dial unix "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG=",
				"STRATEGOBOT_API_BASE_URL=http://127.0.0.1:1/api/v9/", "STRATEGOBOT_DATABASE="+tc.database)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tc.code {
				t.Fatalf("ended with %v, want exit code %d; output:\n%s", err, tc.code, out)
			}
			if !strings.Contains(strings.ReplaceAll(string(out), `\"`, `"`), tc.want) { // the log quotes the error
				t.Errorf("output\n%s\nwant %q", out, tc.want)
			}
			for _, raw := range []string{"SQLSTATE", "failed to connect to", "connect to Discord"} {
				if strings.Contains(string(out), raw) {
					t.Errorf("output\n%s\nshows %q", out, raw)
				}
			}
		})
	}
}

// TestCheckBackupDir: backup_dir may name a folder to create, but in a
// folder that exists: one above it missing (a misspelt path, say) or a
// file is a bad configuration, and nothing is created.
func TestCheckBackupDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, backupDir, want string
	}{
		{"an empty backup_dir: no backups", "", ""},
		{"a folder that exists", dir, ""},
		{"a new folder in one that exists", filepath.Join(dir, "backups"), ""},
		{"a new folder in one that does not exist", filepath.Join(dir, "missing", "backups"),
			"backup_dir " + filepath.Join(dir, "missing", "backups") + ": the folder " + filepath.Join(dir, "missing") + " does not exist: create it, or set backup_dir to a folder in one that exists (the bot creates backup_dir itself, not the folders above it)"},
		{"a file", file, "backup_dir " + file + " is a file, not a folder: set backup_dir to a folder, such as " + filepath.Join(dir, "backups")},
		{"a folder under a file", filepath.Join(file, "backups"),
			"backup_dir " + filepath.Join(file, "backups") + ": " + file + " is a file, not a folder: set backup_dir to a folder in one that exists"},
		{"a folder under a file, further down", filepath.Join(file, "a", "backups"),
			"backup_dir " + filepath.Join(file, "a", "backups") + ": " + file + " is a file, not a folder"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := checkBackupDir(tc.backupDir)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if info, err := os.Stat(tc.backupDir); tc.backupDir != "" && (err != nil || !info.IsDir()) {
					t.Errorf("no folder %s: %v", tc.backupDir, err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, errConfig) {
				t.Errorf("error %v, want %q, a configuration error", err, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the missing folder was created: %v", err)
	}
}
