package bolt

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// TestTransactionPanicKeepsSecrets: a panic of the code a transaction runs
// (a match's replay, say) becomes ErrCorrupt, whose text the bot logs: it
// says where the panic happened, not the value, which may hold a match's
// secrets.
func TestTransactionPanicKeepsSecrets(t *testing.T) {
	bdb, err := bbolt.Open(filepath.Join(t.TempDir(), "panic.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	sq := game.SquareAt(4, 6) // E7, 64
	for name, run := range map[string]func(func(*bbolt.Tx) error) error{
		"update": func(fn func(*bbolt.Tx) error) error { return safeUpdate(bdb, fn) },
		"view":   func(fn func(*bbolt.Tx) error) error { return safeView(bdb, fn) },
	} {
		for _, f := range []func(*bbolt.Tx) error{
			func(*bbolt.Tx) error { panic(fmt.Sprintf("the Flag on %s", sq)) },
			func(*bbolt.Tx) error { _ = make([]game.Rank, 40)[sq]; return nil },
		} {
			err := run(f)
			if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "TestTransactionPanicKeepsSecrets") {
				t.Errorf("%s: %v, want ErrCorrupt with where it panicked", name, err)
			}
			if strings.Contains(err.Error(), "Flag") || strings.Contains(err.Error(), "E7") || strings.Contains(err.Error(), "[64]") {
				t.Errorf("%s: %v: the error holds the panic's value", name, err)
			}
		}
	}
}
