package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestFollowerKeptWhenChannelDeleted: a follower of a match whose channel
// is deleted goes on following it: the match goes on by DM, and the
// boards by DM are the follower's only view of it, as they are its
// players'. The bot learnt that the channel is gone and took it for one
// the follower no longer sees, and stopped the following without a word.
// One who left the server stops, as ever; one who follows may stop.
func TestFollowerKeptWhenChannelDeleted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.waitMoves(1, 0)
	if got := watchIn(t, h.carol, h.channel, discordtest.Opt(optFollow, true)); !strings.Contains(got, "You now follow Match #1") {
		t.Fatalf("carol's follow: %q", got)
	}
	dave := h.guild.AddMember("dave")
	if got := watchIn(t, dave, h.channel, discordtest.Opt(optFollow, true)); !strings.Contains(got, "You now follow Match #1") {
		t.Fatalf("dave's follow: %q", got)
	}
	h.channel.Delete()
	h.srv.AddGuild("Another Club").Join(dave) // his DMs still open to the bot
	h.guild.RemoveMember(dave)
	h.advance(memberRolesFor)
	h.srv.WaitFor(t, "the bot's state to lose the channel", func() bool {
		_, err := h.bot.s.State.Channel(h.channel.ID)
		return err != nil
	})
	h.alice.SendDM(t, "A4-A5")
	h.waitMoves(1, 1)
	h.outboxEmpty()
	if n := countDMs(h.carol, "A4-A5"); n != 1 {
		t.Errorf("carol, who follows the match whose channel was deleted, got its board %d times, want once", n)
	}
	if n := len(dave.DMs()); n != 0 {
		t.Errorf("dave, who left the server, got %d DMs", n)
	}
	if f := followers(t, h); len(f) != 1 || f[0] != h.carol.ID {
		t.Errorf("match #1's followers: %v, want carol only", f)
	}
	// The board's footer tells her how to stop, which she can, though
	// nobody sees the match's channel any more.
	if got := watchIn(t, h.carol, h.guild.AddChannel("lobby"), discordtest.Opt(optFollow, false)); !strings.Contains(got, "You no longer follow Match #1") {
		t.Errorf("carol stopping: %q", got)
	}
	if f := followers(t, h); len(f) != 0 {
		t.Errorf("match #1's followers once carol stopped: %v", f)
	}
}

// TestFollowerKeptWhenThreadsChannelDeleted: a match played in a thread (a
// challenge made there) whose channel is deleted, which takes the thread
// with it, keeps its follower as one whose channel is deleted does.
// Discord tells the bot of the channel only, so the state still holds the
// thread: it was taken for a channel the follower no longer sees, and the
// following stopped without a word.
func TestFollowerKeptWhenThreadsChannelDeleted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	thread := startThread(h, discordgo.ChannelTypeGuildPublicThread)
	h.challengeIn(thread)
	h.sendSetups(placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag}),
		placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag}))
	h.waitMoves(1, 0)
	if got := watchIn(t, h.carol, thread, discordtest.Opt(optFollow, true)); !strings.Contains(got, "You now follow Match #1") {
		t.Fatalf("carol's follow: %q", got)
	}
	h.channel.Delete()
	h.srv.WaitFor(t, "the bot's state to lose the channel", func() bool {
		_, err := h.bot.s.State.Channel(h.channel.ID)
		return err != nil
	})
	h.alice.SendDM(t, "A4-A5")
	h.waitMoves(1, 1)
	h.outboxEmpty()
	if n := countDMs(h.carol, "A4-A5"); n != 1 {
		t.Errorf("carol, who follows the match whose thread's channel was deleted, got its board %d times, want once", n)
	}
	if f := followers(t, h); len(f) != 1 || f[0] != h.carol.ID {
		t.Errorf("match #1's followers: %v, want carol", f)
	}
}
