package bot

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
)

// TestLiveMessageDeleted: in the live board mode a moderator deletes the
// match's live message. The next board is posted anew in the channel and
// edited from then on: the channel is not given up (nobody is told the bot
// may no longer post there), and each move is shown once.
func TestLiveMessageDeleted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	boardMode(t, "live")(h)
	h.startClassic()
	h.waitMoves(1, 0)
	m := h.match(1)
	if m.LiveMessage == "" {
		t.Fatal("no live message")
	}
	h.srv.DeleteMessage(m.LiveMessage)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.outboxEmpty()
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if strings.Contains(msg.Content, "A4-A5") {
			if imgs, err := msg.Images(); err != nil || len(imgs) != 1 {
				t.Errorf("the board posted anew shows %d pictures (%v); want its board", len(imgs), err)
			}
		}
	}
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	h.outboxEmpty()
	for _, who := range []*discordtest.Member{h.alice, h.bob} {
		for _, dm := range who.DMs() {
			if strings.Contains(dm.Content, "no longer post") || strings.Contains(dm.Content, "goes on here, by DM") {
				t.Errorf("%s was told the channel is out of reach: %q", who.Name, dm.Content)
			}
		}
	}
	if m := h.match(1); m.PublicGone {
		t.Error("the match gave its channel up")
	}
	boards := 0
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if len(msg.Files) == 1 {
			boards++
			if !strings.Contains(msg.Content, "J7-J6") {
				t.Errorf("the channel's board says %q; want the last move, J7-J6", msg.Content)
			}
		}
	}
	if boards != 1 {
		t.Errorf("the channel shows %d boards; want one live message", boards)
	}
}

// TestSentBoardDeletedBeforeItsRetry: the channel's board is made, but
// Discord's answer comes too late, and a moderator deletes the board before
// the outbox sends it again. Discord answers the resend (its nonce) with
// Unknown Message: the board was delivered, and the match keeps its channel.
func TestSentBoardDeletedBeforeItsRetry(t *testing.T) {
	t.Parallel()
	h := newHarnessOn(t, []discordtest.Option{discordtest.WithClientTimeout(2 * time.Second)})
	h.startClassic()
	h.waitMoves(1, 0)
	h.srv.DelayNextIn(t, "POST /channels/{channel_id}/messages", h.channel, 1, 2500*time.Millisecond)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitStored(1, 1)
	var board *discordtest.Message
	h.srv.WaitFor(t, "the late board", func() bool {
		for _, msg := range h.srv.ChannelMessages(h.channel) {
			if strings.Contains(msg.Content, "alice moved A4-A5") {
				board = msg
			}
		}
		return board != nil
	})
	h.srv.WaitFor(t, "the board to be put off", func() bool {
		due, err := h.db.DueNotices(context.Background(), h.clock.Now().Add(time.Hour), 0)
		return err == nil && len(due) == 1 && due[0].Attempts == 1
	})
	h.srv.DeleteMessage(board.ID)
	h.advance(backoff(1, 0))
	h.outboxEmpty()
	if m := h.match(1); m.PublicGone {
		t.Error("the match gave its channel up")
	}
	for _, who := range []*discordtest.Member{h.alice, h.bob} {
		if n := countDMs(who, "no longer post"); n != 0 {
			t.Errorf("%s was told the channel is out of reach", who.Name)
		}
	}
}

// TestClosedDMsToldInEachMatch: Bob's DMs are closed. His first match's
// channel is told so, with what to do instead; so is the channel of a
// second match, where his set-up invite cannot reach him either, though the
// bot already knew his DMs were closed. Within one match it is said once.
func TestClosedDMsToldInEachMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.bob.CloseDMs()
	told := func(ch *discordtest.Channel) int {
		n := 0
		for _, m := range h.srv.ChannelMessages(ch) {
			if strings.Contains(m.Content, "can't send you direct messages") && strings.Contains(m.Content, "<@"+h.bob.ID+">") {
				n++
			}
		}
		return n
	}
	general := h.channel
	h.challenge("Classic")
	h.outboxEmpty()
	if n := told(general); n != 1 {
		t.Fatalf("the first match's channel was told %d times that Bob's DMs are closed, want once", n)
	}
	games := h.guild.AddChannel("games")
	h.channel = games
	h.challenge("Classic")
	h.outboxEmpty()
	if n := told(games); n != 1 {
		t.Errorf("the second match's channel was told %d times that Bob's DMs are closed, want once", n)
	}
	// The first match starts: Bob's board of it fails again, and its
	// channel is not told again.
	invite := h.alice.WaitDM(t, func(m *discordtest.Message) bool {
		return strings.Contains(m.Content, "Send me your secret set-up") && strings.Contains(m.Content, "Match #1")
	})
	preview := h.alice.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	setup := h.bob.SlashCommand(t, general, "stratego setup", discordtest.Opt("match", "1")).Reply(t)
	preview = h.bob.ClickButton(t, setup, button(t, setup, "Random")).Reply(t)
	h.bob.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	h.alice.WaitDM(t, contains("the match begins"))
	h.outboxEmpty()
	if n := told(general); n != 1 {
		t.Errorf("the first match's channel was told %d times that Bob's DMs are closed, want once", n)
	}
}

// sharedClock lets the local Discord read the bot's clock, which the
// harness makes: Discord's nonce window is then measured on the time the
// test moves.
type sharedClock struct {
	c atomic.Pointer[discordtest.FakeClock]
}

func (s *sharedClock) Now() time.Time {
	if c := s.c.Load(); c != nil {
		return c.Now()
	}
	return T0
}

// TestLateAnswerThenOutage: Bob's board is made, but Discord's answer
// comes too late, and Discord then fails the DMs for over two minutes. The
// outbox keeps trying, with its back-off, until Discord answers, long after
// the few minutes a nonce keeps a create from being made twice. Bob still
// gets his board once, and his time starts when it arrived.
func TestLateAnswerThenOutage(t *testing.T) {
	t.Parallel()
	var clock sharedClock
	h := newHarnessOn(t, []discordtest.Option{discordtest.WithClock(&clock), discordtest.WithClientTimeout(2 * time.Second)})
	clock.c.Store(h.clock)
	h.startClassic()
	h.waitMoves(1, 0)
	const create = "POST /channels/{channel_id}/messages"
	bobDM := h.bob.DM()
	h.srv.DelayNextIn(t, create, bobDM, 1, 2500*time.Millisecond)
	h.srv.FailNextIn(t, create, bobDM, 5, 503)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitStored(1, 1)
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	arrived := h.clock.Now()
	h.srv.WaitFor(t, "the bot to see its DM made", func() bool {
		h.bot.made.mu.Lock()
		defer h.bot.made.mu.Unlock()
		for _, made := range h.bot.made.watched {
			if !made.at.IsZero() {
				return true
			}
		}
		return false
	})
	for k := 0; ; k++ {
		due, err := h.db.DueNotices(context.Background(), h.clock.Now().Add(24*time.Hour), 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			break
		}
		if k == 20 {
			t.Fatalf("still owed after 20 tries: %+v", due)
		}
		h.advance(max(time.Second, due[0].NextTry.Sub(h.clock.Now())))
	}
	if n := countDMs(h.bob, "alice moved A4-A5"); n != 1 {
		t.Errorf("Bob got his board %d times, want once", n)
	}
	if m := h.match(1); m.ClockPending || !m.Deadline.Equal(arrived.Add(m.MoveTime)) {
		t.Errorf("Bob's clock: pending %v, deadline %v after his board arrived; want %v", m.ClockPending, m.Deadline.Sub(arrived), m.MoveTime)
	}
}

// TestStaleDMChannel: the DM channel kept for Bob names a channel Discord
// does not know (the database was moved to another bot application, say).
// The bot opens his DM anew and sends his board there, rather than tell
// the channel he closed his DMs and give his board up.
func TestStaleDMChannel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.waitMoves(1, 0)
	h.shutdown()
	db, err := bolt.Open(bolt.Options{Path: h.dbPath, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	stale := h.srv.UnknownID()
	if _, err := db.UpdatePlayer(context.Background(), h.bob.ID, func(p *storage.PlayerSettings) error {
		p.DMChannel = stale
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	h.start()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.outboxEmpty()
	if n := countDMs(h.bob, "alice moved A4-A5"); n != 1 {
		t.Errorf("Bob got his board %d times, want once", n)
	} else if imgs, err := h.bob.WaitDM(t, contains("alice moved A4-A5")).Images(); err != nil || len(imgs) != 1 {
		t.Errorf("Bob's board shows %d pictures (%v); want his board", len(imgs), err)
	}
	if n := h.channelCount("can't send you direct messages"); n != 0 {
		t.Errorf("the channel was told %d times that Bob's DMs are closed", n)
	}
	if p, err := h.db.Player(context.Background(), h.bob.ID); err != nil || p.DMChannel == stale {
		t.Errorf("Bob's DM channel is still the stale one (%v)", err)
	}
}
