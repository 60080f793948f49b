package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// onChallenge posts a challenge in the channel with Accept, Decline and Cancel buttons.
func (b *Bot) onChallenge(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.say(i, "Challenges are made in a server channel, where the match will be shown. Run `/stratego challenge` there.")
		return
	}
	me := userOf(i)
	var opp storage.Player // none: an open challenge
	if opts[optOpponent] != nil {
		var done bool
		if opp, done = b.namedOpponent(ctx, i, opts); done {
			return
		}
	}
	server := b.serverOf(ctx, i.GuildID)
	if why := b.whyNotMatchHere(ctx, i, server); why != "" {
		b.tell(i, why)
		return
	}
	rules, moveTime, side, err := b.challengeTerms(opts, server, b.settingsOf(ctx, me.ID).Numbering)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "challenge"))
		return
	}
	clock, moveTime, err := clockOption(opts, moveTime)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "challenge"))
		return
	}
	c := &storage.Challenge{Challenger: storage.Player{UserID: me.ID, Name: displayName(i)}, Opponent: opp, Rules: rules, MoveTime: moveTime, Clock: clock}
	if c.RatingMin, c.RatingMax, err = openChallengeRange(opts, opp); err != nil {
		b.tell(i, b.explain(printerOf(i), err, "challenge"))
		return
	}
	b.postChallenge(ctx, i, c, side)
}

// namedOpponent reads the opponent option; done when it has answered the
// interaction (a refusal, or a practice match against the bot itself).
func (b *Bot) namedOpponent(ctx context.Context, i *discordgo.Interaction, opts options) (storage.Player, bool) {
	me := userOf(i)
	oppID := fmt.Sprint(opts[optOpponent].Value)
	var opp *discordgo.User
	oppName := ""
	if r := i.ApplicationCommandData().Resolved; r != nil {
		opp = r.Users[oppID]
		if m := r.Members[oppID]; m != nil && m.Nick != "" {
			oppName = m.Nick
		}
	}
	switch {
	case opp == nil:
		b.say(i, "I can't see that member. Pick someone from this server.")
		return storage.Player{}, true
	case opp.ID == me.ID:
		b.say(i, "You can't challenge yourself. Pick another member of this server.")
		return storage.Player{}, true
	case opp.ID == b.botUserID() && opts.str(optClock) != "":
		// Its thoughts take their time in a thinkers' schedule, not on a clock.
		b.say(i, "The computer plays without a game clock: challenge me without `clock`, or use `/stratego practice`.")
		return storage.Player{}, true
	case opp.ID == b.botUserID():
		b.onPractice(ctx, i, opts)
		return storage.Player{}, true
	case opp.Bot:
		b.say(i, "Bots can't play. Challenge a person, or me: `/stratego practice` starts a game against the computer.")
		return storage.Player{}, true
	}
	if oppName == "" {
		oppName = opp.GlobalName
	}
	if oppName == "" {
		oppName = opp.Username
	}
	return storage.Player{UserID: opp.ID, Name: oppName}, false
}

// setupTimeOnClock is how long the set-ups of a match on the clock may
// take: its players are at the board.
const setupTimeOnClock = 15 * time.Minute

// clockOption reads the clock option: the match's game clock and the move
// time, which the clock replaces by the set-up's time; without the option,
// no clock and moveTime.
func clockOption(opts options, moveTime time.Duration) (storage.TimeControl, time.Duration, error) {
	v := opts.str(optClock)
	if v == "" {
		return storage.TimeControl{}, moveTime, nil
	}
	if opts.str(optMoveTime) != "" {
		return storage.TimeControl{}, 0, friendly("Choose a move time or a clock, not both: the clock replaces the time per move.")
	}
	clock, err := storage.ParseTimeControl(v)
	if err != nil {
		return storage.TimeControl{}, 0, friendly("A clock is written minutes+seconds, like 10+5, with 1 to 180 minutes.")
	}
	return clock, setupTimeOnClock, nil
}

// postChallenge makes a challenge, within the challenger's limits, and
// answers the interaction with it: a message in the channel that pings the
// opponent, with Accept, Decline and Cancel.
func (b *Bot) postChallenge(ctx context.Context, i *discordgo.Interaction, terms *storage.Challenge, side string) {
	opp := terms.Opponent
	if why := b.whyNotChallenge(ctx, printerOf(i), terms.Challenger.UserID, opp.UserID); why != "" {
		b.tell(i, why)
		return
	}
	now := b.now()
	n := *terms
	n.GuildID, n.ChannelID, n.Created, n.Expires = i.GuildID, i.ChannelID, now, now.Add(b.cfg.ChallengeExpiry)
	// The store keeps to the limits: of two commands at once (both members
	// pressing Rematch, a burst, or commands that reach two processes on
	// one database), one passes the check above and the other is refused
	// here with the same words.
	c, err := b.store.CreateChallenge(ctx, &n, b.limits.memberLimits())
	if why := b.whyNotMember(printerOf(i), err, opp.UserID); why != "" {
		b.tell(i, why)
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "challenge"))
		return
	}
	b.nudgeTimers()
	// The challenge is a post in the channel: in the server's language.
	p := b.publicPrinter(i.GuildID)
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content:         challengeText(p, c, side),
		Components:      challengeControls(p, c, side),
		AllowedMentions: challengeMentions(c),
	})
	if msg, err := b.answerMessage(i); err == nil {
		// NotFound: answered or expired in the meantime; nothing to edit later.
		if _, err := b.store.SetChallengeMessage(ctx, c.ID, msg.ID); err != nil && !errors.Is(err, storage.ErrNotFound) {
			b.log.Warn("recording the challenge message failed", "challenge", c.ID, "error", err)
		}
	}
}

// challengeTerms reads the rules, move time and the challenger's colour from
// the options, and the server's defaults where they are silent.
func (b *Bot) challengeTerms(opts options, server *storage.ServerSettings, n game.Numbering) (game.Rules, time.Duration, string, error) {
	variant := server.DefaultVariant()
	if opts.str(optArmy) != "" {
		variant = game.VariantClassic // an army without a variant is refused below, as Classic's has its own
	}
	if v := opts.str(optVariant); v != "" {
		p, err := game.ParseVariant(v)
		if err != nil {
			return game.Rules{}, 0, "", friendlyf(txtUnknownVariant, render.Typed(mdEscape(v)))
		}
		variant = p
	}
	rules := game.DefaultRules(variant)
	server.Rules.Apply(&rules) // the server's defaults; the challenge's own options come next
	army := opts.str(optArmy)
	switch {
	case variant == game.VariantCustom && army == "":
		return rules, 0, "", friendly("Custom needs an army: add the `army` option, for example `10 9 3 3 2 2 S B B F`.")
	case variant != game.VariantCustom && army != "":
		return rules, 0, "", friendlyf("The `army` option is for Custom matches; %[1]s has its own army. Choose `variant: Custom` to play your own.", variant)
	case army != "":
		a, err := game.ParseArmy(army, n)
		if err != nil {
			return rules, 0, "", friendlyf("That army does not work: %[1]s.", reasonOf(err))
		}
		rules.Army = a
	}
	if v, ok := opts.integer(optTwoSquares); ok {
		rules.TwoSquares = int(v)
	}
	if v, ok := opts.boolean(optMoreSquares); ok {
		rules.MoreSquares = v
	}
	if v, ok := opts.boolean(optScoutRange); ok {
		rules.ScoutStrikesAtRange = v
	}
	if v, ok := opts.integer(optMaxMoves); ok {
		rules.MaxMoves = int(v)
	}
	if err := rules.Validate(); err != nil {
		return rules, 0, "", friendlyf("Those rules do not work: %[1]s.", reasonOf(err))
	}
	moveTime := server.DefaultMoveTime(b.cfg.DefaultMoveTime)
	if v := opts.str(optMoveTime); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < storage.MinMoveTime || d > storage.MaxMoveTime {
			return rules, 0, "", friendly("The move time must be between 5 minutes and 7 days.")
		}
		moveTime = d
	}
	side := opts.str(optSide)
	if side != "red" && side != "blue" {
		side = "random"
	}
	return rules, moveTime, side, nil
}

// The terms of a match, in rulesSummary.
const (
	txtClockTerms      = "clock %[1]s (%[2]s each, %[3]d s more a move)"
	txtPerMove         = "%[1]s per move"
	txtTwoSquaresOff   = "Two-Squares off"
	txtTwoSquaresN     = "Two-Squares %[1]d"
	txtMoreSquaresOff  = "More-Squares off"
	txtScoutsNextOnly  = "Scouts attack only next to them"
	txtDrawAfter       = "draw after %[1]d moves"
	txtUnknownVariant  = "I don't know the variant %[1]q: choose one from the list."
	txtSummarySep      = " · "
	txtDays            = "%[1]d days"
	txtChallengeColour = " %[1]s plays %[2]s."
	txtChallenge       = "<@%[1]s>, %[2]s challenges you to a game of Stratego: %[3]s.%[4]s\nThe challenge expires <t:%[5]s:R>."
	txtDeclined        = "~~%[1]s challenged %[2]s: %[3]s.~~\n%[4]s declined the challenge."
	txtWithdrew        = "~~%[1]s challenged %[2]s: %[3]s.~~\n%[4]s withdrew the challenge."
	txtExpired         = "~~%[1]s challenged %[2]s: %[3]s.~~\nThis challenge expired without an answer."
	txtAccepted        = "Match #%[1]s: **%[2]s** (%[3]s) vs **%[4]s** (%[5]s) — %[6]s.\n" +
		"Both players now send their secret set-up to me by DM; the match starts when both are in (deadline <t:%[7]s:R>)."
	txtOpenNotYours          = "Only the member who posted this open challenge can withdraw it. To accept it, press %[1]s."
	txtOnlyChallengerCancels = "Only the challenger can withdraw this challenge. To turn it down, press %[1]s."
	txtChallengeGone         = "This challenge is no longer open: it was accepted, withdrawn or it expired. `/stratego games` lists your matches; `/stratego challenge` makes a new challenge."
	txtThreadName            = "Stratego #%[1]s: %[2]s vs %[3]s"
	txtAccept                = "Accept"
	txtDecline               = "Decline"
	txtCancel                = "Cancel"
)

// rulesSummary is a one-line description of a match's terms.
func rulesSummary(p lang.Printer, r game.Rules, moveTime time.Duration, clock storage.TimeControl) string {
	parts := []string{render.VariantName(p, r.Variant)}
	if r.Variant == game.VariantCustom {
		parts[0] += " (" + r.Army.String() + ")"
	}
	if clock.On() {
		parts = append(parts, p.Sprintf(txtClockTerms, clock.String(), render.Duration(p, clock.Base), int(clock.Increment/time.Second)))
	} else {
		parts = append(parts, p.Sprintf(txtPerMove, render.Duration(p, moveTime)))
	}
	parts = append(parts, ruleOptionParts(p, r)...)
	return strings.Join(parts, p.Sprintf(txtSummarySep))
}

// ruleOptionParts words the rule options that differ from the standard ones.
func ruleOptionParts(p lang.Printer, r game.Rules) []string {
	var parts []string
	if r.TwoSquares == 0 {
		parts = append(parts, p.Sprintf(txtTwoSquaresOff))
	} else if r.TwoSquares != 3 {
		parts = append(parts, p.Sprintf(txtTwoSquaresN, r.TwoSquares))
	}
	if !r.MoreSquares {
		parts = append(parts, p.Sprintf(txtMoreSquaresOff))
	}
	if !r.ScoutStrikesAtRange {
		parts = append(parts, p.Sprintf(txtScoutsNextOnly))
	}
	if r.MaxMoves > 0 {
		parts = append(parts, p.Sprintf(txtDrawAfter, r.MaxMoves))
	}
	return parts
}

func challengeText(p lang.Printer, c *storage.Challenge, side string) string {
	colour, name := "", mdEscape(c.Challenger.Name)
	if s, ok := parseSide(side); ok {
		colour = p.Sprintf(txtChallengeColour, name, render.SideName(p, s))
	}
	if c.Open() {
		return p.Sprintf(txtOpenChallenge, name, rulesSummary(p, c.Rules, c.MoveTime, c.Clock), colour, ratingRangeText(p, c), unix(c.Expires))
	}
	return p.Sprintf(txtChallenge, c.Opponent.UserID, name, rulesSummary(p, c.Rules, c.MoveTime, c.Clock), colour, unix(c.Expires))
}

// parseSide reads "red" or "blue"; anything else is no side.
func parseSide(s string) (game.Side, bool) {
	switch s {
	case "red":
		return game.Red, true
	case "blue":
		return game.Blue, true
	}
	return game.Red, false
}

func challengeButtons(p lang.Printer, id storage.ChallengeID, side string) []discordgo.MessageComponent {
	cid := func(action string) string {
		return customID{kind: kindChallenge, action: action, id: uint64(id), arg: side}.String()
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: p.Sprintf(txtAccept), Style: discordgo.SuccessButton, CustomID: cid(actAccept)},
		discordgo.Button{Label: p.Sprintf(txtDecline), Style: discordgo.DangerButton, CustomID: cid(actDecline)},
		discordgo.Button{Label: p.Sprintf(txtCancel), Style: discordgo.SecondaryButton, CustomID: cid(actCancel)},
	}}}
}

// onChallengeButton handles Accept, Decline and Cancel.
func (b *Bot) onChallengeButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	me := userOf(i)
	cid := storage.ChallengeID(id.id)
	c, err := b.store.Challenge(ctx, cid)
	if errors.Is(err, storage.ErrNotFound) {
		// Accepted, withdrawn or expired, maybe by a press of the same
		// moment whose answer has not yet taken the buttons away.
		if id.action == actTake {
			b.say(i, txtOpenTaken)
		} else {
			b.say(i, txtChallengeGone)
		}
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "challenge button"))
		return
	}
	switch id.action {
	case actTake:
		b.takeOpenChallenge(ctx, i, c, id.arg)
	case actAccept:
		if me.ID != c.Opponent.UserID {
			if me.ID == c.Challenger.UserID {
				b.say(i, "You made this challenge; only the member you challenged can accept it. Withdraw it with %[1]s.", labelOn(i.Message, actCancel, b.publicPrinter(c.GuildID), txtCancel))
			} else {
				b.say(i, "This challenge is for someone else. Start your own with `/stratego challenge`.")
			}
			return
		}
		if why := b.whyNotPlayHere(ctx, i, b.threadsFor(b.serverOf(ctx, c.GuildID))); why != "" {
			// Permissions may have changed since the challenge: the challenge
			// stays open for when they are fixed.
			b.tell(i, why)
			return
		}
		b.acceptChallenge(ctx, i, c, id.arg)
	case actDecline, actCancel:
		switch {
		case me.ID != c.Challenger.UserID && me.ID != c.Opponent.UserID && !c.Open():
			b.say(i, "This challenge is for someone else. Start your own with `/stratego challenge`.")
			return
		case id.action == actDecline && me.ID != c.Opponent.UserID:
			b.say(i, "Only the member who was challenged can decline. The challenger can withdraw it with %[1]s.", labelOn(i.Message, actCancel, b.publicPrinter(c.GuildID), txtCancel))
			return
		case id.action == actCancel && me.ID == c.Opponent.UserID:
			b.say(i, txtOnlyChallengerCancels, labelOn(i.Message, actDecline, b.publicPrinter(c.GuildID), txtDecline))
			return
		case id.action == actCancel && me.ID != c.Challenger.UserID: // an open challenge
			b.say(i, txtOpenNotYours, labelOn(i.Message, actTake, b.publicPrinter(c.GuildID), txtAccept))
			return
		}
		if _, err := b.store.DeleteChallenge(ctx, cid); errors.Is(err, storage.ErrNotFound) {
			b.say(i, txtChallengeGone) // accepted or withdrawn meanwhile
			return
		} else if err != nil {
			b.tell(i, b.explain(printerOf(i), err, "challenge button"))
			return
		}
		key, who := txtDeclined, opponentLabel(b.publicPrinter(c.GuildID), c)
		if id.action == actCancel {
			key, who = txtWithdrew, mdEscape(c.Challenger.Name)
		}
		p := b.publicPrinter(c.GuildID)
		b.respond(i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{
			Content:    p.Sprintf(key, mdEscape(c.Challenger.Name), opponentLabel(p, c), rulesSummary(p, c.Rules, c.MoveTime, c.Clock), who),
			Components: []discordgo.MessageComponent{},
		})
	default:
		b.say(i, txtStaleComponent)
	}
}

func (b *Bot) acceptChallenge(ctx context.Context, i *discordgo.Interaction, c *storage.Challenge, side string) {
	challengerSide := game.Red
	switch side {
	case "blue":
		challengerSide = game.Blue
	case "red":
	default:
		if rand.IntN(2) == 1 {
			challengerSide = game.Blue
		}
	}
	me := storage.Player{UserID: userOf(i).ID, Name: c.Opponent.Name}
	if c.Open() {
		me.Name = displayName(i)
	}
	m, err := b.store.AcceptChallenge(ctx, c.ID, me, challengerSide, b.now())
	if errors.Is(err, storage.ErrNotFound) {
		if c.Open() {
			b.say(i, txtOpenTaken)
		} else {
			b.say(i, txtChallengeGone) // accepted or withdrawn meanwhile
		}
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "accept"))
		return
	}
	b.afterChange(ctx, m, nil) // the set-up invites are in the outbox, recorded with the match
	p := b.publicPrinter(m.GuildID)
	b.respond(i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{
		Content:         b.acceptedText(p, m, b.now()),
		Components:      []discordgo.MessageComponent{},
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
	if m.LiveMessage == "" && i.Message != nil {
		// Accepted before the challenge's message was recorded: the click
		// names it.
		b.recordLiveMessage(ctx, m, i.Message.ID)
	}
	if b.threadsFor(b.serverOf(ctx, m.GuildID)) {
		b.openThread(ctx, i, m)
	}
}

// acceptedText words a new match in its channel: its players and sides,
// its rules, and when the set-ups are due as of now.
func (b *Bot) acceptedText(p lang.Printer, m *storage.Match, now time.Time) string {
	return p.Sprintf(txtAccepted, m.ID.String(), b.playerName(p, m, game.Red), render.SideName(p, game.Red),
		b.playerName(p, m, game.Blue), render.SideName(p, game.Blue), rulesSummary(p, m.Rules, m.MoveTime, m.Clock), unix(m.DeadlineToShow(now)))
}

// recordLiveMessage records the channel message that shows match m live,
// lets afterChange keep it up to date, and returns the match as recorded
// (false when it could not be).
func (b *Bot) recordLiveMessage(ctx context.Context, m *storage.Match, messageID string) (*storage.Match, bool) {
	named, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		x.LiveMessage = messageID
		return nil
	})
	if err != nil {
		b.log.Warn("recording the match's message failed", "match", m.ID, "error", err)
		return m, false
	}
	b.afterChange(ctx, named, nil)
	return named, true
}

// openThread starts the match's thread from the challenge message
// (playInThread).
func (b *Bot) openThread(ctx context.Context, i *discordgo.Interaction, m *storage.Match) {
	if i.Message == nil {
		return
	}
	b.playInThread(ctx, m, i.ChannelID, func(start *discordgo.ThreadStart) (*discordgo.Channel, error) {
		return b.s.MessageThreadStartComplex(i.ChannelID, i.Message.ID, start, b.untilStop())
	})
}

// playInThread opens the match's thread in channel with open and plays the
// match there from then on; when Discord refuses, the match stays in the
// channel. Every path that opens a match's thread comes here: not when
// channel is a thread itself, in which Discord opens none (it refuses,
// 50024): the match is played in that thread, where it was made.
func (b *Bot) playInThread(ctx context.Context, m *storage.Match, channel string, open func(*discordgo.ThreadStart) (*discordgo.Channel, error)) {
	if kind, known := b.channelKindOf(ctx, channel); known && kind.thread {
		return
	}
	p := b.publicPrinter(m.GuildID)
	name := truncate(p.Sprintf(txtThreadName, m.ID.String(), b.plainName(p, m, game.Red), b.plainName(p, m, game.Blue)), maxThreadName)
	th, err := open(&discordgo.ThreadStart{Name: name, AutoArchiveDuration: 10080})
	if err != nil {
		b.log.Warn("starting the match thread failed; playing in the channel", "match", m.ID, "error", err)
		return
	}
	moved, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		x.ThreadID = th.ID
		return nil
	})
	if err != nil {
		b.log.Warn("recording the match thread failed", "match", m.ID, "error", err)
		return
	}
	b.afterChange(ctx, moved, nil)
}
