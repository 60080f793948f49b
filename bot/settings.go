package bot

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// settingsOf returns a member's settings. When they cannot be read the
// defaults stand in, logged: a storage hiccup costs a preference, not the
// answer. Within one request (an interaction, a DM, a notice being
// delivered: see withSettingsMemo) each member's settings are read once;
// the result is shared, so callers never change it.
func (b *Bot) settingsOf(ctx context.Context, user string) *storage.PlayerSettings {
	memo, _ := ctx.Value(settingsMemoKey{}).(*settingsMemo)
	if p, ok := memo.get(user); ok {
		return p
	}
	p, err := b.store.Player(ctx, user)
	if err != nil {
		b.log.Warn("reading a player's settings failed; using the defaults", "error", err)
		return &storage.PlayerSettings{UserID: user}
	}
	memo.put(p)
	return p
}

// updatePlayer changes a member's settings with fn (see
// storage.Store.UpdatePlayer), and what this request has read of them.
func (b *Bot) updatePlayer(ctx context.Context, user string, fn func(p *storage.PlayerSettings) error) (*storage.PlayerSettings, error) {
	p, err := b.store.UpdatePlayer(ctx, user, fn)
	memo, _ := ctx.Value(settingsMemoKey{}).(*settingsMemo)
	if err != nil {
		memo.forget(user) // changed or not: read them again
		return nil, err
	}
	memo.put(p)
	return p, nil
}

// settingsMemo keeps the members' settings one request has read.
type settingsMemo struct {
	mu     sync.Mutex
	byUser map[string]*storage.PlayerSettings
}

type settingsMemoKey struct{}

// withSettingsMemo returns ctx for one request: settingsOf reads each
// member's settings once in it.
func withSettingsMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, settingsMemoKey{}, &settingsMemo{byUser: map[string]*storage.PlayerSettings{}})
}

// rememberSettings lets the rest of ctx's request know p, read elsewhere.
func rememberSettings(ctx context.Context, p *storage.PlayerSettings) {
	memo, _ := ctx.Value(settingsMemoKey{}).(*settingsMemo)
	memo.put(p)
}

func (m *settingsMemo) get(user string) (*storage.PlayerSettings, bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.byUser[user]
	return p, ok
}

func (m *settingsMemo) put(p *storage.PlayerSettings) {
	if m == nil || p == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.byUser[p.UserID] = p
}

func (m *settingsMemo) forget(user string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.byUser, user)
}

// onSettings changes and shows a member's settings.
func (b *Bot) onSettings(ctx context.Context, i *discordgo.Interaction, opts options) {
	user, pr := userOf(i).ID, printerOf(i)
	var notes []string
	var source *storage.Match
	var sourceSide game.Side
	if name := opts.str(optSave); name != "" {
		// The set-up of the member's latest match: their own, so theirs to
		// keep. One that cannot be read is passed over: the answer names
		// the match whose set-up was saved.
		list, err := b.readableMatches(b.store.PlayerMatches(ctx, user, true, 5))
		if err == nil {
			var ended []*storage.Match
			ended, err = b.readableMatches(b.store.PlayerMatches(ctx, user, false, 5))
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
			b.say(i, "You have no confirmed set-up to save yet: confirm one in a match first.")
			return
		}
	}
	if revoke, _ := opts.boolean(optRevokeLinks); revoke {
		if _, err := b.store.RevokeLinks(ctx, user); err != nil {
			b.tell(i, b.explain(pr, err, "settings"))
			return
		}
		notes = append(notes, pr.Sprintf(txtLinksRevoked))
	}
	p, err := b.updatePlayer(ctx, user, func(p *storage.PlayerSettings) error {
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
			switch {
			case errors.Is(err, storage.ErrTooManySetups):
				return friendlyf(txtTooManySetups, storage.MaxSavedSetups)
			case err != nil:
				return friendly("A set-up's name has 1 to 100 characters.")
			}
			notes = append(notes, pr.Sprintf("Saved your set-up of match #%[1]s as %[2]q.", source.ID.String(), render.Typed(mdEscape(name))))
		}
		if name := opts.str(optDelete); name != "" {
			if !p.DeleteSetup(name) {
				return friendlyf("You have no saved set-up called %[1]q.", render.Typed(mdEscape(name)))
			}
			notes = append(notes, pr.Sprintf("Deleted %[1]q.", render.Typed(mdEscape(name))))
		}
		if name := opts.str(optDefault); name != "" {
			s, ok := p.SavedSetup(name)
			if !ok {
				return friendlyf("You have no saved set-up called %[1]q.", render.Typed(mdEscape(name)))
			}
			if p.Defaults == nil {
				p.Defaults = map[game.Variant]string{}
			}
			p.Defaults[s.Variant] = s.Name
			notes = append(notes, pr.Sprintf("%[1]q is now your first choice in %[2]s.", render.Typed(mdEscape(s.Name)), render.VariantName(pr, s.Variant)))
		}
		return nil
	})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "settings"))
		return
	}
	numbering := txtNumberingModern
	if p.Numbering == game.NumberingClassic {
		numbering = txtNumberingClassic
	}
	head := append(notes, pr.Sprintf("**Your settings** · %[1]s · reminders: %[2]s · boards after your own moves: %[3]s",
		pr.Sprintf(numbering, render.RankName(pr, game.Marshal), game.Marshal.Label(p.Numbering)), onOff(pr, !p.NoReminders), onOff(pr, !p.NoOwnMoves)))
	if len(p.Setups) == 0 {
		head = append(head, pr.Sprintf("No saved set-ups. Save the set-up of your latest match with `save_setup`."))
	}
	var lines []string
	for _, s := range p.Setups {
		key := txtSavedSetup
		if p.Defaults[s.Variant] == s.Name {
			key = txtSavedSetupFirst
		}
		lines = append(lines, pr.Sprintf(key, mdEscape(s.Name), render.VariantName(pr, s.Variant)))
	}
	b.tell(i, listText(strings.Join(head, "\n"), lines, len(lines), func(n int) string { return pr.Sprintf(txtSetupsMore, n) }))
}

// A member's settings: their numbering, and a saved set-up in the list.
const (
	txtLinksRevoked = "Done: every web board link I gave you before stops working now. Each new board I send you brings a new one."

	txtNumberingModern  = "numbering: modern (%[1]s %[2]s)"
	txtNumberingClassic = "numbering: classic (%[1]s %[2]s)"
	txtSavedSetup       = "• %[1]s — %[2]s"
	txtTooManySetups    = "You keep %[1]d saved set-ups, the most there may be: delete one first with `/stratego settings delete_setup:NAME`."
	txtSavedSetupFirst  = "• %[1]s — %[2]s (first choice)"
)

// savedSetupChoices offers a member's saved set-up names for autocomplete.
func (b *Bot) savedSetupChoices(ctx context.Context, p lang.Printer, user, typed string) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, s := range b.settingsOf(ctx, user).Setups {
		if strings.Contains(strings.ToUpper(s.Name), typed) {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: truncate(p.Sprintf("%[1]s (%[2]s)", s.Name, render.VariantName(p, s.Variant)), maxChoiceName), Value: s.Name})
		}
	}
	sort.Slice(out, func(a, c int) bool { return out[a].Name < out[c].Name })
	return out
}
