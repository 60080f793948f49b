package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestOptionBoundsDeclared: outOfBounds can word every bound it reads from
// the declarations: a number with a most has a least, and every choice of a
// number is a number it knows.
func TestOptionBoundsDeclared(t *testing.T) {
	var walk func(path string, opts []*discordgo.ApplicationCommandOption)
	walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			switch o.Type {
			case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
				walk(path+" "+o.Name, o.Options)
			case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
				if o.MaxValue != 0 && o.MinValue == nil {
					t.Errorf("%s %s: a max_value without a min_value", path, o.Name)
				}
				b := optionBounds()[path[1:]][o.Name]
				if len(b.choices) != len(o.Choices) {
					t.Errorf("%s %s: %d choices read of %d", path, o.Name, len(b.choices), len(o.Choices))
				}
			}
		}
	}
	walk("", Commands()[0].Options)
}

// TestOptionOfAnotherForm: an option sent with another type than its
// declaration, or a value of another kind than its type, is refused before
// a handler reads it (discordgo's StringValue and BoolValue would panic,
// and the member would get no answer).
func TestOptionOfAnotherForm(t *testing.T) {
	sub := func(name string, o *discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand,
			Options: []*discordgo.ApplicationCommandInteractionDataOption{o}}
	}
	opt := func(name string, typ discordgo.ApplicationCommandOptionType, v any) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: typ, Value: v}
	}
	for _, tc := range []struct {
		name string
		sub  *discordgo.ApplicationCommandInteractionDataOption
		want string
	}{
		{"a text as a number", sub(cmdCancel, opt(optReason, discordgo.ApplicationCommandOptionString, float64(7))), txtOptionForm},
		{"a text declared as a number", sub(cmdCancel, opt(optReason, discordgo.ApplicationCommandOptionInteger, float64(7))), txtOptionForm},
		{"a yes or no as a text", sub(cmdVacation, opt(optEnd, discordgo.ApplicationCommandOptionBoolean, "yes")), txtOptionForm},
		{"a number as a text", sub(cmdVacation, opt(optDays, discordgo.ApplicationCommandOptionInteger, "7")), txtOptionForm},
		{"a text", sub(cmdCancel, opt(optReason, discordgo.ApplicationCommandOptionString, "stalling")), ""},
		{"a yes or no", sub(cmdVacation, opt(optEnd, discordgo.ApplicationCommandOptionBoolean, true)), ""},
		{"a number", sub(cmdVacation, opt(optDays, discordgo.ApplicationCommandOptionInteger, float64(7))), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := outOfBounds(tc.sub); got != tc.want {
				t.Errorf("outOfBounds = %q, want %q", got, tc.want)
			}
		})
	}
}
