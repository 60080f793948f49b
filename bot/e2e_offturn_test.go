package bot

import (
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestMoveOffTurn: bob, whose one match waits for alice's move, tries to
// move with `/stratego move` and by DM. Both answers say, in his language,
// that none of his matches waits for his move: the command's said only
// that none waited "for that".
func TestMoveOffTurn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ locale, want string }{
		{"", "None of your matches is waiting for your move right now. `/stratego games` lists them."},
		{"nl", "Geen van je partijen wacht nu op jouw zet. `/stratego games` toont ze."},
		{"fr", "Aucune de vos parties n'attend votre coup pour l'instant. `/stratego games` les liste."},
	} {
		t.Run("locale "+tc.locale, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			h.bob.SetLocale(tc.locale)
			if got := h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A7"), discordtest.Opt("to", "A6")).Reply(t).Content; got != tc.want {
				t.Errorf("the command answered %q, want %q", got, tc.want)
			}
			n := len(h.bob.DMs())
			h.bob.SendDM(t, "A7-A6")
			h.srv.WaitFor(t, "the bot's answer to bob's DM", func() bool { return len(h.bob.DMs()) > n+1 })
			if got := lastDM(h.bob).Content; got != tc.want {
				t.Errorf("the DM answered %q, want %q", got, tc.want)
			}
		})
	}
}
