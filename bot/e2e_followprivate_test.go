package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestFollowRefusedOutsidePrivateThread: a member the bot does not see
// seeing a match's channel, who asks to follow it from the public thread
// it is played in (the bot's view of the server lags Discord's), is
// refused as any member who does not see the match is: they were told the
// match is played in a private thread, which it is not.
func TestFollowRefusedOutsidePrivateThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	erin := h.guild.AddMember("erin")
	parent := h.channel
	thread := startThread(h, discordgo.ChannelTypeGuildPublicThread)
	h.channel = thread
	h.startClassic()
	h.waitMoves(1, 0)
	// The bot's state holds an overwrite that shuts erin out of the
	// thread's channel, which Discord no longer does.
	c, err := h.bot.s.State.Channel(parent.ID)
	if err != nil {
		t.Fatal(err)
	}
	h.bot.s.State.Lock()
	c.PermissionOverwrites = append(c.PermissionOverwrites, &discordgo.PermissionOverwrite{
		ID: erin.ID, Type: discordgo.PermissionOverwriteTypeMember, Deny: discordgo.PermissionViewChannel})
	h.bot.s.State.Unlock()
	got := watchIn(t, erin, thread, discordtest.Opt(optFollow, true))
	if strings.Contains(got, "private thread") || !strings.Contains(got, "This server has no match #1") {
		t.Errorf("erin following in the public thread: %q", got)
	}
	if f := followers(t, h); len(f) != 0 {
		t.Errorf("followers %v, want none", f)
	}
}
