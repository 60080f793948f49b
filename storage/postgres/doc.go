// Package postgres is the storage.Store on a PostgreSQL server, for a bot that
// outgrows one process: any number of processes may share one database, and
// operators back it up with the tools they already use. The bbolt file
// (package storage/bolt) stays the default; cmd/strategobot chooses this backend
// for a database setting of postgres://… (Open takes any pgx connection string).
//
// # One truth, two backends
//
// Records are storage's own encoding (storage.EncodeMatch and friends): a
// match is one JSON record whose log is the compact string of the bbolt
// backend ("B4B5+40 G7G6+3600 offer:R+12"), kept in a jsonb column, so that
// `SELECT record->>'log' FROM matches WHERE id = 42` reads it. The rules of
// every change (storage.Changes), the checks before a save
// (storage.PrepareSave, which also says which notices a change owes) and the
// ratings (storage.Rate) are storage's too; this package only loads, locks
// and writes rows. Both backends pass the same conformance suite
// (storagetest), so they record exactly the same notices.
//
// # Tables
//
// matches, challenges, players and notices hold one record per row; the
// other columns are the record's indexes, written from it in the same
// statement: players (red_id, blue_id), channel and thread, active or ended,
// the next timer (wake_at, wake_kind), the end of a player's last vacation
// (vacation_end), a notice's queue and next_try; a
// tournament's wake, which Open sets anew where it disagrees with the
// tournament, so that a newer rule of when a tournament wakes reaches those
// an older version stored. standings is plain columns, since its table is sorted
// by rating in SQL. Ids come from sequences: a refused creation may skip a
// number. The schema is the numbered files of migrations/ (see Migrations).
//
// # The path of one move
//
// ApplyMove is one transaction on one connection of the pool: SELECT the
// match FOR UPDATE (a second change to the same match, from this process or
// another, waits here until the first commits, then sees its version), check
// the version (storage.ErrStale), replay and apply the move
// (storage.Changes), and UPDATE the row WHERE id = $1 AND version = $old. A
// move that finishes a rated match also locks both players' standings rows,
// in the order of their user ids, and updates them in the same transaction:
// it is counted exactly once. Nothing is decided in memory, so the races of
// two processes are those of two goroutines. A transaction that PostgreSQL
// aborts to break a deadlock is run again.
//
// The move's notices (storage.PrepareSave says which) are inserted in the same
// transaction, numbered while the match's row is locked.
//
// What a member starts within limits (storage.MemberLimits: a challenge, a
// practice match) has no row to lock before it exists: its transaction
// takes advisory locks of the members concerned (the challenger and the
// member challenged), in the order of their user ids, then counts what
// they have and writes. The same member's next start, in any process,
// waits for the lock and counts the row written. Every transaction that
// writes asks for READ COMMITTED, whatever the database's
// default_transaction_isolation (and not as a setting of the connection,
// which PgBouncer refuses): a count's statement sees what was committed
// before it began, after the lock was granted, where a REPEATABLE READ
// snapshot would be older.
//
// # The outbox
//
// notices holds one row per notice still owed: its record, its queue
// ("m42/red": one match's or challenge's audience) and its next_try, indexed
// by (queue, id) and by (next_try, id). Only a queue's oldest notice is ever
// due: DueNotices and NextNotice choose, in one statement and so from one
// snapshot, the rows whose id is the minimum of their queue, and of those
// DueNotices takes the ones whose next_try has come. A queue's notices are
// numbered by the transaction that holds its match's row lock (the change
// that owes them, or NoticeDone recording a follow-up), so ids are in commit
// order within a queue: no process sees a later notice before an earlier one
// is committed. NoticeDone deletes the row (of two processes marking one
// notice, the second finds nothing), locks the match and, for a notice that
// StartsClock, writes the match with its clock started and the same version
// (storage.Changes.StartClock). The outbox holds only what is still owed.
//
// Commits are as durable as the server makes them (fsync and
// synchronous_commit on, its defaults), and concurrent commits share the
// server's WAL flushes: the pool has DefaultMaxConns connections unless the
// URL sets pool_max_conns.
//
// # Migrations
//
// Open applies the migrations a database lacks, one transaction each, each
// taking an advisory lock first: of processes starting at once, one migrates
// and the others wait and find the work done. The table schema_migrations
// records each version applied. A database migrated by a newer program is
// refused with storage.ErrNewerSchema and left as it is. A released
// migration never changes; the next change to the schema is the next file.
// Opened ReadOnly (strategobot copydb's source, which a bot of another
// version may run on), a database is neither migrated nor written, and one
// of an older schema is refused (ErrOlderSchema).
//
// # Hidden information
//
// Records hold both set-ups, saved set-ups and match secrets: a database
// dump is as secret as the bbolt file. No error of this package shows a
// record, and a connection string is shown only without its password
// (Redacted).
package postgres
