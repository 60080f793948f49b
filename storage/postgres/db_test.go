package postgres

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/internal/pgtest"
)

// TestDeadlockIsRetried makes two transactions lock two rows in opposite
// orders: PostgreSQL aborts one to break the deadlock, and inTx runs it
// again, so that both succeed.
func TestDeadlockIsRetried(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, Options{URL: pgtest.NewDatabase(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.pool.Exec(ctx, "CREATE TABLE pair (id int PRIMARY KEY); INSERT INTO pair VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}
	var runs atomic.Int32
	var bothHoldOne sync.WaitGroup
	bothHoldOne.Add(2)
	lock := func(first, second int) error {
		once := sync.OnceFunc(func() { bothHoldOne.Done(); bothHoldOne.Wait() })
		return db.inTx(ctx, func(tx pgx.Tx) error {
			runs.Add(1)
			if _, err := tx.Exec(ctx, "SELECT id FROM pair WHERE id = $1 FOR UPDATE", first); err != nil {
				return err
			}
			once() // the first run waits until the other transaction holds its row too
			_, err := tx.Exec(ctx, "SELECT id FROM pair WHERE id = $1 FOR UPDATE", second)
			return err
		})
	}
	errs := make(chan error, 2)
	go func() { errs <- lock(1, 2) }()
	go func() { errs <- lock(2, 1) }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// Usually one of the two is aborted; when both backends' deadlock checks
	// fire at once, both are, and both run again.
	if n := runs.Load(); n < 3 {
		t.Errorf("%d runs, want at least 3: one aborted and run again", n)
	}
}
