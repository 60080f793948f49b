package bot

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// A server's own choices (storage.ServerSettings), set with /stratego server
// by members with Manage Server, and what the bot does with them: where
// matches may start and who may start them, the defaults of new matches,
// whether practice is allowed, how boards are shown. Moderators also call
// matches off (/stratego cancel); any member may watch a running match
// (/stratego watch).

// isModerator reports whether the member may change the server's settings
// and call matches off: Manage Server, or Administrator.
func isModerator(i *discordgo.Interaction) bool {
	return i.Member != nil && i.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0
}

// serverOf returns the settings of the interaction's server; the defaults
// in a DM, or when they cannot be read.
func (b *Bot) serverOf(ctx context.Context, guildID string) *storage.ServerSettings {
	if guildID == "" {
		return &storage.ServerSettings{}
	}
	s, err := b.store.Server(ctx, guildID)
	if err != nil {
		b.log.Warn("reading a server's settings failed; using the defaults", "guild", guildID, "error", err)
		return &storage.ServerSettings{GuildID: guildID}
	}
	return s
}

// mayStartHere says why the member may not start a match (practice, when
// practice is set) in the interaction's channel; "" when they may.
func (b *Bot) mayStartHere(i *discordgo.Interaction, s *storage.ServerSettings, practice bool) string {
	if i.GuildID == "" {
		return ""
	}
	p := printerOf(i)
	if practice && s.NoPractice {
		return p.Sprintf("Practice games against the computer are turned off on this server. You can still play one with me by DM: run `/stratego practice` there.")
	}
	channel := i.ChannelID
	if c, err := b.s.State.Channel(channel); err == nil && c.IsThread() {
		channel = c.ParentID
	}
	if !s.AllowsChannel(channel) {
		where := make([]string, len(s.Channels))
		for k, c := range s.Channels {
			where[k] = "<#" + c + ">"
		}
		return p.Sprintf("Matches on this server are played in %[1]s. Start yours there.", joinAnd(p, where))
	}
	if s.StarterRole != "" && !isModerator(i) && (i.Member == nil || !slices.Contains(i.Member.Roles, s.StarterRole)) {
		return p.Sprintf("On this server, starting a match needs the <@&%[1]s> role. Ask a moderator for it, or accept a challenge someone else makes.", s.StarterRole)
	}
	return ""
}

// threadsFor reports whether a match of the server plays in its own thread.
func (b *Bot) threadsFor(s *storage.ServerSettings) bool {
	return b.cfg.Threads || s.Board == storage.BoardThread
}

// onServer shows or changes the server's settings; only moderators may.
func (b *Bot) onServer(ctx context.Context, i *discordgo.Interaction, opts options) {
	switch {
	case i.GuildID == "":
		b.say(i, "Server settings are made in the server: run `/stratego server` in one of its channels.")
		return
	case !isModerator(i):
		b.say(i, "Only members with the Manage Server permission can change how I work on this server. `/stratego help` shows what everyone can do.")
		return
	}
	p := printerOf(i)
	var changes []string
	s, err := b.store.UpdateServer(ctx, i.GuildID, func(s *storage.ServerSettings) error {
		changes = changes[:0]
		return applyServerOptions(p, s, opts, &changes)
	})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "server settings"))
		return
	}
	head := p.Sprintf("This server's settings:")
	if len(changes) > 0 {
		head = p.Sprintf("Changed: %[1]s.\nThis server's settings now:", strings.Join(changes, p.Sprintf("; ")))
		b.log.Info("server settings changed", "guild", i.GuildID, "by", userOf(i).ID, "options", slices.Sorted(maps.Keys(opts)))
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: head + "\n" + describeServer(p, s, b.cfg), Flags: discordgo.MessageFlagsEphemeral,
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}

// applyServerOptions changes s as the options say, listing the changes.
func applyServerOptions(p lang.Printer, s *storage.ServerSettings, opts options, changes *[]string) error {
	if v := opts.str(optBoardMode); v != "" {
		mode, err := storage.ParseBoardMode(v)
		if err != nil {
			return friendly("Choose how boards are shown: a new picture per move, a thread per match, or one live message per match.")
		}
		s.Board = mode
		*changes = append(*changes, p.Sprintf("boards: %[1]s", boardModeText(p, mode)))
	}
	if v := opts.str(optVariant); v != "" {
		variant, err := game.ParseVariant(v)
		if err != nil || variant == game.VariantCustom {
			return friendly("Choose a default variant other than Custom, whose army each challenge names.")
		}
		s.Variant = variant
		*changes = append(*changes, p.Sprintf("default variant: %[1]s", render.VariantName(p, variant)))
	}
	if v := opts.str(optMoveTime); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < storage.MinMoveTime || d > storage.MaxMoveTime {
			return friendly("The move time must be between 5 minutes and 7 days.")
		}
		s.MoveTime = d
		*changes = append(*changes, p.Sprintf("default move time: %[1]s", formatDuration(p, d)))
	}
	if v, ok := opts.integer(optTwoSquares); ok {
		n := int(v)
		s.Rules.TwoSquares = &n
		*changes = append(*changes, p.Sprintf("default Two-Squares rule: %[1]s", twoSquaresText(p, n)))
	}
	if v, ok := opts.boolean(optMoreSquares); ok {
		s.Rules.MoreSquares = &v
		*changes = append(*changes, p.Sprintf("default More-Squares rule: %[1]s", onOff(p, v)))
	}
	if v, ok := opts.boolean(optScoutRange); ok {
		s.Rules.ScoutStrikesAtRange = &v
		*changes = append(*changes, p.Sprintf("Scouts move and attack in one turn: %[1]s", onOff(p, v)))
	}
	if v, ok := opts.integer(optMaxMoves); ok {
		n := int(v)
		s.Rules.MaxMoves = &n
		*changes = append(*changes, p.Sprintf("default move limit: %[1]s", maxMovesText(p, n)))
	}
	if v, ok := opts.boolean(optPracticeAllowed); ok {
		s.NoPractice = !v
		*changes = append(*changes, p.Sprintf("practice: %[1]s", onOff(p, v)))
	}
	if v, ok := opts.integer(optVacation); ok {
		s.VacationDays = int(v)
		if v == 0 {
			v = storage.DefaultVacationDays
		}
		*changes = append(*changes, p.Sprintf(txtServerVacation, int(v)))
	}
	if v := opts.id(optStarterRole); v != "" {
		s.StarterRole = v
		*changes = append(*changes, p.Sprintf("starting matches needs <@&%[1]s>", v))
	}
	if v, ok := opts.boolean(optAnyoneStarts); ok && v {
		s.StarterRole = ""
		*changes = append(*changes, p.Sprintf("anyone may start matches"))
	}
	if v := opts.id(optAllowChannel); v != "" && !slices.Contains(s.Channels, v) {
		if len(s.Channels) >= storage.MaxServerChannels {
			return friendlyf("At most %[1]d channels can be listed; remove one first.", storage.MaxServerChannels)
		}
		s.Channels = append(s.Channels, v)
		*changes = append(*changes, p.Sprintf("matches allowed in <#%[1]s>", v))
	}
	if v := opts.id(optRemoveChannel); v != "" {
		if k := slices.Index(s.Channels, v); k >= 0 {
			s.Channels = slices.Delete(s.Channels, k, k+1)
			*changes = append(*changes, p.Sprintf("<#%[1]s> removed from the list", v))
		}
	}
	if v, ok := opts.boolean(optAnyChannel); ok && v {
		s.Channels = nil
		*changes = append(*changes, p.Sprintf("matches allowed in any channel"))
	}
	return nil
}

// onOff writes a switch's state: "on" or "off".
func onOff(p lang.Printer, v bool) string {
	if v {
		return p.Sprintf("on")
	}
	return p.Sprintf("off")
}

func boardModeText(p lang.Printer, m storage.BoardMode) string {
	switch m {
	case storage.BoardThread:
		return p.Sprintf("a thread per match")
	case storage.BoardLive:
		return p.Sprintf("one live message per match, edited after every move")
	}
	return p.Sprintf("a new picture per move in the channel")
}

// describeServer lists a server's settings for its moderators.
func describeServer(p lang.Printer, s *storage.ServerSettings, cfg Config) string {
	where := p.Sprintf("any channel")
	if len(s.Channels) > 0 {
		list := make([]string, len(s.Channels))
		for k, c := range s.Channels {
			list[k] = "<#" + c + ">"
		}
		where = joinAnd(p, list)
	}
	who := p.Sprintf("anyone")
	if s.StarterRole != "" {
		who = p.Sprintf("members with <@&%[1]s> (and moderators)", s.StarterRole)
	}
	board := s.Board
	if cfg.Threads {
		board = storage.BoardThread
	}
	variant := game.VariantClassic
	if s.Variant != 0 {
		variant = s.Variant
	}
	moveTime := cfg.DefaultMoveTime
	if s.MoveTime != 0 {
		moveTime = s.MoveTime
	}
	rules := game.DefaultRules(variant)
	s.Rules.Apply(&rules)
	options := p.Sprintf("standard")
	if parts := ruleOptionParts(p, rules); len(parts) > 0 {
		options = strings.Join(parts, p.Sprintf(txtSummarySep))
	}
	return p.Sprintf("- matches in: %[1]s\n- who may start them: %[2]s\n- boards: %[3]s\n- default variant: %[4]s; default move time: %[5]s\n- rule options of new matches: %[7]s\n- practice against the computer: %[6]s",
		where, who, boardModeText(p, board), render.VariantName(p, variant), formatDuration(p, moveTime), onOff(p, !s.NoPractice), options) +
		"\n- " + p.Sprintf(txtServerVacation, vacationDays(s))
}

// vacationDays is the server's yearly vacation allowance.
func vacationDays(s *storage.ServerSettings) int {
	if s.VacationDays > 0 {
		return s.VacationDays
	}
	return storage.DefaultVacationDays
}

// twoSquaresText writes a Two-Squares setting: "3", "5" or "off".
func twoSquaresText(p lang.Printer, n int) string {
	if n == 0 {
		return p.Sprintf("off")
	}
	return strconv.Itoa(n)
}

// maxMovesText writes a move limit: a number, or "no limit".
func maxMovesText(p lang.Printer, n int) string {
	if n == 0 {
		return p.Sprintf("no limit")
	}
	return strconv.Itoa(n)
}

// onCancel calls a match of this server off, with no result, for the reason
// a moderator gives; both players and the channel are told.
func (b *Bot) onCancel(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" || !isModerator(i) {
		b.say(i, "Only members with the Manage Server permission can call a match off, in its server. A player can `/stratego resign`, or offer a draw.")
		return
	}
	m, err := b.serverMatch(ctx, i.GuildID, opts.str(optMatch))
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "cancel"))
		return
	}
	reason := strings.TrimSpace(opts.str(optReason))
	if reason == "" {
		b.say(i, "Say why with the `reason` option: the players are told.")
		return
	}
	m, err = b.noteModerator(ctx, i, m, reason)
	if err == nil {
		m, err = b.store.Abandon(ctx, m.ID, m.Version, b.now(), storage.CallOffModerator)
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "cancel"))
		return
	}
	b.log.Info("a moderator called a match off", "match", m.ID, "by", userOf(i).ID)
	b.say(i, "%[1]s is called off with no result. Both players and the channel are told why.", matchTitle(printerOf(i), m))
	b.afterChange(ctx, m, nil)
}

// onAward ends a running match of this server as won by one player, for
// the reason a moderator gives; everyone is told, and the result counts.
func (b *Bot) onAward(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" || !isModerator(i) {
		b.say(i, "Only members with the Manage Server permission can award a match, in its server.")
		return
	}
	m, err := b.serverMatch(ctx, i.GuildID, opts.str(optMatch))
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "award"))
		return
	}
	winner, plays := m.SideOf(opts.id(optWinner))
	reason := strings.TrimSpace(opts.str(optReason))
	switch {
	case !plays:
		b.say(i, "The winner must be one of the players of %[1]s.", matchTitle(printerOf(i), m))
		return
	case b.isComputer(m, winner) || b.isComputer(m, winner.Opponent()):
		b.say(i, "Practice matches are not rated: there is nothing to award. `/stratego cancel` ends one.")
		return
	case m.Phase != storage.PhasePlaying:
		b.say(i, "The match has not begun: nothing is on the board to award. `/stratego cancel` calls it off.")
		return
	case reason == "":
		b.say(i, "Say why with the `reason` option: the players are told.")
		return
	}
	m, err = b.noteModerator(ctx, i, m, reason)
	if err == nil {
		m, err = b.store.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActAward, Side: winner, At: b.now()})
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "award"))
		return
	}
	b.log.Info("a moderator awarded a match", "match", m.ID, "by", userOf(i).ID)
	b.say(i, "%[1]s is awarded to %[2]s. Both players and the channel are told why.", matchTitle(printerOf(i), m), playerName(printerOf(i), m, winner))
	b.afterChange(ctx, m, nil)
}

// noteModerator records which moderator decides about m and why, before
// the decision itself: the players are told both.
func (b *Bot) noteModerator(ctx context.Context, i *discordgo.Interaction, m *storage.Match, reason string) (*storage.Match, error) {
	moderator := displayName(i)
	noted, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		if !x.Phase.Active() {
			return storage.ErrGameOver
		}
		x.ModeratorNote = fmt.Sprintf("%s: %s", moderator, reason)
		return nil
	})
	if err != nil {
		return nil, err
	}
	b.afterChange(ctx, noted, nil)
	return noted, nil
}

// serverMatch finds an active match of the server by the number a member
// typed or picked ("12" or "#12 …").
func (b *Bot) serverMatch(ctx context.Context, guildID, named string) (*storage.Match, error) {
	id, err := strconv.ParseUint(strings.TrimPrefix(strings.Fields(named + " ")[0], "#"), 10, 64)
	if named == "" || err != nil {
		return nil, friendly("Name the match by its number, for example `12`; the `match` option suggests this server's running matches.")
	}
	m, err := b.store.Match(ctx, storage.MatchID(id))
	switch {
	case errors.Is(err, storage.ErrNotFound) || (err == nil && m.GuildID != guildID):
		return nil, friendlyf("This server has no match #%[1]s. The `match` option suggests its running matches.", strconv.FormatUint(id, 10))
	case err != nil:
		return nil, err
	case !m.Phase.Active():
		return nil, friendlyf("Match #%[1]s is over. `/stratego record` gives its record.", strconv.FormatUint(id, 10))
	}
	return m, nil
}

// onWatch shows any member the public board of a running match of the
// server and its last moves, privately: what everyone may see, nothing more.
// With follow, the member starts or stops following the match by DM
// (follow.go).
func (b *Bot) onWatch(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.say(i, "Watch a match from its server: run `/stratego watch` in one of its channels.")
		return
	}
	m, err := b.serverMatch(ctx, i.GuildID, opts.str(optMatch))
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "watch"))
		return
	}
	note := ""
	if on, set := opts.boolean(optFollow); set {
		text, done, err := b.follow(ctx, i, m, on)
		switch {
		case err != nil:
			b.tell(i, b.explain(printerOf(i), err, "follow"))
			return
		case done:
			b.tell(i, text)
			return
		}
		note = text
	}
	if m.Phase == storage.PhaseSetup {
		b.say(i, "%[1]s has not begun: the players are still setting up.", matchTitle(printerOf(i), m))
		return
	}
	if !b.deferPrivate(i) {
		return
	}
	g, err := m.Game()
	if err != nil {
		b.finish(i, b.explain(printerOf(i), err, "watch"))
		return
	}
	v := g.View(game.PublicViewer)
	nar := narrator{viewer: game.PublicViewer, names: names(printerOf(i), m), numbering: b.settingsOf(ctx, userOf(i).ID).Numbering, p: printerOf(i)}
	lines := strings.Split(historyText(m, &v, nar), "\n")[1:] // without the title
	if len(lines) > 6 {
		lines = append([]string{"…"}, lines[len(lines)-6:]...)
	}
	text := joinLines(note, matchTitle(nar.p, m), statusLine(g, nar, m.Deadline), nar.p.Sprintf("Last moves:")+"\n"+strings.Join(lines, "\n"))
	b.finish(i, text, b.boardFile(nar.p, m, &v, nar.numbering)...)
}

// serverMatchChoices offers the server's running matches for the match
// option of /stratego watch and cancel: their numbers and players' names,
// which the channel shows anyway.
func (b *Bot) serverMatchChoices(ctx context.Context, i *discordgo.Interaction, typed string) []*discordgo.ApplicationCommandOptionChoice {
	g, err := b.s.State.Guild(i.GuildID)
	if err != nil {
		return nil
	}
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, c := range g.Channels {
		ms, err := b.store.ChannelMatches(ctx, c.ID, true, 0)
		if err != nil {
			continue
		}
		for _, m := range ms {
			if m.GuildID != i.GuildID || m.Phase != storage.PhasePlaying {
				continue
			}
			p := printerOf(i)
			name := truncate(p.Sprintf("#%[1]s %[2]s vs %[3]s", matchNumber(m), playerName(p, m, game.Red), playerName(p, m, game.Blue)), 100)
			if typed != "" && !strings.Contains(strings.ToLower(name), strings.ToLower(typed)) {
				continue
			}
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: strconv.FormatUint(uint64(m.ID), 10)})
			if len(choices) == 25 {
				return choices
			}
		}
	}
	return choices
}
