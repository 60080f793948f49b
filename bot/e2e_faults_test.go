package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
)

// TestDiscordTrouble: a 502 and a 429 on the way do not lose a move's messages.
func TestDiscordTrouble(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	const send = "POST /channels/{channel_id}/messages"
	h.srv.FailNext(t, send, 1, 502)
	h.srv.RateLimitNext(t, send, 1, 50*time.Millisecond)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	h.channelSays("alice moved A4-A5")
}

// TestRegisteringThroughTrouble: a bot that starts while Discord fails or
// answers too slowly registers its command once Discord answers, and plays;
// it does not stop.
func TestRegisteringThroughTrouble(t *testing.T) {
	t.Parallel()
	h := newHarnessOn(t, []discordtest.Option{discordtest.WithClientTimeout(2 * time.Second)})
	h.shutdown()
	// The commands, registered by the first start, are listed first, and
	// only written if they changed: the list is what fails here.
	tried := len(h.srv.Requests(listRoute))
	h.srv.FailNext(t, listRoute, 1, 503)
	h.srv.DelayNext(t, listRoute, 1, 2500*time.Millisecond)
	h.start()
	// The timed-out request is still handled, late, as Discord may: the
	// third is the bot's own retry.
	h.srv.WaitFor(t, "a 503, a time-out, then a retry", func() bool { return len(h.srv.Requests(listRoute))-tried == 3 })
	select {
	case err := <-h.exited:
		t.Fatalf("the bot stopped: %v", err)
	default:
	}
	h.startClassic()
}

// TestRefusedCommandStops: when Discord refuses the command itself (here
// guild_id names a server the bot is not in), the bot stops and says why:
// asking again would be refused the same way.
func TestRefusedCommandStops(t *testing.T) {
	t.Parallel()
	srv := discordtest.New(t)
	srv.AddGuild("Stratego Club")
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pics, err := sharedRenderer()
	if err != nil {
		t.Fatal(err)
	}
	clock := discordtest.NewFakeClock(T0)
	cfg := Config{GuildID: "4242", Now: clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = New(cfg, srv.NewSession(t), db, pics).Run(ctx)
	if ctx.Err() != nil {
		t.Fatal("the bot kept running though Discord refused its command")
	}
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "register the /stratego command") || !strings.Contains(err.Error(), "Missing Access") || !strings.Contains(err.Error(), "is the bot in the server guild_id names, 4242?") {
		t.Fatalf("Run returned %v; want the refusal of the command", err)
	}
}

func TestRestartMidMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
	h.challenge("Classic")
	h.sendSetups(red, blue)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)

	const openDM = "POST /users/@me/channels"
	opened := len(h.srv.Requests(openDM))
	if opened == 0 {
		t.Fatal("the bot sent DMs without opening a DM channel")
	}
	h.shutdown() // the process stops; only the bbolt file remains
	h.start()

	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A5"), discordtest.Opt("to", "A6")).Reply(t)
	h.bob.SendDM(t, "J6-J5")
	h.waitMoves(1, 4)
	h.alice.SendDM(t, "E4xE7")
	m := h.waitMoves(1, 5)
	if m.Result != (game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}) {
		t.Fatalf("result %v", m.Result)
	}
	h.bob.WaitDM(t, contains("You lost"))
	// The DM channels were kept with the players: the new process opened none
	// (Discord rate-limits opening them).
	if n := len(h.srv.Requests(openDM)); n != opened {
		t.Errorf("after the restart the bot opened %d DM channels again", n-opened)
	}
}

func TestClosedDMs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.bob.CloseDMs()
	h.challenge("Classic")
	// The channel asks bob to open his DMs or use the private commands.
	h.srv.WaitFor(t, "the closed-DM notice", func() bool {
		for _, m := range h.srv.ChannelMessages(h.channel) {
			if strings.Contains(m.Content, "can't send you direct messages") && strings.Contains(m.Content, "<@"+h.bob.ID+">") {
				return true
			}
		}
		return false
	})
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	preview := h.alice.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	// Bob does it all privately in the channel.
	setup := h.bob.SlashCommand(t, h.channel, "stratego setup").Reply(t)
	if !setup.Ephemeral {
		t.Fatal("the set-up answer is not private")
	}
	preview = h.bob.ClickButton(t, setup, button(t, setup, "Random")).Reply(t)
	if !preview.Ephemeral || len(preview.Files) != 1 {
		t.Fatalf("bob's preview: ephemeral %v, %d files", preview.Ephemeral, len(preview.Files))
	}
	h.bob.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	h.alice.WaitDM(t, contains("the match begins"))
	m := h.waitMoves(1, 0)
	if m.Phase != storage.PhasePlaying {
		t.Fatalf("phase %v", m.Phase)
	}
	g, _ := m.Game()
	mv := g.LegalMoves()[0]
	h.alice.SendDM(t, mv.String())
	h.waitMoves(1, 1)
	board := h.bob.SlashCommand(t, h.channel, "stratego board").Reply(t)
	if !board.Ephemeral || len(board.Files) != 1 || !strings.Contains(board.Content, "your move") {
		t.Fatalf("bob's board: ephemeral %v, %d files, %q", board.Ephemeral, len(board.Files), board.Content)
	}
	if len(h.bob.DMs()) != 0 {
		t.Fatalf("bob with closed DMs has %d DMs", len(h.bob.DMs()))
	}
}

// TestPanicInHandlerIsContained: a handler's panic is logged, with the
// function and file:line that panicked, and the bot goes on handling. The
// log holds no value the handler held (logsafe.Panic): no rank or square in
// the panic's message or index, no argument words in its stack.
func TestPanicInHandlerIsContained(t *testing.T) {
	t.Parallel()
	ranks := rankNames()
	cases := []struct {
		name string
		f    func(sq game.Square)
		kind string
	}{
		{"a message", func(sq game.Square) { panic(fmt.Sprintf("boom: the Marshal on %s", sq)) }, `"a value of type string"`},
		{"an index", func(sq game.Square) { _ = make([]game.Rank, 40)[sq] }, `"runtime error: index out of range [N] with length N"`},
		{"a refused move", func(sq game.Square) {
			panic(fmt.Errorf("playing: %w", &game.MoveError{Move: game.Move{From: sq, To: sq + 1}, Reason: "Bombs cannot move"}))
		}, `"illegal move (details withheld: they may show hidden pieces)"`},
	}
	for _, c := range cases {
		for _, thinker := range []bool{false, true} {
			name := c.name
			if thinker {
				name += " in a thinker" // the computer's: its panic is carried to the guard
			}
			t.Run(name, func(t *testing.T) {
				var logs bytes.Buffer
				b := New(Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))}, nil, nil, nil)
				f := func() { c.f(game.SquareAt(1, 6)) } // B7, 61
				b.guard(context.Background(), "test", func(context.Context) {
					if thinker {
						b.thinkers.do(b.stopping, b.thinkers.book(time.Now()), f)
						return
					}
					f()
				})
				out := logs.String()
				if !strings.Contains(out, "handler panicked") || !strings.Contains(out, "panic.kind="+c.kind) ||
					!regexp.MustCompile(`panic\.at="[^"]*TestPanicInHandlerIsContained[^"]*e2e_faults_test\.go:\d+\)"`).MatchString(out) {
					t.Fatalf("logs: %s", out)
				}
				if w := ranks.FindString(out); w != "" || strings.Contains(out, "B7") || strings.Contains(out, "[61]") || strings.Contains(out, "0x") {
					t.Errorf("the log shows what the handler held (%q):\n%s", w, out)
				}
				ran := false
				b.guard(context.Background(), "test", func(context.Context) { ran = true })
				if !ran {
					t.Fatal("the bot stopped handling after a panic")
				}
			})
		}
	}
}

// TestOutboxRetriesUntilDelivered: Discord fails every message a move owes
// (500, 503, 504 — which discordgo does not retry): the move is stored, the
// mover answered, and each message arrives exactly once when the outbox
// tries again. The side to move's clock starts only then.
func TestOutboxRetriesUntilDelivered(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 503, 504} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.startClassic()
			h.bob.WaitDM(t, contains("the match begins"))
			h.channelSays("the match begins")
			h.srv.FailNext(t, "POST /channels/{channel_id}/messages", 3, status)
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			h.waitMoves(1, 1)
			h.srv.WaitFor(t, "the three notices to be put off", func() bool {
				due, err := h.db.DueNotices(context.Background(), h.clock.Now().Add(time.Hour), 0)
				if err != nil || len(due) != 3 {
					return false
				}
				for _, n := range due {
					if n.Attempts != 1 {
						return false
					}
				}
				return true
			})
			if m := h.match(1); !m.ClockPending {
				t.Fatal("Bob's clock runs though he was never told it is his move")
			}
			h.advance(backoff(1, 0)) // the outbox tries again
			told := h.clock.Now()
			h.bob.WaitDM(t, contains("alice moved A4-A5"))
			h.alice.WaitDM(t, contains("You moved"))
			h.channelSays("alice moved A4-A5")
			h.bot.deliverDue(context.Background())
			if m := h.match(1); m.ClockPending || !m.Deadline.Equal(told.Add(m.MoveTime)) {
				t.Errorf("Bob's clock: pending %v, deadline %v; want it to start when he was told, %v", m.ClockPending, m.Deadline, told.Add(m.MoveTime))
			}
			h.seenOnce(t, "A4-A5")
		})
	}
}

// TestFaultsOnEveryRoute: while four moves are played, Discord fails the
// routes the outbox uses (messages in the channel and the DMs, and the
// edits of the live board), in every way it can: 500, 502, 503 and 504,
// requests that time out while Discord still makes the message, storms of
// 429s, and a dropped gateway. Each player and the channel get each move's
// board exactly once, and in the order of the moves.
func TestFaultsOnEveryRoute(t *testing.T) {
	t.Parallel()
	const (
		create = "POST /channels/{channel_id}/messages"
		edit   = "PATCH /channels/{channel_id}/messages/{message_id}"
	)
	tests := []struct {
		name  string
		live  bool // the live board mode: the channel's board is an edit
		fault func(h *harness)
	}{
		{"500", false, func(h *harness) { h.srv.FailNext(h.t, create, 2, 500) }},
		{"502", false, func(h *harness) { h.srv.FailNext(h.t, create, 8, 502) }}, // discordgo retries 502 itself, then gives up
		{"503", false, func(h *harness) { h.srv.FailNext(h.t, create, 2, 503) }},
		{"504", false, func(h *harness) { h.srv.FailNext(h.t, create, 2, 504) }},
		{"timeouts", false, func(h *harness) { h.srv.DelayNext(h.t, create, 2, 2500*time.Millisecond) }},
		{"429 storm", false, func(h *harness) { h.srv.RateLimitNext(h.t, create, 12, 30*time.Millisecond) }},
		{"gateway drop", false, func(h *harness) { h.srv.DropGateway() }},
		{"live board: 500 on edits", true, func(h *harness) { h.srv.FailNext(h.t, edit, 2, 500) }},
		{"live board: edits time out", true, func(h *harness) { h.srv.DelayNext(h.t, edit, 1, 2500*time.Millisecond) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Requests time out after 2 s, which even a loaded machine meets
			// unless a fault delays them on purpose.
			h := newHarnessOn(t, []discordtest.Option{discordtest.WithClientTimeout(2 * time.Second)})
			if tc.live {
				moderator(h)
				h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt(optBoardMode, "live")).Reply(t)
			}
			h.startClassic()
			h.waitMoves(1, 0)
			script := []struct {
				who      *discordtest.Member
				from, to string
			}{{h.alice, "A4", "A5"}, {h.bob, "J7", "J6"}, {h.alice, "A5", "A6"}, {h.bob, "J6", "J5"}}
			for k, mv := range script {
				tc.fault(h)
				mv.who.SendDM(t, mv.from+"-"+mv.to)
				h.waitStored(1, k+1)
				// The outbox tries again until everything is out.
				h.srv.WaitFor(t, "the outbox to be empty", func() bool {
					h.advance(lastRetry)
					due, err := h.db.DueNotices(context.Background(), h.clock.Now().Add(24*time.Hour), 0)
					return err == nil && len(due) == 0
				})
			}
			moved := regexp.MustCompile(`(?:alice|bob|You) moved [^\n]*?([A-J]\d+-[A-J]\d+)`)
			want := []string{"A4-A5", "J7-J6", "A5-A6", "J6-J5"}
			for who, msgs := range map[string][]*discordtest.Message{
				"alice": h.alice.DMs(), "bob": h.bob.DMs(), "the channel": h.srv.ChannelMessages(h.channel),
			} {
				var got []string
				for _, msg := range msgs {
					if m := moved.FindStringSubmatch(msg.Content); m != nil && len(msg.Files) == 1 {
						got = append(got, m[1])
					}
				}
				if tc.live && who == "the channel" {
					// One message, edited after every move: the states it went
					// through, in order. An edit made again (after a time-out)
					// shows nothing new, so repeats are one state.
					got = got[:0]
					for _, r := range h.srv.Requests(edit) {
						if m := moved.FindStringSubmatch(string(r.Body)); m != nil && r.Status == 200 && (len(got) == 0 || got[len(got)-1] != m[1]) {
							got = append(got, m[1])
						}
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s got the boards of %v; want each move once, in order: %v", who, got, want)
				}
			}
		})
	}
}

// TestUnrecordedDeliveryIsNotRepeated: a move's messages go out, but the
// database is away when the outbox records one of them as delivered. That
// notice is left for a later pass, which sends it again with the same nonce:
// Discord makes no second message, so everyone still sees the move once, and
// the notice is then recorded as done.
func TestUnrecordedDeliveryIsNotRepeated(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.bob.WaitDM(t, contains("the match begins"))
	h.channelSays("the match begins")
	h.reads.failDone.Store(1)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	h.alice.WaitDM(t, contains("You moved"))
	h.channelSays("alice moved A4-A5")
	if n := h.reads.failDone.Load(); n != 0 {
		t.Fatalf("%d failures of the database left unused", n)
	}
	h.bot.deliverDue(context.Background()) // the next pass, if the bot has not run it yet
	if left, err := h.db.DueNotices(context.Background(), h.clock.Now().Add(time.Hour), 0); err != nil || len(left) != 0 {
		t.Fatalf("due after the next pass: %+v, %v; want none", left, err)
	}
	h.seenOnce(t, "A4-A5")
}

// seenOnce checks that both players and the channel got exactly one
// message that mentions move.
func (h *harness) seenOnce(t *testing.T, move string) {
	t.Helper()
	for who, msgs := range map[string][]*discordtest.Message{
		"bob": h.bob.DMs(), "alice": h.alice.DMs(), "the channel": h.srv.ChannelMessages(h.channel),
	} {
		n := 0
		for _, msg := range msgs {
			if strings.Contains(msg.Content, move) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s got the message of move %s %d times, want once", who, move, n)
		}
	}
}
