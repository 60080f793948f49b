package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestTournamentCallOffInEachLanguage: a tournament game its tournament
// calls off (a withdrawal, a moderator's removal, the round's deadline)
// tells each player why in their own language, whatever the server's: a
// German-speaking player on an English server reads the reason in German,
// the English-speaking one in English.
func TestTournamentCallOffInEachLanguage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		end    func(h *tourney)
		de, en string
	}{
		{"withdrawal", func(h *tourney) { h.run(h.bob, "withdraw") },
			"(Cup: bob hat sich zurückgezogen)", "(Cup: bob withdrew)"},
		{"removal", func(h *tourney) { h.expect(h.run(h.alice, "remove", discordtest.Opt("player", h.bob)), "You took") },
			"(Cup: Ein Moderator hat bob entfernt)", "(Cup: a moderator removed bob)"},
		{"deadline", func(h *tourney) { h.advance(24 * time.Hour) },
			"(Cup: Die Frist der Runde ist abgelaufen)", "(Cup: the round's deadline passed)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			h.bobMeetsCarol(discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "24h"))
			h.bob.SetLocale("de") // his client's language from now on
			h.expect(h.run(h.bob, "standings"), "Spieler")
			tc.end(h)
			h.bob.WaitDM(t, contains("Die Partie wurde abgesagt "+tc.de))
			h.carol.WaitDM(t, contains("The match is called off "+tc.en))
		})
	}
}
