package postgres_test

import (
	"context"
	"testing"

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
