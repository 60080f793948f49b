package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestFollowerWhoLosesSight: /stratego watch lets a member follow only a
// match whose channel they can see, so one who no longer can (an overwrite
// shuts them out, their role is taken, they left the server though the bot
// still reaches them by DM through another) stops following, quietly, and
// gets the public board no more; a follower who still sees the channel
// goes on getting it. An overwrite is seen at once (the gateway tells the
// bot); a member's own roles, which no event of the bot's intents carries,
// within memberRolesFor, or at once when Discord has told the bot since:
// an interaction of theirs in the server carries their roles, and a
// question about them answered that they are no member.
func TestFollowerWhoLosesSight(t *testing.T) {
	t.Parallel()
	view := int64(discordgo.PermissionViewChannel)
	for _, tc := range []struct {
		name string
		shut func(t *testing.T, h *harness, club *discordtest.Role)
	}{
		{"an overwrite shuts them out", func(t *testing.T, h *harness, _ *discordtest.Role) {
			h.channel.SetOverwrite(h.carol, 0, view)
			overwritesKnown(h, h.channel, 4)
		}},
		{"their role is taken", func(t *testing.T, h *harness, club *discordtest.Role) {
			h.guild.TakeRole(h.carol, club)
			h.advance(memberRolesFor)
		}},
		{"their role is taken, then they use the bot elsewhere in the server", func(t *testing.T, h *harness, club *discordtest.Role) {
			h.guild.TakeRole(h.carol, club)
			h.carol.SlashCommand(t, h.guild.AddChannel("lobby"), "stratego games").Reply(t)
		}},
		{"they left the server", func(t *testing.T, h *harness, _ *discordtest.Role) {
			h.srv.AddGuild("Another Club").Join(h.carol) // her DMs still open to the bot
			h.guild.RemoveMember(h.carol)
			h.advance(memberRolesFor)
		}},
		{"they left the server, and Discord told the bot so", func(t *testing.T, h *harness, _ *discordtest.Role) {
			h.srv.AddGuild("Another Club").Join(h.carol)
			h.guild.RemoveMember(h.carol)
			// As a tournament's member check or another member's seek asks.
			if !h.bot.hasLeft(t.Context(), h.guild.ID, h.carol.ID) {
				t.Fatal("Discord did not say carol left")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.startClassic()
			h.waitMoves(1, 0)
			dave := h.guild.AddMember("dave")
			// The match's channel is the club's: alice, bob, carol, dave and the bot.
			club := h.guild.AddRole("club", 0)
			for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol, dave} {
				h.guild.GiveRole(m, club)
			}
			h.channel.SetOverwrite(h.guild.Everyone(), 0, view)
			h.channel.SetOverwrite(club, view, 0)
			h.channel.SetOverwrite(h.srv.Bot(), view|discordgo.PermissionSendMessages|discordgo.PermissionAttachFiles, 0)
			overwritesKnown(h, h.channel, 3)
			for _, m := range []*discordtest.Member{h.carol, dave} {
				m.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt(optMatch, "1"), discordtest.Opt(optFollow, true)).Reply(t)
			}
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			h.carol.WaitDM(t, contains("A4-A5"))
			dave.WaitDM(t, contains("A4-A5"))

			tc.shut(t, h, club)
			h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
			dave.WaitDM(t, contains("J7-J6"))
			h.outboxEmpty()
			if n := countDMs(h.carol, "J7-J6"); n != 0 {
				t.Errorf("carol, who can no longer see the match's channel, got its board %d times", n)
			}
			if n := len(h.carol.DMs()); n != 1 {
				t.Errorf("carol got %d DMs, want the first board only (she stops quietly)", n)
			}
			if f, err := h.db.Followers(t.Context(), 1); err != nil || len(f) != 1 || f[0] != dave.ID {
				t.Errorf("match #1's followers: %v (%v); want dave only", f, err)
			}
		})
	}
}

// overwritesKnown waits for the bot's state to hold n overwrites of ch.
func overwritesKnown(h *harness, ch *discordtest.Channel, n int) {
	h.t.Helper()
	h.srv.WaitFor(h.t, "the bot's state to hold the channel's overwrites", func() bool {
		c, err := h.bot.s.State.Channel(ch.ID)
		if err != nil {
			return false
		}
		h.bot.s.State.RLock()
		defer h.bot.s.State.RUnlock()
		return len(c.PermissionOverwrites) == n
	})
}
