package bot

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/tournament"
)

// TestTournamentBotRemovedAfterANoReach: an organiser who does not play,
// told earlier the same day that the tournament's channel was out of reach
// (one such note a day), is still told that the tournament is cancelled
// when the bot is removed from the server: that is no second note of a
// lost channel, but news of a stored change, and nobody else tells them.
func TestTournamentBotRemovedAfterANoReach(t *testing.T) {
	t.Parallel()
	h := newTourney(t, "dave")
	players := []*discordtest.Member{h.bob, h.carol}
	for _, m := range h.members {
		if m.Name == "dave" {
			players = append(players, m)
		}
	}
	other := h.srv.AddGuild("Another Club")
	other.Join(h.alice)
	for _, m := range players {
		other.Join(m)
	}
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 2),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	for _, m := range players {
		h.expect(h.run(m, "join"), "You joined")
	}
	// The bot may no longer post in the tournament's channel: the round's
	// pairings do not go out, and the organiser is told so.
	h.channel.SetOverwrite(h.srv.Bot(), discordgo.PermissionViewChannel, discordgo.PermissionSendMessages)
	overwritesKnown(h.harness, h.channel, 1)
	h.advance(time.Hour)
	h.alice.WaitDM(t, contains("I could not post an announcement of **Cup**"))

	h.advance(time.Hour) // the same day
	h.guild.KickBot()
	h.srv.WaitFor(t, "the tournament cancelled", func() bool {
		tt, s := h.stored()
		return tt.Done && s.Status() == tournament.CancelledStatus
	})
	h.advance(time.Minute)
	const cancelled = "**Cup** is cancelled: I was removed from the server it was played in."
	for _, p := range players {
		p.WaitDM(t, contains(cancelled+" The standings as they were:"))
	}
	h.alice.WaitDM(t, contains(cancelled))
	h.outboxEmpty()
	if n := countDMs(h.alice, cancelled); n != 1 {
		t.Errorf("the organiser was told %d times that the tournament is cancelled, want once", n)
	}
}
