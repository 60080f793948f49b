package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// setupField is the modal's text input.
const setupField = "setup"

// setupInvite is the DM that gives a player the template and the ways to
// send a set-up.
// settings are the player's, p their language; label names the tournament
// game it is (tournamentLabel), if any.
func (b *Bot) setupInvite(p lang.Printer, m *storage.Match, side game.Side, settings *storage.PlayerSettings, label string, now time.Time) *discordgo.MessageSend {
	return &discordgo.MessageSend{
		Content:    b.setupInviteText(p, m, side, settings, false, label, now),
		Components: setupButtons(p, m, settings),
	}
}

// The set-up invite. "Match #N" (Partij, Partie) names the match for a DM
// reply to it (matchTitleRE).
const (
	txtSetupInviteRed  = "**Match #%[1]s** against %[2]s — %[3]s. You play **%[4]s** and move first."
	txtSetupInviteBlue = "**Match #%[1]s** against %[2]s — %[3]s. You play **%[4]s**."
	txtSetupInviteHow  = "Send me your secret set-up: type it here (4 lines, your front row first, as you see your side of the board), " +
		"or press **Edit** to fill in a form, **Random** for a new set-up in the style of real players', or pick a saved one. " +
		"Deadline: <t:%[1]s:R>."
	txtSetupInviteHowUnsaved = "Send me your secret set-up: type it here (4 lines, your front row first, as you see your side of the board), " +
		"or press **Edit** to fill in a form or **Random** for a new set-up in the style of real players'. Deadline: <t:%[1]s:R>."
)

// The answer to /stratego setup in a server's channel, which reads no
// message typed there: the set-up is made with the buttons alone, and a
// set-up typed in the channel would show every piece to everyone in it.
const (
	txtSetupPrivateHow = "Make your secret set-up with the buttons below, which only you see: **Edit** to fill in a form " +
		"(4 lines, your front row first, as you see your side of the board), **Random** for a new set-up in the style of real players', " +
		"or pick a saved one. Never type it in this channel: everyone here would see it. Deadline: <t:%[1]s:R>."
	txtSetupPrivateHowUnsaved = "Make your secret set-up with the buttons below, which only you see: **Edit** to fill in a form " +
		"(4 lines, your front row first, as you see your side of the board) or **Random** for a new set-up in the style of real players'. " +
		"Never type it in this channel: everyone here would see it. Deadline: <t:%[1]s:R>."
)

// setupInviteText is the invite's text at time now, with the tournament
// game it is under its first line. Its deadline is the one
// that holds, or while the set-up time waits for the invites to arrive, the
// earliest it can be (Match.DeadlineToShow). It offers the saved set-ups
// only when setupButtons shows them, and inChannel, the answer to
// /stratego setup in a server's channel, asks for no set-up typed there.
func (b *Bot) setupInviteText(p lang.Printer, m *storage.Match, side game.Side, settings *storage.PlayerSettings, inChannel bool, label string, now time.Time) string {
	key := txtSetupInviteBlue
	if side == game.Red {
		key = txtSetupInviteRed
	}
	how := map[[2]bool]string{
		{false, true}: txtSetupInviteHow, {false, false}: txtSetupInviteHowUnsaved,
		{true, true}: txtSetupPrivateHow, {true, false}: txtSetupPrivateHowUnsaved,
	}[[2]bool{inChannel, len(savedFor(m, settings)) > 0}]
	return joinLines(p.Sprintf(key, m.ID.String(), b.playerName(p, m, side.Opponent()), rulesSummary(p, m.Rules, m.MoveTime, m.Clock), render.SideName(p, side)), label) +
		"\n" + p.Sprintf(how, unix(m.DeadlineToShow(now))) + "\n```\n" + setupTemplate(p, m, side, settings.Numbering) + "\n```"
}

// setupTemplate is side's set-up template in m, with its comments in p's
// language and side's own example (setupExample).
func setupTemplate(p lang.Printer, m *storage.Match, side game.Side, n game.Numbering) string {
	return game.SetupTemplateIn(m.Rules, n, setupExample(m, side), func(t game.Text) string { return reasonText(p, n, t) })
}

// setupExample is the example set-up in side's template in m, in its invite
// and in the form Edit opens: a player who sends it back unchanged plays it,
// so it is drawn from the match's secret like a Random one, the same in
// every message of the match, and nobody else can know it (a fixed example
// would be the one in the opponent's invite and in every other match).
func setupExample(m *storage.Match, side game.Side) game.Setup {
	return game.RandomSetup(m.Rules, m.Secret.Seed(seedSetupExample, uint64(side)))
}

// The buttons and menu under a set-up invite or preview.
const (
	txtEdit        = "Edit"
	txtRandom      = "Random"
	txtConfirm     = "Confirm"
	txtFirstChoice = "your first choice"
	txtUseSaved    = "Use a saved set-up"
)

func setupButtons(p lang.Printer, m *storage.Match, settings *storage.PlayerSettings) []discordgo.MessageComponent {
	id := func(action string) string {
		return customID{kind: kindSetup, action: action, id: uint64(m.ID)}.String()
	}
	rows := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: p.Sprintf(txtEdit), Style: discordgo.PrimaryButton, CustomID: id(actEdit)},
		discordgo.Button{Label: p.Sprintf(txtRandom), Style: discordgo.SecondaryButton, CustomID: id(actRandom)},
	}}}
	var saved []discordgo.SelectMenuOption
	for _, s := range savedFor(m, settings) {
		opt := discordgo.SelectMenuOption{Label: truncate(s.Name, maxOptionText), Value: truncate(s.Name, maxOptionText)}
		if settings.Defaults[m.Rules.Variant] == s.Name {
			// The player's first choice comes first.
			opt.Description = p.Sprintf(txtFirstChoice)
			saved = append([]discordgo.SelectMenuOption{opt}, saved...)
			continue
		}
		saved = append(saved, opt)
	}
	if len(saved) > 0 {
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: id(actSaved), Placeholder: p.Sprintf(txtUseSaved), Options: saved},
		}})
	}
	return rows
}

// savedFor is the player's saved set-ups that m's army can play, as many as
// the menu under a set-up invite offers.
func savedFor(m *storage.Match, settings *storage.PlayerSettings) []storage.SavedSetup {
	var out []storage.SavedSetup
	for _, s := range settings.Setups {
		if s.Army == m.Rules.Army && len(out) < maxChoices {
			out = append(out, s)
		}
	}
	return out
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// txtSetupPhaseOver refuses a set-up for a match under way: its set-ups
// are fixed once it begins.
const txtSetupPhaseOver = "The set-up phase of this match is over: the game is being played. `/stratego board match:%[1]s` shows where it stands."

// setupOver answers a set-up command, button or form of a match whose
// set-up phase is over: being played, or over too.
func (b *Bot) setupOver(i *discordgo.Interaction, m *storage.Match, during string) {
	if !m.Phase.Active() {
		b.tell(i, b.explain(printerOf(i), game.ErrGameOver, during))
		return
	}
	b.say(i, txtSetupPhaseOver, m.ID.String())
}

// onSetupCommand answers /stratego setup privately in place, which also works
// for a player whose DMs are closed.
func (b *Bot) onSetupCommand(ctx context.Context, i *discordgo.Interaction, opts options) {
	user := userOf(i).ID
	m, side, err := b.matchMeant(ctx, user, lookup{named: opts.str(optMatch), fits: needsSetup})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "setup"))
		return
	}
	if m.Phase != storage.PhaseSetup {
		b.setupOver(i, m, "setup")
		return
	}
	if !m.Owes(side) {
		// Named, and confirmed: the invite's Edit and Random would change nothing.
		b.tell(i, b.explain(printerOf(i), storage.ErrSetupConfirmed, "setup"))
		return
	}
	settings, p := b.settingsOf(ctx, user), printerOf(i)
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: b.setupInviteText(p, m, side, settings, i.GuildID != "", b.tournamentLabel(ctx, p, m, nil), b.now()),
		// The player's own link, as on the invite: the answer is theirs
		// alone (ephemeral in a server, else their DM).
		Components: b.withBoardLink(p, setupButtons(p, m, settings), m, game.ViewerOf(side), settings.LinkGen),
		Flags:      privateFlag(i),
	})
}

// onSetupButton handles Edit, Random, a saved set-up and Confirm.
func (b *Bot) onSetupButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, side, err := b.playerMatch(ctx, i, id.id)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "setup button"))
		return
	}
	if m.Phase != storage.PhaseSetup {
		b.setupOver(i, m, "setup button")
		return
	}
	settings := b.settingsOf(ctx, userOf(i).ID)
	switch id.action {
	case actEdit:
		text := setupTemplate(printerOf(i), m, side, settings.Numbering)
		if s, ok := settings.SavedSetup(settings.Defaults[m.Rules.Variant]); ok && s.Army == m.Rules.Army {
			text = game.FormatSetup(s.Setup, settings.Numbering)
		}
		if m.Setups[side].Status != storage.SetupNone {
			text = game.FormatSetup(m.Setups[side].Setup, settings.Numbering)
		}
		b.respond(i, discordgo.InteractionResponseModal, &discordgo.InteractionResponseData{
			CustomID: customID{kind: kindSetup, action: actModal, id: uint64(m.ID)}.String(),
			Title:    truncate(printerOf(i).Sprintf("Your set-up for match #%[1]s", m.ID.String()), maxModalTitle),
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.TextInput{CustomID: setupField, Label: printerOf(i).Sprintf("4 rows, front row first"), Style: discordgo.TextInputParagraph,
					Value: truncate(text, maxTextInput), Required: true, MaxLength: maxTextInput},
			}}},
		})
	case actRandom:
		b.answerDraft(ctx, i, m, side, randomSetup(m, side), settings.Numbering)
	case actSaved:
		values := i.MessageComponentData().Values
		if len(values) == 0 {
			b.say(i, "Pick a saved set-up from the menu.")
			return
		}
		saved, ok := settings.SavedSetup(values[0])
		if !ok || saved.Army != m.Rules.Army {
			b.say(i, "That saved set-up is gone or was made for another army.")
			return
		}
		b.answerDraft(ctx, i, m, side, saved.Setup, settings.Numbering)
	case actConfirm:
		b.confirmSetup(ctx, i, m, side, id.version)
	default:
		b.say(i, txtStaleComponent)
	}
}

// onSetupModal reads a set-up typed in the form.
func (b *Bot) onSetupModal(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, side, err := b.playerMatch(ctx, i, id.id)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "setup form"))
		return
	}
	if m.Phase != storage.PhaseSetup {
		b.setupOver(i, m, "setup form")
		return
	}
	text := ""
	for _, row := range i.ModalSubmitData().Components {
		if r, ok := row.(*discordgo.ActionsRow); ok {
			for _, c := range r.Components {
				if in, ok := c.(*discordgo.TextInput); ok && in.CustomID == setupField {
					text = in.Value
				}
			}
		}
	}
	n := b.settingsOf(ctx, userOf(i).ID).Numbering
	setup, _, err := game.ParseSetup(text, m.Rules, n)
	if err != nil {
		b.say(i, "%[1]s\nPress %[2]s to try again.", b.explainIn(printerOf(i), n, err, "setup form"), labelOn(i.Message, actEdit, printerOf(i), txtEdit))
		return
	}
	b.answerDraft(ctx, i, m, side, setup, n)
}

// answerDraft stores a draft from a button or the form and answers with its
// preview, privately in a server.
func (b *Bot) answerDraft(ctx context.Context, i *discordgo.Interaction, m *storage.Match, side game.Side, setup game.Setup, n game.Numbering) {
	pv, err := b.draft(ctx, printerOf(i), m, side, setup, n)
	if err != nil {
		b.tell(i, b.explainIn(printerOf(i), n, err, "setup"))
		return
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: pv.text, Files: pv.files, Components: pv.components, Flags: privateFlag(i),
	})
}

// preview is a draft set-up shown to its player, with Confirm, Edit and Random.
type preview struct {
	text       string
	files      []*discordgo.File
	components []discordgo.MessageComponent
}

// draft is the one path of a set-up draft, typed in the DM or the form, drawn
// at random or saved: a set-up from which no piece can move is refused (it
// would lose at once), any other is stored as side's draft, and its preview
// returned.
func (b *Bot) draft(ctx context.Context, p lang.Printer, m *storage.Match, side game.Side, setup game.Setup, n game.Numbering) (*preview, error) {
	m, err := b.storeDraft(ctx, m, side, setup)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	var files []*discordgo.File
	if err := b.pics.SetupPreview(&buf, m.Setups[side].Setup, side, m.Rules, b.pictureOptions(p, m, n)); err != nil {
		b.log.Error("drawing a set-up preview failed", "match", m.ID, "error", err)
	} else {
		files = append(files, pngFile("setup.png", buf.Bytes(), p.Sprintf("A picture of your set-up for match #%[1]s; the message lists it as text, front row first.", m.ID.String())))
	}
	id := func(action string, version uint64) string {
		return customID{kind: kindSetup, action: action, id: uint64(m.ID), version: version}.String()
	}
	// "match #N" (partij, Partie, partie) names the match for a DM reply to
	// the preview (matchTitleRE).
	text := p.Sprintf("Your set-up for match #%[1]s (you are %[2]s):\n```\n%[3]s\n```\nConfirm it, or change it. Your opponent sees none of this.",
		m.ID.String(), render.SideName(p, side), game.FormatSetup(m.Setups[side].Setup, n))
	return &preview{text: text, files: files, components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: p.Sprintf(txtConfirm), Style: discordgo.SuccessButton, CustomID: id(actConfirm, draftMark(m, side))},
		discordgo.Button{Label: p.Sprintf(txtEdit), Style: discordgo.PrimaryButton, CustomID: id(actEdit, 0)},
		discordgo.Button{Label: p.Sprintf(txtRandom), Style: discordgo.SecondaryButton, CustomID: id(actRandom, 0)},
	}}}}, nil
}

// storeDraft is the store's side of draft, also the web board's: a set-up
// checkSetup refuses is refused, any other stored as side's draft.
func (b *Bot) storeDraft(ctx context.Context, m *storage.Match, side game.Side, setup game.Setup) (*storage.Match, error) {
	if err := checkSetup(m.Rules, setup); err != nil {
		return nil, err
	}
	m, err := b.store.SetSetup(ctx, m.ID, 0, side, setup, storage.SetupDraft, b.now())
	if err != nil {
		return nil, err
	}
	b.afterChange(ctx, m, nil)
	return m, nil
}

// checkSetup is the one check of a set-up, as a draft and to confirm, on
// Discord and on the web board (its live check too): first the rules (the
// engine's refusal names what is missing or extra), then whether a piece
// can move at all, which only a complete set-up can answer.
func checkSetup(rules game.Rules, setup game.Setup) error {
	if err := setup.Validate(rules); err != nil {
		return fmt.Errorf("your set-up does not fit the rules: %w", err)
	}
	if !setup.CanMove(rules) {
		return txtErrCannotMove
	}
	return nil
}

// randomSetup is the Random button's set-up: drawn from the match's secret,
// new with every version of the match.
func randomSetup(m *storage.Match, side game.Side) game.Setup {
	return game.RandomSetup(m.Rules, m.Secret.Seed(seedRandomSetup, uint64(side), m.Version))
}

// draftMark names side's draft in its preview's Confirm button, so that
// Confirm makes final the set-up the player saw and no other. It is keyed
// with the match's secret: the id tells nobody anything about the set-up.
// Unlike the match's version it ignores what else changed meanwhile (the
// opponent's draft, the match's thread).
func draftMark(m *storage.Match, side game.Side) uint64 {
	s := &m.Setups[side].Setup
	args := make([]uint64, 0, len(s))
	for _, row := range s {
		var v uint64
		for _, k := range row {
			v = v<<6 | uint64(k)
		}
		args = append(args, v)
	}
	return m.Secret.Seed(seedDraftMark, append(args, uint64(side))...) >> 12 // 52 bits keep the id short
}

// txtErrDraftChanged refuses to confirm a draft changed after its preview.
const txtErrDraftChanged friendly = "You changed this set-up after this preview was shown: confirm the latest preview."

// confirmDraft makes side's draft final, if it is still the one mark names
// (draftMark), looking again when something else changed the match
// meanwhile; the caller runs afterChange. It is the one path of a
// confirmation, from a preview's Confirm button or the web board.
func (b *Bot) confirmDraft(ctx context.Context, m *storage.Match, side game.Side, mark uint64) (*storage.Match, error) {
	for attempt := 0; ; attempt++ {
		if draftMark(m, side) != mark {
			return nil, txtErrDraftChanged
		}
		confirmed, err := b.store.SetSetup(ctx, m.ID, m.Version, side, m.Setups[side].Setup, storage.SetupConfirmed, b.now())
		if err == nil {
			return confirmed, nil
		}
		if !errors.Is(err, storage.ErrStale) || attempt == 2 {
			return nil, err
		}
		// Something else changed the match meanwhile: look again.
		if m, err = b.store.Match(ctx, m.ID); err != nil {
			return nil, err
		}
		if m.Setups[side].Status == storage.SetupConfirmed {
			return nil, storage.ErrSetupConfirmed
		}
	}
}

// confirmSetup makes the draft final, if it is still the one whose preview
// carried mark. When both are final the match starts, or is over at once,
// and afterChange tells everyone either way.
func (b *Bot) confirmSetup(ctx context.Context, i *discordgo.Interaction, m *storage.Match, side game.Side, mark uint64) {
	if m.Setups[side].Status == storage.SetupNone {
		p := printerOf(i)
		b.say(i, "There is no set-up to confirm yet: type one, or press %[1]s or %[2]s.", labelOn(i.Message, actEdit, p, txtEdit), labelOn(i.Message, actRandom, p, txtRandom))
		return
	}
	if m.Setups[side].Status == storage.SetupConfirmed {
		b.tell(i, b.explain(printerOf(i), storage.ErrSetupConfirmed, "confirm"))
		return
	}
	if !b.deferPrivate(i) {
		return
	}
	m, err := b.confirmDraft(ctx, m, side, mark)
	if err != nil {
		b.finish(i, b.explain(printerOf(i), err, "confirm"))
		return
	}
	switch m.Phase {
	case storage.PhaseSetup:
		b.afterChange(ctx, m, nil)
		b.finish(i, printerOf(i).Sprintf("Set-up confirmed. Match #%[1]s starts as soon as %[2]s has confirmed theirs.", m.ID.String(), b.playerName(printerOf(i), m, side.Opponent())))
		return
	case storage.PhasePlaying:
		b.finish(i, printerOf(i).Sprintf("Set-up confirmed. Match #%[1]s begins!", m.ID.String()))
	default: // over at once: a side cannot move
		b.finish(i, printerOf(i).Sprintf("Set-up confirmed. Match #%[1]s is over at once: see my message.", m.ID.String()))
	}
	b.afterChange(ctx, m, nil)
}
