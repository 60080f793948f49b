// Package storage keeps everything the bot must remember across restarts and
// crashes: matches, challenges, per-player settings and per-server standings.
// It is the only place state lives. The bot talks to the Store interface,
// which two backends implement: package storage/bolt on one bbolt file
// (go.etcd.io/bbolt), the default, which needs no set-up; and package
// storage/postgres on a PostgreSQL server that several processes share. This
// package is the contract and what both backends share, exported for them
// (backend.go): the records' encoding, the rules of each change (Changes,
// PrepareSave), the notices each change owes and the clock that waits for
// them (PrepareSave, Changes.StartClock), and the ratings (Rate), so that
// they keep the same truth and the same rules and differ only in loading,
// locking and writing. It imports no database.
//
// # The path of one move
//
// ApplyMove is one update transaction of the backend: load the match, check
// its version (ErrStale when the caller looked at an older one), rebuild the
// game by replaying the match's log, let the game package check and apply
// the move (its errors pass through, and their text is safe to show the
// mover), append the move to the log, set the next deadline or the result,
// count a finished match in the standings, bump the version, and update the
// indexes. A second attempt at the same move sees the new version (ErrStale)
// or, without a version, that the turn has passed (ErrNotYourTurn). Nothing
// is changed by a refused attempt. Time always comes from the caller, never
// from a hidden clock, so the bot's timers can be tested with a fake one.
// A change is acknowledged only once it is committed: on disk (each
// backend's documentation says how its commits are shared among writers).
//
// # The log is the truth
//
// A Match holds the rules, the two confirmed set-ups and an ordered log of
// actions with their times: moves, draw offers and answers, resignation and
// time-out, and what players do to the time: gifts of time, pauses by
// agreement and vacations. Match.Game rebuilds the game by replaying the log
// (a 300-move game takes tens of microseconds), its moves as recorded: the
// repetition rules, which judged each when it was made, do not judge it
// again (their reading may grow stricter, and a match must go on loading).
// The time actions leave the game as it is, and what they mean for the
// clock (PausedUntil, VacationUntil, TurnTime) is read from the log, so it is
// the same on every backend and after any restart. A match in set-up has no
// game yet; its log may hold vacations only, which move the set-up deadline
// and stay in the log when the game begins. The stored Result and Phase exist
// for queries; every save checks that they equal the replay's.
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
// one queue (NoticeQueue) and go out in order; only a queue's oldest is ever
// due. One notice waits across queues: a tournament's announcement of a
// game's result is not due while the notices to that game's channel recorded
// before it (its end, its finale) are owed (Notice.After, NoticeWaitsFor), so
// that the channel reads how the game ended before the standings; and an
// announcement of a round's deadline, of a withdrawal or of a cancel,
// recorded before the bot calls off the games it ended, is not due while
// one of those matches is still on or owes its channel a notice
// (Notice.Until, NoticeWaitsUntil), so that the channel reads each
// call-off first. Neither waits longer than WaitCap from its time
// (WaitEnds), which NextNotice offers: a call-off that never comes, or a
// game's notice that cannot be read, cannot hold the queue for good.
// Done notices are deleted, so the outbox holds only what
// is still owed, which CountNotices counts without reading a record.
//
// The side to move is not on the clock before it has been told: a new turn's
// notice StartsClock, the match is ClockPending until it is done (delivered,
// or given up), no reminder or time-out is due meanwhile, and NoticeDone sets
// the deadline from the moment it was done: the bot calls it when Discord has
// answered the last part (a DM whose answer was lost, with when the gateway
// said it arrived), so the time a send takes is not the player's. A
// draw offer or another action within the turn keeps the clock waiting. That
// change does not bump the match's version, so the menus the player was just
// sent stay valid.
//
// The set-up time waits in the same way for the set-up invites: a new
// match's invites (EventCreated) StartsClock, the match is ClockPending and
// marks the sides whose invite is on its way (InvitePending), no set-up
// reminder or call-off is due meanwhile, and the deadline is provisional.
// StartClock clears a side as its invite is done and keeps when it arrived
// (InviteArrived), and once no side that still owes its set-up waits for
// one, the set-ups are due the move time after that moment (after the later
// of the players' vacations under way): the later invite's arrival starts
// the set-up time, and the arrivals say whose invite that was. A confirmed set-up's
// invite no longer counts (SetSetup may start the clock then): a practice
// match waits for the human's invite only, the computer's set-up being in
// at once. If both set-ups are in before, the game begins as it always
// does. Matches stored before this rule have no invite pending, and their
// set-up time runs from their creation.
//
// Time nobody ran the timers (the bot down, or cut off from Discord's
// gateway, or no process holding the lease) is not the players': the process that runs them records when it
// was alive (Alive), and on its return gives each active match an ActAway,
// which moves its deadline and next reminder on by the part of that time
// its clock ran, outside its pauses and vacations and not before its board
// arrived (ClockStarted: see away.go), and tells
// whoever must act (EventAway). A tournament is given it too, before its
// matches (Tournament.GiveAway, in UpdateTournament): the deadline of a
// round with a game still on, and, while members could still join, the
// join deadline and the start; a round's new deadline is announced
// (EventTourneyAway), and the bot moves its matches' RoundEnds with it.
// Challenges and seeks are not given it: their expiry is no clock anyone
// plays against but the end of an offer that would otherwise outlive the
// wish to play it. As lichess lets a challenge or a seek lapse once its
// maker is gone rather than keep it for their return, they expire when
// due, however long nobody ran the timers: an offer revived hours later
// would start a match its maker may no longer want (asleep, or playing
// elsewhere, their clock running from the acceptance), while the lapse
// costs nobody a result or time: the challenger is told it expired and
// sends it again with one command, a seeker seeks again.
//
// A draw offer or a proposal to pause asks the opponent by a DM with
// buttons. Once it no longer stands (answered, withdrawn, lapsed, or the
// match over), the change owes that player an edit of the DM
// (EventOfferSettled): the bot records the DM's id in the match as it
// delivers it (Match.OfferDMs), and the edit, the same however often it
// is made, takes the buttons away and says what became of the offer.
//
// Followers are members who follow a match by DM without playing it: after
// the channel is told of a change, each of them is sent the same public
// board (AudienceFollower notices, recorded by the bot as it finishes the
// public one). Backends keep them beside the match, not in it, so that
// following never changes the match's version: the players' menus stay valid.
//
// # Queues
//
// A server's queue holds its members' seeks (seek.go), one per member and
// at most MaxSeeks. PlaceSeek reads the queue, lets PlanSeek (shared by the
// backends) pick the oldest compatible seek (of those the bot names in
// Seek.Meets, with the channel both members can see), and removes it and
// makes the match in the same transaction, which bbolt's single writer
// serialises and PostgreSQL under an advisory lock of the server's queue: a
// waiting seek makes one match at most, however many processes place seeks
// at once. A match made in the waiting seek's channel, where no answer to
// the new seek shows it, is announced there by a notice (Match.Announce),
// recorded with it like its set-up invites.
// Expired seeks are left out of lists and dropped by the next PlaceSeek,
// those whose record cannot be read too, by the expiry kept beside it.
//
// # Members' limits
//
// What one member may have open at once (MemberLimits: the challenges
// they made and wait for an answer, one challenge between two members,
// the practice matches they play) is counted and written in one
// transaction (CreateChallenge, CreatePractice), by the rules both
// backends share (AllowChallenge, AllowPractice): bbolt's single writer
// serialises them, PostgreSQL under advisory locks of the members
// concerned, taken in the order of their ids. So a member whose commands
// reach several processes on one database (shards) keeps to the limits,
// which no process's memory could decide. A record of the member's that
// cannot be read counts against the allowance: it may be one of theirs.
//
// # Secrets
//
// Every match holds a Secret of 32 bytes from crypto/rand, drawn by the store
// when the match is made (CreateMatch, AcceptChallenge) and kept only here. The
// bot derives from it the seed of each secret random choice (the computer's
// set-up and moves, a Random set-up, the example in a player's set-up
// template), so that nothing a member can see (match numbers, versions, times)
// predicts them, while a match still replays the same way from its record. A
// Secret prints as "Secret(hidden)".
//
// The web board's links are signed with one key per database (WebKey),
// drawn by the first process that asks and shared by all; a player's links
// also carry their link generation (PlayerSettings.LinkGen), which
// RevokeLinks bumps to refuse every link signed before. bbolt keeps the key
// in its meta bucket, PostgreSQL in the table web_key; backups hold it like
// the rest, and nothing prints it.
//
// # Encoding
//
// Records are JSON (EncodeMatch and friends), one record per match,
// challenge, player, server or notice (and per standing, for a backend that
// keeps standings as records), each with a "v" field giving the version of
// its format; a backend stores them as they are (a bbolt value, a jsonb
// column):
//   - readable: `bbolt get FILE matches KEY` (or `SELECT record FROM matches`)
//     shows a match a person can read, moves in the game's own notation,
//     set-ups as 40 characters;
//   - compact: the log is one string of "MOVE+SECONDS" tokens, seconds counted
//     from the previous action ("B4B5+40 G7G6+3600 offer:R+12"), set-ups are 40
//     letters (2–9, X for the Marshal, S, I, B, F, "." for an empty square),
//     times are unix seconds; a finished 300-move Classic game is about 3.5 KB;
//   - forward-compatible: readers ignore unknown fields, so a newer minor
//     version may add fields old code skips; options are named so that their
//     zero value is the old behaviour; a record newer than this program
//     knows is refused (ErrNewerSchema) rather than misread, and so is a
//     database whose backend's schema is newer.
//
// A record of an older format is still read as it is, and a backend's
// migration rewrites the ones it stored in the new format (UpgradeRecord):
// match records before version 2 had no secret, player records before version
// 2 a boolean "classic" where "numbering" is now.
//
// gob was rejected as unreadable and tied to Go types, protocol buffers as a
// code generator and a schema compiler for little gain in size: the log string
// is most of a record, and it is already near the entropy of its moves and times.
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
// rating period, rated from both players' ratings before it (Rate). A match is
// counted in the same transaction that finishes it, guarded by
// Match.RatingApplied, so two events ending a match at once count it once.
// Casual matches and matches outside a server are not rated.
//
// # Tournaments
//
// A tournament (TournamentStore) is kept as a match is: its rules and the
// log of its events (package tournament), which only grows. Every change
// appends at the version the caller read (UpdateTournament, ErrStale
// otherwise), so of several processes pairing one round at once exactly
// one succeeds. Each match a tournament starts is linked to its round and
// board, and the link is indexed both ways, so that a match's end finds its
// board (MatchTournament). A tournament's one timer (Wake: its start, then
// its round's deadline or the next check that its players are still
// members of the server, whichever comes first; cancelled, the check that
// its games are called off, CallingOff) is indexed like a match's
// (DueTournaments). Each change records the announcements it owes the
// tournament's channel (TournamentNotices) in the outbox, in the same
// transaction and in one queue per tournament, so that they are posted
// once each and in order.
//
// # Errors
//
// Callers test errors with errors.Is against the sentinels of errors.go,
// which every backend returns alike: ErrStale, ErrNotFound and the refusals
// of the rules, and for the database itself ErrInUse (another process holds
// it), ErrCorrupt (damaged, or not a strategobot database, and left as it
// was), ErrNewerSchema and ErrClosed. A list of records that meets some
// it cannot read (damaged, or written by a newer strategobot sharing the
// database) returns the others with an *UnreadableError that names them
// (DueTournaments, ServerTournaments, DueNotices, Seeks, PlayerMatches,
// ChannelMatches, PlayerChallenges, ChannelChallenges), so that one bad
// record holds up no other.
//
// # Hidden information
//
// A match record holds both set-ups. No error text or log line of this package
// or of a backend shows a set-up's contents; the one exception is the
// *game.SetupError that SetSetup returns to the player who submitted that
// set-up.
//
// # Moving a database
//
// Both backends send their whole database, from one snapshot, a record at
// a time into a Sink, and write what a Source sends into an empty
// database as it comes (Dumper, Loader; Copy does both, for strategobot
// copydb), so that a copy holds a bounded part of the database in memory
// however large it is: every record with its id and version, the outbox
// with its ids, followers, the web key, when the bot was last alive and
// the sequences ids are drawn from; indexes are written from the records
// (the board each match plays is sent too, for a match an older version
// let two tournaments link), and leases, which belong to the stopped
// processes of the source, stay behind. PostgreSQL writes the copy in one transaction; bbolt commits it
// by batches and marks the file unfinished until the last, which Open
// refuses (ErrUnfinishedCopy). Each backend's test fails on a bucket or
// table its copy does not name, and storagetest.CopyTest compares all the
// Store shows before and after a copy.
//
// # Conformance
//
// The storagetest package is the Store's conformance suite; both backends run
// it unchanged, and the same ApplyMove benchmark (storagetest.BenchmarkApplyMove),
// and the same crash test (storagetest.CrashTest: a child process killed at
// random moments, after which every acknowledged change must be there).
package storage
