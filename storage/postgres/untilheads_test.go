package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// BenchmarkUntilHeads measures NextNotice over an outbox of many notices
// in matches' queues (storagetest.OutboxBacklog, "new": 1% of them a
// tournament's pairing) and 50 tournaments whose head waits for the
// call-off of a match (Notice.Until), whose own notice to its channel is
// owed: the part of NextNotice that finds those heads (untilHeads) must
// read the tournaments' queues alone, by the index notices_queue, in the
// database's collation (C) and in another (ICU's en-US, the queue column
// given it, which LIKE alone the index does not serve). Its plan is
// logged, and one that does not find those queues by that index is
// refused.
func BenchmarkUntilHeads(b *testing.B) {
	const tournaments = 50
	for _, collation := range []string{"C", "en-US-x-icu"} {
		for _, size := range []int{16_000, 200_000} {
			b.Run(fmt.Sprintf("%s-%d", collation, size), func(b *testing.B) {
				ctx := context.Background()
				db, err := Open(ctx, Options{URL: pgtest.NewDatabase(b)})
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				if collation != "C" {
					if _, err := db.pool.Exec(ctx, `ALTER TABLE notices ALTER COLUMN queue TYPE text COLLATE "`+collation+`"`); err != nil {
						b.Fatal(err)
					}
				}
				now := time.Now().UTC().Truncate(time.Second)
				ns := storagetest.OutboxBacklog(size, false, now)
				for k := range tournaments {
					m := storage.MatchID(size + k + 1) // no match of the backlog
					ns = append(ns,
						storage.Notice{ID: uint64(len(ns) + 1), Match: m, Event: storage.EventAbandoned, To: storage.AudiencePublic, At: now, NextTry: now},
						storage.Notice{ID: uint64(len(ns) + 2), Tournament: storage.TournamentID(size + k + 1), Event: storage.EventRoundClosed,
							To: storage.AudiencePublic, At: now, NextTry: now, Until: []storage.MatchID{m}})
				}
				var rows [][]any
				for _, n := range ns {
					data, err := storage.EncodeNotice(&n)
					if err != nil {
						b.Fatal(err)
					}
					rows = append(rows, []any{int64(n.ID), storage.NoticeQueue(&n), n.NextTry, data})
				}
				if _, err := db.pool.CopyFrom(ctx, pgx.Identifier{"notices"}, []string{"id", "queue", "next_try", "record"}, pgx.CopyFromRows(rows)); err != nil {
					b.Fatal(err)
				}
				if _, err := db.pool.Exec(ctx, "ANALYZE notices"); err != nil {
					b.Fatal(err)
				}
				plan, err := explain(ctx, db, untilHeads)
				if err != nil {
					b.Fatal(err)
				}
				b.Logf("%s, %d notices: %s", collation, len(ns), plan)
				if strings.Contains(plan, "Seq Scan on notices n ") || !strings.Contains(plan, "Index Scan on notices_queue") && !strings.Contains(plan, "Index Scan using notices_queue on notices n ") {
					b.Fatalf("the tournaments' heads are not found by the index notices_queue:\n%s", plan)
				}
				var heads int
				if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM (`+untilHeads+`) x`).Scan(&heads); err != nil || heads != tournaments {
					b.Fatalf("%d heads waiting (%v), want %d", heads, err, tournaments)
				}
				b.Run("NextNotice", func(b *testing.B) {
					for b.Loop() {
						if _, ok, err := db.NextNotice(ctx); err != nil || !ok {
							b.Fatal(ok, err)
						}
					}
				})
			})
		}
	}
}

// explain returns the plan PostgreSQL runs query by, with what it read.
func explain(ctx context.Context, db *DB, query string) (string, error) {
	rows, err := db.pool.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) "+query)
	if err != nil {
		return "", err
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return "\n" + strings.Join(lines, "\n"), err
}
