package bot

import (
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// TestDMGuessInTheMembersLanguage: the bot names the pieces in each
// member's language, on every board and in every message, so an
// infiltration typed in the DM may name its guess so too ("A7~A8=Kolonel"),
// as well as in English or by its letter or number. Each language plays
// the same infiltration of match #6 (frank's Infiltrator on A7, carol's
// Colonel on A8), a guess that is right and takes the Colonel.
func TestDMGuessInTheMembersLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ locale, text string }{
		{"nl", "A7~A8=Kolonel"},
		{"de", "a7~a8 = oberst"},
		{"fr", "A7~A8=Colonel"},
		{"en", "A7~A8=colonels"},
		{"nl", "A7~A8=kolonels"},
		{"de", "A7~A8=Oberste"},
	} {
		t.Run(tc.locale+" "+tc.text, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			frank := h.guild.AddMember("frank")
			var id storage.MatchID
			h.fixtures(func() { id = infiltratorMatch(t, h, frank, h.carol).ID })
			frank.SetLocale(tc.locale)
			frank.SlashCommand(t, h.channel, "stratego rules").Reply(t) // DMs follow the locale last used
			sent := frank.SendDM(t, tc.text)
			// A refusal answers the DM; a move played brings frank's board.
			if reply := frank.WaitDM(t, nil); reply.MessageReference != nil && reply.MessageReference.MessageID == sent.ID {
				t.Fatalf("%q was refused: %q", tc.text, reply.Content)
			}
			m := h.waitMoves(id, 13)
			if last := m.Log[len(m.Log)-1]; last.Move.Guess != game.Colonel {
				t.Fatalf("played %v (guess %v), want the guess Colonel", last.Move, last.Move.Guess)
			}
		})
	}
}
