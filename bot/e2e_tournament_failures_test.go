package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/tournament"
)

// TestTournamentResultNotLost: a game of a tournament ends while the
// database is briefly away, so that its result is not recorded when it
// ends. The game's real result still counts: at the latest when the
// round's deadline comes, not as a game unfinished at the deadline.
func TestTournamentResultNotLost(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 1),
		discordtest.Opt("starts_in_hours", 1), discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "1h")), "Tournament #1")
	h.expect(h.run(h.bob, "join"), "You joined")
	h.expect(h.run(h.carol, "join"), "You joined")
	h.advance(time.Hour)
	m := h.roundMatches(1)[0]
	h.reads.failTournament.Store(1) // the result's record fails
	h.play(m, game.Blue)
	h.advance(24 * time.Hour)
	h.channelSays("**Cup** is over. Final standings:")
	_, s := h.stored()
	for _, g := range s.Rounds()[0].Games {
		if !g.IsBye() && g.Result != tournament.RedWon {
			t.Errorf("the game Blue resigned is scored %s, want Red's win", g.Result)
		}
	}
}
