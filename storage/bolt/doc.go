// Package bolt is the storage.Store on one bbolt file (go.etcd.io/bbolt): the
// default backend, for a bot that runs as one process. It needs no set-up:
// Open creates the file on first use. Package storage holds the contract and
// everything both backends share (the records' encoding, the rules of each
// change, the notices it owes, the ratings); this package only loads, locks
// and writes records, in buckets of one file. storage/postgres is the other
// backend; both pass the same conformance suite (storagetest).
//
// # Transactions and group commit
//
// Every change is one bbolt update transaction: ApplyMove loads the match,
// checks its version (storage.CheckVersion), applies the move
// (storage.Changes), prepares the save (storage.PrepareSave), counts a
// finished match in the standings, records the notices the change owes in
// the outbox, and writes the record and its index entries. bbolt has one
// writer at a time, so nothing else locks.
//
// Writes from many goroutines are committed together: a single writer takes
// all changes waiting when the previous commit ends and commits them in one
// transaction (group commit), so one fsync serves many moves without delaying
// a lone one. A change is acknowledged only after its commit is on disk. When
// one change of a batch fails, the batch is rolled back and each change runs
// again alone, so that a failure never takes another change with it; a
// change may therefore run more than once, and must check everything before
// it writes anything (see writer.go).
//
// # Buckets and keys
//
// Records live in the buckets matches and challenges (keyed by big-endian
// sequence numbers, which are also the short ids shown in Discord), players
// and servers (keyed by Discord id), and standings (guild 0 variant user).
// Each value is one storage record, JSON, as storage encodes it, so
// `bbolt get FILE matches KEY` shows a match a person can read. Indexes are
// buckets of keys with empty values, written in the same transaction as the
// record: idx_player (user, state, match id) and idx_channel (channel or
// thread, state, match id), where the state separates active matches from
// ended ones so that a player's running games are listed without walking
// their history; idx_timer (big-endian unix time, kind, id) for match
// deadlines, reminders and challenge expiries, so that NextDeadline is the
// first key and DueDeadlines a walk that stops at the first future one;
// idx_challenge (user or channel, challenge id) for pending challenges;
// idx_tournament_wake (unix time, id) for the tournaments' timers, which
// Open rewrites where they disagree with the tournaments, so that a newer
// rule of when a tournament wakes reaches those an older version stored;
// idx_vacation (big-endian unix time, user) for the end of each player's
// last vacation, so that the players on vacation are a walk from a time;
// and, holding a value, idx_seek_expiry (guild, user → big-endian unix
// time), each seek's expiry beside its record in seeks, so that a seek
// whose record cannot be read expires all the same. In a key of several parts, a name or Discord id is followed by a 0 byte
// (Discord ids hold none).
//
// The outbox is the bucket outbox (notice id → notice record) and two
// indexes: idx_outbox_queue lists notices by queue (one match's or
// challenge's audience, storage.NoticeQueue) and id, so the oldest of a queue
// is its first key; idx_outbox_due lists only the queue heads, by the time
// they may next be tried: the next one due is its first key, and a later
// notice of a queue cannot overtake an earlier one that waits to be retried.
//
// followers holds a key per follower of a match (match id, user id) beside
// the match, not in it, so that following never changes the match's version;
// leases holds each lease's expiry and holder (one process opens a file, so
// leases matter only to tests and tools); meta holds the file's schema
// version.
//
// Decoding JSON is not free, and records are read again: a match by each
// transaction that changes it (the move, then the clock's start when its
// board arrives, reminders, time-outs) and by the lists of a member's
// matches, a player's settings once per change, and a notice when the
// outbox looks for due ones and again as it records each part delivered (a
// move's notices themselves are composed from one snapshot in the bot, and
// read no match). The database keeps the matches, settings and notices it
// read last decoded (decodedCache) and hands out copies; an entry is used
// only while the stored bytes are the ones it was decoded from, so it is
// never stale.
//
// # Versions: the file and its records
//
// Two versions tell what a file holds. The meta bucket holds the file's
// schema version: which buckets exist and what the records in them are. Each
// record carries the version of its own format in its "v" field (see
// storage, "Encoding"). Open migrates an older file forward one schema
// version per transaction, after keeping a copy of it beside the file
// (PATH.schema-vN.bak, written as a backup is: synced before it takes its
// name, so a copy cut short by a full disk leaves none): a step makes the buckets the new schema has and
// rewrites the records it concerns in their new format
// (storage.UpgradeRecord), so a crash leaves the file at a whole version.
// Each migration is tested against a committed fixture of the old format
// (testdata/schema-v1.db). A file from a newer strategobot is refused with
// storage.ErrNewerSchema and left as it is, and so is, wherever it is met, a
// record newer than this program reads. A released schema step never
// changes; a change of the format is the next step.
//
// # Files: locks, damage, backups
//
// A second process opening the file gets storage.ErrInUse ("database PATH is
// in use by another process") after Options.Timeout instead of waiting. A
// damaged, truncated, empty or foreign file gives storage.ErrCorrupt and is
// left exactly as it was; a new database is built beside its path and linked
// into place whole. Backups are consistent copies made by a read transaction
// while the bot runs (Options.BackupDir, BackupEvery, BackupKeep; a later
// one removes the temporary file of one that died mid-copy; Backups tells
// the bot's metrics the newest and the failures), and BackupFile copies
// the file of a stopped bot.
//
// # Hidden information
//
// The file holds both set-ups of every match, saved set-ups and match
// secrets, and so do its backups and the copies kept before a migration: none
// is fit to share. No error of this package shows a record.
package bolt
