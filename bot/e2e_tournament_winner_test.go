package bot

import (
	"fmt"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestTournamentEndNamesTheWinner: the end of a tournament names its
// winner, the first of the final standings, in the server's language.
func TestTournamentEndNamesTheWinner(t *testing.T) {
	for _, tc := range []struct{ locale, want string }{
		{"", "**Cup** is over: %s wins. Final standings:"},
		{"de", "**Cup** ist beendet: %s gewinnt. Endstand:"},
	} {
		t.Run("locale "+tc.locale, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			if tc.locale != "" {
				h.guild.SetLocale(tc.locale)
				h.shutdown()
				h.start() // a new session, whose GUILD_CREATE carries the server's locale
			}
			h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 1),
				discordtest.Opt("starts_in_hours", 1)), "Cup")
			h.expect(h.run(h.bob, "join"), "You joined")
			h.expect(h.run(h.carol, "join"), "You joined")
			h.advance(time.Hour)
			m := h.roundMatches(1)[0]
			h.play(m, game.Blue)
			h.advance(time.Second)
			h.channelSays(fmt.Sprintf(tc.want, h.members[m.Players[game.Red].UserID].Name))
		})
	}
}
