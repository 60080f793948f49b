package bot

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestDMHelpInfiltratesOnlyWithInfiltrators: the help a DM that is not a
// move gets says how an infiltration reads (`E8~E10=F`) only to a member
// with a match of Infiltrators, in every language: alice, whose one match
// is Classic, was told how to infiltrate, which no piece of hers can.
// Frank, who plays the Infiltrator variant, is still told.
func TestDMHelpInfiltratesOnlyWithInfiltrators(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch() // #1: alice (Red, to move) against bob, Classic
	frank := h.guild.AddMember("frank")
	h.fixtures(func() { infiltratorMatch(t, h, frank, h.carol) }) // #2: frank's, the Infiltrator variant
	answer := func(who *discordtest.Member, text string) string {
		t.Helper()
		sent := who.SendDM(t, text)
		return who.WaitDM(t, func(m *discordtest.Message) bool {
			return m.MessageReference != nil && m.MessageReference.MessageID == sent.ID
		}).Content
	}
	for _, locale := range []string{"en", "nl", "de", "fr"} {
		for _, who := range []*discordtest.Member{h.alice, frank} {
			who.SetLocale(locale)
			who.SlashCommand(t, h.channel, "stratego rules").Reply(t) // DMs follow the locale last used
			for _, text := range []string{"A4A5A6", "Z9-A1", "A4~A5"} {
				got := answer(who, text)
				if says := strings.Contains(got, "`E8~E10=F`"); says != (who == frank) {
					t.Errorf("%s's answer to %q in %s says how to infiltrate: %v: %q", who.Name, text, locale, says, got)
				}
				if !strings.Contains(got, "`B4-B5`") && !strings.Contains(got, "=") {
					t.Errorf("%s's answer to %q in %s says nothing of how a move reads: %q", who.Name, text, locale, got)
				}
			}
		}
	}
}
