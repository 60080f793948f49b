package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// options gives a subcommand's options by name.
type options map[string]*discordgo.ApplicationCommandInteractionDataOption

func optionMap(list []*discordgo.ApplicationCommandInteractionDataOption) options {
	m := options{}
	for _, o := range list {
		m[o.Name] = o
	}
	return m
}

func (o options) str(name string) string {
	if v, ok := o[name]; ok && v.Type == discordgo.ApplicationCommandOptionString {
		return strings.TrimSpace(v.StringValue())
	}
	return ""
}

// id reads a user, role or channel option: the id Discord sends for it.
func (o options) id(name string) string {
	if v, ok := o[name]; ok {
		switch v.Type {
		case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionRole, discordgo.ApplicationCommandOptionChannel:
			if s, ok := v.Value.(string); ok {
				return s
			}
		}
	}
	return ""
}

func (o options) integer(name string) (int64, bool) {
	if v, ok := o[name]; ok && v.Type == discordgo.ApplicationCommandOptionInteger {
		return v.IntValue(), true
	}
	return 0, false
}

func (o options) boolean(name string) (bool, bool) {
	if v, ok := o[name]; ok && v.Type == discordgo.ApplicationCommandOptionBoolean {
		return v.BoolValue(), true
	}
	return false, false
}

// onInteraction routes every interaction: slash commands by subcommand,
// autocomplete, and components and modals by their custom id's kind.
func (b *Bot) onInteraction(ctx context.Context, i *discordgo.Interaction) {
	ctx = withSettingsMemo(ctx)
	if i.Type != discordgo.InteractionApplicationCommandAutocomplete {
		b.rememberLocale(ctx, i)
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		data := i.ApplicationCommandData()
		if data.Name != commandName || len(data.Options) == 0 {
			b.say(i, "I don't know that command. Try `/stratego help`.")
			return
		}
		sub := data.Options[0]
		opts := optionMap(sub.Options)
		switch sub.Name {
		case cmdChallenge:
			b.onChallenge(ctx, i, opts)
		case cmdPractice:
			b.onPractice(ctx, i, opts)
		case cmdSeek:
			b.onSeek(ctx, i, opts)
		case cmdSeeks:
			b.onSeeks(ctx, i)
		case cmdSetup:
			b.onSetupCommand(ctx, i, opts)
		case cmdMove:
			b.onMoveCommand(ctx, i, opts)
		case cmdBoard:
			b.onBoard(ctx, i, opts)
		case cmdResign:
			b.onResign(ctx, i, opts)
		case cmdDraw:
			b.onDraw(ctx, i, opts)
		case cmdGiveTime:
			b.onGiveTime(ctx, i, opts)
		case cmdPause:
			b.onPause(ctx, i, opts)
		case cmdVacation:
			b.onVacation(ctx, i, opts)
		case cmdGames:
			b.onGames(ctx, i)
		case cmdHistory:
			b.onHistory(ctx, i, opts)
		case cmdSettings:
			b.onSettings(ctx, i, opts)
		case cmdStats:
			b.onStats(ctx, i, opts)
		case cmdLeaderboard:
			b.onLeaderboard(ctx, i, opts)
		case cmdRules:
			b.tell(i, rulesText(printerOf(i), opts.str(optVariant)))
		case cmdRecord:
			b.onRecord(ctx, i, opts)
		case cmdHelp:
			b.onHelp(ctx, i)
		case cmdServer:
			b.onServer(ctx, i, opts)
		case cmdWatch:
			b.onWatch(ctx, i, opts)
		case cmdCancel:
			b.onCancel(ctx, i, opts)
		case cmdAward:
			b.onAward(ctx, i, opts)
		case cmdTournament:
			b.onTournament(ctx, i, sub)
		default:
			b.say(i, "I don't know that command. Try `/stratego help`.")
		}
	case discordgo.InteractionApplicationCommandAutocomplete:
		b.onAutocomplete(ctx, i)
	case discordgo.InteractionMessageComponent:
		id, err := parseCustomID(i.MessageComponentData().CustomID)
		if err != nil {
			b.say(i, txtStaleComponent)
			return
		}
		switch id.kind {
		case kindChallenge:
			b.onChallengeButton(ctx, i, id)
		case kindRematch:
			b.onRematch(ctx, i, id)
		case kindSeek:
			b.onSeekButton(ctx, i, id)
		case kindSetup:
			b.onSetupButton(ctx, i, id)
		case kindMove, kindMoveAt:
			b.onMovePicker(ctx, i, id)
		case kindResign:
			b.onResignButton(ctx, i, id)
		case kindDraw:
			b.onDrawButton(ctx, i, id)
		case kindPause:
			b.onPauseButton(ctx, i, id)
		default:
			b.say(i, txtStaleComponent)
		}
	case discordgo.InteractionModalSubmit:
		id, err := parseCustomID(i.ModalSubmitData().CustomID)
		if err != nil || id.kind != kindSetup {
			b.say(i, txtStaleForm)
			return
		}
		b.onSetupModal(ctx, i, id)
	}
}

// The answers to a button, menu or form the bot no longer understands: one
// sent by an older version, whose custom ID it cannot read.
const (
	txtStaleComponent = "That button or menu is from an older version of the bot. Use `/stratego games` to continue."
	txtStaleForm      = "That form is from an older version of the bot. Use `/stratego setup` to continue."
)
