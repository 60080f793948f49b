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
			callOff: func(h *tourney, m *storage.Match) {
				// The reminder comes at half time; one due only after the
				// deadline is dropped, so the clock passes it first.
				h.advance(40 * time.Minute)
				h.members[m.Players[game.Blue].UserID].WaitDM(h.t, contains("if it is not in by then"))
				h.advance(2 * time.Hour)
			},
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
			h.channelSays("**Cup** is over")
			if n := h.channelCount(" wins. Final standings:"); tc.result == tournament.DoubleForfeit && n != 0 {
				t.Errorf("the end named a winner of a tournament whose one game both forfeited")
			}
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

// TestTournamentBotRemoved: removing the bot from a server cancels its
// tournaments there, before it calls off their games: no game of the
// round under way is scored as a forfeit for the removal, no later round
// is paired for a server the bot is no longer in, and the players it can
// still reach by DM (through another server) are told, with the standings
// as they were. Its organiser is not asked for the channel's permissions:
// told of the cancellation as a player, or, not playing, in a line.
func TestTournamentBotRemoved(t *testing.T) {
	for _, organiserPlays := range []bool{true, false} {
		t.Run(map[bool]string{true: "the organiser plays", false: "the organiser does not play"}[organiserPlays], func(t *testing.T) {
			t.Parallel()
			h := newTourney(t, "dave")
			players := []*discordtest.Member{h.bob, h.carol}
			if organiserPlays {
				players = append(players, h.alice)
			} else {
				for _, m := range h.members {
					if m.Name == "dave" {
						players = append(players, m)
					}
				}
			}
			other := h.srv.AddGuild("Another Club")
			other.Join(h.alice)
			for _, m := range players {
				if m != h.alice {
					other.Join(m)
				}
			}
			h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 2),
				discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
			for _, m := range players {
				h.expect(h.run(m, "join"), "You joined")
			}
			h.advance(time.Hour)
			m := h.roundMatches(1)[0]
			h.setUp(m, game.Red)

			h.guild.KickBot()
			h.srv.WaitFor(t, "the match called off", func() bool { return h.match(m.ID).Phase == storage.PhaseAbandoned })
			h.advance(time.Minute) // the timers' pass: no round 2
			const cancelled = "**Cup** is cancelled: I was removed from the server it was played in."
			for _, p := range players {
				p.WaitDM(t, contains(cancelled+" The standings as they were:"))
			}
			if !organiserPlays {
				h.alice.WaitDM(t, contains(cancelled))
			}
			h.outboxEmpty()
			for _, dm := range h.alice.DMs() {
				if strings.Contains(dm.Content, "I need to see that channel") {
					t.Errorf("the organiser is asked for permissions of a server the bot left: %q", dm.Content)
				}
			}
			tt, s := h.stored()
			if !tt.Done || s.Status() != tournament.CancelledStatus || len(s.Rounds()) != 1 || len(tt.Games) != 1 {
				t.Fatalf("after the removal: done %v, %s, %d rounds, %d matches; want cancelled in round 1", tt.Done, s.Status(), len(s.Rounds()), len(tt.Games))
			}
			if got := s.Rounds()[0].Games[0].Result; got != tournament.Pending {
				t.Errorf("the game on when the bot was removed scored %s, want nothing", got)
			}
			if got := h.match(m.ID).CalledOff; got != storage.CallOffTournament {
				t.Errorf("the game on was called off for %s, want by its tournament's cancel", got)
			}
		})
	}
}
