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

// TestDMHelpExampleIsTheReadersOwn: the help a DM that is not a move gets
// gives as examples a move and an infiltration of the reader's own side,
// in every language: bob, Blue, read `B4-B5`, a square of Red's, which he
// is refused when he types it as shown. The side is the match replied to,
// else the one the member plays in all their active matches; playing
// both, or none, the move's example is neutral.
func TestDMHelpExampleIsTheReadersOwn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch() // #1: alice (Red) against bob (Blue), Classic
	frank, dave := h.guild.AddMember("frank"), h.guild.AddMember("dave")
	h.fixtures(func() { infiltratorMatch(t, h, frank, h.carol) }) // #2: frank Red, carol Blue, Infiltrators
	var ofFirst *discordtest.Message                              // a DM of alice's about match #1
	for _, m := range h.alice.DMs() {
		if matchTitleRE.MatchString(m.Content) && strings.Contains(m.Content, "#1") {
			ofFirst = m
		}
	}
	if ofFirst == nil {
		t.Fatal("alice has no DM of match #1 to reply to")
	}
	h.fixtures(func() { infiltratorMatch(t, h, dave, h.alice) }) // #3: dave Red, alice Blue, Infiltrators
	answer := func(who *discordtest.Member, to *discordtest.Message, text string) string {
		t.Helper()
		var sent *discordtest.Message
		if to != nil {
			sent = who.Reply(t, to, text)
		} else {
			sent = who.SendDM(t, text)
		}
		return who.WaitDM(t, func(m *discordtest.Message) bool {
			return m.MessageReference != nil && m.MessageReference.MessageID == sent.ID
		}).Content
	}
	grace := h.guild.AddMember("grace")
	tests := []struct {
		who              *discordtest.Member
		to               *discordtest.Message
		move, infiltrate string // "": no infiltration said
	}{
		{h.bob, nil, "B7-B6", ""},
		{h.carol, nil, "B7-B6", "E3~E1=F"},
		{frank, nil, "B4-B5", "E8~E10=F"},
		{h.alice, nil, "E5-E6", "E3~E1=F"}, // Red in #1, Blue in #3: its Infiltrators
		{h.alice, ofFirst, "B4-B5", ""},    // replying to #1, Classic
		{grace, nil, "E5-E6", ""},          // no match
	}
	for _, locale := range []string{"en", "nl", "de", "fr"} {
		for _, tc := range tests {
			tc.who.SetLocale(locale)
			tc.who.SlashCommand(t, h.channel, "stratego rules").Reply(t) // DMs follow the locale last used
			for _, text := range []string{"hello", "Z9-A1", "A4~A5"} {
				got := answer(tc.who, tc.to, text)
				if !strings.Contains(got, "`"+tc.move+"`") && !(text == "A4~A5" && tc.infiltrate != "") {
					t.Errorf("%s's answer to %q in %s (replying: %v) gives no `%s`: %q", tc.who.Name, text, locale, tc.to != nil, tc.move, got)
				}
				for _, other := range []string{"B4-B5", "B7-B6", "E5-E6", "E8~E10=F", "E3~E1=F"} {
					if other != tc.move && other != tc.infiltrate && strings.Contains(got, other) {
						t.Errorf("%s's answer to %q in %s (replying: %v) gives `%s`: %q", tc.who.Name, text, locale, tc.to != nil, other, got)
					}
				}
				if tc.infiltrate != "" && !strings.Contains(got, "`"+tc.infiltrate+"`") {
					t.Errorf("%s's answer to %q in %s gives no `%s`: %q", tc.who.Name, text, locale, tc.infiltrate, got)
				}
			}
		}
	}
}
