package bot

import (
	"bytes"
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
)

// The rules in short, for /stratego rules.
const (
	txtRulesArmy       = "**%[1]s**: %[2]s."
	txtRulesArmyCount  = "%[1]d× %[2]s"
	txtRulesCustomArmy = "the army the challenger lists (one Flag, at least one piece that moves, at most 40)"
	txtRulesZone       = "Place your pieces on any squares of your four back rows."
	txtRulesFullZone   = "Fill all 40 squares of your four back rows."
	txtRulesMoving     = "%[1]s Red moves first; each turn move one piece one square (Scouts: any distance in a straight line, and they may attack at the end)."
	txtRulesMovingNext = "%[1]s Red moves first; each turn move one piece one square (Scouts: any distance in a straight line, but they attack only a piece next to them)."
	txtRulesAttack     = "Attack by moving onto an enemy: the higher rank wins, equal ranks both go. The Spy takes the Marshal when it attacks; only Miners defuse Bombs; Bombs and the Flag never move."
	txtRulesWinning    = "Win by taking the Flag, or when your opponent cannot move."
	txtRulesTwoSquares = "Two-Squares rule: no piece may move between the same two squares more than %[1]d times in a row."
	txtRulesMoreSquare = "More-Squares rule: no endless chasing into positions seen before."
	txtRulesMaxMoves   = "The match is a draw after %[1]d moves in all."
	txtRulesInfiltrate = "The Infiltrator (rank 1) may, inside the enemy's four rows, name the piece one or two squares away: right, and it is removed. Use `/stratego move` with `guess`."
	txtRulesServer     = "On this server new matches play with: %[1]s; a challenge may choose otherwise."
	txtRulesMatch      = "Match #%[1]s plays with: %[2]s."
	txtRulesMatchOpt   = "One of your matches: the rules it plays by, its options included"
)

// onRules answers /stratego rules: the rules of the member's match named,
// with its own options and terms; else the variant asked for, else the one a
// challenge here plays when it names none (the server's default), with the
// rule options the server's new matches play with, and a line naming those
// that are not the standard ones.
func (b *Bot) onRules(ctx context.Context, i *discordgo.Interaction, opts options) {
	p := printerOf(i)
	if named := opts.str(optMatch); named != "" {
		m, _, err := b.matchMeant(ctx, userOf(i).ID, lookup{named: named})
		if err != nil {
			b.tell(i, b.explain(p, err, "rules"))
			return
		}
		b.tell(i, rulesText(p, m.Rules)+"\n"+p.Sprintf(txtRulesMatch, m.ID.String(), rulesSummary(p, m.Rules, m.MoveTime, m.Clock)))
		return
	}
	server := b.serverOf(ctx, i.GuildID)
	variant := server.DefaultVariant()
	if v, err := game.ParseVariant(opts.str(optVariant)); err == nil {
		variant = v
	}
	rules := game.DefaultRules(variant)
	server.Rules.Apply(&rules)
	text := rulesText(p, rules)
	if parts := ruleOptionParts(p, rules); len(parts) > 0 {
		text += "\n" + p.Sprintf(txtRulesServer, strings.Join(parts, p.Sprintf(txtSummarySep)))
	}
	b.tell(i, text)
}

// rulesText is a short summary of rules, in p's language: its variant's,
// with its options (the Two-Squares count, Scouts striking at range, the
// More-Squares rule, a move limit) as they are, not the standard ones.
func rulesText(p lang.Printer, rules game.Rules) string {
	v := rules.Variant
	var army []string
	a := rules.Army
	for _, r := range game.Ranks {
		if a[r] > 0 {
			army = append(army, p.Sprintf(txtRulesArmyCount, int(a[r]), render.PieceName(p, r, game.NumberingModern)))
		}
	}
	zone := p.Sprintf(txtRulesZone)
	if v.FillsZone() {
		zone = p.Sprintf(txtRulesFullZone)
	}
	if v == game.VariantCustom && rules.Army.Total() == 0 {
		army = []string{p.Sprintf(txtRulesCustomArmy)}
	}
	moving := txtRulesMoving
	if !rules.ScoutStrikesAtRange {
		moving = txtRulesMovingNext
	}
	winning := []string{p.Sprintf(txtRulesWinning)}
	if rules.TwoSquares > 0 {
		winning = append(winning, p.Sprintf(txtRulesTwoSquares, rules.TwoSquares))
	}
	if rules.MoreSquares {
		winning = append(winning, p.Sprintf(txtRulesMoreSquare))
	}
	if rules.MaxMoves > 0 {
		winning = append(winning, p.Sprintf(txtRulesMaxMoves, rules.MaxMoves))
	}
	lines := []string{
		p.Sprintf(txtRulesArmy, render.VariantName(p, v), strings.Join(army, p.Sprintf(txtListSeparator))),
		p.Sprintf(moving, zone),
		p.Sprintf(txtRulesAttack),
		strings.Join(winning, " "),
	}
	if v == game.VariantInfiltrator {
		lines = append(lines, p.Sprintf(txtRulesInfiltrate))
	}
	return strings.Join(lines, "\n")
}

// onHelp answers /stratego help: the commands, and the key to the pictures'
// symbols as a picture in the member's language and numbering.
func (b *Bot) onHelp(ctx context.Context, i *discordgo.Interaction) {
	p := printerOf(i)
	o := render.Options{Numbering: b.settingsOf(ctx, userOf(i).ID).Numbering, Lang: p}
	data := &discordgo.InteractionResponseData{Content: helpText(p), Flags: discordgo.MessageFlagsEphemeral}
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

// helpText answers /stratego help, in p's language.
func helpText(p lang.Printer) string {
	lines := make([]string, len(txtHelp))
	for k, key := range txtHelp {
		lines[k] = p.Sprintf(key)
	}
	return strings.Join(lines, "\n")
}

// txtHelp are the lines of /stratego help.
var txtHelp = []string{
	"**Stratego on Discord**",
	"• `/stratego challenge opponent:@member` starts a match here; they accept or decline with the buttons. Leave out `opponent` and anyone here may accept.",
	"• No opponent? `/stratego seek` joins the server's queue (`/stratego seeks` shows it); `/stratego practice level:hard` plays the computer (not rated).",
	"• Send your secret set-up by DM: I DM you a template when the challenge is accepted (or use `/stratego setup`).",
	"• Move with `/stratego move from:B4 to:B5`, by typing `B4-B5` to me in a DM, or with the menus under your board.",
	"• `/stratego board` shows your board to you alone (`text:true`: as a text diagram, for screen readers); `/stratego resign` and `/stratego draw` end a match.",
	"• `/stratego games` lists your matches, `/stratego history` the moves of one, `/stratego record` its file once it is over.",
	"• `/stratego settings`: your numbering, reminders and saved set-ups; `/stratego stats` and `/stratego leaderboard`: results; `/stratego rules`: the rules (with `match`, those of your match).",
	"• `/stratego challenge clock:10+5` plays a fast game: 10 minutes each, 5 seconds more a move.",
	"• Long games: `/stratego give_time`, `/stratego pause` and `/stratego vacation` give more time or stop the clocks.",
	"• Tournaments: `/stratego tournament list` shows this server's, `join` enters one and `standings` shows its table.",
	"• `/stratego watch match:12` shows you a running match; `follow:true` sends you its boards by DM.",
	"• Moderators (Manage Server): `/stratego server` sets how matches are played here; `/stratego tournament create` starts a tournament; `/stratego cancel` and `/stratego award` call off or award a match.",
	"The picture below explains the boards' symbols; every picture has a description too.",
}
