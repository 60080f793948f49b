package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/storage"
)

// Lead takes or renews the lease name for holder until at+ttl, and reports
// whether holder has it: it does when nobody held it, when holder already
// did, or when the last holder's lease expired by at. One statement, so two
// processes asking at once get one answer each.
func (db *DB) Lead(ctx context.Context, name, holder string, at time.Time, ttl time.Duration) (bool, error) {
	if name == "" || holder == "" || ttl <= 0 {
		return false, fmt.Errorf("a lease needs a name, a holder and a time: %w", storage.ErrInvalid)
	}
	// To the microsecond, as a timestamptz keeps it: at.Add(ttl) as it is
	// would be cut down to one, and a lease taken up to a microsecond
	// before its holder's end.
	now, until := storage.LeaseTimes(at, ttl)
	var got string
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		got = ""
		err := tx.QueryRow(ctx, `INSERT INTO leases (name, holder, expires) VALUES ($1, $2, $3)
			ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires = EXCLUDED.expires
			WHERE leases.holder = EXCLUDED.holder OR leases.expires <= $4
			RETURNING holder`, name, holder, until, now).Scan(&got)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // held by another, not expired
		}
		return query("lead "+name, err)
	})
	if err != nil {
		return false, err
	}
	return got == holder, nil
}
