package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// The server changes under a match: its thread locked or archived, its
// channel deleted, a player gone, the bot removed or the server down. Each
// test changes the local Discord's world (not its answers) and plays on.

// publicBoards counts the public boards in ch that show move.
func publicBoards(h *harness, ch *discordtest.Channel, move string) int {
	n := 0
	for _, msg := range h.srv.ChannelMessages(ch) {
		if strings.Contains(msg.Content, move) && len(msg.Files) == 1 {
			n++
		}
	}
	return n
}

// TestThreadOutOfReach: a locked, a locked and archived, or a deleted
// thread moves the match to the thread's channel; a thread that archived
// itself after a week without moves comes back when the next board is
// posted. Every board is posted once.
func TestThreadOutOfReach(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		change     func(th *discordtest.Channel)
		inChannel  bool // the next board goes to the channel, not the thread
		stillAlive bool // the thread is active again afterwards
	}{
		{"archived, as Discord does after a quiet week", func(th *discordtest.Channel) { th.Archive() }, false, true},
		{"locked by a moderator", func(th *discordtest.Channel) { th.Lock() }, true, false},
		{"locked and archived", func(th *discordtest.Channel) { th.Lock(); th.Archive() }, true, false},
		{"deleted", func(th *discordtest.Channel) { th.Delete() }, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, func(c *Config) { c.Threads = true })
			h.startClassic()
			h.waitMoves(1, 0)
			m := h.match(1)
			th := h.srv.Channel(m.ThreadID)
			if th == nil {
				t.Fatal("the match has no thread")
			}
			tc.change(th)
			h.alice.SendDM(t, "A4-A5")
			h.waitMoves(1, 1)
			where := th
			if tc.inChannel {
				where = h.channel
			}
			h.srv.WaitFor(t, "the public board of move 1", func() bool { return publicBoards(h, where, "alice moved A4-A5") == 1 })
			m = h.match(1)
			if tc.inChannel != (m.ThreadID == "") {
				t.Errorf("after the change the match is in thread %q", m.ThreadID)
			}
			if tc.stillAlive && th.Archived() {
				t.Error("the thread is still archived after a board was posted in it")
			}
			// The game goes on in its new place.
			h.bob.SendDM(t, "J7-J6")
			h.waitMoves(1, 2)
			h.srv.WaitFor(t, "the public board of move 2", func() bool { return publicBoards(h, where, "bob moved J7-J6") == 1 })
			if n := publicBoards(h, where, "alice moved A4-A5"); n != 1 {
				t.Errorf("move 1's board was posted %d times", n)
			}
		})
	}
}

// TestChannelOutOfReach: a deleted channel, or one the bot may no longer
// post in, sends the match to DMs: both players are told once, nothing more
// is tried in the channel, and the moves go on.
func TestChannelOutOfReach(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(h *harness)
		want   string
	}{
		{"deleted", func(h *harness) { h.channel.Delete() }, "The match's channel was deleted"},
		{"the bot may not post", func(h *harness) { h.channel.SetOverwrite(h.srv.Bot(), 0, 1<<11) }, "I may no longer post in the match's channel"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.startClassic()
			h.waitMoves(1, 0)
			tc.change(h)
			h.alice.SendDM(t, "A4-A5")
			h.waitMoves(1, 1)
			for _, p := range []*discordtest.Member{h.alice, h.bob} {
				p.WaitDM(t, contains(tc.want))
			}
			if m := h.match(1); !m.PublicGone {
				t.Error("the match still counts on its channel")
			}
			sends := len(h.srv.Requests("POST /channels/{channel_id}/messages"))
			refused := refusedPosts(h, h.channel)
			h.bob.SendDM(t, "J7-J6")
			h.waitMoves(1, 2)
			h.alice.WaitDM(t, contains("bob moved J7-J6"))
			if n := refusedPosts(h, h.channel); n != refused {
				t.Errorf("the bot tried the channel %d more times after it was out of reach", n-refused)
			}
			if len(h.srv.Requests("POST /channels/{channel_id}/messages")) == sends {
				t.Error("no DM was sent for move 2")
			}
			for _, p := range []*discordtest.Member{h.alice, h.bob} {
				told := 0
				for _, dm := range p.DMs() {
					if strings.Contains(dm.Content, tc.want) {
						told++
					}
				}
				if told != 1 {
					t.Errorf("%s was told %d times", p.Name, told)
				}
			}
		})
	}
}

// refusedPosts counts the bot's refused posts in ch.
func refusedPosts(h *harness, ch *discordtest.Channel) int {
	n := 0
	for _, r := range h.srv.Requests("POST /channels/{channel_id}/messages") {
		if r.Status >= 400 && strings.Contains(r.Path, "/channels/"+ch.ID+"/") {
			n++
		}
	}
	return n
}

// TestPlayerLeaves: a player who leaves the server (and shares no other
// with the bot) can no longer be sent DMs. The channel is told they left,
// once; the match goes on, and they lose on time like anyone who does not
// move.
func TestPlayerLeaves(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.waitMoves(1, 0)
	h.guild.RemoveMember(h.bob)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.channelSays("bob has left the server")
	h.advance(25 * time.Hour)
	h.srv.WaitFor(t, "the time-out", func() bool { return h.match(1).Phase == storage.PhaseFinished })
	if m := h.match(1); m.Result.Outcome != game.RedWon || m.Result.Method != game.TimeForfeit {
		t.Errorf("after bob's deadline: %+v", m.Result)
	}
	if left := h.channelCount("has left the server"); left != 1 {
		t.Errorf("the channel was told %d times that bob left", left)
	}
}

// TestBotRemoved: removing the bot from a server calls off its matches
// there with no result and withdraws its challenges; players it can still
// reach by DM (through another server) are told. An outage changes nothing.
func TestBotRemoved(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	other := h.srv.AddGuild("Another Club")
	other.Join(h.alice)
	h.startClassic()
	h.waitMoves(1, 0)
	pending := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.carol)).Reply(t)
	if pending.Ephemeral {
		t.Fatalf("challenge refused: %q", pending.Content)
	}

	h.guild.Outage()
	time.Sleep(50 * time.Millisecond) // the GUILD_DELETE is handled (or not) by now
	h.guild.EndOutage()
	if m := h.match(1); m.Phase != storage.PhasePlaying {
		t.Fatalf("after an outage the match is %v", m.Phase)
	}

	h.guild.KickBot()
	h.srv.WaitFor(t, "the match called off", func() bool { return h.match(1).Phase == storage.PhaseAbandoned })
	h.bot.deliverDue(context.Background())
	if m := h.match(1); m.CalledOff != storage.CallOffBotRemoved || m.Result.Over() {
		t.Errorf("called off for %v with result %+v", m.CalledOff, m.Result)
	}
	h.alice.WaitDM(t, contains("I was removed from the server"))
	// The challenges are withdrawn after the matches are called off, and the
	// DM may come first.
	h.srv.WaitFor(t, "the challenge withdrawn", func() bool {
		c, err := h.db.PlayerChallenges(context.Background(), h.alice.ID)
		return err == nil && len(c) == 0
	})
}

// TestBotRemovedAfterChannelDeleted: a match whose channel was deleted goes
// on by DM, and the server no longer lists that channel; the bot's removal
// from the server still calls it off, and its players are told.
func TestBotRemovedAfterChannelDeleted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	other := h.srv.AddGuild("Another Club")
	other.Join(h.alice)
	h.startClassic()
	h.waitMoves(1, 0)
	h.channel.Delete()
	h.alice.SendDM(t, "A4-A5") // its board finds the channel gone
	h.waitMoves(1, 1)
	h.alice.WaitDM(t, contains("The match's channel was deleted"))

	h.guild.KickBot()
	h.srv.WaitFor(t, "the match called off", func() bool { return h.match(1).Phase == storage.PhaseAbandoned })
	h.bot.deliverDue(context.Background())
	if m := h.match(1); m.CalledOff != storage.CallOffBotRemoved {
		t.Errorf("called off for %v, want the bot's removal", m.CalledOff)
	}
	h.alice.WaitDM(t, contains("I was removed from the server"))
}
