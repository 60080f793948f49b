package bolt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// schemaVersion is the version of the file format this program writes. Each
// step of migrations brings a file from one version to the next.
const schemaVersion = 8

// migration brings a file from version from to from+1, inside one transaction.
type migration struct {
	from int
	what string
	run  func(tx *bbolt.Tx) error
}

// migrations lists every step, in order: migrations()[i].from == i+1.
func migrations() []migration {
	return []migration{
		{from: 1, what: `player settings: "numbering" replaces the boolean "classic"`, run: migratePlayersV1},
		{from: 2, what: `matches: each gets a "secret" that seeds its secret random choices`, run: migrateMatchSecrets},
		{from: 3, what: `servers: a bucket for each server's settings (made with every bucket a step adds)`, run: func(*bbolt.Tx) error { return nil }},
		{from: 4, what: `leases: a bucket for the lease of the timers and the outbox`, run: func(*bbolt.Tx) error { return nil }},
		{from: 5, what: `followers: a bucket for the members who follow a match by DM`, run: func(*bbolt.Tx) error { return nil }},
		{from: 6, what: `tournaments: buckets for tournaments and their indexes`, run: func(*bbolt.Tx) error { return nil }},
		{from: 7, what: `vacations: an index of the players by the end of their last vacation`, run: migrateVacationIndex},
	}
}

// migrate brings the open file from schema version from to schemaVersion. A
// copy of the old file is kept beside it first (PATH.schema-vN.bak), and each
// step is one transaction, so a crash leaves the file at a whole version.
func (db *DB) migrate(from int) error {
	backup := fmt.Sprintf("%s.schema-v%d.bak", db.opts.Path, from)
	if err := keepBeforeMigrating(db.bdb, backup); err != nil {
		if errors.Is(err, fs.ErrPermission) {
			dir := filepath.Dir(db.opts.Path)
			return placeError{fmt.Sprintf("database %s: before migrating it from schema %d the bot keeps a copy beside it, %s, "+
				"and this user may not create files in %s: give it write access there, or move the database to a folder it may write in; "+
				"the file was left as it was", db.opts.Path, from, filepath.Base(backup), folderName(dir)), fs.ErrPermission}
		}
		return fmt.Errorf("database %s: keep a copy before migrating, and left the file as it was: %w", db.opts.Path, err)
	}
	for _, m := range migrations()[from-1:] {
		err := safeUpdate(db.bdb, func(tx *bbolt.Tx) error {
			for _, name := range allBuckets { // a later schema may add buckets
				if _, err := tx.CreateBucketIfNotExists(name); err != nil {
					return err
				}
			}
			if err := m.run(tx); err != nil {
				return err
			}
			return tx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(m.from+1)))
		})
		if err != nil {
			return fmt.Errorf("database %s: migrate schema %d to %d (%s): %w", db.opts.Path, m.from, m.from+1, m.what, err)
		}
		db.opts.Logger.Info("database migrated", "path", db.opts.Path, "from", m.from, "to", m.from+1, "what", m.what, "backup", backup)
	}
	return nil
}

// keepBeforeMigrating writes the copy of the file kept before a migration
// to path as a backup is written: beside it first, synced, then renamed
// into place, so that path holds a whole copy or nothing of this attempt
// (a disk that fills up leaves no truncated copy to be put back), and the
// copy is on disk before the migration's first commit.
//
// The temporary files of an earlier attempt that died before its rename
// (the bot killed, the machine down) are removed first: each is as big as
// the database, and no process but this one, which holds the file's lock,
// writes them.
func keepBeforeMigrating(bdb *bbolt.DB, path string) error {
	if dead, err := filepath.Glob(filepath.Join(filepath.Dir(path), "."+globEscape(filepath.Base(path))+".tmp-*")); err == nil {
		for _, f := range dead {
			_ = os.Remove(f)
		}
	}
	return writeFileAtomic(path, func(f *os.File) error {
		return safeView(bdb, func(tx *bbolt.Tx) error {
			_, err := tx.WriteTo(f)
			return err
		})
	})
}

// globEscape quotes the characters filepath.Match treats as a pattern.
func globEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(s)
}

// migratePlayersV1 rewrites the player records of format 1 in format 2.
func migratePlayersV1(tx *bbolt.Tx) error { return upgradeRecords(tx, bucketPlayers, "player", 2) }

// migrateMatchSecrets gives every match stored before secrets existed its own,
// so that a practice game in progress stops seeding the computer from its
// match number.
func migrateMatchSecrets(tx *bbolt.Tx) error { return upgradeRecords(tx, bucketMatches, "match", 2) }

// migrateVacationIndex indexes every player who took a vacation by the end
// of their last one (vacationKey). A record that cannot be read (damaged,
// or written by a newer strategobot) holds up no other, nor the file's
// opening: it is indexed by the vacations it lists, if it lists them as
// this program writes them, as PostgreSQL's migration indexes every record
// in SQL, and else not at all.
func migrateVacationIndex(tx *bbolt.Tx) error {
	b := tx.Bucket(bucketVacations)
	return tx.Bucket(bucketPlayers).ForEach(func(k, v []byte) error {
		p, err := storage.DecodePlayer(v)
		if err != nil {
			var listed struct {
				Vacations [][2]int64 `json:"vacations"`
			}
			if json.Unmarshal(v, &listed) != nil {
				return nil
			}
			p = &storage.PlayerSettings{UserID: string(k)}
			for _, vac := range listed.Vacations {
				p.Vacations = append(p.Vacations, storage.Vacation{Start: time.Unix(vac[0], 0).UTC(), End: time.Unix(vac[1], 0).UTC()})
			}
		}
		if key := vacationKey(p); key != nil {
			return b.Put(key, nil)
		}
		return nil
	})
}

// upgradeRecords rewrites every record of a bucket older than format version
// to in that format (storage.UpgradeRecord), checking that none is newer than
// this program knows.
func upgradeRecords(tx *bbolt.Tx, bucket []byte, kind string, to int) error {
	b := tx.Bucket(bucket)
	type kv struct{ k, v []byte }
	var changed []kv // bbolt forbids writes while its cursor walks the bucket
	err := b.ForEach(func(k, v []byte) error {
		nv, err := storage.UpgradeRecord(kind, v, to)
		if err != nil {
			return fmt.Errorf("%s %q: %w", kind, k, err)
		}
		if nv != nil {
			changed = append(changed, kv{append([]byte(nil), k...), nv})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range changed {
		if err := b.Put(c.k, c.v); err != nil {
			return err
		}
	}
	return nil
}
