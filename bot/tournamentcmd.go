package bot

import (
	"context"
	"errors"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/storage"
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
	txtTcCreateDesc    = "Moderators or the organiser role: create a tournament in this channel"
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
			Description: "Which tournament, by number (default: the server's only one not yet over)", MinValue: floatPtr(1)}
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
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optVariant, Description: "Which game (default: this server's, else Classic)", Choices: variants},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optMoveTime, Description: "Time for each move (default: this server's, else 1 day)", Choices: times},
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
	// What is asked of Discord to tell which the member knows of (an
	// archived thread's channel) is asked within the answer's three seconds.
	ask, cancel := context.WithTimeout(ctx, memberAskTimeout)
	defer cancel()
	if n, ok := opts.integer(optTournament); ok {
		t, err := b.store.Tournament(ctx, storage.TournamentID(n))
		switch {
		case errors.Is(err, storage.ErrNotFound) || err == nil && (t.GuildID != i.GuildID || !b.tournamentKnown(ask, i, t)):
			// One played in a channel the member cannot see is none for them.
			return nil, p.Sprintf("This server has no tournament #%[1]d. `/stratego tournament list` shows them.", n)
		case err != nil:
			return nil, b.explain(p, err, "tournament") // the database, not the member
		}
		return t, ""
	}
	open, unread, err := b.knownTournaments(ctx, ask, i, false)
	if err != nil {
		return nil, b.explain(p, err, "tournament")
	}
	if len(open)+unread == 0 {
		// None under way: the latest that was, for its standings.
		if all, _, err := b.knownTournaments(ctx, ask, i, true); err == nil && len(all) > 0 {
			return all[len(all)-1], ""
		}
	}
	// One that cannot be read is under way too: the member may mean it.
	switch {
	case len(open)+unread == 0:
		return nil, p.Sprintf("This server has no tournament under way. A moderator can start one with `/stratego tournament create`.")
	case len(open) == 0:
		// None that can be read: naming one would not help (the list
		// leaves it out), and what is wrong is for the bot's host.
		return nil, p.Sprintf("A tournament under way on this server cannot be read right now. Please tell whoever runs this bot: its log says why.")
	case len(open)+unread == 1:
		return open[0], ""
	}
	return nil, p.Sprintf("This server has several tournaments: name one with the `tournament` option. `/stratego tournament list` shows them.")
}

// knownTournaments is serverTournaments of the server of i as the member
// behind i knows them: those played in a channel they cannot see left out
// (tournamentKnown, which asks Discord within ask).
func (b *Bot) knownTournaments(ctx, ask context.Context, i *discordgo.Interaction, all bool) (list []*storage.Tournament, unread int, err error) {
	list, unread, err = b.serverTournaments(ctx, i.GuildID, all)
	return slices.DeleteFunc(list, func(t *storage.Tournament) bool { return !b.tournamentKnown(ask, i, t) }), unread, err
}

// tournamentKnown reports whether the member behind i may know of
// tournament t: one played in a channel they cannot see is, like a match
// there for /stratego watch, none for them, its name, players and results
// as hidden as the channel's boards, and not to be joined (a league of a
// role's channel). Its players (also one who withdrew, or who no longer
// sees the channel), its creator and moderators (who may cancel it, or
// take a player out) know it wherever they are, also when its channel was
// deleted (it goes on by DM), which nobody else then sees. Anyone else
// knows it as they see its channel (memberSees, channelSeen: a member
// asking in it sees it; a private thread is seen by those who manage its
// channel's threads); one the bot cannot tell of is not seen.
func (b *Bot) tournamentKnown(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament) bool {
	me := userOf(i).ID
	if isModerator(i) || me == t.CreatorID || i.Member == nil {
		return true
	}
	if b.memberSees(ctx, i, t.ChannelID) {
		return true
	}
	s, err := t.State()
	if err != nil {
		return false
	}
	_, in := s.Player(me)
	return in
}

// mayOrganise reports whether the member may create tournaments: Manage
// Server, or the organiser role the server names.
func mayOrganise(i *discordgo.Interaction, s *storage.ServerSettings) bool {
	return isModerator(i) || (s.OrganiserRole != "" && hasRole(i, s.OrganiserRole))
}
