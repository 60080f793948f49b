package bot

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Discord's client keeps every option within what the command declares:
// its choices, a text's max_length, a number's min_value and max_value. A
// modified client sends what it likes, and Discord forwards it as it comes.
// So every command passes one check, outOfBounds, before its handler reads
// an option: nothing past its declaration is echoed (a text too long for a
// message, which Discord then refuses, so the member gets no answer),
// stored and shown later (a moderator's reason, a tournament's name), or
// acted on (a tournament that starts before it is made, rounds that last
// for centuries).

// The refusals of an option past its declaration.
const (
	txtOptionTooLong = "The `%[1]s` option takes at most %[2]d characters; yours has %[3]d. Shorten it and try again."
	txtOptionRange   = "The `%[1]s` option takes a number from %[2]d to %[3]d."
	txtOptionAtLeast = "The `%[1]s` option takes a number of at least %[2]d."
	txtOptionChoice  = "Choose the `%[1]s` option from its list."
	txtOptionForm    = "The `%[1]s` option came in a form Discord's app never sends. Type the command again."
)

// optionBound is what one option may carry.
type optionBound struct {
	typ     discordgo.ApplicationCommandOptionType
	maxLen  int       // a text's most characters
	min     *float64  // a number's least; nil: none
	max     float64   // a number's most; 0: none
	choices []float64 // a number's choices; nil: any within min and max
}

// optionBounds are the bounds of every option of every subcommand ("cancel",
// "tournament create"), by name, from the declarations, read once. A text's
// most characters are its max_length; for one with choices, its longest
// choice; else, for one a member types into with suggestions,
// maxChoiceName, the longest suggestion Discord takes.
var optionBounds = sync.OnceValue(func() map[string]map[string]optionBound {
	bounds := map[string]map[string]optionBound{}
	var walk func(path string, opts []*discordgo.ApplicationCommandOption)
	walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			b := optionBound{typ: o.Type}
			switch o.Type {
			case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
				walk(strings.TrimSpace(path+" "+o.Name), o.Options)
				continue
			case discordgo.ApplicationCommandOptionString:
				b.maxLen = o.MaxLength
				for _, c := range o.Choices {
					b.maxLen = max(b.maxLen, utf8.RuneCountInString(fmt.Sprint(c.Value)))
				}
				if b.maxLen == 0 {
					b.maxLen = maxChoiceName
				}
			case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
				b.min, b.max = o.MinValue, o.MaxValue
				for _, c := range o.Choices {
					switch v := c.Value.(type) {
					case int:
						b.choices = append(b.choices, float64(v))
					case int64:
						b.choices = append(b.choices, float64(v))
					case float64:
						b.choices = append(b.choices, v)
					}
				}
			case discordgo.ApplicationCommandOptionBoolean:
			default:
				continue
			}
			if bounds[path] == nil {
				bounds[path] = map[string]optionBound{}
			}
			bounds[path][o.Name] = b
		}
	}
	walk("", Commands()[0].Options)
	return bounds
})

// outOfBounds checks the options of the subcommand sub against
// optionBounds: the refusal of the first past its bounds, with its
// arguments; "" when all are within them.
func outOfBounds(sub *discordgo.ApplicationCommandInteractionDataOption) (string, []any) {
	path, opts := sub.Name, sub.Options
	if sub.Type == discordgo.ApplicationCommandOptionSubCommandGroup && len(opts) > 0 {
		path, opts = path+" "+opts[0].Name, opts[0].Options
	}
	for _, o := range opts {
		b, ok := optionBounds()[path][o.Name]
		if !ok {
			continue
		}
		// discordgo's StringValue and BoolValue panic on a value of another
		// kind, and the handler would leave the member with no answer.
		if o.Type != b.typ || !valueFits(o) {
			return txtOptionForm, []any{o.Name}
		}
		switch o.Type {
		case discordgo.ApplicationCommandOptionString:
			if n := utf8.RuneCountInString(o.StringValue()); n > b.maxLen {
				return txtOptionTooLong, []any{o.Name, b.maxLen, n}
			}
		case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
			v := o.Value.(float64) // as Discord's JSON carries every number (valueFits)
			low := b.min != nil && v < *b.min
			switch {
			case b.choices != nil && !slices.Contains(b.choices, v):
				return txtOptionChoice, []any{o.Name}
			case b.max != 0 && (low || v > b.max):
				return txtOptionRange, []any{o.Name, int64(*b.min), int64(b.max)} // every number with a most has a least (TestOptionBoundsDeclared)
			case low:
				return txtOptionAtLeast, []any{o.Name, int64(*b.min)}
			}
		}
	}
	return "", nil
}

// valueFits reports whether o's value is of the kind its type says, as
// Discord's JSON carries it.
func valueFits(o *discordgo.ApplicationCommandInteractionDataOption) bool {
	var ok bool
	switch o.Type {
	case discordgo.ApplicationCommandOptionString:
		_, ok = o.Value.(string)
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		_, ok = o.Value.(float64)
	case discordgo.ApplicationCommandOptionBoolean:
		_, ok = o.Value.(bool)
	default:
		ok = true
	}
	return ok
}
