package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
)

// TestLabelOn: a text names a button as the message the member clicked shows
// it, whatever the member's own language; without that message, in the
// language the button is drawn in.
func TestLabelOn(t *testing.T) {
	challenge := &discordgo.Message{Components: challengeButtons(lang.For("de"), 7, "")}
	tests := []struct {
		name     string
		msg      *discordgo.Message
		act      string
		fallback lang.Printer
		key      string
		want     string
	}{
		{"the channel's German button, for a Dutch member", challenge, actCancel, lang.For("nl"), txtCancel, "**Abbrechen**"},
		{"another button of the same message", challenge, actAccept, lang.For("fr"), txtAccept, "**Annehmen**"},
		{"no message: the fallback's language", nil, actCancel, lang.For("nl"), txtCancel, "**Annuleren**"},
		{"no such button on the message", challenge, actEdit, lang.For("fr"), txtEdit, "**Modifier**"},
	}
	for _, tc := range tests {
		if got := labelOn(tc.msg, tc.act, tc.fallback, tc.key); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
