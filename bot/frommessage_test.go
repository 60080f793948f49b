package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestFromItsMessage: a click or a choice is taken only from a control its
// message shows, enabled, of its kind, with values among a menu's options.
func TestFromItsMessage(t *testing.T) {
	menu := &discordgo.SelectMenu{CustomID: "mt:piece:1:0", Options: []discordgo.SelectMenuOption{{Label: "A4", Value: "A4"}, {Label: "B4", Value: "B4"}}}
	msg := &discordgo.Message{Components: []discordgo.MessageComponent{
		&discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}},
		&discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			&discordgo.Button{CustomID: "ch:acc:1:0:red"},
			&discordgo.Button{CustomID: "ch:dec:1:0:red", Disabled: true},
			&discordgo.Button{Style: discordgo.LinkButton, URL: "https://example.org/b"},
		}},
	}}
	click := func(id string) discordgo.MessageComponentInteractionData {
		return discordgo.MessageComponentInteractionData{CustomID: id, ComponentType: discordgo.ButtonComponent}
	}
	choose := func(id string, values ...string) discordgo.MessageComponentInteractionData {
		return discordgo.MessageComponentInteractionData{CustomID: id, ComponentType: discordgo.SelectMenuComponent, Values: values}
	}
	tests := []struct {
		name string
		msg  *discordgo.Message
		data discordgo.MessageComponentInteractionData
		want bool
	}{
		{"a button on the message", msg, click("ch:acc:1:0:red"), true},
		{"a button with another colour", msg, click("ch:acc:1:0:blue"), false},
		{"a disabled button", msg, click("ch:dec:1:0:red"), false},
		{"a button of another message", msg, click("sk:leave:0"), false},
		{"a menu's id sent as a click", msg, click("mt:piece:1:0"), false},
		{"a button's id sent as a choice", msg, choose("ch:acc:1:0:red", "A4"), false},
		{"an option of the menu", msg, choose("mt:piece:1:0", "B4"), true},
		{"a value the menu does not offer", msg, choose("mt:piece:1:0", "J10"), false},
		{"an offered value and one more", msg, choose("mt:piece:1:0", "A4", "J10"), false},
		{"no message", nil, click("ch:acc:1:0:red"), false},
		{"an empty id", msg, click(""), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i := &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Message: tc.msg, Data: tc.data}
			if got := fromItsMessage(i); got != tc.want {
				t.Errorf("fromItsMessage = %v, want %v", got, tc.want)
			}
		})
	}
}
