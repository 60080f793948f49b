package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/strategobot/strategobot/storage"
)

// settingsTable is a table of settings kept one record a row under an id
// that Discord gives (players by user id, servers by guild id): read as the
// defaults while there is no row, and changed on the locked row, made of
// the defaults first, so that two first changes at once are made one after
// the other.
type settingsTable[T any] struct {
	table, key string // the table and its key column
	what       string // the record, in errors: "player"
	id         string // the id, in errors: "user"
	// blank is the defaults of an id never seen.
	blank func(id string) *T
	// version is a record's version, which prepare sets to the next one
	// with storage's rules of a change (storage.PreparePlayer).
	version func(*T) uint64
	prepare func(t *T, id string, version uint64) error
	encode  func(*T) ([]byte, error)
	decode  func([]byte) (*T, error)
	// columns are kept beside the record, read from it by values, in order.
	columns []string
	values  func(*T) []any
}

// scan reads a record; found is false when there is none.
func (s *settingsTable[T]) scan(row pgx.Row) (t *T, found bool, err error) {
	var data []byte
	if err := row.Scan(&data); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, false, nil
		}
		return nil, false, query(s.what, err)
	}
	t, err = s.decode(data)
	return t, err == nil, err
}

// get returns the settings of id, the defaults while it has none.
func (s *settingsTable[T]) get(ctx context.Context, db *DB, id string) (*T, error) {
	if id == "" {
		return nil, fmt.Errorf("no %s id: %w", s.id, storage.ErrInvalid)
	}
	if err := db.ready(ctx); err != nil {
		return nil, err
	}
	t, found, err := s.scan(db.pool.QueryRow(ctx, "SELECT record FROM "+s.table+" WHERE "+s.key+" = $1", id))
	if err != nil {
		return nil, db.fail(err)
	}
	if !found {
		return s.blank(id), nil
	}
	return t, nil
}

// update changes the settings of id with fn in one transaction, on the
// locked row.
func (s *settingsTable[T]) update(ctx context.Context, db *DB, id string, fn func(*T) error) (*T, error) {
	if id == "" {
		return nil, fmt.Errorf("no %s id: %w", s.id, storage.ErrInvalid)
	}
	lock := "SELECT record FROM " + s.table + " WHERE " + s.key + " = $1 FOR UPDATE"
	create := "INSERT INTO " + s.table + " (" + s.key + ", version, record) VALUES ($1, 0, $2) ON CONFLICT DO NOTHING"
	set := []string{"version = $2", "record = $3"}
	for i, c := range s.columns {
		set = append(set, fmt.Sprintf("%s = $%d", c, i+4))
	}
	write := "UPDATE " + s.table + " SET " + strings.Join(set, ", ") + " WHERE " + s.key + " = $1"
	var out *T
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out = nil
		t, found, err := s.scan(tx.QueryRow(ctx, lock, id))
		if err != nil {
			return err
		}
		if !found {
			data, err := s.encode(s.blank(id))
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, create, id, data); err != nil {
				return query("create "+s.what, err)
			}
			if t, _, err = s.scan(tx.QueryRow(ctx, lock, id)); err != nil {
				return err
			}
		}
		version := s.version(t)
		if err := fn(t); err != nil {
			return err
		}
		if err := s.prepare(t, id, version); err != nil {
			return err
		}
		data, err := s.encode(t)
		if err != nil {
			return err
		}
		args := []any{id, int64(s.version(t)), data}
		if s.values != nil {
			args = append(args, s.values(t)...)
		}
		if _, err := tx.Exec(ctx, write, args...); err != nil {
			return query("update "+s.what, err)
		}
		out = t
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
