package bot

import (
	"context"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
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
	if i.GuildID != "" && i.Member != nil && i.Member.User != nil {
		// A follower's roles as of now (memberroles.go).
		b.roles.refresh(i.GuildID, i.Member.User.ID, i.Member.Roles, b.now())
	}
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
		if key, args := outOfBounds(sub); key != "" {
			b.say(i, key, args...)
			return
		}
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
			b.onRules(ctx, i, opts)
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
		if !fromItsMessage(i) {
			b.notOnMessage(ctx, i)
			return
		}
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
// sent by an older version, whose custom ID it cannot read, and one that is
// not on the message it came with: the bot changed the message as the
// member chose (a menu that moved on, buttons a withdrawal took away), or a
// modified client made it up.
const (
	txtStaleComponent = "That button or menu is from an older version of the bot. Use `/stratego games` to continue."
	txtStaleForm      = "That form is from an older version of the bot. Use `/stratego setup` to continue."
	txtNotOnMessage   = "That message changed as you chose: choose again from what it shows now, or use `/stratego games`."
)

// notOnMessage answers a click or a choice that is not on its message.
// A player who presses a control of a match that is over (a draw offer's
// or a proposal's DM that lost its buttons with the ending, a resignation
// answered, a set-up invite) is told so, as a press the message still
// shows is: the message did not change as they chose, the match ended.
// Anyone else, or a press of a match still on, is told that the message
// changed.
func (b *Bot) notOnMessage(ctx context.Context, i *discordgo.Interaction) {
	if id, err := parseCustomID(i.MessageComponentData().CustomID); err == nil && namesMatch(id.kind) {
		if m, err := b.store.Match(ctx, storage.MatchID(id.id)); err == nil && !m.Phase.Active() {
			if _, player := m.SideOf(userOf(i).ID); player {
				b.tell(i, b.explain(printerOf(i), game.ErrGameOver, "control not on its message"))
				return
			}
		}
	}
	b.say(i, txtNotOnMessage)
}

// namesMatch reports whether the controls of kind name a match in play:
// a rematch's names one that is over, and a challenge's a challenge.
func namesMatch(kind string) bool {
	switch kind {
	case kindSetup, kindMove, kindMoveAt, kindResign, kindDraw, kindPause:
		return true
	}
	return false
}

// fromItsMessage reports whether a click or a choice came from a control
// of the message Discord sends with it: a button with its custom id, or a
// menu with its custom id and every value chosen among its options.
// Discord forwards whatever a member's client sends and leaves this check
// to the application; without it a modified client could take a challenge
// on colours of its own choosing (the challenger's rides in the id), choose
// a menu value nobody offered, or answer on another member's message, which
// the answer then rewrites (a challenge stripped of its buttons, the
// channel's board given a player's menus).
func fromItsMessage(i *discordgo.Interaction) bool {
	if i.Message == nil {
		return false
	}
	data := i.MessageComponentData()
	if data.CustomID == "" {
		return false // link buttons have none, and send nothing
	}
	found := false
	var walk func([]discordgo.MessageComponent)
	walk = func(list []discordgo.MessageComponent) {
		for _, c := range list {
			switch c := c.(type) {
			case *discordgo.ActionsRow:
				walk(c.Components)
			case *discordgo.Button:
				found = found || data.ComponentType == discordgo.ButtonComponent && c.CustomID == data.CustomID && !c.Disabled
			case *discordgo.SelectMenu:
				found = found || data.ComponentType == c.Type() && c.CustomID == data.CustomID && !c.Disabled && offered(c, data.Values)
			}
		}
	}
	walk(i.Message.Components)
	return found
}

// offered reports whether every value chosen in menu is one of its options:
// a string menu's (the bot's menus are all string menus).
func offered(menu *discordgo.SelectMenu, values []string) bool {
	if menu.Type() != discordgo.SelectMenuComponent {
		return true
	}
	for _, v := range values {
		if !slices.ContainsFunc(menu.Options, func(o discordgo.SelectMenuOption) bool { return o.Value == v }) {
			return false
		}
	}
	return true
}
