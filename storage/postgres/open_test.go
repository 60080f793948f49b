package postgres_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/postgres"
	"github.com/strategobot/strategobot/storage/storagetest"
)

func TestIsURLAndRedacted(t *testing.T) {
	tests := []struct {
		in       string
		isURL    bool
		redacted string
	}{
		{"postgres://bot:s3cret@db.example:5432/strategobot?sslmode=verify-full", true, "postgres://bot:xxxxx@db.example:5432/strategobot?sslmode=verify-full"},
		{"postgresql://bot@/strategobot?host=/run/postgresql", true, "postgresql://bot@/strategobot?host=/run/postgresql"},
		{"postgres://bot@db/x?password=s3cret&sslmode=require", true, "postgres://bot@db/x?password=xxxxx&sslmode=require"},
		{"postgres://bot@db/x?sslkey=k.pem&sslpassword=s3%26cret", true, "postgres://bot@db/x?sslkey=k.pem&sslpassword=xxxxx"},
		{"host=db user=bot password=s3cret dbname=strategobot", false, "(a PostgreSQL keyword/value connection string)"},
		{"strategobot.db", false, "(a PostgreSQL keyword/value connection string)"},
		{"/var/lib/postgres://x.db", false, "(a PostgreSQL keyword/value connection string)"},
	}
	for _, tc := range tests {
		if got := postgres.IsURL(tc.in); got != tc.isURL {
			t.Errorf("IsURL(%q) = %v", tc.in, got)
		}
		if got := postgres.Redacted(tc.in); got != tc.redacted {
			t.Errorf("Redacted(%q) = %q, want %q", tc.in, got, tc.redacted)
		}
	}
}

// TestOpenRefusals: an address that does not parse or a server that does not
// answer gives an error that says so, and never shows the password.
func TestOpenRefusals(t *testing.T) {
	tests := []struct {
		name string
		url  string
		want string
	}{
		{"bad port", "postgres://bot:s3cret@localhost:port/db", "not a valid PostgreSQL connection string"},
		{"bad parameter", "postgres://bot:s3cret@localhost/db?sslmode=sometimes", "not a valid PostgreSQL connection string"},
		{"nobody listening", "postgres://bot:s3cret@127.0.0.1:1/db?connect_timeout=5", "connect"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := postgres.Open(context.Background(), postgres.Options{URL: tc.url})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
}

// TestOpenExplainsTheServersRefusal: a database or role the server does not
// have, or a setting it does not know, is ErrSetup, saying what to create
// or correct; a server that cannot be reached is not (a restart may find
// it up), and says so, in either case without pgx's raw words.
func TestOpenExplainsTheServersRefusal(t *testing.T) {
	base, err := url.Parse(pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	db := strings.TrimPrefix(base.Path, "/")
	with := func(change func(u *url.URL, q url.Values)) string {
		u := *base
		q := u.Query()
		change(&u, q)
		u.RawQuery = q.Encode()
		return u.String()
	}
	tests := []struct {
		name  string
		url   string
		setup bool
		want  string
	}{
		{"no such database", with(func(u *url.URL, _ url.Values) { u.Path = "/nodb" }), true,
			`the PostgreSQL server has no database "nodb": create it, owned by the bot's role (sudo -u postgres createuser --pwprompt strategobot, then sudo -u postgres createdb --owner strategobot nodb; the README's PostgreSQL section shows these), or correct the database name at the end of the URL`},
		{"no such role", with(func(u *url.URL, _ url.Values) { u.User = url.User("nouser") }), true,
			`the PostgreSQL server has no role (user) "nouser": create it and a database it owns (sudo -u postgres createuser --pwprompt nouser, then sudo -u postgres createdb --owner nouser ` + db + `; the README's PostgreSQL section shows these), or correct the user in the URL`},
		{"a misspelt setting", with(func(_ *url.URL, q url.Values) { q.Set("statment_timeout", "5000") }), true,
			`the URL sets "statment_timeout", which is no PostgreSQL setting: correct its spelling or remove it`},
		{"a setting's bad value", with(func(_ *url.URL, q url.Values) { q.Set("statement_timeout", "soon") }), true,
			`the PostgreSQL server refuses a parameter of the URL: invalid value for parameter "statement_timeout": "soon": correct it or remove it`},
		{"no server there", with(func(_ *url.URL, q url.Values) { q.Set("host", t.TempDir()) }), false,
			"the PostgreSQL server cannot be reached (dial unix "},
		{"nobody listening on the port", "postgres://bot:s3cret@127.0.0.1:1/db?connect_timeout=5", false,
			"database postgres://bot:xxxxx@127.0.0.1:1/db?connect_timeout=5: the PostgreSQL server cannot be reached (dial tcp 127.0.0.1:1: connect: connection refused): check that it runs, the host and port in the URL, and this machine's network, DNS and firewall"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := postgres.Open(context.Background(), postgres.Options{URL: tc.url})
			if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, postgres.ErrSetup) != tc.setup {
				t.Fatalf("error %v (ErrSetup: %v), want one saying %q (ErrSetup: %v)", err, errors.Is(err, postgres.ErrSetup), tc.want, tc.setup)
			}
			for _, raw := range []string{"SQLSTATE", "failed to connect to", "s3cret"} {
				if strings.Contains(err.Error(), raw) {
					t.Errorf("the error shows %q: %v", raw, err)
				}
			}
		})
	}
}

func TestClosed(t *testing.T) {
	db := openURL(t, pgtest.NewDatabase(t))
	ctx := context.Background()
	m, err := db.CreateMatch(ctx, storagetest.NewMatch(game.VariantClassic))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Match(ctx, m.ID); !errors.Is(err, storage.ErrClosed) {
		t.Errorf("Match after Close: %v", err)
	}
	if _, err := db.Abandon(ctx, m.ID, 0, storagetest.T0, storage.CallOffLateSetup); !errors.Is(err, storage.ErrClosed) {
		t.Errorf("Abandon after Close: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// TestColumnsFollowTheRecord: the columns the queries use are the record's
// own values after every kind of change, and the record reads in SQL: the
// log is the compact string of the bbolt backend.
func TestColumnsFollowTheRecord(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	db := openURL(t, url)
	p := pgtest.Pool(t, url)
	check := func(what string, m *storage.Match) {
		t.Helper()
		var (
			phase, red, blue, channel, log string
			thread, kind                   *string
			active                         bool
			wake                           *time.Time
			version                        int64
		)
		err := p.QueryRow(ctx, `SELECT version, phase, active, red_id, blue_id, channel_id, thread_id, wake_at, wake_kind, coalesce(record->>'log', '')
			FROM matches WHERE id = $1`, int64(m.ID)).Scan(&version, &phase, &active, &red, &blue, &channel, &thread, &wake, &kind, &log)
		if err != nil {
			t.Fatal(err)
		}
		var tokens []string
		for _, a := range m.Log {
			tokens = append(tokens, a.String())
		}
		gotThread := ""
		if thread != nil {
			gotThread = *thread
		}
		wantThread := m.ThreadID
		if wantThread == m.ChannelID {
			wantThread = ""
		}
		if uint64(version) != m.Version || phase != m.Phase.String() || active != m.Phase.Active() || red != m.Players[game.Red].UserID ||
			blue != m.Players[game.Blue].UserID || channel != m.ChannelID || gotThread != wantThread {
			t.Errorf("%s: columns %d %s %v %s %s %s %q; match %d %s", what, version, phase, active, red, blue, channel, gotThread, m.Version, m.Phase)
		}
		d, ok := storage.MatchTimer(m)
		if ok != (wake != nil) || ok && (!wake.Equal(d.At) || kind == nil || *kind != string(rune(d.Kind))) {
			t.Errorf("%s: timer columns %v %v, want %+v %v", what, wake, kind, d, ok)
		}
		if got := strings.Fields(log); len(got) != len(tokens) || len(got) > 0 && !strings.HasPrefix(got[len(got)-1], tokens[len(tokens)-1]+"+") {
			t.Errorf("%s: record->>'log' = %q, want the tokens %v with their times", what, log, tokens)
		}
	}
	m, err := db.CreateMatch(ctx, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	check("created", m)
	m = storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), 7)
	check("started", m)
	m = storagetest.Play(t, db, m, 5, rand.New(rand.NewPCG(7, 7)))
	check("after 5 moves", m)
	if m, err = db.UpdateMatch(ctx, m.ID, m.Version, func(m *storage.Match) error { m.ThreadID = "thread1"; return nil }); err != nil {
		t.Fatal(err)
	}
	check("in a thread", m)
	if m, err = db.UpdateMatch(ctx, m.ID, m.Version, func(m *storage.Match) error { m.ThreadID = m.ChannelID; return nil }); err != nil {
		t.Fatal(err)
	}
	check("thread = channel", m)
	if m, err = db.MarkReminded(ctx, m.ID, m.Version, m.RemindAt); err != nil {
		t.Fatal(err)
	}
	check("reminded", m)
	if m, err = db.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Red, At: m.Log[len(m.Log)-1].At}); err != nil {
		t.Fatal(err)
	}
	check("resigned", m)
}

// TestOpenRefreshesTournamentTimers: a tournament's wake column is written
// when it is saved, by the rule of the version that saved it. A database
// whose column says otherwise than the tournament (as one written before a
// change of that rule would) is put right when it is opened: the tournament
// wakes when it says, not at a stale time.
func TestOpenRefreshesTournamentTimers(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	db := openURL(t, url)
	tt, err := db.CreateTournament(ctx, storagetest.NewTournament("g1"), storage.TournamentLimits{})
	if err != nil {
		t.Fatal(err)
	}
	p := closeForRawSQL(t, db, url)
	if _, err := p.Exec(ctx, "UPDATE tournaments SET wake = $2 WHERE id = $1", int64(tt.ID), tt.StartAt.AddDate(1, 0, 0)); err != nil {
		t.Fatal(err)
	}
	db = openURL(t, url)
	if at, ok, err := db.NextTournamentWake(ctx); err != nil || !ok || !at.Equal(tt.StartAt) {
		t.Errorf("next tournament timer after reopening: %v, %v, %v; want the start %v", at, ok, err, tt.StartAt)
	}
	if due, err := db.DueTournaments(ctx, tt.StartAt); err != nil || len(due) != 1 || due[0].ID != tt.ID {
		t.Errorf("due at the start after reopening: %v, %v", due, err)
	}
}

// TestOpenRefreshesCancelledWhileStarting: a tournament cancelled while
// its matches were being started, stored with no timer (the rule before a
// tournament still starting was due when done), is due once the database
// is opened: the pass that clears Starting calls off its strays.
func TestOpenRefreshesCancelledWhileStarting(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	db := openURL(t, url)
	tt, err := db.CreateTournament(ctx, storagetest.NewTournament("g1"), storage.TournamentLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if tt, err = db.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		x.Starting, x.Done = true, true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	p := closeForRawSQL(t, db, url)
	if _, err := p.Exec(ctx, "UPDATE tournaments SET wake = NULL WHERE id = $1", int64(tt.ID)); err != nil {
		t.Fatal(err)
	}
	db = openURL(t, url)
	if due, err := db.DueTournaments(ctx, tt.Created); err != nil || len(due) != 1 || due[0].ID != tt.ID {
		t.Errorf("due after reopening: %v, %v; want the tournament still starting", due, err)
	}
}

// closeForRawSQL closes db, as a stopped bot would, and connects to its
// database by SQL, for a test that changes what the next open finds.
func closeForRawSQL(t *testing.T, db *postgres.DB, url string) *pgxpool.Pool {
	t.Helper()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return pgtest.Pool(t, url)
}

// TestOpenReadOnly: a database opened only to read it is read and never
// written: its sessions refuse a write, and Open migrates nothing,
// refusing a database of an older schema (ErrOlderSchema), of a newer one
// (storage.ErrNewerSchema) or without tables, each left as it was.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	readOnly := func(url string) (*postgres.DB, error) {
		return postgres.Open(ctx, postgres.Options{URL: url, ReadOnly: true, Reminders: storagetest.Reminders})
	}
	version := func(url string) (v int) {
		var tables bool
		if err := pgtest.Pool(t, url).QueryRow(ctx, "SELECT to_regclass('schema_migrations') IS NOT NULL").Scan(&tables); err != nil || !tables {
			return 0
		}
		if err := pgtest.Pool(t, url).QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_migrations").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}

	url := pgtest.NewDatabase(t)
	m := storagetest.Started(t, openURL(t, url), storagetest.NewMatch(game.VariantClassic), 1)
	db, err := readOnly(url)
	if err != nil {
		t.Fatalf("read-only Open of a database at this schema: %v", err)
	}
	defer db.Close()
	if got, err := db.Match(ctx, m.ID); err != nil || got.Version != m.Version {
		t.Errorf("read the match: %v", err)
	}
	if d := new(storage.Dump); db.Dump(ctx, d) != nil || len(d.Matches) != 1 {
		t.Errorf("Dump: %v", db.Dump(ctx, new(storage.Dump)))
	}
	if _, err := db.Lead(ctx, "timers", "copydb", time.Now(), time.Minute); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("a write on a read-only open: %v, want it refused", err)
	}

	// One schema behind: migration 10 undone.
	older := pgtest.NewDatabase(t)
	openURL(t, older).Close()
	if _, err := pgtest.Pool(t, older).Exec(ctx, "DROP TABLE alive; DELETE FROM schema_migrations WHERE version = 10"); err != nil {
		t.Fatal(err)
	}
	if db, err := readOnly(older); !errors.Is(err, postgres.ErrOlderSchema) {
		if db != nil {
			db.Close()
		}
		t.Errorf("read-only Open of an older schema: %v, want ErrOlderSchema", err)
	}
	if v := version(older); v != 9 {
		t.Errorf("after a read-only Open, the older database is at schema %d, want 9 as it was", v)
	}

	newer := pgtest.NewDatabase(t)
	openURL(t, newer).Close()
	if _, err := pgtest.Pool(t, newer).Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", postgres.SchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	if _, err := readOnly(newer); !errors.Is(err, storage.ErrNewerSchema) {
		t.Errorf("read-only Open of a newer schema: %v, want ErrNewerSchema", err)
	}

	empty := pgtest.NewDatabase(t)
	if _, err := readOnly(empty); err == nil || !strings.Contains(err.Error(), "holds no strategobot tables") {
		t.Errorf("read-only Open of a database without tables: %v", err)
	}
	if v := version(empty); v != 0 {
		t.Errorf("a read-only Open made the tables of schema %d", v)
	}
}

// TestBotSessions: a bot's sessions on the database are counted, whether
// it holds a lease or not; those of a DB opened under another name are not.
func TestBotSessions(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	checker, err := postgres.Open(ctx, postgres.Options{URL: url, ApplicationName: "strategobot copydb"})
	if err != nil {
		t.Fatal(err)
	}
	defer checker.Close()
	if n, err := checker.BotSessions(ctx); err != nil || n != 0 {
		t.Errorf("no bot connected: %d sessions, %v", n, err)
	}
	openURL(t, url) // a bot's process, which keeps its pool's connection
	if n, err := checker.BotSessions(ctx); err != nil || n == 0 {
		t.Errorf("a bot connected: %d sessions, %v", n, err)
	}
}
