package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// BenchmarkApplyMove measures committed moves per second with the code of the
// bbolt backend's benchmark. Under -bench the throwaway server runs with fsync
// on and commits wait for the disk (synchronous_commit on), as bbolt's do; the
// server's settings are logged, since a server named by STRATEGOBOT_TEST_POSTGRES
// may differ.
func BenchmarkApplyMove(b *testing.B) {
	storagetest.BenchmarkApplyMove(b, func(b *testing.B) storage.Store {
		url := pgtest.NewDatabase(b)
		db := openURL(b, url)
		conn, err := pgx.Connect(context.Background(), url)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close(context.Background())
		var fsync, syncCommit string
		if err := conn.QueryRow(context.Background(), "SELECT current_setting('fsync'), current_setting('synchronous_commit')").Scan(&fsync, &syncCommit); err != nil {
			b.Fatal(err)
		}
		b.Logf("server: fsync %s, synchronous_commit %s", fsync, syncCommit)
		return db
	})
}

// BenchmarkOutbox measures NextNotice and DueNotices over a backlog of
// notices (storagetest.OutboxBacklog, "new" and "retried"), and what the
// outbox's depth costs a scrape (storagetest.BenchmarkOutboxDepth). In
// "retried" none is due, and the order of next_try meets every waiting
// notice before a queue's oldest, the worst case of both.
func BenchmarkOutbox(b *testing.B) {
	for _, size := range []int{16_000, 200_000} {
		for _, shape := range []string{"new", "retried"} {
			b.Run(fmt.Sprintf("%s-%d", shape, size), func(b *testing.B) {
				ctx := context.Background()
				url := pgtest.NewDatabase(b)
				db := openURL(b, url)
				now := time.Now().UTC().Truncate(time.Second)
				var rows [][]any
				for _, n := range storagetest.OutboxBacklog(size, shape == "retried", now) {
					data, err := storage.EncodeNotice(&n)
					if err != nil {
						b.Fatal(err)
					}
					rows = append(rows, []any{int64(n.ID), storage.NoticeQueue(&n), n.NextTry, data})
				}
				pool := pgtest.Pool(b, url)
				if _, err := pool.CopyFrom(ctx, pgx.Identifier{"notices"}, []string{"id", "queue", "next_try", "record"}, pgx.CopyFromRows(rows)); err != nil {
					b.Fatal(err)
				}
				if _, err := pool.Exec(ctx, "ANALYZE notices"); err != nil {
					b.Fatal(err)
				}
				b.Run("NextNotice", func(b *testing.B) {
					for b.Loop() {
						if _, ok, err := db.NextNotice(ctx); err != nil || !ok {
							b.Fatal(ok, err)
						}
					}
				})
				b.Run("DueNotices", func(b *testing.B) {
					for b.Loop() {
						if due, err := db.DueNotices(ctx, now, 32); err != nil || len(due) == 0 && shape == "new" {
							b.Fatal(len(due), err)
						}
					}
				})
				storagetest.BenchmarkOutboxDepth(b, db, size)
			})
		}
	}
}
