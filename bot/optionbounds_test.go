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
