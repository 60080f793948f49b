package bot

import (
	"fmt"
	"strings"

	"github.com/strategobot/strategobot/game"
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

// helpText answers /stratego help.
const helpText = "**Stratego on Discord**\n" +
	"• `/stratego challenge opponent:@member` starts a match here; they accept or decline with the buttons.\n" +
	"• No opponent? `/stratego practice level:hard` plays against the computer (not rated).\n" +
	"• Send your secret set-up by DM: I DM you a template when the challenge is accepted (or use `/stratego setup`).\n" +
	"• Move with `/stratego move from:B4 to:B5`, by typing `B4-B5` to me in a DM, or with the menus under your board.\n" +
	"• `/stratego board` shows your board to you alone; `/stratego resign` and `/stratego draw` end a match.\n" +
	"• `/stratego games` lists your matches, `/stratego history` the moves of one, `/stratego record` its file once it is over.\n" +
	"• `/stratego settings` sets your numbering, reminders and saved set-ups; `/stratego stats` and `/stratego leaderboard` show results; `/stratego rules` the rules.\n" +
	"• `/stratego watch match:12` shows you a running match's public board and last moves.\n" +
	"• Moderators (Manage Server): `/stratego server` sets where matches are played, who starts them, their defaults, practice and threads; `/stratego cancel` calls a match off with a reason.\n" +
	"After every move each player gets their own picture by DM, and the channel gets a public one that shows no hidden rank."
