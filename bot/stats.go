package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
)

// onStats shows a member's results per variant in this server.
func (b *Bot) onStats(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.tell(i, "Results are kept per server: ask in a server channel.")
		return
	}
	user, name := userOf(i).ID, displayName(i)
	if o := opts[optMember]; o != nil {
		user = fmt.Sprint(o.Value)
		name = "<@" + user + ">"
		if u := i.ApplicationCommandData().Resolved; u != nil && u.Users[user] != nil {
			name = u.Users[user].Username
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
		lines = append(lines, fmt.Sprintf("%s: %d won · %d lost · %d drawn · rating %.0f ± %.0f", v, s.Wins, s.Losses, s.Draws, s.Rating, 2*s.RD))
	}
	if len(lines) == 0 {
		b.tell(i, fmt.Sprintf("%s has no rated games in this server yet.", name))
		return
	}
	b.tell(i, fmt.Sprintf("**%s** in this server\n%s", name, strings.Join(lines, "\n")))
}

// onLeaderboard shows the best players of a variant in this server.
func (b *Bot) onLeaderboard(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.tell(i, "Results are kept per server: ask in a server channel.")
		return
	}
	v := game.VariantClassic
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
		b.tell(i, fmt.Sprintf("No rated %s games in this server yet. Start one with `/stratego challenge`.", v))
		return
	}
	lines := []string{fmt.Sprintf("**%s leaderboard**", v)}
	for k, s := range list {
		lines = append(lines, fmt.Sprintf("%d. %s — %.0f (%d won, %d lost, %d drawn)", k+1, s.Name, s.Rating, s.Wins, s.Losses, s.Draws))
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: strings.Join(lines, "\n"), Flags: discordgo.MessageFlagsEphemeral,
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}
