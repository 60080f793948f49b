package bot

import (
	"context"
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
// whether practice is allowed, how boards are shown.

// isModerator reports whether the member may change the server's settings
// and call matches off: Manage Server, or Administrator.
func isModerator(i *discordgo.Interaction) bool {
	return i.Member != nil && i.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0
}

// hasRole reports whether the member has the server's role: one of their
// roles, or @everyone, whose id is the server's and which Discord lists
// among no member's roles although every member has it.
func hasRole(i *discordgo.Interaction, role string) bool {
	return i.Member != nil && (role == i.GuildID || slices.Contains(i.Member.Roles, role))
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

// whyNotStartHere says why the member may not start a match (practice, when
// practice is set) in the interaction's channel; "" when they may.
func (b *Bot) whyNotStartHere(ctx context.Context, i *discordgo.Interaction, s *storage.ServerSettings, practice bool) string {
	if i.GuildID == "" {
		return ""
	}
	p := printerOf(i)
	if practice && s.NoPractice {
		return p.Sprintf("Practice games against the computer are turned off on this server. You can still play one with me by DM: run `/stratego practice` there.")
	}
	if why := b.whyNotThisChannel(ctx, i, s); why != "" {
		return why
	}
	if s.StarterRole != "" && !isModerator(i) && !hasRole(i, s.StarterRole) {
		if b.roleDeleted(i.GuildID, s.StarterRole) {
			return p.Sprintf(txtStarterRoleDeleted)
		}
		return p.Sprintf("On this server, starting a match needs the <@&%[1]s> role. Ask a moderator for it, or accept a challenge someone else makes.", s.StarterRole)
	}
	return ""
}

// whyNotThisChannel says why no match may start in the interaction's channel
// (a thread: in its channel), when the server lists the channels for
// matches and this is not one; "" when it may.
func (b *Bot) whyNotThisChannel(ctx context.Context, i *discordgo.Interaction, s *storage.ServerSettings) string {
	channel := i.ChannelID
	if parent, thread := b.threadOf(ctx, channel); thread {
		channel = parent
	}
	if s.AllowsChannel(channel) {
		return ""
	}
	p := printerOf(i)
	gone := b.deletedChannels(i.GuildID, s.Channels)
	var where []string
	for _, c := range s.Channels {
		if !slices.Contains(gone, c) {
			where = append(where, "<#"+c+">")
		}
	}
	if len(where) == 0 {
		return p.Sprintf(txtChannelsDeleted)
	}
	return p.Sprintf("Matches on this server are played in %[1]s. Start yours there.", joinAnd(p, where))
}

// txtStarterRoleDeleted refuses a match to a member while the role the
// server names for starting one is deleted: nobody can be given it.
const txtStarterRoleDeleted = "On this server, starting a match needs a role that was deleted. " +
	"Ask a moderator to name another with `/stratego server starter_role:`, or to let anyone start with `anyone_starts:true`. " +
	"Meanwhile you can accept a challenge someone else makes."

// txtChannelsDeleted refuses a match while every channel the server lists
// for matches is deleted.
const txtChannelsDeleted = "The channels this server named for matches were deleted. " +
	"Ask a moderator to name another with `/stratego server allow_channel:`, or to allow any channel with `any_channel:true`."

// whyNotMatchHere says why a member's match against another member cannot
// start in the interaction's channel: the server's rules for the member
// first, then what the bot lacks there; "" when it can.
func (b *Bot) whyNotMatchHere(ctx context.Context, i *discordgo.Interaction, s *storage.ServerSettings) string {
	if why := b.whyNotStartHere(ctx, i, s, false); why != "" {
		return why
	}
	return b.whyNotPlayHere(ctx, i, b.threadsFor(s))
}

// threadsFor reports whether a match of the server plays in its own thread.
func (b *Bot) threadsFor(s *storage.ServerSettings) bool {
	return boardFor(s, b.cfg) == storage.BoardThread
}

// boardFor is how the server's matches show their public board: as the
// server chose, or, when it has not, a thread per match if the bot's threads
// setting says so and a new picture per move otherwise.
func boardFor(s *storage.ServerSettings, cfg Config) storage.BoardMode {
	switch {
	case s.Board != storage.BoardDefault:
		return s.Board
	case cfg.Threads:
		return storage.BoardThread
	}
	return storage.BoardPerMove
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
		return applyServerOptions(p, s, opts, b.cfg, b.deletedChannels(i.GuildID, s.Channels), &changes)
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

// Refusals of server options that cannot all be done.
const (
	txtRoleOrAnyone    friendly = "Choose either `starter_role` or `anyone_starts`: one undoes the other."
	txtOrganiserOrMods friendly = "Choose either `organiser_role` or `moderators_organise`: one undoes the other."
	txtChannelOrAny    friendly = "Choose either `any_channel` or a channel to allow or remove: one undoes the other."
	txtNotListed                = "<#%[1]s> is not on the list of channels for matches, so there is nothing to remove. `/stratego server` shows the list."
	txtMaxMovesRange            = "The default move limit must be 0 (no limit) or from %[1]d to %[2]d moves, as for a challenge's `max_moves`."
)

// applyServerOptions changes s as the options say, listing the changes;
// cfg says what the bot's default is. A change of the list of channels
// drops those of them deleted (gone), which no channel option can name.
func applyServerOptions(p lang.Printer, s *storage.ServerSettings, opts options, cfg Config, gone []string, changes *[]string) error {
	// Options that undo each other: which one the moderator meant is theirs
	// to say.
	if anyone, _ := opts.boolean(optAnyoneStarts); anyone && opts.id(optStarterRole) != "" {
		return friendly(txtRoleOrAnyone)
	}
	if mods, _ := opts.boolean(optModsOrganise); mods && opts.id(optOrganiserRole) != "" {
		return friendly(txtOrganiserOrMods)
	}
	if anyCh, _ := opts.boolean(optAnyChannel); anyCh && (opts.id(optAllowChannel) != "" || opts.id(optRemoveChannel) != "") {
		return friendly(txtChannelOrAny)
	}
	if v := opts.id(optRemoveChannel); v != "" && !slices.Contains(s.Channels, v) {
		return friendlyf(txtNotListed, v)
	}
	switch v := opts.str(optBoardMode); v {
	case "":
	case boardDefault:
		// Back to what the bot's configuration says, as before any choice.
		s.Board = storage.BoardDefault
		*changes = append(*changes, p.Sprintf("boards: %[1]s", defaultBoardText(p, s, cfg)))
	default:
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
		*changes = append(*changes, p.Sprintf("default move time: %[1]s", render.Duration(p, d)))
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
		if n != 0 && n < minMaxMoves {
			// Discord's least for the option is 0, for no limit.
			return friendlyf(txtMaxMovesRange, minMaxMoves, game.MaxMovesLimit)
		}
		s.Rules.MaxMoves = &n
		*changes = append(*changes, p.Sprintf("default move limit: %[1]s", maxMovesText(p, n)))
	}
	if v, ok := opts.boolean(optPracticeAllowed); ok {
		s.NoPractice = !v
		*changes = append(*changes, p.Sprintf("practice: %[1]s", onOff(p, v)))
	}
	if v, ok := opts.integer(optVacation); ok {
		days := int(v) // 0 turns vacations off
		s.VacationDays = &days
		*changes = append(*changes, vacationAllowanceText(p, s))
	}
	if v, ok := opts.integer(optSeekHours); ok {
		s.SeekHours = int(v)
		*changes = append(*changes, seekHoursText(p, s))
	}
	if v := opts.id(optStarterRole); v != "" {
		s.StarterRole = v
		*changes = append(*changes, p.Sprintf("starting matches needs <@&%[1]s>", v))
	}
	if v, ok := opts.boolean(optAnyoneStarts); ok && v {
		s.StarterRole = ""
		*changes = append(*changes, p.Sprintf("anyone may start matches"))
	}
	if v := opts.id(optOrganiserRole); v != "" {
		s.OrganiserRole = v
		*changes = append(*changes, p.Sprintf("members with <@&%[1]s> may create tournaments", v))
	}
	if v, ok := opts.boolean(optModsOrganise); ok && v {
		s.OrganiserRole = ""
		*changes = append(*changes, p.Sprintf("only moderators create tournaments"))
	}
	if opts.id(optAllowChannel) != "" || opts.id(optRemoveChannel) != "" {
		for _, c := range gone {
			if k := slices.Index(s.Channels, c); k >= 0 {
				s.Channels = slices.Delete(s.Channels, k, k+1)
				*changes = append(*changes, p.Sprintf("<#%[1]s> removed from the list", c))
			}
		}
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

// boardDefault is the boards option's choice of the bot's default.
const boardDefault = "default"

// defaultBoardText words the bot's default way of showing boards, which a
// server that has not chosen (s) gets.
func defaultBoardText(p lang.Printer, s *storage.ServerSettings, cfg Config) string {
	return p.Sprintf("%[1]s (the bot's default)", boardModeText(p, boardFor(s, cfg)))
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
	board := boardModeText(p, boardFor(s, cfg))
	if s.Board == storage.BoardDefault {
		board = defaultBoardText(p, s, cfg)
	}
	variant, moveTime := s.DefaultVariant(), s.DefaultMoveTime(cfg.DefaultMoveTime)
	rules := game.DefaultRules(variant)
	s.Rules.Apply(&rules)
	options := p.Sprintf("standard")
	if parts := ruleOptionParts(p, rules); len(parts) > 0 {
		options = strings.Join(parts, p.Sprintf(txtSummarySep))
	}
	return p.Sprintf("- matches in: %[1]s\n- who may start them: %[2]s\n- boards: %[3]s\n- default variant: %[4]s; default move time: %[5]s\n- rule options of new matches: %[7]s\n- practice against the computer: %[6]s",
		where, who, board, render.VariantName(p, variant), render.Duration(p, moveTime), onOff(p, !s.NoPractice), options) +
		"\n- " + vacationAllowanceText(p, s) + "\n- " + seekHoursText(p, s) + "\n- " + organisersText(p, s)
}

// organisersText says who may create tournaments on the server.
func organisersText(p lang.Printer, s *storage.ServerSettings) string {
	if s.OrganiserRole != "" {
		return p.Sprintf("who may create tournaments: members with <@&%[1]s> (and moderators)", s.OrganiserRole)
	}
	return p.Sprintf("who may create tournaments: moderators")
}

// vacationAllowanceText says the server's yearly vacation allowance, or that
// vacations are off.
func vacationAllowanceText(p lang.Printer, s *storage.ServerSettings) string {
	if days := s.VacationAllowance(); days > 0 {
		return p.Sprintf(txtServerVacation, p.Sprintf(txtDays, days))
	}
	return p.Sprintf(txtServerVacationOff)
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
