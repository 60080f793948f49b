package bot

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// settingsOf returns a member's settings. When they cannot be read the
// defaults stand in, logged: a storage hiccup costs a preference, not the
// answer.
func (b *Bot) settingsOf(ctx context.Context, user string) *storage.PlayerSettings {
	p, err := b.store.Player(ctx, user)
	if err != nil {
		b.log.Warn("reading a player's settings failed; using the defaults", "error", err)
		return &storage.PlayerSettings{UserID: user}
	}
	return p
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
			var ended []*storage.Match
			ended, err = b.store.PlayerMatches(ctx, user, false, 5)
			list = append(list, ended...)
		}
		if err != nil {
			b.tell(i, b.explain(printerOf(i), err, "settings"))
			return
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
		if v, ok := opts.boolean(optOwnMoves); ok {
			p.NoOwnMoves = !v
		}
		if name := opts.str(optSave); name != "" {
			err := p.SaveSetup(storage.SavedSetup{Name: name, Variant: source.Rules.Variant, Army: source.Rules.Army,
				Setup: source.Setups[sourceSide].Setup, Saved: b.now()})
			if err != nil {
				return friendlyf("I could not save it: %[1]s.", err.Error())
			}
			notes = append(notes, fmt.Sprintf("Saved your set-up of match #%d as %q.", source.ID, name))
		}
		if name := opts.str(optDelete); name != "" {
			if !p.DeleteSetup(name) {
				return friendlyf("You have no saved set-up called %[1]q.", name)
			}
			notes = append(notes, fmt.Sprintf("Deleted %q.", name))
		}
		if name := opts.str(optDefault); name != "" {
			s, ok := p.SavedSetup(name)
			if !ok {
				return friendlyf("You have no saved set-up called %[1]q.", name)
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
		b.tell(i, b.explain(printerOf(i), err, "settings"))
		return
	}
	reminders := "on"
	if p.NoReminders {
		reminders = "off"
	}
	lines := append(notes, fmt.Sprintf("**Your settings** · numbering: %s (Marshal %s) · reminders: %s · boards after your own moves: %s",
		p.Numbering, game.Marshal.Label(p.Numbering), reminders, onOff(!p.NoOwnMoves)))
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

// savedSetupChoices offers a member's saved set-up names for autocomplete.
func (b *Bot) savedSetupChoices(ctx context.Context, user, typed string) []*discordgo.ApplicationCommandOptionChoice {
	p := b.settingsOf(ctx, user)
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, s := range p.Setups {
		if strings.Contains(strings.ToUpper(s.Name), typed) {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: truncate(s.Name+" ("+s.Variant.String()+")", 100), Value: s.Name})
		}
	}
	sort.Slice(out, func(a, c int) bool { return out[a].Name < out[c].Name })
	return out
}
