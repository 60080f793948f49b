package bot

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// What players use between moves: history, settings, results, rules, records.

// numberingOf returns a user's numbering preference.
func (b *Bot) numberingOf(ctx context.Context, user string) game.Numbering {
	if p, err := b.store.Player(ctx, user); err == nil {
		return p.Numbering
	}
	return game.NumberingModern
}

// latestMatch finds the match a member means for history and records: the
// one named, else their only match in play, else their latest ended one.
func (b *Bot) latestMatch(ctx context.Context, i *discordgo.Interaction, option string, endedOnly bool) (*storage.Match, game.Side, error) {
	if option != "" || !endedOnly {
		m, side, err := b.matchFor(ctx, i, option, playing)
		if err == nil || option != "" || err == errWhichMatch {
			return m, side, err
		}
	}
	user := userOf(i).ID
	ended, err := b.store.PlayerMatches(ctx, user, false, 10)
	if err != nil {
		return nil, game.Red, err
	}
	for _, m := range ended {
		if m.Phase == storage.PhaseFinished {
			side, _ := m.SideOf(user)
			return m, side, nil
		}
	}
	return nil, game.Red, errNoMatch
}

// onHistory lists the moves of a match as the member knows them: every move
// is public, with the ranks its battles revealed.
func (b *Bot) onHistory(ctx context.Context, i *discordgo.Interaction, opts options) {
	m, side, err := b.latestMatch(ctx, i, opts.str(optMatch), false)
	if err != nil {
		b.tell(i, b.explain(err, "history"))
		return
	}
	g, err := m.Game()
	if err != nil {
		b.tell(i, b.explain(err, "history"))
		return
	}
	n := b.numberingOf(ctx, userOf(i).ID)
	v := g.View(game.ViewerOf(side))
	text := historyText(m, &v, narrator{viewer: game.ViewerOf(side), names: names(m), numbering: n})
	if len(text) <= 1900 {
		b.tell(i, text)
		return
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: fmt.Sprintf("%s\n%d moves: the list is attached.", matchTitle(m), v.Ply()),
		Flags:   discordgo.MessageFlagsEphemeral,
		Files:   []*discordgo.File{{Name: fmt.Sprintf("match-%d-moves.txt", m.ID), ContentType: "text/plain", Reader: strings.NewReader(text)}},
	})
}

// historyText writes one line per move: "12. Blue E7xE6 Captain (6) beats Lieutenant (5)".
func historyText(m *storage.Match, v *game.View, nar narrator) string {
	n := nar.numbering
	var sb strings.Builder
	sb.WriteString(matchTitle(m) + "\n")
	if len(v.History) == 0 {
		sb.WriteString("No moves yet.")
	}
	for k, rec := range v.History {
		fmt.Fprintf(&sb, "%d. %s %s", k+1, rec.Side, rec.Notation(n))
		a, d := rec.Attacker.Describe(n), rec.Defender.Describe(n)
		switch rec.Outcome {
		case game.AttackerWon:
			fmt.Fprintf(&sb, " %s beats %s", a, d)
		case game.DefenderWon:
			fmt.Fprintf(&sb, " %s loses to %s", a, d)
		case game.BothRemoved:
			fmt.Fprintf(&sb, " %s and %s both removed", a, d)
		case game.GuessedRight:
			sb.WriteString(" right guess")
		case game.GuessedWrong:
			sb.WriteString(" wrong guess")
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(nar.describeResult(v.Result))
	return strings.TrimSpace(sb.String())
}

// onSettings changes and shows a member's settings.
func (b *Bot) onSettings(ctx context.Context, i *discordgo.Interaction, opts options) {
	user := userOf(i).ID
	var notes []string
	var source *storage.Match
	var sourceSide game.Side
	if name := opts.str(optSave); name != "" {
		// The set-up of the member's latest match: their own, so theirs to keep.
		list, err := b.store.PlayerMatches(ctx, user, true, 5)
		if err == nil {
			ended, _ := b.store.PlayerMatches(ctx, user, false, 5)
			list = append(list, ended...)
		}
		for _, m := range list {
			side, _ := m.SideOf(user)
			if m.Setups[side].Status == storage.SetupConfirmed && (source == nil || m.Created.After(source.Created)) {
				source, sourceSide = m, side
			}
		}
		if source == nil {
			b.tell(i, "You have no confirmed set-up to save yet: confirm one in a match first.")
			return
		}
	}
	p, err := b.store.UpdatePlayer(ctx, user, func(p *storage.PlayerSettings) error {
		switch opts.str(optNumbering) {
		case "modern":
			p.Numbering = game.NumberingModern
		case "classic":
			p.Numbering = game.NumberingClassic
		}
		if v, ok := opts.boolean(optReminders); ok {
			p.NoReminders = !v
		}
		if name := opts.str(optSave); name != "" {
			err := p.SaveSetup(storage.SavedSetup{Name: name, Variant: source.Rules.Variant, Army: source.Rules.Army,
				Setup: source.Setups[sourceSide].Setup, Saved: b.now()})
			if err != nil {
				return friendly("I could not save it: " + err.Error() + ".")
			}
			notes = append(notes, fmt.Sprintf("Saved your set-up of match #%d as %q.", source.ID, name))
		}
		if name := opts.str(optDelete); name != "" {
			if !p.DeleteSetup(name) {
				return friendly(fmt.Sprintf("You have no saved set-up called %q.", name))
			}
			notes = append(notes, fmt.Sprintf("Deleted %q.", name))
		}
		if name := opts.str(optDefault); name != "" {
			s, ok := p.SavedSetup(name)
			if !ok {
				return friendly(fmt.Sprintf("You have no saved set-up called %q.", name))
			}
			if p.Defaults == nil {
				p.Defaults = map[game.Variant]string{}
			}
			p.Defaults[s.Variant] = s.Name
			notes = append(notes, fmt.Sprintf("%q is now your first choice in %s.", s.Name, s.Variant))
		}
		return nil
	})
	if err != nil {
		b.tell(i, b.explain(err, "settings"))
		return
	}
	reminders := "on"
	if p.NoReminders {
		reminders = "off"
	}
	lines := append(notes, fmt.Sprintf("**Your settings** · numbering: %s (Marshal %s) · reminders: %s", p.Numbering, game.Marshal.Label(p.Numbering), reminders))
	if len(p.Setups) == 0 {
		lines = append(lines, "No saved set-ups. Save the set-up of your latest match with `save_setup`.")
	}
	for _, s := range p.Setups {
		mark := ""
		if p.Defaults[s.Variant] == s.Name {
			mark = " (first choice)"
		}
		lines = append(lines, fmt.Sprintf("• %s — %s%s", s.Name, s.Variant, mark))
	}
	b.tell(i, truncate(strings.Join(lines, "\n"), 2000))
}

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
			b.tell(i, b.explain(err, "stats"))
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
		b.tell(i, b.explain(err, "leaderboard"))
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

// onRecord sends the Gravon XML record of a finished match.
func (b *Bot) onRecord(ctx context.Context, i *discordgo.Interaction, opts options) {
	m, _, err := b.latestMatch(ctx, i, opts.str(optMatch), true)
	if err != nil {
		b.tell(i, b.explain(err, "record"))
		return
	}
	if m.Phase != storage.PhaseFinished {
		b.tell(i, "The record is ready once the match is over: it shows both set-ups.")
		return
	}
	g, err := m.Game()
	if err != nil {
		b.tell(i, b.explain(err, "record"))
		return
	}
	var buf bytes.Buffer
	if err := game.NewRecord(g, m.Players[game.Red].Name, m.Players[game.Blue].Name).WriteGravon(&buf); err != nil {
		b.tell(i, b.explain(err, "record"))
		return
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: fmt.Sprintf("%s\nThe game record (Gravon XML; `strategobot replay` reads it).", matchTitle(m)),
		Flags:   discordgo.MessageFlagsEphemeral,
		Files:   []*discordgo.File{{Name: fmt.Sprintf("stratego-match-%d.xml", m.ID), ContentType: "application/xml", Reader: &buf}},
	})
}

// savedSetupChoices offers a member's saved set-up names for autocomplete.
func (b *Bot) savedSetupChoices(ctx context.Context, user, typed string) []*discordgo.ApplicationCommandOptionChoice {
	p, err := b.store.Player(ctx, user)
	if err != nil {
		return nil
	}
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, s := range p.Setups {
		if strings.Contains(strings.ToUpper(s.Name), typed) {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: truncate(s.Name+" ("+s.Variant.String()+")", 100), Value: s.Name})
		}
	}
	sort.Slice(out, func(a, c int) bool { return out[a].Name < out[c].Name })
	return out
}
