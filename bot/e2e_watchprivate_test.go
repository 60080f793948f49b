package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestWatchSeesOnlyVisibleChannels: /stratego watch shows a match "as the
// channel sees it", so a member who cannot see the match's channel is
// neither offered it nor shown it (nor can follow it): for them there is
// no such match. A member who can see the channel still watches it from
// any channel of the server.
func TestWatchSeesOnlyVisibleChannels(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic() // #1, in h.channel
	h.waitMoves(1, 0)
	lobby := h.guild.AddChannel("lobby")
	frank := h.guild.AddMember("frank")
	view := int64(discordgo.PermissionViewChannel)
	// The match's channel becomes private: alice, bob, carol and the bot.
	h.channel.SetOverwrite(h.guild.Everyone(), 0, view)
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
		h.channel.SetOverwrite(m, view, 0)
	}
	h.channel.SetOverwrite(h.srv.Bot(), view|discordgo.PermissionSendMessages|discordgo.PermissionAttachFiles, 0)
	h.srv.WaitFor(t, "the bot's state to hold the channel's overwrites", func() bool {
		c, err := h.bot.s.State.Channel(h.channel.ID)
		if err != nil {
			return false
		}
		h.bot.s.State.RLock()
		defer h.bot.s.State.RUnlock()
		return len(c.PermissionOverwrites) == 5
	})

	if choices := frank.Autocomplete(t, lobby, "stratego watch", discordtest.Focused(optMatch, "")); len(choices) != 0 {
		t.Errorf("frank, who cannot see the match's channel, is offered %+v", choices)
	}
	for _, args := range [][]discordtest.Arg{{discordtest.Opt(optMatch, "1")}, {discordtest.Opt(optMatch, "1"), discordtest.Opt(optFollow, true)}} {
		got := frank.SlashCommand(t, lobby, "stratego watch", args...).Reply(t)
		if !got.Ephemeral || !strings.Contains(got.Content, "no match #1") || len(got.Files) != 0 {
			t.Errorf("frank watching match #1 sees %q with %d files; want no such match", got.Content, len(got.Files))
		}
	}
	if followers, err := h.db.Followers(t.Context(), 1); err != nil || len(followers) != 0 {
		t.Errorf("match #1's followers: %v (%v); want none", followers, err)
	}

	if choices := h.carol.Autocomplete(t, lobby, "stratego watch", discordtest.Focused(optMatch, "")); len(choices) != 1 {
		t.Errorf("carol, who sees the match's channel, is offered %+v", choices)
	}
	got := h.carol.SlashCommand(t, lobby, "stratego watch", discordtest.Opt(optMatch, "1")).Reply(t)
	if !got.Ephemeral || len(got.Files) != 1 {
		t.Errorf("carol watching match #1 sees %q with %d files", got.Content, len(got.Files))
	}
}

// TestModeratorsAreOfferedEveryMatch: a moderator calls off or awards any
// running match of the server, in a channel they can see or not, so the
// match option of /stratego cancel and award offers them every one; that
// of /stratego watch, which shows the match, still only those of channels
// they can see.
func TestModeratorsAreOfferedEveryMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic() // #1, in h.channel
	h.waitMoves(1, 0)
	moderator(h) // carol: Manage Server, which shows no channel
	lobby := h.guild.AddChannel("lobby")
	view := int64(discordgo.PermissionViewChannel)
	h.channel.SetOverwrite(h.guild.Everyone(), 0, view)
	for _, m := range []*discordtest.Member{h.alice, h.bob} {
		h.channel.SetOverwrite(m, view, 0)
	}
	h.channel.SetOverwrite(h.srv.Bot(), view|discordgo.PermissionSendMessages|discordgo.PermissionAttachFiles, 0)
	h.srv.WaitFor(t, "the bot's state to hold the channel's overwrites", func() bool {
		c, err := h.bot.s.State.Channel(h.channel.ID)
		if err != nil {
			return false
		}
		h.bot.s.State.RLock()
		defer h.bot.s.State.RUnlock()
		return len(c.PermissionOverwrites) == 4
	})
	for _, tc := range []struct {
		cmd     string
		offered int
	}{{"stratego watch", 0}, {"stratego cancel", 1}, {"stratego award", 1}} {
		if choices := h.carol.Autocomplete(t, lobby, tc.cmd, discordtest.Focused(optMatch, "")); len(choices) != tc.offered {
			t.Errorf("/%s offers carol, a moderator who cannot see the match's channel, %d matches (%+v); want %d", tc.cmd, len(choices), choices, tc.offered)
		}
	}
}
