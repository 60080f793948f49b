package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestTournamentInAPrivateChannel: a league played in a channel that only
// some members see (its role's) is, for a member who cannot see that
// channel, no tournament at all, as a match there is for /stratego watch:
// from any other channel they neither find it in the list, nor read its
// standings, nor join it, by its number or as the server's only one. Its
// players, its organiser, a moderator and a member who sees the channel
// know it from anywhere.
func TestTournamentInAPrivateChannel(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	dave, erin := h.guild.AddMember("dave"), h.guild.AddMember("erin")
	h.members[dave.ID], h.members[erin.ID] = dave, erin
	lobby := h.guild.AddChannel("lobby")
	view := int64(discordgo.PermissionViewChannel)
	// The league's channel: alice (a moderator), bob, carol, erin and the bot.
	h.channel.SetOverwrite(h.guild.Everyone(), 0, view)
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol, erin} {
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
		return len(c.PermissionOverwrites) == 6
	})
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Inner league"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 1),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1: Inner league")
	h.expect(h.run(h.bob, "join"), "You joined")

	from := func(m *discordtest.Member, sub string, args ...discordtest.Arg) string {
		t.Helper()
		return m.SlashCommand(t, lobby, "stratego tournament "+sub, args...).Reply(t).Content
	}
	one := discordtest.Opt("tournament", 1)
	for _, tc := range []struct {
		sub  string
		args []discordtest.Arg
		want string
	}{
		{"list", nil, "This server has no tournaments yet."},
		{"standings", nil, "This server has no tournament under way."},
		{"standings", []discordtest.Arg{one}, "This server has no tournament #1."},
		{"join", nil, "This server has no tournament under way."},
		{"join", []discordtest.Arg{one}, "This server has no tournament #1."},
	} {
		if got := from(dave, tc.sub, tc.args...); !strings.Contains(got, tc.want) || strings.Contains(got, "Inner league") {
			t.Errorf("%s %v by dave, who cannot see the league's channel: %q; want %q", tc.sub, tc.args, got, tc.want)
		}
	}
	if _, s := h.stored(); len(s.Players()) != 1 {
		t.Fatalf("players %+v; want bob alone", s.Players())
	}
	if got := from(erin, "join"); !strings.Contains(got, "You joined **Inner league**") {
		t.Errorf("erin, who sees the league's channel, joining from another: %q", got)
	}
	for _, m := range []*discordtest.Member{h.alice, h.bob, erin} {
		if got := from(m, "standings", one); !strings.Contains(got, "**Inner league**") {
			t.Errorf("%s's standings from another channel: %q", m.Name, got)
		}
		if got := from(m, "list"); !strings.Contains(got, "#1 **Inner league**") {
			t.Errorf("%s's list from another channel: %q", m.Name, got)
		}
	}
	// bob is a player: he keeps knowing it should he no longer see the channel.
	h.channel.SetOverwrite(h.bob, 0, view)
	h.srv.WaitFor(t, "the bot's state to hold bob's overwrite", func() bool {
		sees, _ := h.bot.channelSeen(t.Context(), h.guild.ID, h.channel.ID, h.bob.ID, nil, "")
		return !sees
	})
	if got := from(h.bob, "leave"); !strings.Contains(got, "You left **Inner league**") {
		t.Errorf("bob, a player who can no longer see the channel, leaving: %q", got)
	}
}
