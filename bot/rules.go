package bot

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/render"
)

// rulesText is a short summary of a variant's rules.
func rulesText(variant string) string {
	v := game.VariantClassic
	if p, err := game.ParseVariant(variant); err == nil {
		v = p
	}
	var army []string
	a := v.Army()
	for _, r := range game.Ranks {
		if a[r] > 0 {
			army = append(army, fmt.Sprintf("%d× %s", a[r], r.Describe(game.NumberingModern)))
		}
	}
	zone := "Place your pieces on any squares of your four back rows."
	if v.FillsZone() {
		zone = "Fill all 40 squares of your four back rows."
	}
	if v == game.VariantCustom {
		army = []string{"the army the challenger lists (one Flag, at least one piece that moves, at most 40)"}
	}
	lines := []string{
		fmt.Sprintf("**%s**: %s.", v, strings.Join(army, ", ")),
		zone + " Red moves first; each turn move one piece one square (Scouts: any distance in a straight line, and they may attack at the end).",
		"Attack by moving onto an enemy: the higher rank wins, equal ranks both go. The Spy takes the Marshal when it attacks; only Miners defuse Bombs; Bombs and the Flag never move.",
		"Win by taking the Flag, or when your opponent cannot move. Two-Squares rule: no piece may go back and forth between the same two squares more than 3 times in a row. More-Squares rule: no endless chasing into positions seen before.",
	}
	if v == game.VariantInfiltrator {
		lines = append(lines, "The Infiltrator (rank 1) may, inside the enemy's four rows, name the piece one or two squares away: right, and it is removed. Use `/stratego infiltrate`.")
	}
	return strings.Join(lines, "\n")
}

// onHelp answers /stratego help: the commands, and the key to the pictures'
// symbols as a picture in the member's numbering.
func (b *Bot) onHelp(ctx context.Context, i *discordgo.Interaction) {
	o := render.Options{Numbering: b.settingsOf(ctx, userOf(i).ID).Numbering}
	data := &discordgo.InteractionResponseData{Content: helpText, Flags: discordgo.MessageFlagsEphemeral}
	var key bytes.Buffer
	alt, err := render.KeyAltText(o)
	if err == nil {
		err = b.pics.Key(&key, o)
	}
	if err != nil {
		b.log.Error("drawing the key failed", "error", err)
	} else {
		data.Files = []*discordgo.File{pngFile("key.png", key.Bytes(), alt)}
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, data)
}

// helpText answers /stratego help.
const helpText = "**Stratego on Discord**\n" +
	"• `/stratego challenge opponent:@member` starts a match here; they accept or decline with the buttons.\n" +
	"• No opponent? `/stratego practice level:hard` plays against the computer (not rated).\n" +
	"• Send your secret set-up by DM: I DM you a template when the challenge is accepted (or use `/stratego setup`).\n" +
	"• Move with `/stratego move from:B4 to:B5`, by typing `B4-B5` to me in a DM, or with the menus under your board.\n" +
	"• `/stratego board` shows your board to you alone; `/stratego resign` and `/stratego draw` end a match.\n" +
	"• `/stratego games` lists your matches, `/stratego history` the moves of one, `/stratego record` its file once it is over.\n" +
	"• `/stratego settings` sets your numbering, reminders, boards after your own moves and saved set-ups; `/stratego stats` and `/stratego leaderboard` show results; `/stratego rules` the rules.\n" +
	"• `/stratego challenge clock:10+5` plays a fast game on a clock: 10 minutes each, 5 seconds more a move.\n" +
	"• `/stratego watch match:12` shows you a running match's public board and last moves.\n" +
	"• Moderators (Manage Server): `/stratego server` sets where matches are played, who starts them, their defaults, practice and threads; `/stratego cancel` calls a match off and `/stratego award` gives it to a player, with a reason.\n" +
	"• `/stratego board text:true` shows your board as a text diagram, for screen readers; every picture has a description too.\n" +
	"After every move each player gets their own picture by DM, and the channel gets a public one that shows no hidden rank. The picture below explains its symbols."
