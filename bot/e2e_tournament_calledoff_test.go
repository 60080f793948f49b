package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// TestTournamentMatchCalledOff: a tournament match called off before the
// round's deadline, with only Red's set-up confirmed. Its tournament scores
// it, so nobody is told "no result": a late set-up is the late player's
// forfeit, and the reminder before it says so; a moderator's call-off is a
// forfeit of both, since it decides nothing between the players, and gives
// no win to whoever set up first.
func TestTournamentMatchCalledOff(t *testing.T) {
	tests := []struct {
		name     string
		moveTime string
		callOff  func(h *tourney, m *storage.Match)
		result   tournament.Result
		reminder string // what Blue's set-up reminder says, if one is due
		told     string // what the players and the channel are told
	}{
		{
			name: "late set-up", moveTime: "1h",
			callOff:  func(h *tourney, m *storage.Match) { h.advance(2 * time.Hour) },
			result:   tournament.BlueForfeited,
			reminder: "if it is not in by then, the tournament counts this game as lost by forfeit.",
			told:     "It is not rated; the tournament counts it as lost by forfeit by each player whose set-up did not arrive.",
		},
		{
			name: "a moderator", moveTime: "24h",
			callOff: func(h *tourney, m *storage.Match) {
				reply := h.alice.SlashCommand(h.t, h.channel, "stratego cancel", discordtest.Opt("match", m.ID.String()),
					discordtest.Opt("reason", "a mix-up")).Reply(h.t)
				h.expect(reply, "is called off: its tournament counts it as lost by forfeit by both players.")
			},
			result: tournament.DoubleForfeit,
			told:   "a moderator decided so (alice: a mix-up). It is not rated; the tournament counts it as lost by forfeit by both players.",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			m := h.bobMeetsCarol(discordtest.Opt("move_time", tc.moveTime))
			h.setUp(m, game.Red)
			tc.callOff(h, m)
			h.srv.WaitFor(t, "the match called off", func() bool { return h.match(m.ID).Phase == storage.PhaseAbandoned })
			h.channelSays("**Cup** is over.")
			h.outboxEmpty()
			if _, s := h.stored(); s.Rounds()[0].Games[0].Result != tc.result {
				t.Errorf("the tournament scored %s, want %s", s.Rounds()[0].Games[0].Result, tc.result)
			}
			h.channelSays(tc.told)
			for _, side := range []game.Side{game.Red, game.Blue} {
				h.members[m.Players[side].UserID].WaitDM(t, contains(tc.told))
			}
			if tc.reminder != "" {
				h.members[m.Players[game.Blue].UserID].WaitDM(t, contains(tc.reminder))
			}
			for _, msg := range append(h.srv.ChannelMessages(h.channel), append(h.bob.DMs(), h.carol.DMs()...)...) {
				if strings.Contains(msg.Content, "no result") || strings.Contains(msg.Content, "No result") {
					t.Errorf("a tournament game is said to end with no result: %q", msg.Content)
				}
			}
		})
	}
}
