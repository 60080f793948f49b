package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/render"
)

// onStats shows a member's results per variant in this server.
func (b *Bot) onStats(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.say(i, "Results are kept per server: ask in a server channel.")
		return
	}
	p := printerOf(i)
	user, name := userOf(i).ID, mdEscape(displayName(i))
	if o := opts[optMember]; o != nil {
		user = fmt.Sprint(o.Value)
		name = "<@" + user + ">"
		if u := i.ApplicationCommandData().Resolved; u != nil && u.Users[user] != nil {
			name = mdEscape(u.Users[user].Username)
		}
	}
	var lines []string
	for _, v := range game.Variants {
		s, err := b.store.Standing(ctx, i.GuildID, v, user)
		if err != nil {
			b.tell(i, b.explain(printerOf(i), err, "stats"))
			return
		}
		if s.Played() == 0 {
			continue
		}
		lines = append(lines, p.Sprintf("%[1]s: %[2]d won · %[3]d lost · %[4]d drawn · rating %[5]s ± %[6]s", render.VariantName(p, v), s.Wins, s.Losses, s.Draws,
			strconv.FormatFloat(s.Rating, 'f', 0, 64), strconv.FormatFloat(2*s.RD, 'f', 0, 64)))
	}
	if len(lines) == 0 {
		b.say(i, "%[1]s has no rated games in this server yet.", name)
		return
	}
	b.say(i, "**%[1]s** in this server\n%[2]s", name, strings.Join(lines, "\n"))
}

// onLeaderboard shows the best players of a variant in this server.
func (b *Bot) onLeaderboard(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.say(i, "Results are kept per server: ask in a server channel.")
		return
	}
	p := printerOf(i)
	v := b.serverOf(ctx, i.GuildID).DefaultVariant() // the game a challenge that names none plays
	if s := opts.str(optVariant); s != "" {
		if p, err := game.ParseVariant(s); err == nil {
			v = p
		}
	}
	list, err := b.store.Standings(ctx, i.GuildID, v, 10)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "leaderboard"))
		return
	}
	if len(list) == 0 {
		b.say(i, "No rated %[1]s games in this server yet. Start one with `/stratego challenge`.", render.VariantName(p, v))
		return
	}
	var lines []string
	for k, s := range list {
		lines = append(lines, p.Sprintf("%[1]d. %[2]s — %[3]s (%[4]d won, %[5]d lost, %[6]d drawn)", k+1, mdEscape(s.Name), strconv.FormatFloat(s.Rating, 'f', 0, 64), s.Wins, s.Losses, s.Draws))
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content:         listText(p.Sprintf("**%[1]s leaderboard**", render.VariantName(p, v)), lines, len(lines), func(n int) string { return p.Sprintf(txtLeaderboardMore, n) }),
		Flags:           discordgo.MessageFlagsEphemeral,
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}
