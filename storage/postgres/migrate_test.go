package postgres

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestMigrationFiles checks the files built into the program: numbered from
// 0001 without a gap, each one a comment saying what it does, then SQL.
func TestMigrationFiles(t *testing.T) {
	list, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range list {
		if m.version != i+1 || !strings.HasPrefix(m.sql, "-- ") {
			t.Errorf("%s: version %d, want %d, and a comment first", m.name, m.version, i+1)
		}
	}
	if SchemaVersion() != len(list) {
		t.Errorf("SchemaVersion %d with %d files", SchemaVersion(), len(list))
	}
}

func TestLoadMigrationsRefuses(t *testing.T) {
	file := &fstest.MapFile{Data: []byte("-- x\nSELECT 1;")}
	tests := []struct {
		name  string
		files []string
		err   string
	}{
		{"a gap", []string{"0001_a.sql", "0003_c.sql"}, "expected number 0002"},
		{"not the first", []string{"0002_b.sql"}, "expected number 0001"},
		{"a bad name", []string{"0001_a.sql", "2_b.sql"}, "name it NNNN_what.sql"},
		{"none", nil, "no migrations"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range tc.files {
				fsys["migrations/"+f] = file
			}
			if _, err := loadMigrations(fsys); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
}

func applied(t *testing.T, p *pgxpool.Pool) []int {
	t.Helper()
	rows, err := p.Query(context.Background(), "SELECT version FROM schema_migrations ORDER BY version")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func tableExists(t *testing.T, p *pgxpool.Pool, name string) bool {
	t.Helper()
	var ok bool
	if err := p.QueryRow(context.Background(), "SELECT to_regclass($1) IS NOT NULL", name).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

// TestMigrateStepByStep applies migrations one transaction each: a database
// at schema 1 is brought to 2, and a failing migration leaves nothing of
// itself behind, the database still at the last whole schema.
func TestMigrateStepByStep(t *testing.T) {
	ctx := context.Background()
	p := pgtest.Pool(t, pgtest.NewDatabase(t))
	quiet := slog.New(slog.DiscardHandler)
	m1 := migration{1, "0001_a.sql", "CREATE TABLE a (x int);"}
	m2 := migration{2, "0002_b.sql", "CREATE TABLE b (x int); INSERT INTO a VALUES (1);"}
	m3 := migration{3, "0003_c.sql", "CREATE TABLE c (x int); INSERT INTO nowhere VALUES (1);"}
	steps := []struct {
		list    []migration
		wantErr bool
		applied []int
		tables  map[string]bool
	}{
		{[]migration{m1}, false, []int{1}, map[string]bool{"a": true, "b": false}},
		{[]migration{m1, m2}, false, []int{1, 2}, map[string]bool{"a": true, "b": true}},
		{[]migration{m1, m2}, false, []int{1, 2}, map[string]bool{"b": true}}, // nothing to do
		{[]migration{m1, m2, m3}, true, []int{1, 2}, map[string]bool{"c": false}},
	}
	for i, s := range steps {
		err := migrate(ctx, p, "test", s.list, quiet)
		if (err != nil) != s.wantErr {
			t.Fatalf("step %d: error %v", i, err)
		}
		if err != nil && !strings.Contains(err.Error(), "0003_c.sql") {
			t.Errorf("step %d: the error does not name the migration: %v", i, err)
		}
		if got := applied(t, p); !slices.Equal(got, s.applied) {
			t.Fatalf("step %d: applied %v, want %v", i, got, s.applied)
		}
		for table, want := range s.tables {
			if tableExists(t, p, table) != want {
				t.Errorf("step %d: table %s exists: %v", i, table, !want)
			}
		}
	}
	var rows int
	if err := p.QueryRow(ctx, "SELECT count(*) FROM a").Scan(&rows); err != nil || rows != 1 {
		t.Errorf("migration 2 ran %d times (%v)", rows, err)
	}
}

// TestOpenAtOnce starts several processes' worth of Open on a new database at
// the same moment: the advisory lock lets one migrate while the others wait,
// and all of them then use it.
func TestOpenAtOnce(t *testing.T) {
	url := pgtest.NewDatabase(t)
	const n = 6
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := Open(context.Background(), Options{URL: url})
			if err == nil {
				err = db.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := make([]int, SchemaVersion())
	for i := range want {
		want[i] = i + 1
	}
	if got := applied(t, pgtest.Pool(t, url)); !slices.Equal(got, want) {
		t.Fatalf("applied %v, want %v", got, want)
	}
}

// TestNewerSchemaRefused: a database migrated by a newer strategobot is
// refused with a clear error, and left as it is.
func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	db, err := Open(ctx, Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	p := pgtest.Pool(t, url)
	next := SchemaVersion() + 1
	if _, err := p.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", next); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, Options{URL: url})
	if !errors.Is(err, storage.ErrNewerSchema) || !strings.Contains(err.Error(), "newer strategobot") {
		t.Fatalf("error %v, want ErrNewerSchema saying a newer strategobot wrote it", err)
	}
	if got := applied(t, p); len(got) != next {
		t.Errorf("the refused database changed: %v", got)
	}
}

// TestMigrateVacationIndex: schema 9 indexes the players of a database at
// schema 8 by the end of their last vacation, read from their records.
func TestMigrateVacationIndex(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	p := pgtest.Pool(t, url)
	quiet := slog.New(slog.DiscardHandler)
	if err := migrate(ctx, p, "test", migrations[:8], quiet); err != nil {
		t.Fatal(err)
	}
	for _, pl := range storagetest.RecordsBeforeTheVacationIndex() {
		if _, err := p.Exec(ctx, "INSERT INTO players (user_id, version, record) VALUES ($1, 1, $2)", pl.ID, pl.Record); err != nil {
			t.Fatal(err)
		}
	}
	db, err := Open(ctx, Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storagetest.CheckVacationIndex(t, db)
}
