// Package storage keeps everything the bot must remember across restarts and
// crashes: matches, challenges, per-player settings and per-server standings.
// It is the only place state lives. The bot talks to the Store interface; DB
// is its implementation on one bbolt file (go.etcd.io/bbolt), which needs no
// set-up: Open creates the file on first use. Package storage/postgres is the
// other, on a PostgreSQL server that several processes share. Both share what
// is exported for backends (backend.go): the records' encoding, the rules of
// each change (Changes, PrepareSave), the notices each change owes and the
// clock that waits for them (PrepareSave, Changes.StartClock), and the ratings
// (Rate), so that they keep the same truth and the same rules and differ only
// in loading and writing.
//
// # The path of one move
//
// ApplyMove is one bbolt update transaction: load the match, check its version
// (ErrStale when the caller looked at an older one), rebuild the game by
// replaying the match's log, let the game package check and apply the move
// (its errors pass through, and their text is safe to show the mover), append
// the move to the log, set the next deadline or the result, count a finished
// match in the standings, bump the version, and update the indexes. A second
// attempt at the same move sees the new version (ErrStale) or, without a
// version, that the turn has passed (ErrNotYourTurn). Nothing is changed by a
// refused attempt. Time always comes from the caller, never from a hidden
// clock, so the bot's timers can be tested with a fake one.
//
// Writes from many goroutines are committed together: a single writer takes
// all changes waiting when the previous commit ends and commits them in one
// transaction (group commit), so one fsync serves many moves without delaying
// a lone one. A change is acknowledged only after its commit is on disk.
//
// # The log is the truth
//
// A Match holds the rules, the two confirmed set-ups and an ordered log of
// actions with their times: moves, draw offers and answers, resignation and
// time-out, and what players do to the time: gifts of time, pauses by
// agreement and vacations. Match.Game rebuilds the game by replaying the log
// (a 300-move game takes tens of microseconds); the time actions leave the
// game as it is, and what they mean for the clock (PausedUntil,
// VacationUntil, TurnTime) is read from the log, so it is the same on every
// backend and after any restart. The stored Result and Phase exist for
// queries; every save checks that they equal the replay's.
//
// # The outbox
//
// A stored move whose messages never arrive is, to the player, a lost move. So
// every change records, in its own transaction, the notices it owes: who must
// be told (a player by DM, or the match's channel), of what (an Event), and of
// which state (the log's length then), but never the rendered text or
// pictures. Notices (which PrepareSave calls for every backend) is the one
// table of who is told what. The bot's delivery loop takes the due notices (DueNotices),
// renders each from the stored match, sends it, and marks it done
// (NoticeDone) or to be retried later (NoticeRetry); a notice sent in several
// messages records its progress (NoticeProgress), so that a crash between two
// messages resends only the rest. Notices to one audience of one match wait in
// one queue and go out in order; only a queue's oldest is ever due. Done
// notices are deleted, so the outbox holds only what is still owed.
//
// The side to move is not on the clock before it has been told: a new turn's
// notice StartsClock, the match is ClockPending until it is done (delivered,
// or given up), no reminder or time-out is due meanwhile, and NoticeDone sets
// the deadline from the moment it was done: the bot calls it when Discord has
// answered the last part, so the time a send takes is not the player's. A
// draw offer or another action within the turn keeps the clock waiting. That
// change does not bump the match's version, so the menus the player was just
// sent stay valid.
//
// # Secrets
//
// Every match holds a Secret of 32 bytes from crypto/rand, drawn by the store
// when the match is made (CreateMatch, AcceptChallenge) and kept only here.
// The bot derives from it the seed of each secret random choice (the
// computer's set-up and moves, a Random set-up), so that nothing a member can
// see (match numbers, versions, times) predicts them, while a match still
// replays the same way from its record. A Secret prints as "Secret(hidden)".
//
// # Encoding
//
// Records are JSON, one bbolt value per record, each with a "v" field giving
// the version of its format:
//   - readable: `bbolt get FILE matches KEY` shows a match a person can read,
//     moves in the game's own notation, set-ups as 40 characters;
//   - compact: the log is one string of "MOVE+SECONDS" tokens, seconds counted
//     from the previous action ("B4B5+40 G7G6+3600 offer:R+12"), set-ups are 40
//     letters (2–9, X for the Marshal, S, I, B, F, "." for an empty square),
//     times are unix seconds; a finished 300-move Classic game is about 3.5 KB;
//   - forward-compatible: readers ignore unknown fields, so a newer minor
//     version may add fields old code skips; options are named so that their
//     zero value is the old behaviour; a record or file newer than this program
//     knows is refused (ErrNewerSchema) rather than misread.
//
// gob was rejected as unreadable and tied to Go types, protocol buffers as a
// code generator and a schema compiler for little gain in size: the log string
// is most of a record, and it is already near the entropy of its moves and times.
//
// Decoding JSON is not free, and a move reads its match several times (the
// move, then each of its notices) and the players' settings once per notice,
// and the outbox reads a notice when it looks for due ones and again as it
// records each part delivered. The database keeps the matches, settings and
// notices it read last decoded (decodedCache) and hands out copies; an entry
// is used only while the stored bytes are the ones it was decoded from, so it
// is never stale.
//
// # Buckets and indexes
//
// Records live in the buckets matches, challenges (keyed by big-endian
// sequence numbers, which are also the short ids shown in Discord), players
// and standings. Indexes are buckets of keys with empty values, written in the
// same transaction as the record: idx_player (user, state, match id) and
// idx_channel (channel or thread, state, match id), where the state separates
// active matches from ended ones so that a player's running games are listed
// without walking their history; idx_timer (big-endian unix time, kind, id) for
// match deadlines, reminders and challenge expiries, so that NextDeadline is
// the first key and DueDeadlines a walk that stops at the first future one;
// idx_challenge (user or channel, challenge id) for pending challenges.
//
// # Ratings: Glicko-2
//
// Each server keeps, per variant, every player's wins, losses, draws and a
// Glicko-2 rating (Glickman, "Example of the Glicko-2 system", 2012). Glicko-2
// over Elo because Discord players are sporadic: a rating deviation says how
// sure the rating is, grows while a player is away (one rating period without
// games per RatingPeriod idle, Glickman's step for inactive players) and
// shrinks as they play, so a returning or new player's rating moves fast and a
// regular's settles; Elo has one fixed K for everyone. Each game is its own
// rating period, rated from both players' ratings before it. A match is counted
// in the same transaction that finishes it, guarded by Match.RatingApplied, so
// two events ending a match at once count it once. Casual matches and matches
// outside a server are not rated.
//
// # Files: versions, locks, damage, backups
//
// The meta bucket holds the file's schema version. Open migrates an older file
// forward one version per transaction, after keeping a copy of it beside the
// file (PATH.schema-vN.bak); each migration is tested against a committed
// fixture of the old format (testdata). A second process opening the file
// gets ErrInUse ("database PATH is in use by another process") after
// Options.Timeout instead of waiting. A damaged, truncated, empty or foreign
// file gives ErrCorrupt and is left exactly as it was; a new database is built
// beside its path and linked into place whole. Backups are consistent copies
// made by a read transaction while the bot runs (Options.BackupDir,
// BackupEvery, BackupKeep), and BackupFile copies the file of a stopped bot.
//
// # Hidden information
//
// A match record holds both set-ups. No error text or log line of this package
// shows a set-up's contents; the one exception is the *game.SetupError that
// SetSetup returns to the player who submitted that set-up.
//
// # Conformance
//
// The storagetest package is the Store's conformance suite; both backends run
// it unchanged, and the same ApplyMove benchmark (storagetest.BenchmarkApplyMove).
package storage
