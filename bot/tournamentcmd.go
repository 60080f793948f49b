package bot

import (
	"context"
	"errors"

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

func tournamentCommand(variants []*discordgo.ApplicationCommandOptionChoice, moveTime *discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
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
				moveTime,
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

// txtTournamentUnsure answers a command that would take the server's only
// tournament, or its latest, when the bot cannot tell whether the member
// sees the channel of another (Discord did not say in time what an
// archived thread is): the one it would take by elimination may not be
// the one they mean.
const txtTournamentUnsure = "I cannot tell right now which of this server's tournaments you can see: name one with the `tournament` option, or try again in a moment."

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
		if err == nil && t.GuildID == i.GuildID {
			if known, _ := b.sortKnown(ask, i, []*storage.Tournament{t}); len(known) == 0 {
				err = storage.ErrNotFound // one played in a channel the member cannot see is none for them
			}
		}
		switch {
		case errors.Is(err, storage.ErrNotFound) || err == nil && t.GuildID != i.GuildID:
			return nil, p.Sprintf("This server has no tournament #%[1]d. `/stratego tournament list` shows them.", n)
		case err != nil:
			return nil, b.explain(p, err, "tournament") // the database, not the member
		}
		return t, ""
	}
	open, unsure, unread, err := b.knownTournaments(ctx, ask, i, false)
	if err != nil {
		return nil, b.explain(p, err, "tournament")
	}
	if len(open)+len(unsure)+unread == 0 {
		// None under way: the latest that was, for its standings, unless
		// one the bot cannot tell of is later.
		if all, unsure, _, err := b.knownTournaments(ctx, ask, i, true); err == nil {
			switch {
			case len(unsure) > 0 && (len(all) == 0 || unsure[len(unsure)-1].ID > all[len(all)-1].ID):
				return nil, p.Sprintf(txtTournamentUnsure)
			case len(all) > 0:
				return all[len(all)-1], ""
			}
		}
	}
	// One that cannot be read is under way too: the member may mean it; and
	// so may they one the bot cannot tell they see.
	switch {
	case len(open)+len(unsure)+unread == 0:
		return nil, p.Sprintf("This server has no tournament under way. A moderator can start one with `/stratego tournament create`.")
	case len(open) == 0 && unread > 0:
		// None that can be read: naming one would not help (the list
		// leaves it out), and what is wrong is for the bot's host.
		return nil, p.Sprintf("A tournament under way on this server cannot be read right now. Please tell whoever runs this bot: its log says why.")
	case len(open)+unread <= 1 && len(unsure) > 0:
		return nil, p.Sprintf(txtTournamentUnsure)
	case len(open)+unread == 1:
		return open[0], ""
	}
	return nil, p.Sprintf("This server has several tournaments: name one with the `tournament` option. `/stratego tournament list` shows them.")
}

// knownTournaments is serverTournaments of the server of i as the member
// behind i knows them (sortKnown, which asks Discord within ask): those
// played in a channel they cannot see left out, and those the bot cannot
// tell of apart, in unsure.
func (b *Bot) knownTournaments(ctx, ask context.Context, i *discordgo.Interaction, all bool) (list, unsure []*storage.Tournament, unread int, err error) {
	list, unread, err = b.serverTournaments(ctx, i.GuildID, all)
	list, unsure = b.sortKnown(ask, i, list)
	return list, unsure, unread, err
}

// sortKnown returns those of list, in its order, the member behind i may
// know of, and apart those the bot cannot tell of yet (Discord, asked now,
// did not say in time what their channel is); the rest are left out. A
// tournament played in a channel they cannot see is, like a match there
// for /stratego watch, none for them, its name, players and results as
// hidden as the channel's boards, and not to be joined (a league of a
// role's channel). Its players (also one who withdrew, or who no longer
// sees the channel), its creator and moderators (who may cancel it, or
// take a player out) know it wherever they are, also when its channel was
// deleted (it goes on by DM), which nobody else then sees: that is told
// first, without Discord. Anyone else knows it as they see its channel
// (memberSees, channelSeen: a member asking in it sees it; a private
// thread is seen by those who manage its channel's threads), asked of
// Discord, for archived threads the bot's state lost, all at once within
// ctx (memberSeesEach). What the bot cannot tell for good, and would
// answer so at every command, is not seen: a channel Discord refused to
// describe (the bot lost sight of it), a thread whose channel was deleted,
// a tournament whose channel is known deleted (not asked about), the
// server missing from the bot's state.
func (b *Bot) sortKnown(ctx context.Context, i *discordgo.Interaction, list []*storage.Tournament) (known, unsure []*storage.Tournament) {
	me := userOf(i).ID
	if isModerator(i) || i.Member == nil {
		return list, nil
	}
	plays := func(t *storage.Tournament) bool {
		s, err := t.State()
		if err != nil {
			return false
		}
		_, in := s.Player(me)
		return in
	}
	const (
		unseen = iota
		seen
		notTold
		toAsk
	)
	verdict := make([]int, len(list))
	var ask []string
	for k, t := range list {
		if t.CreatorID == me {
			verdict[k] = seen
			continue
		}
		var s sight
		held := t.ChannelDeleted // seen by nobody: not asked about
		if !held {
			s, held = b.memberSeesHeld(i, t.ChannelID)
		}
		switch {
		case held && s.sees:
			verdict[k] = seen
		case plays(t): // its state replayed only for one its channel does not tell of
			verdict[k] = seen
		case !held:
			verdict[k] = toAsk
			ask = append(ask, t.ChannelID)
		}
	}
	sights := b.memberSeesEach(ctx, i, ask)
	for k, t := range list {
		if verdict[k] == toAsk {
			switch s := sights[t.ChannelID]; {
			case s.sees:
				verdict[k] = seen
			case s.later:
				verdict[k] = notTold
			default:
				verdict[k] = unseen
			}
		}
		switch verdict[k] {
		case seen:
			known = append(known, t)
		case notTold:
			unsure = append(unsure, t)
		}
	}
	return known, unsure
}

// mayOrganise reports whether the member may create tournaments: Manage
// Server, or the organiser role the server names.
func mayOrganise(i *discordgo.Interaction, s *storage.ServerSettings) bool {
	return isModerator(i) || (s.OrganiserRole != "" && hasRole(i, s.OrganiserRole))
}
