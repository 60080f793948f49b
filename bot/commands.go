package bot

import (
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// commandName is the bot's one top-level slash command.
const commandName = "stratego"

// Subcommand names.
const (
	cmdChallenge   = "challenge"
	cmdSetup       = "setup"
	cmdMove        = "move"
	cmdBoard       = "board"
	cmdResign      = "resign"
	cmdDraw        = "draw"
	cmdGiveTime    = "give_time"
	cmdPause       = "pause"
	cmdVacation    = "vacation"
	cmdGames       = "games"
	cmdHistory     = "history"
	cmdSettings    = "settings"
	cmdStats       = "stats"
	cmdLeaderboard = "leaderboard"
	cmdRules       = "rules"
	cmdRecord      = "record"
	cmdPractice    = "practice"
	cmdHelp        = "help"
	cmdServer      = "server"
	cmdWatch       = "watch"
	cmdCancel      = "cancel"
	cmdAward       = "award"
)

// Option names.
const (
	optOpponent    = "opponent"
	optVariant     = "variant"
	optArmy        = "army"
	optMoveTime    = "move_time"
	optSide        = "side"
	optTwoSquares  = "two_squares"
	optMoreSquares = "more_squares"
	optScoutRange  = "scout_strikes_at_range"
	optMaxMoves    = "max_moves"
	optFrom        = "from"
	optTo          = "to"
	optGuess       = "guess"
	optMatch       = "match"
	optFollow      = "follow"
	optAction      = "action"
	optDays        = "days"
	optEnd         = "end"
	optVacation    = "vacation_days"
	optMember      = "member"
	optNumbering   = "numbering"
	optReminders   = "reminders"
	optSave        = "save_setup"
	optDelete      = "delete_setup"
	optDefault     = "default_setup"
	optLevel       = "level"
	// /stratego server
	optBoardMode       = "boards"
	optPracticeAllowed = "practice"
	optStarterRole     = "starter_role"
	optAnyoneStarts    = "anyone_starts"
	optOrganiserRole   = "organiser_role"
	optModsOrganise    = "moderators_organise"
	optAllowChannel    = "allow_channel"
	optRemoveChannel   = "remove_channel"
	optAnyChannel      = "any_channel"
	optReason          = "reason"
	optWinner          = "winner"
	optText            = "text"
	optOwnMoves        = "own_moves"
	optRevokeLinks     = "revoke_links"
	optClock           = "clock"
)

// moveTimes are the move times a challenger can choose, shortest first.
var moveTimes = []struct {
	name, value string
}{
	{"5 minutes", "5m"}, {"15 minutes", "15m"}, {"1 hour", "1h"}, {"6 hours", "6h"},
	{"12 hours", "12h"}, {"1 day", "24h"}, {"2 days", "48h"}, {"3 days", "72h"}, {"7 days", "168h"},
}

// defaultMoveTime is a new match's move time when neither the challenger
// nor the server chose one, and the bot's configuration names none.
const defaultMoveTime = 24 * time.Hour

// The descriptions of the move_time options, which name the bot's default.
const (
	txtMoveTimeOpt         = "Time for each move (default: this server's, else %[1]s)"
	txtPracticeMoveTimeOpt = "Time for each of your moves (default: this server's, else %[1]s)"
)

// moveTimeOption declares a move_time option described by key, which names
// the bot's default move time, in every language: a description with an
// argument, which localizeCommands would not fill in.
func moveTimeOption(key string, moveTime time.Duration, times []*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	en := lang.For("en")
	localized := map[discordgo.Locale]string{}
	for _, l := range lang.Languages()[1:] {
		p := lang.For(l.Code)
		for _, locale := range l.Discord {
			localized[discordgo.Locale(locale)] = p.Sprintf(key, render.Duration(p, moveTime))
		}
	}
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optMoveTime,
		Description: en.Sprintf(key, render.Duration(en, moveTime)), DescriptionLocalizations: localized, Choices: times}
}

// Commands returns the slash command the bot registers, as data, for a bot
// whose configuration names no default move time.
func Commands() []*discordgo.ApplicationCommand { return CommandsFor(defaultMoveTime) }

// CommandsFor returns the slash command the bot registers, as data, for a
// bot whose default move time is moveTime (Config.DefaultMoveTime), which
// the move_time options name.
func CommandsFor(moveTime time.Duration) []*discordgo.ApplicationCommand {
	matchOpt := func(desc string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optMatch,
			Description: desc, Autocomplete: true}
	}
	// answerOpt is what to do with a proposal (a draw, a pause).
	answerOpt := func() *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optAction,
			Description: "What to do (default offer)", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "Offer", Value: "offer"}, {Name: "Accept", Value: "accept"}, {Name: "Decline", Value: "decline"}}}
	}
	squareOpt := func(name, desc string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name,
			Description: desc, Required: true, Autocomplete: true, MinLength: intPtr(2), MaxLength: 3}
	}
	var variants []*discordgo.ApplicationCommandOptionChoice
	for _, v := range game.Variants {
		variants = append(variants, &discordgo.ApplicationCommandOptionChoice{Name: v.String(), Value: v.String()})
	}
	var times []*discordgo.ApplicationCommandOptionChoice
	for _, t := range moveTimes {
		times = append(times, &discordgo.ApplicationCommandOptionChoice{Name: t.name, Value: t.value})
	}
	var guesses []*discordgo.ApplicationCommandOptionChoice
	for _, r := range game.Ranks {
		guesses = append(guesses, &discordgo.ApplicationCommandOptionChoice{Name: r.Describe(game.NumberingModern), Value: r.Name()})
	}
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	return localizeCommands([]*discordgo.ApplicationCommand{{
		Name:        commandName,
		Description: "Play Stratego with another member",
		Contexts:    &contexts,
		Options: []*discordgo.ApplicationCommandOption{
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdChallenge,
				Description: "Challenge a member to a match in this channel",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionUser, Name: optOpponent, Description: "Who you want to play (none: anyone in this channel may accept)"},
					{Type: discordgo.ApplicationCommandOptionString, Name: optVariant, Description: "Which game (default: this server's, else Classic)", Choices: variants},
					{Type: discordgo.ApplicationCommandOptionString, Name: optArmy, Description: "Custom only: the army, e.g. 10 9 3 3 2 2 S B B F", MaxLength: 200},
					moveTimeOption(txtMoveTimeOpt, moveTime, times),
					{Type: discordgo.ApplicationCommandOptionString, Name: optClock, Description: "A game clock instead: minutes each + seconds more a move",
						Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "5+3", Value: "5+3"}, {Name: "10+5", Value: "10+5"}, {Name: "15+10", Value: "15+10"}, {Name: "20+10", Value: "20+10"}, {Name: "30+0", Value: "30+0"}}},
					{Type: discordgo.ApplicationCommandOptionString, Name: optSide, Description: "Your colour (default random); Red moves first",
						Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Random", Value: "random"}, {Name: "Red", Value: "red"}, {Name: "Blue", Value: "blue"}}},
					{Type: discordgo.ApplicationCommandOptionInteger, Name: optTwoSquares, Description: "Two-Squares rule: moves allowed between two squares (default: this server's, else 3)",
						Choices: twoSquaresChoices()},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optMoreSquares, Description: "More-Squares rule against endless chases (default: this server's, else on)"},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optScoutRange, Description: "Scouts may move and attack in one turn (default: this server's, else on)"},
					{Type: discordgo.ApplicationCommandOptionInteger, Name: optMaxMoves, Description: "Draw after this many moves in all (default: this server's, else no limit)",
						MinValue: floatPtr(minMaxMoves), MaxValue: game.MaxMovesLimit},
					ratingOpt(optRatingMin, txtRatingMinOpt),
					ratingOpt(optRatingMax, txtRatingMaxOpt),
				},
			},
			seekCommand(variants),
			seeksCommand(),
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdPractice,
				Description: "Play against the computer",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionString, Name: optLevel, Description: "How strong (default Normal)",
						Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Easy", Value: "easy"}, {Name: "Normal", Value: "normal"}, {Name: "Hard", Value: "hard"}}},
					{Type: discordgo.ApplicationCommandOptionString, Name: optVariant, Description: "Which game (default: this server's, else Classic)", Choices: variants},
					{Type: discordgo.ApplicationCommandOptionString, Name: optArmy, Description: "Custom only: the army, e.g. 10 9 3 3 2 2 S B B F", MaxLength: 200},
					moveTimeOption(txtPracticeMoveTimeOpt, moveTime, times),
					{Type: discordgo.ApplicationCommandOptionString, Name: optSide, Description: "Your colour (default random); Red moves first",
						Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Random", Value: "random"}, {Name: "Red", Value: "red"}, {Name: "Blue", Value: "blue"}}},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdSetup,
				Description: "Send or change your secret set-up",
				Options:     []*discordgo.ApplicationCommandOption{matchOpt("Which match (when you have more than one)")},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdMove,
				Description: "Move a piece",
				Options: []*discordgo.ApplicationCommandOption{
					squareOpt(optFrom, "The square of the piece to move, e.g. B4"),
					squareOpt(optTo, "Where it goes, e.g. B5"),
					{Type: discordgo.ApplicationCommandOptionString, Name: optGuess, Description: "Infiltrator variant: the piece you name on the square one or two away", Choices: guesses},
					matchOpt("Which match (when you have more than one)"),
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdBoard,
				Description: "See your board (only you see it)",
				Options: []*discordgo.ApplicationCommandOption{
					matchOpt("Which match (when you have more than one)"),
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optText, Description: "As a text diagram, for screen readers (default: a picture)"},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdResign,
				Description: "Give up a match",
				Options:     []*discordgo.ApplicationCommandOption{matchOpt("Which match (when you have more than one)")},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdDraw,
				Description: "Offer, accept or decline a draw",
				Options: []*discordgo.ApplicationCommandOption{
					answerOpt(),
					matchOpt("Which match (when you have more than one)"),
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdGiveTime,
				Description: "Give your opponent more time, 3 times a match: a move's time (a day at most), 15 s on a clock",
				Options:     []*discordgo.ApplicationCommandOption{matchOpt("Which match (when you have more than one)")},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdPause,
				Description: "Propose to pause a match for some days, or answer a proposal",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionInteger, Name: optDays, Description: "How many days to pause (1 to 14)",
						MinValue: floatPtr(1), MaxValue: storage.MaxPauseDays},
					answerOpt(),
					matchOpt("Which match (when you have more than one)"),
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdVacation,
				Description: "Stop your clocks in all your correspondence matches for some days",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionInteger, Name: optDays, Description: "How many days",
						MinValue: floatPtr(1), MaxValue: storage.MaxVacationDays},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optEnd, Description: "End your vacation now"},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdGames,
				Description: "Your matches: opponent, whose turn, deadline",
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdHistory,
				Description: "The moves of a match, with battles, as you know them",
				Options:     []*discordgo.ApplicationCommandOption{matchOpt("Which match (when you have more than one)")},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdSettings,
				Description: "Numbering, reminders and saved set-ups",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionString, Name: optNumbering, Description: "How ranks are numbered for you",
						Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Modern: Marshal 10 … Scout 2", Value: "modern"}, {Name: "Classic: Marshal 1 … Scout 9", Value: "classic"}}},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optReminders, Description: "DM reminders before your deadlines"},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optOwnMoves, Description: "A DM board after your own moves too (default on)"},
					{Type: discordgo.ApplicationCommandOptionString, Name: optSave, Description: "Save the set-up of your latest match under this name", MaxLength: 40},
					{Type: discordgo.ApplicationCommandOptionString, Name: optDelete, Description: "Delete a saved set-up", Autocomplete: true},
					{Type: discordgo.ApplicationCommandOptionString, Name: optDefault, Description: "Offer this saved set-up first in its variant", Autocomplete: true},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optRevokeLinks, Description: "True: every web board link the bot gave you stops working"},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdStats,
				Description: "Wins, losses, draws and rating in this server",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionUser, Name: optMember, Description: "Whose results (default yours)"},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdLeaderboard,
				Description: "The best players of this server",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionString, Name: optVariant, Description: "Which game (default: this server's, else Classic)", Choices: variants},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdRules,
				Description: "The rules of a variant, short",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionString, Name: optVariant, Description: "Which game (default: this server's, else Classic)", Choices: variants},
					matchOpt(txtRulesMatchOpt),
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdRecord,
				Description: "The record of a finished match as a Gravon XML file",
				Options:     []*discordgo.ApplicationCommandOption{matchOpt("Which match (default your latest finished one)")},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdWatch,
				Description: "See a running match's public board and last moves (only you see it)",
				Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: optMatch,
					Description: "Which match of this server", Required: true, Autocomplete: true},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optFollow,
						Description: "Get its public board by DM after every move (false: stop)"}},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdServer,
				Description: "Moderators: how the bot works on this server (no options: show the settings)",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionString, Name: optBoardMode, Description: "How the public board is shown",
						Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "A new picture per move in the channel", Value: "per-move"}, {Name: "A thread per match", Value: "thread"},
							{Name: "One live message per match, edited after every move", Value: "live"}, {Name: "The bot's default", Value: boardDefault}}},
					{Type: discordgo.ApplicationCommandOptionString, Name: optVariant, Description: "Default variant of new matches", Choices: variants},
					{Type: discordgo.ApplicationCommandOptionString, Name: optMoveTime, Description: "Default move time of new matches", Choices: times},
					{Type: discordgo.ApplicationCommandOptionInteger, Name: optTwoSquares, Description: "Default Two-Squares rule of new matches",
						Choices: twoSquaresChoices()},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optMoreSquares, Description: "Default More-Squares rule of new matches"},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optScoutRange, Description: "Whether Scouts of new matches may move and attack in one turn"},
					{Type: discordgo.ApplicationCommandOptionInteger, Name: optMaxMoves, Description: "Draw new matches after this many moves (0: no limit)",
						MinValue: floatPtr(0), MaxValue: game.MaxMovesLimit},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optPracticeAllowed, Description: "Allow practice games against the computer here"},
					{Type: discordgo.ApplicationCommandOptionInteger, Name: optVacation, Description: "Each member's vacation days a year (default 30; 0 turns vacations off)",
						MinValue: floatPtr(0), MaxValue: storage.MaxVacationDays},
					seekHoursOpt(),
					{Type: discordgo.ApplicationCommandOptionRole, Name: optStarterRole, Description: "Only members with this role may start matches"},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optAnyoneStarts, Description: "Let anyone start matches again"},
					{Type: discordgo.ApplicationCommandOptionRole, Name: optOrganiserRole, Description: "Members with this role may also create tournaments"},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optModsOrganise, Description: "Only moderators create tournaments again"},
					{Type: discordgo.ApplicationCommandOptionChannel, Name: optAllowChannel, Description: "Allow matches in this channel (once any is listed, only listed ones)",
						ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}},
					{Type: discordgo.ApplicationCommandOptionChannel, Name: optRemoveChannel, Description: "Take this channel off the list",
						ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: optAnyChannel, Description: "Allow matches in any channel again"},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdCancel,
				Description: "Moderators: call a match off with no result",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionString, Name: optMatch, Description: "Which match of this server", Required: true, Autocomplete: true},
					{Type: discordgo.ApplicationCommandOptionString, Name: optReason, Description: "Why: the players are told", Required: true, MaxLength: 300},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdAward,
				Description: "Moderators: end a running match as won by one player",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionString, Name: optMatch, Description: "Which match of this server", Required: true, Autocomplete: true},
					{Type: discordgo.ApplicationCommandOptionUser, Name: optWinner, Description: "The player who wins", Required: true},
					{Type: discordgo.ApplicationCommandOptionString, Name: optReason, Description: "Why: the players are told", Required: true, MaxLength: 300},
				},
			},
			tournamentCommand(variants, moveTimeOption(txtMoveTimeOpt, moveTime, times)),
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: cmdHelp,
				Description: "How to play with this bot",
			},
		},
	}})
}

// twoSquaresChoices are the values of the Two-Squares rule, as a challenge
// and a server's defaults offer them.
func twoSquaresChoices() []*discordgo.ApplicationCommandOptionChoice {
	return []*discordgo.ApplicationCommandOptionChoice{{Name: "3 (ISF)", Value: 3}, {Name: "5 (older rule)", Value: 5}, {Name: "off", Value: 0}}
}

// localizeCommands gives every description and every choice of cmds its
// translations, which Discord shows members whose client speaks that
// language. The names of the commands and options stay English in every
// language: the bot's messages and help name them, and members of one server
// can tell each other the same command whatever their language.
func localizeCommands(cmds []*discordgo.ApplicationCommand) []*discordgo.ApplicationCommand {
	for _, c := range cmds {
		d := discordLocalizations(lang.Translations(c.Description))
		c.DescriptionLocalizations = &d
		localizeOptions(c.Options)
	}
	return cmds
}

func localizeOptions(opts []*discordgo.ApplicationCommandOption) {
	for _, o := range opts {
		if o.DescriptionLocalizations == nil { // not already localized (moveTimeOption)
			o.DescriptionLocalizations = discordLocalizations(lang.Translations(o.Description))
		}
		for _, ch := range o.Choices {
			ch.NameLocalizations = choiceLocalizations(o.Name, ch)
		}
		localizeOptions(o.Options)
	}
}

// txtChoiceNames are the names of the slash command's choices that are
// words, which choiceLocalizations translates.
var txtChoiceNames = []string{
	"Random", "Red", "Blue", "5 (older rule)", "off", "Easy", "Normal", "Hard", "Offer", "Accept", "Decline",
	"Modern: Marshal 10 … Scout 2", "Classic: Marshal 1 … Scout 9",
	"A new picture per move in the channel", "A thread per match", "One live message per match, edited after every move", "The bot's default",
	"Round robin", "Double round robin", "Swiss", "Both lose", "Draw",
}

// choiceLocalizations translates the choices whose names are words:
// variants, pieces, move times and txtChoiceNames. Clocks are numbers and
// stay as they are.
func choiceLocalizations(option string, ch *discordgo.ApplicationCommandOptionChoice) map[discordgo.Locale]string {
	value, _ := ch.Value.(string)
	var name func(p lang.Printer) string
	switch option {
	case optVariant:
		v, err := game.ParseVariant(value)
		if err != nil {
			return nil
		}
		name = func(p lang.Printer) string { return render.VariantName(p, v) }
	case optGuess:
		r, err := game.ParseRank(value, game.NumberingModern)
		if err != nil {
			return nil
		}
		name = func(p lang.Printer) string { return render.PieceName(p, r, game.NumberingModern) }
	case optMoveTime:
		d, err := time.ParseDuration(value)
		if err != nil {
			return nil
		}
		name = func(p lang.Printer) string { return render.Duration(p, d) }
	default:
		if !slices.Contains(txtChoiceNames, ch.Name) {
			return nil
		}
		name = func(p lang.Printer) string { return p.Sprintf(ch.Name) }
	}
	out := map[discordgo.Locale]string{}
	for _, l := range lang.Languages()[1:] {
		for _, loc := range l.Discord {
			out[discordgo.Locale(loc)] = name(lang.For(l.Code))
		}
	}
	return out
}

// discordLocalizations converts lang's map to discordgo's.
func discordLocalizations(m map[string]string) map[discordgo.Locale]string {
	out := make(map[discordgo.Locale]string, len(m))
	for k, v := range m {
		out[discordgo.Locale(k)] = v
	}
	return out
}

// minMaxMoves is the least move limit a match may have (0 is none): a
// challenge's max_moves, and a server's default of it.
const minMaxMoves = 10

func intPtr(v int) *int           { return &v }
func floatPtr(v float64) *float64 { return &v }
