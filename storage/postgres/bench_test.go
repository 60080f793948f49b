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
// notices: matches' queues four notices long, and every 100th a
// tournament's announcement that waits for a match's channel
// (Notice.After). "new" is a backlog recorded and never tried, due in the
// order of its ids; "retried" one whose queues' oldest notices all failed
// and wait an hour (Discord down), the notices behind them due long ago:
// none is due, and the order of next_try meets every waiting notice before
// a queue's oldest, the worst case of both.
func BenchmarkOutbox(b *testing.B) {
	for _, size := range []int{16_000, 200_000} {
		for _, shape := range []string{"new", "retried"} {
			b.Run(fmt.Sprintf("%s-%d", shape, size), func(b *testing.B) {
				ctx := context.Background()
				url := pgtest.NewDatabase(b)
				db := openURL(b, url)
				now := time.Now().UTC().Truncate(time.Second)
				var rows [][]any
				for i := range size {
					n := storage.Notice{ID: uint64(i + 1), Match: storage.MatchID(i/4 + 1), Event: storage.EventMove, To: storage.AudienceRed,
						Log: i%4 + 1, At: now.Add(time.Duration(i-size) * time.Second)}
					if i%100 == 99 {
						n = storage.Notice{ID: uint64(i + 1), Tournament: storage.TournamentID(i/1000 + 1), Event: storage.EventRoundPaired,
							To: storage.AudiencePublic, Log: i / 100, At: n.At, After: n.Match}
					}
					n.NextTry = n.At
					if shape == "retried" && (i%4 == 0 || i%1000 == 99) { // the oldest of a match's or tournament's queue
						n.NextTry, n.Attempts = now.Add(time.Hour), 1
					}
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
			})
		}
	}
}
