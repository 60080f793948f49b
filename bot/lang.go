package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// The bot speaks each member's language (internal/lang): an answer to an
// interaction in the locale the interaction carries; a DM sent later, by the
// outbox, in the locale the member's client last reported, which the bot
// remembers; a post in a server channel in the server's preferred locale.
// Every text is written in English in the code, as the catalogue's key.

// printerOf returns the language of the member behind an interaction.
func printerOf(i *discordgo.Interaction) lang.Printer { return lang.For(string(i.Locale)) }

// say answers an interaction privately with a text of the catalogue, in the
// member's language.
func (b *Bot) say(i *discordgo.Interaction, key string, args ...any) {
	b.tell(i, printerOf(i).Sprintf(key, args...))
}

// printerFor returns the language of what the bot sends a member outside an
// interaction: the locale their client last reported.
func (b *Bot) printerFor(ctx context.Context, user string) lang.Printer {
	return lang.For(b.settingsOf(ctx, user).Locale)
}

// publicPrinter returns the language of a server's channels: the server's
// preferred locale, English when the bot does not know the server.
func (b *Bot) publicPrinter(guildID string) lang.Printer {
	locale, ok := b.guildLocale(guildID)
	if !ok {
		return lang.Printer{}
	}
	return lang.For(locale)
}

// rememberLocale keeps the locale of a member's client when it changed, so
// that the DMs the outbox sends them later are in their language. A failure
// costs only the language of later DMs: it is logged, not shown.
func (b *Bot) rememberLocale(ctx context.Context, i *discordgo.Interaction) {
	user := userOf(i)
	if user == nil || i.Locale == "" {
		return
	}
	if b.settingsOf(ctx, user.ID).Locale == string(i.Locale) {
		return
	}
	if _, err := b.updatePlayer(ctx, user.ID, func(p *storage.PlayerSettings) error {
		p.Locale = string(i.Locale)
		return nil
	}); err != nil {
		b.log.Warn("remembering a member's locale failed", "error", err)
	}
}

// labelOn returns the label of the button for action act on msg, the
// message a member clicked or answered, in bold: a text that names a button
// names it as the member sees it there, which may be in the server's
// language rather than theirs, and set apart from the sentence around it.
// When msg has no such button, the label is key in fallback's language, the
// one the button was drawn in.
func labelOn(msg *discordgo.Message, act string, fallback lang.Printer, key string) string {
	if msg != nil {
		for _, row := range msg.Components {
			// Components read from Discord are pointers; those the bot builds, values.
			var buttons []discordgo.MessageComponent
			switch r := row.(type) {
			case *discordgo.ActionsRow:
				buttons = r.Components
			case discordgo.ActionsRow:
				buttons = r.Components
			}
			for _, c := range buttons {
				var btn discordgo.Button
				switch c := c.(type) {
				case *discordgo.Button:
					btn = *c
				case discordgo.Button:
					btn = c
				default:
					continue
				}
				if id, err := parseCustomID(btn.CustomID); err == nil && id.action == act && btn.Label != "" {
					return buttonName(btn.Label)
				}
			}
		}
	}
	return buttonName(fallback.Sprintf(key))
}

// buttonName sets a button's label apart in a sentence that names it.
func buttonName(label string) string { return "**" + label + "**" }
