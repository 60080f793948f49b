package bot

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/tournament"
)

// TestUnreadableTournamentHoldsUpNoOther: the record of one tournament
// cannot be read (damaged, or written by a newer strategobot sharing the
// database). Every other tournament goes on as if it were not there: its
// round starts when due, and it is given back the time the bot was down.
// The one that cannot be read is logged, by its id. Before, the read of
// every due tournament failed with it: no tournament of any server was
// paired, closed or given its time back until the record was mended.
func TestUnreadableTournamentHoldsUpNoOther(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		data string
	}{
		{"damaged", `{"v":1,"log":"not a log"}`},
		{"newer", `{"v":99}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			t.Run("its round starts", func(t *testing.T) {
				t.Parallel()
				var logs logLines
				h := tourneyOn(newHarness(t, logs.capture))
				h.bobAndCarolJoin()
				h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Plate"), discordtest.Opt("format", "swiss"),
					discordtest.Opt("rounds", 1), discordtest.Opt("starts_in_hours", 1)), "Tournament #2")
				h.damageTournament(2, tc.data)
				h.advance(time.Hour)
				if _, s := h.stored(); len(s.Rounds()) != 1 {
					t.Fatalf("Cup has %d rounds paired at its start, want 1: the pass stopped at Plate, which cannot be read", len(s.Rounds()))
				}
				m := h.roundMatches(1)[0]
				h.setUp(m, game.Red, game.Blue)
				logs.waitFor(h.harness, "tournament=2")
				if strings.Contains(logs.String(), "reading due tournaments failed") {
					t.Errorf("the read of every due tournament failed:\n%s", logs.String())
				}
			})
			t.Run("its time away is given back", func(t *testing.T) {
				t.Parallel()
				var logs logLines
				h := tourneyOn(newHarness(t, logs.capture))
				m := h.bobMeetsCarol()
				h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Plate"), discordtest.Opt("format", "swiss"),
					discordtest.Opt("rounds", 1), discordtest.Opt("starts_in_hours", 1)), "Tournament #2")
				h.setUp(m, game.Red, game.Blue)
				h.outboxEmpty()
				before, _ := h.stored()
				h.damageTournament(2, tc.data, 10*time.Hour)
				after, _ := h.stored()
				if want := before.RoundDeadline.Add(10 * time.Hour); !after.RoundDeadline.Equal(want) {
					t.Errorf("after 10 hours down Cup's round ends %v, want %v: the time away was not given back", after.RoundDeadline, want)
				}
				logs.waitFor(h.harness, "tournaments=[2]")
			})
		})
	}
}

// damageTournament stops the bot, overwrites the stored record of
// tournament id with data, as a damaged file or a newer strategobot would
// leave it (its timer stays), moves the clock on by the time down given
// (none when left out), and starts the bot again.
func (h *tourney) damageTournament(id uint64, data string, down ...time.Duration) {
	h.t.Helper()
	h.shutdown()
	h.putRecord("tournaments", id, data)
	for _, d := range down {
		h.clock.Advance(d)
	}
	h.start()
	h.bot.handleDue(h.t.Context())
	h.bot.deliverDue(h.t.Context())
}

// putRecord overwrites, while the bot is stopped, record id of bbolt's
// bucket ("matches", "challenges", "tournaments") with data, and leaves
// its indexes alone: a record damaged on disk, or written by a newer
// strategobot.
func (h *harness) putRecord(bucket string, id uint64, data string) {
	h.t.Helper()
	h.putRecordKey(bucket, binary.BigEndian.AppendUint64(nil, id), data)
}

// putRecordKey is putRecord of the record under key.
func (h *harness) putRecordKey(bucket string, key []byte, data string) {
	h.t.Helper()
	db, err := bbolt.Open(h.dbPath, 0o600, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket([]byte(bucket)).Put(key, []byte(data))
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		h.t.Fatal(err)
	}
}

// TestTournamentHeldUpToldOnce: a tournament's round cannot start (its
// matches cannot be made, pass after pass). The players wait for a round
// that does not come: once the timers have failed for an hour, the channel
// is told, once however long it lasts, that the tournament is held up
// since the first failure and whom to tell; in the server's language.
// When the failure clears, the round starts, and a later stall would be
// told again.
func TestTournamentHeldUpToldOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, said string
		held       string // what only that message says
	}{
		{"en", "**Cup** is held up: I have not been able to go on with it since <t:%d:f>.", "held up"},
		{"nl", "**Cup** ligt stil: ik kan er sinds <t:%d:f> niet mee verder.", "ligt stil"},
		{"de", "**Cup** hängt fest: Ich komme damit seit dem <t:%d:f> nicht weiter.", "hängt fest"},
		{"fr", "**Cup** est bloqué : je n'arrive plus à le faire avancer depuis le <t:%d:f>.", "est bloqué"},
	}
	for _, tc := range tests {
		t.Run(tc.lang, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			h.bobAndCarolJoin()
			h.guild.SetLocale(tc.lang)
			h.shutdown()
			h.start() // a new session, whose GUILD_CREATE carries the server's locale
			h.reads.failCreateMatch.Store(1 << 30)
			h.advance(time.Hour) // the start: paired, its match not made
			start := h.clock.Now()
			if tt, _ := h.stored(); !tt.Starting {
				t.Fatal("the round's start did not fail")
			}
			heldUp := func(want string) {
				t.Helper()
				for _, msg := range h.srv.ChannelMessages(h.channel) {
					if strings.Contains(msg.Content, tc.held) {
						t.Fatalf("told %s: %q", want, msg.Content)
					}
				}
			}
			for range 50 {
				h.advance(time.Minute)
			}
			heldUp("after 50 minutes, want not yet")
			for range 130 {
				h.advance(time.Minute)
			}
			for range 21 {
				h.advance(time.Hour)
			}
			tt, _ := h.stored()
			if tt.HeldUp.Before(start) || tt.HeldUp.After(start.Add(time.Minute)) {
				t.Fatalf("held up since %v, want the round's start %v (the first failure, within a minute)", tt.HeldUp, start)
			}
			said := fmt.Sprintf(tc.said, tt.HeldUp.Unix())
			if n := h.channelCount(said); n != 1 {
				var seen []string
				for _, msg := range h.srv.ChannelMessages(h.channel) {
					seen = append(seen, msg.Content)
				}
				t.Fatalf("told %d times in a day of failures, want once; the channel has %q", n, seen)
			}
			h.reads.failCreateMatch.Store(0)
			h.advance(time.Hour)
			h.advance(time.Minute)
			if tt, _ := h.stored(); tt.Starting || len(tt.Games) != 1 || !tt.HeldUp.IsZero() {
				t.Errorf("after the failure cleared: starting %v, %d matches, held up since %v; want started, 1, going on", tt.Starting, len(tt.Games), tt.HeldUp)
			}
			if n := h.channelCount(said); n != 1 {
				t.Errorf("told %d times, want once", n)
			}
		})
	}
}

// TestUnreadableTournamentHidesNoOther: of a server's two tournaments, one
// cannot be read. `/stratego tournament list` shows the other; a command
// that names none is asked to name one (the member may mean either); and
// when the bot is removed from the server, the other is cancelled and its
// organiser told, as without the bad one. Before, each of these failed as a
// whole at the bad record: the list answered with an error, and the
// tournaments of a server the bot had left went on.
func TestUnreadableTournamentHidesNoOther(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	other := h.srv.AddGuild("Another Club") // where the bot may still DM them
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
		other.Join(m)
	}
	h.bobAndCarolJoin()
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Plate"), discordtest.Opt("format", "swiss"),
		discordtest.Opt("rounds", 1), discordtest.Opt("starts_in_hours", 1)), "Tournament #2")
	h.damageTournament(2, `{"v":99}`)
	h.expect(h.run(h.bob, "list"), "#1 **Cup**")
	h.expect(h.run(h.bob, "standings"), "This server has several tournaments: name one")
	h.expect(h.run(h.bob, "standings", discordtest.Opt("tournament", 1)), "Cup")
	h.guild.KickBot()
	h.srv.WaitFor(t, "Cup cancelled", func() bool {
		tt, s := h.stored()
		return tt.Done && s.Status() == tournament.CancelledStatus
	})
	h.advance(time.Minute)
	h.alice.WaitDM(t, contains("**Cup** is cancelled: I was removed from the server it was played in.")) // its organiser
}

// TestOnlyTournamentUnreadable: the one tournament under way on a server
// cannot be read. A command that names none is told so, and to tell
// whoever runs the bot, whose log says why. Before, the command meant "the
// only one" and took it from the tournaments that could be read, of which
// there were none: it panicked, and the member saw that the application
// did not respond.
func TestOnlyTournamentUnreadable(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.bobAndCarolJoin()
	h.damageTournament(1, `{"v":99}`)
	tests := []struct {
		sub  string
		args []discordtest.Arg
	}{
		{"standings", nil},
		{"join", nil},
		{"leave", nil},
		{"withdraw", nil},
		{"remove", []discordtest.Arg{discordtest.Opt("player", h.bob)}},
		{"cancel", nil},
	}
	const want = "A tournament under way on this server cannot be read right now. Please tell whoever runs this bot: its log says why."
	for _, tc := range tests {
		if msg := h.run(h.alice, tc.sub, tc.args...); msg.Content != want {
			t.Errorf("/stratego tournament %s answered %q, want %q", tc.sub, msg.Content, want)
		}
	}
}

// TestUnreadableNoticeHoldsUpNoOther: one notice of the outbox, dave's
// set-up invitation, cannot be read (damaged, or written by a newer
// strategobot sharing the database). Every other queue is delivered: erin
// gets her invitation to the same match, and alice and bob's new match is
// played as if the bad notice were not there; the bad one is logged by
// its id and held back. Before, the outbox's read of the due notices
// failed with it, and no message of any match went out.
func TestUnreadableNoticeHoldsUpNoOther(t *testing.T) {
	t.Parallel()
	var logs logLines
	h := newHarness(t, logs.capture)
	other := h.srv.AddGuild("Another Club")
	dave, erin := other.AddMember("dave"), other.AddMember("erin")
	h.shutdown()
	db, err := bolt.Open(bolt.Options{Path: h.dbPath, NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	m := &storage.Match{GuildID: other.ID, ChannelID: other.General().ID, Rules: game.DefaultRules(game.VariantClassic),
		MoveTime: 24 * time.Hour, Created: h.clock.Now()}
	m.Players[game.Red] = storage.Player{UserID: dave.ID, Name: dave.Name}
	m.Players[game.Blue] = storage.Player{UserID: erin.ID, Name: erin.Name}
	if m, err = db.CreateMatch(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	due, err := db.DueNotices(t.Context(), farFuture, 0)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	bad := uint64(0)
	for _, n := range due {
		if n.Match == m.ID && n.To == storage.AudienceRed {
			bad = n.ID
		}
	}
	if bad == 0 {
		t.Fatalf("the new match owes dave nothing: %+v", due)
	}
	h.putRecord("outbox", bad, `{"v":99}`)
	h.start()
	erin.WaitDM(t, contains("Send me your secret set-up"))
	h.startClassic()
	h.waitMoves(2, 0)
	for range 3 {
		h.advance(time.Minute) // the bad notice tried at once twice, then held back
	}
	logs.waitFor(h, fmt.Sprintf("notice=%d", bad))
	if n := countDMs(dave, "Send me your secret set-up"); n != 0 {
		t.Errorf("dave got %d invitations from a notice that cannot be read", n)
	}
}

// TestUnreadableGameEndHoldsUpNoTournament: the notice of a tournament
// game's end to its channel cannot be read (damaged, or written by a newer
// strategobot sharing the database), and is held back. The announcement of
// the game's result, which waits for the channel to read how the game
// ended, waits an hour (storage.WaitCap) and goes out, and the final
// standings after it. Before, it waited for good, and the tournament's
// channel heard nothing more of it.
func TestUnreadableGameEndHoldsUpNoTournament(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	m := h.bobMeetsCarol()
	h.setUp(m, game.Red, game.Blue)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })
	h.outboxEmpty()
	h.srv.FailNextIn(t, createMessageRoute, h.channel, 1, 503) // the game's end to the channel, put off
	ask := h.carol.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", m.ID.String())).Reply(t)
	h.carol.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.srv.WaitFor(t, "the result recorded", func() bool {
		_, s := h.stored()
		return s.Rounds()[0].Games[0].Result.Done()
	})
	h.shutdown()
	db, err := bolt.Open(bolt.Options{Path: h.dbPath, NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	due, err := db.DueNotices(t.Context(), farFuture, 0)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	bad := uint64(0)
	for _, n := range due {
		if n.Match == m.ID && n.To == storage.AudiencePublic {
			bad = n.ID
		}
	}
	if bad == 0 {
		t.Fatalf("the game's end owes its channel nothing: %+v", due)
	}
	h.putRecord("outbox", bad, `{"v":99}`)
	h.start()
	for range 50 {
		h.advance(time.Minute)
	}
	if n := h.channelCount("**Cup**, round 1: "); n != 0 {
		t.Fatalf("the result announced within the hour it waits for the game's end")
	}
	for range 15 {
		h.advance(time.Minute)
	}
	h.channelSays("**Cup**, round 1: ")
	h.channelSays("**Cup** is over")
}

// TestTournamentPanicHoldsUpNoOther: a bug panics as the round of one
// tournament starts (its match cannot be made), pass after pass. Another
// tournament, due at the same time, starts its round all the same; the
// first is held back, and after an hour its channel is told, once, that it
// is held up. Once the bug is gone, its round starts.
func TestTournamentPanicHoldsUpNoOther(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	games := h.guild.AddChannel("games")
	h.bobAndCarolJoin() // #1, Cup, in the harness's channel
	args := []discordtest.Arg{discordtest.Opt("name", "Plate"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 1),
		discordtest.Opt("starts_in_hours", 1)}
	h.expect(h.alice.SlashCommand(t, games, "stratego tournament create", args...).Reply(t), "Tournament #2")
	for _, m := range []*discordtest.Member{h.bob, h.carol} {
		h.expect(m.SlashCommand(t, games, "stratego tournament join", discordtest.Opt("tournament", 2)).Reply(t), "You joined")
	}
	bug := h.channel.ID
	h.reads.panicCreateMatchIn.Store(&bug)
	h.advance(time.Hour)
	plate, err := h.db.Tournament(t.Context(), 2)
	if err != nil || plate.Starting || len(plate.Games) != 1 {
		t.Fatalf("Plate after its start: %v, starting %v, %d matches; want its match made", err, plate.Starting, len(plate.Games))
	}
	if cup, _ := h.stored(); !cup.Starting || len(cup.Games) != 0 {
		t.Fatalf("Cup after its start: starting %v, %d matches; want its start failed", cup.Starting, len(cup.Games))
	}
	for range 70 {
		h.advance(time.Minute)
	}
	h.channelSays("**Cup** is held up: I have not been able to go on with it since")
	for range 5 {
		h.advance(time.Hour)
	}
	if n := h.channelCount("**Cup** is held up"); n != 1 {
		t.Errorf("Cup's channel was told %d times that it is held up, want once", n)
	}
	h.reads.panicCreateMatchIn.Store(nil)
	h.advance(time.Hour)
	if cup, _ := h.stored(); cup.Starting || len(cup.Games) != 1 || !cup.HeldUp.IsZero() {
		t.Errorf("Cup once the bug is gone: starting %v, %d matches, held up since %v; want its match made", cup.Starting, len(cup.Games), cup.HeldUp)
	}
}
