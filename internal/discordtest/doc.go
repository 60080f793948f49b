// Package discordtest is a local stand-in for Discord, for end-to-end tests
// of the bot: the real *discordgo.Session connects to it over HTTP and a
// websocket, and the test acts as server members and reads what each of
// them sees. The stand-in fails the test that owns it wherever real Discord
// would have refused or dropped what the bot did, and answers the bot the
// way Discord would (status, JSON error code and message).
//
// # A test
//
//	func TestChallenge(t *testing.T) {
//		srv := discordtest.New(t)
//		club := srv.AddGuild("Stratego Club")
//		alice, bob := club.AddMember("alice"), club.AddMember("bob")
//
//		sess := srv.NewSession(t) // a real *discordgo.Session, not yet open
//		bot.Attach(sess)          // the bot under test adds its handlers
//		if err := sess.Open(); err != nil {
//			t.Fatal(err)
//		}
//		srv.WaitReady(t)
//
//		in := alice.SlashCommand(t, club.General(), "stratego challenge",
//			discordtest.Opt("opponent", bob), discordtest.Opt("variant", "classic"))
//		challenge := in.Reply(t) // waits; fails t if the bot did not answer in 3 s
//		bob.ClickButton(t, challenge, "accept").Wait(t)
//		board := bob.WaitDM(t, func(m *discordtest.Message) bool { return len(m.Files) == 1 })
//		imgs, err := board.Images() // PNG or GIF attachments, decoded
//		...
//	}
//
// Members act with SlashCommand, Autocomplete, ClickButton, SelectMenu,
// SubmitModal, SendDM, Say and Reply (Discord's Reply to a message: type
// 19 with message_reference and referenced_message), and Delete their own
// messages. They read with DMs,
// Ephemerals and Messages; Server.ChannelMessages is what everyone sees in a channel and
// Server.Message the current state of one message. A member never sees
// another member's ephemeral messages, DMs or private threads. The bot
// answers asynchronously, so the readers come with waiting helpers that
// re-check on every change until a deadline: Server.WaitFor,
// Member.WaitDM, Interaction.Wait, Interaction.Reply and Interaction.Updated
// (what a press's answer made of the message it was on).
//
// # Connecting
//
// Server.NewSession returns a discordgo session whose Client (an
// http.Client whose transport sends discord.com and Discord's CDN hosts to
// the stand-in) and Dialer (a websocket.Dialer whose NetDialContext always
// reaches the stand-in) are set; discordgo's package variables are left
// alone, so tests run in parallel. Server.Configure does the same to a
// session built elsewhere, and HTTPClient and Dialer give the two parts.
// Session.Open does GET /gateway, dials the ws:// URL it gets, and goes
// through HELLO, IDENTIFY and READY, then one GUILD_CREATE per guild.
// OpenSession opens and waits until every guild is in discordgo's state.
//
// A bot run as its own process (the built binary) is pointed at the
// stand-in like at a proxy such as nirn-proxy: Server.APIBase is a plain
// HTTP base URL for the REST API, "http://127.0.0.1:PORT/api/v9/", and
// GET /gateway there returns Server.GatewayURL, a ws:// URL.
//
// # What is checked
//
// Every REST request is checked against Discord's official OpenAPI 3.1
// description of API v10 (testdata/openapi.json, discord/discord-api-spec,
// MIT licence in testdata/LICENSE; embedded in the package). The path after
// /api/v9 or /api/v10 is matched to the description's routes; an unknown
// route answers 404, a known route with an unknown method 405. Path
// parameters are checked against their schemas (snowflakes), and the JSON
// body, or the payload_json part of a multipart upload, against the schema
// at #/paths/<route>/<method>/requestBody/content/application~1json/schema
// with github.com/santhosh-tekuri/jsonschema/v6 (JSON Schema 2020-12). A
// failure answers 400 with code 50035 "Invalid Form Body" and Discord's
// nested errors object, and fails the test with the validator's messages.
// The document is parsed once per test binary (about 50 ms) and each
// route's schema compiled on first use: parsing and compiling every route
// this bot uses takes about 90 ms, every route of the document about
// 200 ms, validating one body well under a millisecond (see the benchmarks).
//
// Beyond the schema, the stand-in enforces what Discord enforces and the
// description does not state, or states more loosely:
//   - content of at most 2,000 characters (the description allows 4,000,
//     a Nitro user's limit) and no empty messages (50006);
//   - without the IS_COMPONENTS_V2 flag, at most 5 top-level components,
//     all action rows; a select menu alone in its row; custom ids on every
//     non-link button and none on link buttons; custom ids unique in a
//     message; with the flag, no content or embeds;
//   - modals of at most 5 rows, one text input per action row, labels set;
//   - uploads of at most 10 MiB each (WithUploadLimit; else 413 with code
//     40005) and 10 per message; attachment references that name an upload
//     or an attachment of the message;
//   - commands: chat-input names lower case and matching Discord's pattern,
//     descriptions present, option names unique, required options before
//     optional ones, subcommands not mixed with plain options, no
//     autocomplete with choices, command names unique in a bulk overwrite;
//   - autocomplete choices whose values have the option's type;
//   - unknown channels (10003), messages (10008), users (10013), editing
//     another author's message (50005), a second thread on one message
//     (160004), threads in DMs (50024), deleting a member's DM (50003);
//     a request naming an id of UnknownID, such as an id an admin mistyped
//     for a tool to check, is refused as Discord refuses it without failing
//     the test;
//   - what the bot may do where (see Permissions below).
//
// The interaction rules: the first response must arrive within 3 seconds
// of dispatch (WithResponseDeadline, for testing the rule quickly); after
// that the member sees DidNotRespond, the test fails, and a late callback
// gets 404 with code 10062 "Unknown interaction". A second first response
// gets 40060, which fails the test unless the first's answer was lost
// (LoseAnswerNext) or the interaction went to two sessions (two processes
// of one shard, each of which may answer it). The first response must fit the interaction (for example 8
// only for autocomplete, 6 and 7 only where there is a message to update).
// Follow-ups and @original need the first response first (10015) and work
// for 15 minutes by the server's Clock (WithClock, FakeClock), then answer
// 401 with code 50027. Flag 64 makes a response or follow-up ephemeral: only
// the invoking member sees it, it is never dispatched over the gateway, and
// it stays ephemeral whatever later edits say. A deferred response (5)
// keeps only its ephemeral flag; the first follow-up after it replaces the
// "thinking" message. For a component, 6 and 7 make @original the
// component's message.
//
// The gateway checks IDENTIFY (token, intents present, privileged intents
// enabled with WithPrivilegedIntents, shard) and closes with Discord's codes
// (4004, 4013, 4014, 4010, 4001 unknown opcode, 4002 decode error, 4005
// second IDENTIFY); heartbeats are acknowledged. Events go only to sessions
// with the intent that carries them, to the shard that owns the guild, DMs
// to shard 0. Guild messages from others reach a session without
// MESSAGE_CONTENT without content, embeds, attachments and components,
// unless they mention the bot, and a reply's referenced_message likewise;
// DMs always carry content. The bot's own messages are dispatched to it
// too, as on Discord.
//
// Each refusal fails the test with Errorf, except those the test itself set
// up: a member who closed their DMs (403, code 50007), rate limits (429),
// injected faults, and every refusal that follows from the world the test
// built (permissions it took away, a member who left, a channel it deleted,
// a locked or archived thread, the bot kicked). A bot that uses an id that
// never existed still fails the test. A route that Discord has but the
// stand-in does not implement answers 501 and fails the test as such. An
// interaction left without a first response fails the test too, unless
// Discord refused the bot's answer for a reason of the world (a locked
// archived thread, a deleted channel).
//
// # Permissions
//
// Each guild has roles: @everyone (Guild.Everyone, id the guild's), those
// a test adds (Guild.AddRole, Role.SetPermissions, Guild.GiveRole and
// TakeRole, Role.Delete) and, when the server is built WithBotPermissions, the managed
// role Discord gives a bot invited with permissions (Guild.BotRole). Text
// channels carry permission overwrites for roles and members
// (Channel.SetOverwrite, RemoveOverwrite); Server.Bot is the bot as a
// *Member for roles and overwrites. Permissions are computed as Discord's
// documentation computes them (Channel.PermissionsOf): the owner
// (Guild.SetOwner; by default a user of the guild's own that no test acts
// as) and ADMINISTRATOR have everything; else @everyone's permissions and
// the member's roles', then the channel's overwrites for @everyone, for the
// member's roles (all denies, then all allows) and for the member. Threads
// follow their parent's overwrites; in them SEND_MESSAGES_IN_THREADS
// replaces SEND_MESSAGES; a private thread is hidden from those not in it
// without MANAGE_THREADS. Every change is dispatched as Discord does
// (GUILD_ROLE_CREATE, _UPDATE and _DELETE, CHANNEL_UPDATE, GUILD_MEMBER_UPDATE: for
// the bot always, for others with GUILD_MEMBERS), and GUILD_CREATE carries
// roles, members' roles, overwrites and owner, so discordgo's
// State.UserChannelPermissions agrees with the stand-in (tested).
//
// By default @everyone may do what members of a plain server may do in
// text channels (view, send, embed, attach files, read history, create and
// talk in threads, use commands; no MANAGE_* permission), and so may the
// bot: a test that does not touch permissions sees today's permissive
// server. The bot's requests are then checked, answering 403 with code
// 50001 Missing Access where it cannot see the channel (VIEW_CHANNEL, the
// guild it was kicked from, a private thread it is not in) and 403 with
// code 50013 Missing Permissions where it lacks:
//   - SEND_MESSAGES to post in a text channel, SEND_MESSAGES_IN_THREADS in a
//     thread (and to add a member to one), SEND_TTS_MESSAGES with tts;
//   - ATTACH_FILES to post files or add them by an edit;
//   - READ_MESSAGE_HISTORY to read one message (listing answers an empty
//     list instead, as Discord does), and to reply: 403 with code 160002;
//   - CREATE_PUBLIC_THREADS and CREATE_PRIVATE_THREADS to start threads;
//   - MANAGE_MESSAGES to delete another author's message;
//   - for thread edits (PATCH /channels/{id}): SEND_MESSAGES_IN_THREADS to
//     unarchive, MANAGE_THREADS to lock, unlock or unarchive a locked
//     thread, and to rename one the bot did not create.
//
// Editing its own message needs only VIEW_CHANNEL. DMs and interaction
// answers (callbacks, follow-ups, @original) need none of the bot's
// channel permissions. The interaction payload's app_permissions, the
// member's permissions, the channel's and resolved members' and channels'
// permissions are computed from the same model. Members act only where the
// client would let them: Say needs VIEW_CHANNEL and the right to send,
// SlashCommand USE_APPLICATION_COMMANDS; else the test fails. The bot gets
// no message events of channels it cannot see.
//
// # A server over time
//
//   - Guild.RemoveMember: the member leaves (or is kicked); GUILD_MEMBER_REMOVE
//     with the GUILD_MEMBERS intent (and GUILD_MEMBER_ADD on Join); then 404
//     with code 10007 Unknown Member for the member and for adding them to a
//     thread, and 403 with code 50007 for DMs once they share no guild with
//     the bot.
//   - Channel.Delete: a text channel with its threads, or a thread;
//     CHANNEL_DELETE (THREAD_DELETE for a thread), then 404 with code 10003
//     on every route, interaction answers included.
//   - Server.DeleteMessage: a moderator deletes a message in a server's
//     channel; MESSAGE_DELETE, then 404 with code 10008 for editing,
//     reading or replying to it.
//   - Threads archive after auto_archive_duration minutes without activity
//     (creation, a message, unarchiving, a new duration) by the server's
//     Clock, at the first request or member action after that time, with
//     THREAD_UPDATE; Channel.Archive, Unarchive, Lock and Unlock do it as a
//     moderator would. Posting in an archived thread unarchives it
//     (THREAD_UPDATE), unless it is locked and the sender lacks
//     MANAGE_THREADS: then 400 with code 50083; posting in a locked active
//     thread answers 403 with code 160005; editing a message in an archived
//     thread, or adding someone to it, answers 400 with code 50083. A
//     member's message unarchives as the bot's does; a slash command in an
//     archived thread still reaches the bot (Discord's behaviour, issue
//     5517 of discord-api-docs) and its answer follows the posting rules.
//   - Guild.AddForum: a forum channel (type 15), with overwrites as a text
//     channel; it takes no message of its own (400 with code 50008, and a
//     member's Say or command there fails the test, as the client has no
//     message box); Member.OpenPost opens a post, a public thread of the
//     forum owned by the member, with their first message (its id the
//     post's), archiving after three days; opening a post through the API
//     is not implemented (501).
//   - Guild.KickBot: GUILD_DELETE without "unavailable" (to the sessions
//     of then: a bot stopped meanwhile never gets it); the guild leaves
//     READY; the guild (GET /guilds/{guild_id}), its channels and members
//     answer 403 with code 50001; members can no longer use the bot's
//     commands or components there.
//     Guild.InviteBot brings it back with GUILD_CREATE.
//   - Server.BotKilled: the test killed the bot's process; interactions
//     left waiting, and those started before a new process identifies, go
//     unanswered without failing the test, as a crash test needs.
//   - Server.RevokeToken: the token is reset; the gateway closes with 4004
//     and refuses the old token with 4004, REST answers 401.
//   - Guild.Outage: GUILD_DELETE with "unavailable": true; a new session
//     gets the guild unavailable in READY and no GUILD_CREATE; members
//     cannot act; EndOutage sends GUILD_CREATE.
//
// # Limits across routes
//
// Discord bans a client for an hour after 10,000 invalid answers (401, 403
// and 429) in 10 minutes. The stand-in counts them per client address
// (Server.InvalidRequests) and fails the test once a client reaches 1,000
// in 10 minutes (WithInvalidRequestThreshold): a tenth of the ban, since
// a test serves a handful of members for seconds, and a bot that makes
// 1,000 invalid requests there would make 10,000 with ten times the
// traffic. The failure is reported once. The global limit of 50 requests
// per second per bot token (429 with "global": true, X-RateLimit-Global
// and X-RateLimit-Scope: global; interaction endpoints exempt) is
// WithGlobalRateLimit(GlobalRequestsPerSecond), off by default because
// tests play far faster than people (see the option).
//
// # Outside tests
//
// New takes a TB, which every testing.TB is: what fails a test fails it
// as before. A command that drives the stand-in outside tests
// (strategoload) passes its own TB, and must count every Errorf and Fatalf
// as a failure of its run; a Fatalf there should end only the goroutine of the
// member that acted, as runtime.Goexit does for a test. For long runs,
// WithoutRequestLog stops keeping every request (pictures included),
// WithoutFileContents keeps of each message's pictures their sizes only, and
// WithRequestHook tells the owner of each answered request as it happens,
// so that it need not poll Requests, or wait on WaitFor, which wakes every
// waiter on every change.
//
// # Nonces
//
// A message create may carry a nonce (a string of up to 25 characters or an
// integer); it comes back in the answer and in MESSAGE_CREATE. With
// enforce_nonce, a second create by the bot with the same nonce within two
// minutes by the server's Clock (Discord says "a few minutes"; the
// stand-in takes the short end) answers the first message and posts
// nothing; if that message was deleted meanwhile, 404 with code 10008, as
// Discord answers. Discord deduplicates per sender, not per channel: a
// nonce reused in another channel returns the other channel's message, and
// the stand-in fails the test, since the new message is silently lost.
//
// # The application id
//
// By default the application's id is the bot user's, as for applications
// created since 2020. WithSeparateApplication gives it another one, as older
// applications have: READY's application.id, interactions' application_id,
// messages' webhook_id and the interaction webhooks then use it
// (Server.AppID; Server.BotID is the user's), and the application-command
// routes answer 403 with code 50001 for the bot user's id. The bot
// registers its commands under READY's application id.
//
// # Faults
//
// RateLimitNext answers the next requests of a route with 429, retry_after
// and the X-RateLimit-* headers; discordgo waits and retries. Every answer
// carries X-RateLimit-Limit, -Remaining, -Reset, -Reset-After and -Bucket
// for a per-route bucket (split by channel, guild, webhook or interaction;
// size set with WithRateLimit), and a client that ignores them gets 429.
// FailNext answers with a 5xx (discordgo retries only 502), DelayNext
// answers late, HoldNext leaves a route's requests unanswered until
// released, LoseAnswerNextIn carries a request out (a message made, its
// gateway event sent) and answers it with a 5xx, and HoldReady the next
// IDENTIFY. RefuseNext answers with a
// refusal Discord gives a request it will not take (InvalidFormBody 50035
// with its errors object, EntityTooLarge 413/40005, EmptyMessage 50006),
// for the next n requests or Always; nothing is made. DropGateway cuts the gateway connections: discordgo
// reconnects, RESUMEs, and gets the events dispatched in between, then
// RESUMED. ReconnectGateway sends opcode 7 (discordgo closes with 1012 and
// resumes), InvalidateSessions forces a fresh IDENTIFY. GatewayStats counts
// identifies, resumes, replayed events and heartbeats; Requests lists the
// REST requests with their statuses.
//
// # API v9 and v10
//
// discordgo v0.29 speaks v9; the description is v10. Both are served. The
// differences that matter to this bot, and that the stand-in follows:
//   - Editing a message with files: in v9 the uploads are always added,
//     and an "attachments" list only says which existing attachments stay.
//     In v10, when "attachments" is sent it must list every attachment the
//     message keeps, uploads included (as {"id": "0"} for files[0]); an
//     upload it leaves out is dropped.
//   - Starting a thread without a message (POST /channels/{id}/threads):
//     in v9 "type" defaults to 12, a private thread; in v10 it is required
//     (50035). A bot wanting a public game thread must send type 11.
//   - The gateway URL's v parameter must be 9 or 10 (else close 4012);
//     READY's "v" echoes it.
//   - MESSAGE_CONTENT gating applies in both, as Discord has done for all
//     versions since September 2022; DMs to the bot are never gated.
//
// # Where Discord accepts more than its description
//
//   - default_member_permissions of a command as a numeric string, as
//     Discord documents it and discordgo sends it (the description says
//     integer);
//   - the codes inside a 50035 errors object are strings such as
//     "BASE_TYPE_MAX_LENGTH", as Discord's documentation shows (the
//     description says integer). The stand-in's own answers are checked
//     against the response schemas in its tests, with that one exception.
//
// # Where the stand-in is stricter than Discord
//
//   - Flag 64 on a plain channel message fails the test: Discord ignores it
//     and shows the message to everyone, a leak for a game with secrets.
//   - A User-Agent not of the form "DiscordBot (url, version)" fails the test.
//   - An interaction left unanswered fails the test (Discord just shows the
//     member DidNotRespond).
//
// # Known deviations from real Discord
//
//   - Permissions: no role hierarchy (nobody manages roles through the API),
//     no command permissions (default_member_permissions and per-command
//     overrides are stored but never hide a command), no category syncing
//     (there are no categories), no timeouts. EMBED_LINKS, MENTION_EVERYONE,
//     USE_EXTERNAL_* and the implicit denials that follow from a denied
//     SEND_MESSAGES beyond ATTACH_FILES are not checked. Members without
//     READ_MESSAGE_HISTORY still read what was sent before they came. Status
//     codes of 160002, 160005 and 50083, the choice of 50013 for a single
//     message without READ_MESSAGE_HISTORY, and SEND_MESSAGES_IN_THREADS
//     (not the documented SEND_MESSAGES) for unarchiving are the stand-in's
//     reading. Role and mentionable options are passed through unresolved;
//     attachment options are not supported.
//   - Leaving and deleting: members stay able to DM the bot without a
//     shared guild; deleting a channel sends no THREAD_DELETE for its
//     threads; members removed from threads get no THREAD_MEMBERS_UPDATE;
//     there is no THREAD_LIST_SYNC; REST requests keep working during an
//     Outage; GUILD_CREATE lists every member even without GUILD_MEMBERS.
//   - The field codes of the stand-in's own checks (above) are its best
//     reading of Discord's; status and top-level code are Discord's. Those
//     checks run only once the schema passes, so one answer may list fewer
//     problems than Discord would. Content length is counted in code points.
//   - Rate limits: one bucket size for every route, no shared buckets across
//     routes, the global limit only on request; invalid requests fail the
//     test but never ban the client. Injected 5xx answers are JSON;
//     Cloudflare's real 502 pages are HTML.
//   - The gateway never closes a connection for missed heartbeats, keeps
//     sessions resumable until the server closes, compresses (per message,
//     zlib) only READY and GUILD_CREATE, ignores presence updates and
//     member requests, and speaks JSON only (no ETF, no zlib-stream
//     transport compression).
//   - Interactions: the focused option of an autocomplete always carries what
//     was typed as a string; the type of follow-up messages is 0; a modal
//     can be submitted once, and only through SubmitModal. ForgeClick and
//     ForgeSelect send what a modified client can (any custom id and
//     values on a message the member sees), which ClickButton and
//     SelectMenu refuse as Discord's own client would not send it. The code for a
//     follow-up before the first response (10015) is the stand-in's reading.
//   - Messages: embeds are stored as sent (no 6,000-character total check);
//     edits ignore flags; MESSAGE_UPDATE carries the whole message.
//     "mentions" is always empty: "<@id>" in content is not parsed (though
//     it still lifts the MESSAGE_CONTENT rule) and a member's Reply does
//     not ping. A bot's message_reference must name a message of the
//     channel that is there (or say fail_if_not_exists false), but its
//     other fields are not checked. The upload limit is per file.
//   - Timestamps, the token lifetime, thread archiving and nonces follow the
//     Clock; the 3-second rule, rate limits and the invalid-request count
//     use the wall clock.
package discordtest
