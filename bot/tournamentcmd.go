package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// /stratego tournament: its subcommands and options.
const (
	cmdTournament = "tournament"

	tcCreate    = "create"
	tcJoin      = "join"
	tcLeave     = "leave"
	tcWithdraw  = "withdraw"
	tcCancel    = "cancel"
	tcStandings = "standings"
	tcList      = "list"
	tcRemove    = "remove"

	optName       = "name"
	optFormat     = "format"
	optRounds     = "rounds"
	optStartsIn   = "starts_in_hours"
	optJoinFor    = "join_hours"
	optMaxPlayers = "max_players"
	optRoundDays  = "round_days"
	optTournament = "tournament"
	optPlayer     = "player"
	optUnfinished = "unfinished"
)

// How games unfinished at a round's deadline are scored, as a creator chooses.
const (
	unfinishedBothLose = "both-lose"
	unfinishedDraw     = "draw"
)

// Formats a creator can choose.
const (
	formatRoundRobin = "round-robin"
	formatDouble     = "double-round-robin"
	formatSwiss      = "swiss"
)

// tournamentCommand is the /stratego tournament group.
// The tournament subcommands' descriptions (translated in the catalogues).
const (
	txtTcCreateDesc    = "Moderators: create a tournament in this channel"
	txtTcJoinDesc      = "Join a tournament before it starts"
	txtTcLeaveDesc     = "Leave a tournament before it starts"
	txtTcWithdrawDesc  = "Withdraw from a tournament under way: your games still to play are forfeited"
	txtTcCancelDesc    = "The creator or a moderator: cancel a tournament"
	txtTcRemoveDesc    = "Moderators: take a player out of a tournament; their games still to play are forfeited"
	txtTcStandingsDesc = "A tournament's standings and its current round"
	txtTcListDesc      = "This server's tournaments"
)

func tournamentCommand(variants, times []*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	which := func() *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: optTournament,
			Description: "Which tournament, by number (default: the server's only open one)", MinValue: floatPtr(1)}
	}
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: cmdTournament,
		Description: "Tournaments: round robin or Swiss, played over days or weeks",
		Options: []*discordgo.ApplicationCommandOption{
			sub(tcCreate, txtTcCreateDesc,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optName, Description: "Its name", Required: true, MaxLength: storage.MaxTournamentName},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optFormat, Description: "How the rounds are paired", Required: true,
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Round robin", Value: formatRoundRobin}, {Name: "Double round robin", Value: formatDouble}, {Name: "Swiss", Value: formatSwiss}}},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: optRounds, Description: "Swiss only: the number of rounds",
					MinValue: floatPtr(1), MaxValue: 20},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optVariant, Description: "Which game (default Classic)", Choices: variants},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optMoveTime, Description: "Time for each move (default 1 day)", Choices: times},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optClock, Description: "A game clock instead: minutes each + seconds more a move",
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "5+3", Value: "5+3"}, {Name: "10+5", Value: "10+5"}, {Name: "15+10", Value: "15+10"}, {Name: "20+10", Value: "20+10"}, {Name: "30+0", Value: "30+0"}}},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: optStartsIn, Description: "Hours from now until round 1 is paired (default 24)",
					MinValue: floatPtr(1), MaxValue: 24 * 30},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: optJoinFor, Description: "Hours from now members may join (default: until the start)",
					MinValue: floatPtr(1), MaxValue: 24 * 30},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: optMaxPlayers, Description: "The most players (default 16)",
					MinValue: floatPtr(2), MaxValue: maxTournamentPlayer},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: optRoundDays, Description: "Days each round may last (default 7)",
					MinValue: floatPtr(1), MaxValue: 30},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optUnfinished, Description: "How games unfinished at a round's deadline count (default: both lose)",
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Both lose", Value: unfinishedBothLose}, {Name: "Draw", Value: unfinishedDraw}}},
			),
			sub(tcJoin, txtTcJoinDesc, which()),
			sub(tcLeave, txtTcLeaveDesc, which()),
			sub(tcWithdraw, txtTcWithdrawDesc, which()),
			sub(tcCancel, txtTcCancelDesc, which()),
			sub(tcRemove, txtTcRemoveDesc,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: optPlayer, Description: "The player to take out", Required: true},
				which()),
			sub(tcStandings, txtTcStandingsDesc, which()),
			sub(tcList, txtTcListDesc),
		},
	}
}

// onTournament routes /stratego tournament.
func (b *Bot) onTournament(ctx context.Context, i *discordgo.Interaction, group *discordgo.ApplicationCommandInteractionDataOption) {
	if i.GuildID == "" {
		b.say(i, "Tournaments belong to a server: run `/stratego tournament` in one of its channels.")
		return
	}
	if len(group.Options) == 0 {
		b.say(i, "I don't know that command. Try `/stratego help`.")
		return
	}
	sub := group.Options[0]
	opts := optionMap(sub.Options)
	switch sub.Name {
	case tcCreate:
		b.onTournamentCreate(ctx, i, opts)
	case tcList:
		b.onTournamentList(ctx, i)
	case tcJoin, tcLeave, tcWithdraw, tcCancel, tcStandings, tcRemove:
		t, why := b.tournamentMeant(ctx, i, opts)
		if why != "" {
			b.tell(i, why)
			return
		}
		switch sub.Name {
		case tcJoin:
			b.onTournamentJoin(ctx, i, t)
		case tcLeave, tcWithdraw:
			b.onTournamentLeave(ctx, i, t, sub.Name == tcWithdraw)
		case tcRemove:
			b.onTournamentRemove(ctx, i, t, opts.id(optPlayer))
		case tcCancel:
			b.onTournamentCancel(ctx, i, t)
		case tcStandings:
			b.onTournamentStandings(ctx, i, t)
		}
	default:
		b.say(i, "I don't know that command. Try `/stratego help`.")
	}
}

// tournamentMeant is the tournament a member names, or the server's only
// one not yet over; otherwise why not, in words.
func (b *Bot) tournamentMeant(ctx context.Context, i *discordgo.Interaction, opts options) (*storage.Tournament, string) {
	p := printerOf(i)
	if n, ok := opts.integer(optTournament); ok {
		t, err := b.store.Tournament(ctx, storage.TournamentID(n))
		if err != nil || t.GuildID != i.GuildID {
			return nil, p.Sprintf("This server has no tournament #%[1]d. `/stratego tournament list` shows them.", n)
		}
		return t, ""
	}
	open, err := b.store.ServerTournaments(ctx, i.GuildID, false)
	if err != nil {
		return nil, b.explain(p, err, "tournament")
	}
	if len(open) == 0 {
		// None under way: the latest that was, for its standings.
		if all, err := b.store.ServerTournaments(ctx, i.GuildID, true); err == nil && len(all) > 0 {
			return all[len(all)-1], ""
		}
	}
	switch len(open) {
	case 0:
		return nil, p.Sprintf("This server has no tournament under way. A moderator can start one with `/stratego tournament create`.")
	case 1:
		return open[0], ""
	}
	return nil, p.Sprintf("This server has several tournaments: name one with the `tournament` option. `/stratego tournament list` shows them.")
}

// mayOrganise reports whether the member may create tournaments: Manage
// Server, or the role the server names for starting matches.
func mayOrganise(i *discordgo.Interaction, s *storage.ServerSettings) bool {
	return isModerator(i) || (s.StarterRole != "" && i.Member != nil && slices.Contains(i.Member.Roles, s.StarterRole))
}

func (b *Bot) onTournamentCreate(ctx context.Context, i *discordgo.Interaction, opts options) {
	p := printerOf(i)
	me := userOf(i).ID
	server := b.serverOf(ctx, i.GuildID)
	if !mayOrganise(i, server) {
		b.say(i, "Only members with the Manage Server permission (or the role this server names in `/stratego server`) can create tournaments.")
		return
	}
	if why := b.mayStartHere(i, server, false); why != "" {
		b.tell(i, why)
		return
	}
	if why := b.cannotPlayHere(i, false); why != "" {
		b.tell(i, why) // the tournament's boards and standings are posted here
		return
	}
	name := strings.TrimSpace(opts.str(optName))
	if name == "" || len([]rune(name)) > storage.MaxTournamentName {
		b.say(i, "Give the tournament a name of 1 to %[1]d characters.", storage.MaxTournamentName)
		return
	}
	var rules tournament.Rules
	rounds, hasRounds := opts.integer(optRounds)
	switch opts.str(optFormat) {
	case formatSwiss:
		if !hasRounds {
			b.say(i, "A Swiss tournament needs a number of rounds: add the `rounds` option.")
			return
		}
		rules = tournament.DefaultRules(tournament.Swiss, int(rounds))
	case formatRoundRobin, formatDouble:
		if hasRounds {
			b.say(i, "A round robin has as many rounds as it needs for everyone to meet: leave out the `rounds` option.")
			return
		}
		rules = tournament.DefaultRules(tournament.RoundRobin, 0)
		rules.Double = opts.str(optFormat) == formatDouble
		rules.AllAtOnce = true // every game starts at the start, as in correspondence round robins
	default:
		b.say(i, "Choose a format: round robin, double round robin or Swiss.")
		return
	}
	switch opts.str(optUnfinished) {
	case "", unfinishedBothLose:
		rules.Unfinished = tournament.BothLose
	case unfinishedDraw:
		rules.Unfinished = tournament.ScoredAsDraw
	default:
		b.say(i, "Choose how games unfinished at a round's deadline count: both lose, or a draw.")
		return
	}
	gameRules, moveTime, _, err := b.challengeTerms(opts, server, b.settingsOf(ctx, me).Numbering)
	if err != nil {
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	clock, moveTime, err := clockOption(opts, moveTime)
	if err != nil {
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	hours := func(name string, def int64) int64 {
		if v, ok := opts.integer(name); ok {
			return v
		}
		return def
	}
	now := b.now()
	startsIn := hours(optStartsIn, 24)
	joinFor := hours(optJoinFor, startsIn)
	if joinFor > startsIn {
		b.say(i, "Joining must close by the start: choose `join_hours` no larger than `starts_in_hours`.")
		return
	}
	maxPlayers := int(hours(optMaxPlayers, 16))
	if maxPlayers < 2 || maxPlayers > maxTournamentPlayer {
		b.say(i, "A tournament takes 2 to %[1]d players.", maxTournamentPlayer)
		return
	}
	if rules.Format == tournament.RoundRobin && maxPlayers > maxRoundRobinPlayers {
		// Every game of a round robin starts at once: each player would
		// have one game against every other going at the same time.
		b.say(i, "A round robin takes at most %[1]d players, since each plays all their games at once. Lower `max_players`, or choose a Swiss event.", maxRoundRobinPlayers)
		return
	}
	if most := tournament.SwissRoundsAtMost(maxPlayers); rules.Format == tournament.Swiss && rules.Rounds > most {
		// Fewer players at the start cap the rounds then; this many never fit.
		b.say(i, "With at most %[1]d players no round after round %[2]d can be paired without two players meeting twice: lower `rounds` or raise `max_players`.", maxPlayers, most)
		return
	}
	roundTime := time.Duration(hours(optRoundDays, 7)) * 24 * time.Hour
	if moveTime > roundTime {
		// A set-up may take a move time: it must fit in a round.
		b.say(i, "Each round lasts %[1]s, less than the move time of %[2]s: a set-up alone could outlast the round. Choose a shorter `move_time` or more `round_days`.",
			formatDuration(p, roundTime), formatDuration(p, moveTime))
		return
	}
	t, err := b.store.CreateTournament(ctx, &storage.Tournament{
		GuildID: i.GuildID, ChannelID: i.ChannelID, Name: name, CreatorID: me, Created: now,
		Rules: rules, Game: gameRules, MoveTime: moveTime, Clock: clock, RoundTime: roundTime,
		StartAt: now.Add(time.Duration(startsIn) * time.Hour), JoinBy: now.Add(time.Duration(joinFor) * time.Hour), MaxPlayers: maxPlayers,
	}, storage.TournamentLimits{PerCreator: maxOpenPerCreator, PerServer: maxOpenPerServer}) // counted in the store's transaction: several processes may share it
	var over *storage.TournamentLimitError
	switch {
	case errors.As(err, &over) && over.Creator:
		b.say(i, "You already run %[1]d tournaments that are not over. Finish or cancel one first.", over.Open)
		return
	case errors.As(err, &over):
		b.say(i, "This server already has %[1]d tournaments under way, the most it can run at once. Wait for one to end.", over.Open)
		return
	case err != nil:
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	b.log.Info("tournament created", "tournament", t.ID, "guild", t.GuildID, "by", me)
	b.nudgeTimers()
	pub := b.publicPrinter(i.GuildID)
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content:         createdText(pub, t),
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}

// createdText announces a new tournament: its terms, its start and its
// deadlines.
func createdText(p lang.Printer, t *storage.Tournament) string {
	if t.Rules.AllAtOnce {
		return p.Sprintf("**Tournament #%[1]s: %[2]s** — %[3]s, %[4]s.\nEvery game starts <t:%[5]s:f>; join until <t:%[6]s:f> with `/stratego tournament join` (at most %[7]d players). All games must end by one deadline: %[8]s for each round of the schedule, counted from the start.",
			t.ID, t.Name, formatText(p, t.Rules), rulesSummary(p, t.Game, t.MoveTime, t.Clock), unix(t.StartAt), unix(t.JoinBy), t.MaxPlayers, formatDuration(p, t.RoundTime)) +
			" " + p.Sprintf("Games unfinished at the deadline count as %[1]s.", adjudicationText(p, t.Rules.Unfinished))
	}
	return p.Sprintf("**Tournament #%[1]s: %[2]s** — %[3]s, %[4]s.\nRound 1 starts <t:%[5]s:f>; join until <t:%[6]s:f> with `/stratego tournament join` (at most %[7]d players). Each round lasts up to %[8]s.",
		t.ID, t.Name, formatText(p, t.Rules), rulesSummary(p, t.Game, t.MoveTime, t.Clock), unix(t.StartAt), unix(t.JoinBy), t.MaxPlayers, formatDuration(p, t.RoundTime)) +
		" " + p.Sprintf("Games unfinished at a round's deadline count as %[1]s.", adjudicationText(p, t.Rules.Unfinished))
}

// formatText words a tournament's format.
func formatText(p lang.Printer, r tournament.Rules) string {
	switch {
	case r.Format == tournament.Swiss:
		return p.Sprintf("Swiss, rounds: %[1]d", r.Rounds)
	case r.Double:
		return p.Sprintf("double round robin")
	}
	return p.Sprintf("round robin")
}

func (b *Bot) onTournamentJoin(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament) {
	me := userOf(i).ID
	standing, err := b.store.Standing(ctx, t.GuildID, t.Game.Variant, me)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "tournament"))
		return
	}
	name := displayName(i)
	var refusal string
	joined, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		refusal = ""
		s, err := x.State()
		if err != nil {
			return err
		}
		_, in := s.Player(me)
		switch {
		case x.Done || s.Status() != tournament.Registering:
			refusal = txtJoinClosedBegun
		case !b.now().Before(x.JoinBy):
			refusal = txtJoinClosed
		case in && x.Rules.AllAtOnce:
			refusal = txtJoinedAlreadyAll
		case in:
			refusal = txtJoinedAlready
		case len(s.Players()) >= x.MaxPlayers:
			refusal = txtTournamentFull
		}
		if refusal != "" {
			return errRefused
		}
		x.Log = append(x.Log, tournament.Join(me, int(standing.Rating)))
		x.Names[me] = name
		return nil
	})
	if errors.Is(err, errRefused) {
		b.say(i, refusal, t.Name, unix(t.JoinBy), unix(t.StartAt), t.MaxPlayers)
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "tournament"))
		return
	}
	s, _ := joined.State()
	if t.Rules.AllAtOnce {
		b.say(i, "You joined **%[1]s** (players so far: %[2]d). Every game starts <t:%[3]s:f>; your set-up invitations come by DM, one for each opponent.", t.Name, len(s.Players()), unix(t.StartAt))
		return
	}
	b.say(i, "You joined **%[1]s** (players so far: %[2]d). Round 1 starts <t:%[3]s:f>; your set-up invitation comes by DM.", t.Name, len(s.Players()), unix(t.StartAt))
}

// Refusals of join, leave and withdraw: the tournament's name, its join
// deadline, its start and its player limit fill them.
const (
	txtJoinClosedBegun  = "**%[1]s** has already begun: joining is closed."
	txtJoinClosed       = "Joining **%[1]s** closed <t:%[2]s:R>."
	txtJoinedAlready    = "You are already in **%[1]s**. Round 1 starts <t:%[3]s:R>."
	txtJoinedAlreadyAll = "You are already in **%[1]s**. Every game starts <t:%[3]s:R>."
	txtTournamentFull   = "**%[1]s** is full: it takes at most %[4]d players."
	txtTournamentOver   = "**%[1]s** is over."
	txtNotInTournament  = "You are not in **%[1]s**."
	txtUseWithdraw      = "**%[1]s** has begun: `/stratego tournament withdraw` takes you out, and your games still to play are forfeited."
)

// errRefused is a change refused for a reason the caller words.
var errRefused = errors.New("refused")

// onTournamentLeave takes a member out: before the start they leave; after,
// when they said withdraw (leave is refused, lest a slip forfeit games),
// they withdraw, their game of the round (if on) is forfeited and called
// off, and the channel is told.
func (b *Bot) onTournamentLeave(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament, withdraw bool) {
	me := userOf(i).ID
	started := false
	var refusal string
	left, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		refusal = ""
		s, err := x.State()
		if err != nil {
			return err
		}
		pl, in := s.Player(me)
		switch {
		case x.Done || s.Status() == tournament.Finished || s.Status() == tournament.CancelledStatus:
			refusal = txtTournamentOver
		case !in || pl.Withdrawn:
			refusal = txtNotInTournament
		case !withdraw && s.Status() == tournament.Running:
			refusal = txtUseWithdraw
		}
		if refusal != "" {
			return errRefused
		}
		started = s.Status() == tournament.Running
		x.Log = append(x.Log, tournament.Withdraw(me, tournament.WithdrewByChoice))
		if after, err := x.State(); err == nil && started && after.AllPairedComplete() {
			x.RoundDeadline = b.now() // the next round, or the end, is due
		}
		return nil
	})
	if errors.Is(err, errRefused) {
		b.say(i, refusal, t.Name)
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "tournament"))
		return
	}
	if !started {
		b.say(i, "You left **%[1]s**.", t.Name)
		return
	}
	pub := b.publicPrinter(t.GuildID)
	b.callOffRound(ctx, left, 0, pub.Sprintf("%[1]s: %[2]s withdrew", left.Name, playerLabel(left, me)), me) // every game of theirs still on
	b.say(i, "You withdrew from **%[1]s**. Your games still to play are forfeited.", t.Name)
	b.nudgeTimers()
}

// Refusals of remove: the tournament's name and the player fill them.
const (
	txtRemoveModeratorsOnly = "Only members with the Manage Server permission can take a player out of a tournament."
	txtRemoveNotIn          = "%[2]s is not in **%[1]s**."
)

// onTournamentRemove takes a player out for a moderator: as a withdrawal,
// whose games still to play are forfeited (before the start, they are
// simply no longer in it); the channel is told.
func (b *Bot) onTournamentRemove(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament, player string) {
	if !isModerator(i) {
		b.say(i, txtRemoveModeratorsOnly)
		return
	}
	if player == "" {
		b.say(i, "Name the player to take out with the `player` option.")
		return
	}
	name := playerLabel(t, player)
	if name == player {
		name = "<@" + player + ">"
	}
	started := false
	var refusal string
	removed, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		refusal = ""
		s, err := x.State()
		if err != nil {
			return err
		}
		pl, in := s.Player(player)
		switch {
		case x.Done || s.Status() == tournament.Finished || s.Status() == tournament.CancelledStatus:
			refusal = txtTournamentOver
		case !in || pl.Withdrawn:
			refusal = txtRemoveNotIn
		}
		if refusal != "" {
			return errRefused
		}
		started = s.Status() == tournament.Running
		x.Log = append(x.Log, tournament.Withdraw(player, tournament.Removed))
		if after, err := x.State(); err == nil && started && after.AllPairedComplete() {
			x.RoundDeadline = b.now() // the next round, or the end, is due
		}
		return nil
	})
	if errors.Is(err, errRefused) {
		b.say(i, refusal, t.Name, name)
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "tournament"))
		return
	}
	b.log.Info("tournament player removed", "tournament", t.ID, "by", userOf(i).ID)
	if started {
		pub := b.publicPrinter(t.GuildID)
		b.callOffRound(ctx, removed, 0, pub.Sprintf("%[1]s: a moderator removed %[2]s", removed.Name, playerLabel(removed, player)), player)
		b.nudgeTimers()
	}
	b.say(i, "You took %[2]s out of **%[1]s**; their games still to play are forfeited.", t.Name, name)
}

func (b *Bot) onTournamentCancel(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament) {
	me := userOf(i).ID
	if me != t.CreatorID && !isModerator(i) {
		b.say(i, "Only the member who created **%[1]s** or a member with Manage Server can cancel it.", t.Name)
		return
	}
	cancelled, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		if x.Done {
			return errRefused
		}
		cancel := tournament.Cancel()
		cancel.Player = me // named in the announcement
		x.Log = append(x.Log, cancel)
		x.Done = true
		x.RoundDeadline = time.Time{}
		return nil
	})
	if errors.Is(err, errRefused) {
		b.say(i, "**%[1]s** is over.", t.Name)
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "tournament"))
		return
	}
	pub := b.publicPrinter(t.GuildID)
	if s, err := cancelled.State(); err == nil && len(s.Rounds()) > 0 {
		b.callOffRound(ctx, cancelled, 0, pub.Sprintf("%[1]s was cancelled", cancelled.Name))
	}
	b.log.Info("tournament cancelled", "tournament", t.ID, "by", me)
	b.say(i, "**%[1]s** is cancelled.", t.Name)
}

func (b *Bot) onTournamentStandings(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament) {
	p := printerOf(i)
	table, text, err := standingsOf(p, t)
	if err != nil {
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	head := p.Sprintf("**%[1]s** — %[2]s", t.Name, statusText(p, t))
	files := b.standingsPicture(table)
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: truncate(head+"\n"+text, 2000), Files: files, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}

// statusText says where a tournament stands.
func statusText(p lang.Printer, t *storage.Tournament) string {
	s, err := t.State()
	if err != nil {
		return ""
	}
	switch {
	case s.Status() == tournament.CancelledStatus:
		return p.Sprintf("cancelled")
	case t.Done:
		return p.Sprintf("over") // finished, or ended early
	}
	switch s.Status() {
	case tournament.Registering:
		return p.Sprintf("players: %[1]d; round 1 starts <t:%[2]s:f>", len(s.Players()), unix(t.StartAt))
	case tournament.Running:
		if t.Rules.AllAtOnce {
			over, games := gamesOver(s)
			return p.Sprintf("every round under way, %[1]d of %[2]d games over, deadline <t:%[3]s:f>", over, games, unix(t.RoundDeadline))
		}
		return p.Sprintf("round %[1]d of %[2]d, deadline <t:%[3]s:f>", len(s.Rounds()), s.TotalRounds(), unix(t.RoundDeadline))
	}
	return p.Sprintf("over")
}

// gamesOver counts the games (not byes) of the rounds paired, and those of
// them with a result.
func gamesOver(s *tournament.Tournament) (over, games int) {
	for _, r := range s.Rounds() {
		for _, g := range r.Games {
			if g.IsBye() {
				continue
			}
			games++
			if g.Result.Done() {
				over++
			}
		}
	}
	return over, games
}

func (b *Bot) onTournamentList(ctx context.Context, i *discordgo.Interaction) {
	p := printerOf(i)
	all, err := b.store.ServerTournaments(ctx, i.GuildID, true)
	if err != nil {
		b.tell(i, b.explain(p, err, "tournament"))
		return
	}
	if len(all) == 0 {
		b.say(i, "This server has no tournaments yet. A moderator can start one with `/stratego tournament create`.")
		return
	}
	if len(all) > 15 {
		all = all[len(all)-15:] // the latest
	}
	lines := []string{p.Sprintf("Tournaments of this server:")}
	for _, t := range all {
		lines = append(lines, fmt.Sprintf("#%s **%s** — %s; %s", t.ID, t.Name, formatText(p, t.Rules), statusText(p, t)))
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: truncate(strings.Join(lines, "\n"), 2000), Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
}

// standingsOf builds the standings: the table the picture draws and the
// same as text. They hold points, tie-breaks and games: results only.
func standingsOf(p lang.Printer, t *storage.Tournament) (render.Table, string, error) {
	s, err := t.State()
	if err != nil {
		return render.Table{}, "", err
	}
	swiss := t.Rules.Format == tournament.Swiss
	cols := []string{"#", p.Sprintf("Player"), p.Sprintf("Points"), "SB"}
	if swiss {
		cols = append(cols, "Buchholz")
	}
	cols = append(cols, p.Sprintf("W-D-L"))
	table := render.Table{Title: t.Name, Columns: cols}
	for _, st := range s.Standings() {
		name := playerLabel(t, st.Player)
		if st.Withdrawn {
			name = p.Sprintf("%[1]s (withdrew)", name)
		}
		row := []string{strconv.Itoa(st.Rank), name, st.Points.String(), tournament.FormatSonnebornBerger(st.SonnebornBerger)}
		if swiss {
			row = append(row, st.Buchholz.String())
		}
		row = append(row, fmt.Sprintf("%d-%d-%d", st.Won, st.Drawn, st.Lost))
		table.Rows = append(table.Rows, row)
	}
	var text strings.Builder
	text.WriteString("```\n")
	widths := make([]int, len(cols))
	for c := range cols {
		widths[c] = len([]rune(cols[c]))
		for _, row := range table.Rows {
			widths[c] = max(widths[c], min(len([]rune(codeSafe(row[c]))), 24))
		}
	}
	line := func(cells []string) {
		for c, cell := range cells {
			cell = codeSafe(cell)
			if r := []rune(cell); len(r) > 24 {
				cell = string(r[:23]) + "…"
			}
			pad := strings.Repeat(" ", widths[c]-len([]rune(cell)))
			if c >= 2 {
				text.WriteString(pad + cell)
			} else {
				text.WriteString(cell + pad)
			}
			if c < len(cells)-1 {
				text.WriteString("  ")
			}
		}
		text.WriteString("\n")
	}
	line(cols)
	for _, row := range table.Rows {
		line(row)
	}
	text.WriteString("```")
	return table, text.String(), nil
}

// codeSafe keeps a name from closing the code block it is shown in.
func codeSafe(s string) string { return strings.ReplaceAll(s, "`", "'") }

// standingsPicture draws the table, with its alt text; none when it cannot.
func (b *Bot) standingsPicture(table render.Table) []*discordgo.File {
	if b.pics == nil || len(table.Rows) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if err := b.pics.Standings(&buf, table); err != nil {
		b.log.Warn("drawing the standings failed", "error", err)
		return nil
	}
	return []*discordgo.File{pngFile("standings.png", buf.Bytes(), render.TableAlt(table))}
}
