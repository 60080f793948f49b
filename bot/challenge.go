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
	"github.com/strategobot/strategobot/storage"
)

// onChallenge posts a challenge in the channel with Accept, Decline and Cancel buttons.
func (b *Bot) onChallenge(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.tell(i, "Challenges are made in a server channel, where the match will be shown. Run `/stratego challenge` there.")
		return
	}
	me := userOf(i)
	oppOpt := opts[optOpponent]
	if oppOpt == nil {
		b.tell(i, "Name the member you want to play with the `opponent` option.")
		return
	}
	oppID := fmt.Sprint(oppOpt.Value)
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
		b.tell(i, "I can't see that member. Pick someone from this server.")
		return
	case opp.ID == me.ID:
		b.tell(i, "You can't challenge yourself. Pick another member of this server.")
		return
	case opp.ID == b.botUserID():
		b.onPractice(ctx, i, opts)
		return
	case opp.Bot:
		b.tell(i, "Bots can't play. Challenge a person, or me: `/stratego practice` starts a game against the computer.")
		return
	}
	server := b.serverOf(ctx, i.GuildID)
	if why := b.mayStartHere(i, server, false); why != "" {
		b.tell(i, why)
		return
	}
	if why := b.cannotPlayHere(i, b.threadsFor(server)); why != "" {
		b.tell(i, why)
		return
	}
	if oppName == "" {
		oppName = opp.GlobalName
	}
	if oppName == "" {
		oppName = opp.Username
	}
	rules, moveTime, side, err := b.challengeTerms(opts, server, b.settingsOf(ctx, me.ID).Numbering)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "challenge"))
		return
	}
	clock := storage.TimeControl{}
	if v := opts.str(optClock); v != "" {
		if opts.str(optMoveTime) != "" {
			b.tell(i, "Choose a move time or a clock, not both: the clock replaces the time per move.")
			return
		}
		if clock, err = storage.ParseTimeControl(v); err != nil {
			b.tell(i, "A clock is written minutes+seconds, like 10+5, with 1 to 180 minutes.")
			return
		}
		moveTime = setupTimeOnClock
	}
	b.postChallenge(ctx, i, storage.Player{UserID: me.ID, Name: displayName(i)}, storage.Player{UserID: opp.ID, Name: oppName}, rules, moveTime, clock, side)
}

// setupTimeOnClock is how long the set-ups of a match on the clock may
// take: its players are at the board.
const setupTimeOnClock = 15 * time.Minute

// postChallenge makes a challenge, within the challenger's limits, and
// answers the interaction with it: a message in the channel that pings the
// opponent, with Accept, Decline and Cancel.
func (b *Bot) postChallenge(ctx context.Context, i *discordgo.Interaction, me, opp storage.Player, rules game.Rules, moveTime time.Duration, clock storage.TimeControl, side string) {
	unlock := b.members.lock(me.UserID)
	if why := b.mayChallenge(ctx, me.UserID, opp.UserID); why != "" {
		unlock()
		b.tell(i, why)
		return
	}
	now := b.now()
	c, err := b.store.CreateChallenge(ctx, &storage.Challenge{
		GuildID: i.GuildID, ChannelID: i.ChannelID,
		Challenger: me, Opponent: opp,
		Rules: rules, MoveTime: moveTime, Clock: clock,
		Created: now, Expires: now.Add(b.cfg.ChallengeExpiry),
	})
	unlock()
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "challenge"))
		return
	}
	b.nudgeTimers()
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content:         challengeText(c, side),
		Components:      challengeButtons(c.ID, side),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{opp.UserID}},
	})
	if msg, err := b.s.InteractionResponse(i); err == nil {
		// NotFound: answered or expired in the meantime; nothing to edit later.
		if _, err := b.store.SetChallengeMessage(ctx, c.ID, msg.ID); err != nil && !errors.Is(err, storage.ErrNotFound) {
			b.log.Warn("recording the challenge message failed", "challenge", c.ID, "error", err)
		}
	}
}

// challengeTerms reads the rules, move time and the challenger's colour from
// the options, and the server's defaults where they are silent.
func (b *Bot) challengeTerms(opts options, server *storage.ServerSettings, n game.Numbering) (game.Rules, time.Duration, string, error) {
	variant := game.VariantClassic
	if server.Variant != 0 && opts.str(optArmy) == "" {
		variant = server.Variant
	}
	if v := opts.str(optVariant); v != "" {
		p, err := game.ParseVariant(v)
		if err != nil {
			return game.Rules{}, 0, "", friendlyf("%[1]s", err.Error())
		}
		variant = p
	}
	rules := game.DefaultRules(variant)
	army := opts.str(optArmy)
	switch {
	case variant == game.VariantCustom && army == "":
		return rules, 0, "", friendly("Custom needs an army: add the `army` option, for example `10 9 3 3 2 2 S B B F`.")
	case variant != game.VariantCustom && army != "":
		return rules, 0, "", friendlyf("The `army` option is for Custom matches; %[1]s has its own army. Choose `variant: Custom` to play your own.", variant)
	case army != "":
		a, err := game.ParseArmy(army, n)
		if err != nil {
			return rules, 0, "", friendlyf("That army does not work: %[1]s.", err.Error())
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
		return rules, 0, "", friendlyf("Those rules do not work: %[1]s.", err.Error())
	}
	moveTime := b.cfg.DefaultMoveTime
	if server.MoveTime != 0 {
		moveTime = server.MoveTime
	}
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

// rulesSummary is a one-line description of a match's terms.
func rulesSummary(r game.Rules, moveTime time.Duration, clock storage.TimeControl) string {
	parts := []string{r.Variant.String()}
	if r.Variant == game.VariantCustom {
		parts[0] += " (" + r.Army.String() + ")"
	}
	if clock.On() {
		parts = append(parts, fmt.Sprintf("clock %s (%s each, %d s more a move)", clock, formatDuration(clock.Base), clock.Increment/time.Second))
	} else {
		parts = append(parts, formatDuration(moveTime)+" per move")
	}
	if r.TwoSquares == 0 {
		parts = append(parts, "Two-Squares off")
	} else if r.TwoSquares != 3 {
		parts = append(parts, fmt.Sprintf("Two-Squares %d", r.TwoSquares))
	}
	if !r.MoreSquares {
		parts = append(parts, "More-Squares off")
	}
	if !r.ScoutStrikesAtRange {
		parts = append(parts, "Scouts attack only next to them")
	}
	if r.MaxMoves > 0 {
		parts = append(parts, fmt.Sprintf("draw after %d moves", r.MaxMoves))
	}
	return strings.Join(parts, " · ")
}

func formatDuration(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		if d == 24*time.Hour {
			return "1 day"
		}
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	case d%time.Hour == 0:
		if d == time.Hour {
			return "1 hour"
		}
		return fmt.Sprintf("%d hours", d/time.Hour)
	}
	return fmt.Sprintf("%d minutes", d/time.Minute)
}

func challengeText(c *storage.Challenge, side string) string {
	colour := ""
	if side != "random" {
		colour = fmt.Sprintf(" %s plays %s.", c.Challenger.Name, titleCase(side))
	}
	return fmt.Sprintf("<@%s>, %s challenges you to a game of Stratego: %s.%s\nThe challenge expires <t:%d:R>.",
		c.Opponent.UserID, c.Challenger.Name, rulesSummary(c.Rules, c.MoveTime, c.Clock), colour, c.Expires.Unix())
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func challengeButtons(id storage.ChallengeID, side string) []discordgo.MessageComponent {
	cid := func(action string) string {
		return customID{kind: kindChallenge, action: action, id: uint64(id), arg: side}.String()
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Accept", Style: discordgo.SuccessButton, CustomID: cid(actAccept)},
		discordgo.Button{Label: "Decline", Style: discordgo.DangerButton, CustomID: cid(actDecline)},
		discordgo.Button{Label: "Cancel", Style: discordgo.SecondaryButton, CustomID: cid(actCancel)},
	}}}
}

// onChallengeButton handles Accept, Decline and Cancel.
func (b *Bot) onChallengeButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	me := userOf(i)
	cid := storage.ChallengeID(id.id)
	c, err := b.store.Challenge(ctx, cid)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "challenge button"))
		return
	}
	switch id.action {
	case actAccept:
		if me.ID != c.Opponent.UserID {
			if me.ID == c.Challenger.UserID {
				b.tell(i, "You made this challenge; only the member you challenged can accept it. Use Cancel to withdraw it.")
			} else {
				b.tell(i, "This challenge is for someone else. Start your own with `/stratego challenge`.")
			}
			return
		}
		if why := b.cannotPlayHere(i, b.threadsFor(b.serverOf(ctx, c.GuildID))); why != "" {
			// Permissions may have changed since the challenge: the challenge
			// stays open for when they are fixed.
			b.tell(i, why)
			return
		}
		b.acceptChallenge(ctx, i, c, id.arg)
	case actDecline, actCancel:
		switch {
		case id.action == actDecline && me.ID != c.Opponent.UserID:
			b.tell(i, "Only the member who was challenged can decline. The challenger can Cancel.")
			return
		case id.action == actCancel && me.ID != c.Challenger.UserID:
			b.tell(i, "Only the challenger can cancel this challenge.")
			return
		}
		if _, err := b.store.DeleteChallenge(ctx, cid); err != nil {
			b.tell(i, b.explain(printerOf(i), err, "challenge button"))
			return
		}
		verb := "declined"
		if id.action == actCancel {
			verb = "withdrew"
		}
		who := c.Opponent.Name
		if id.action == actCancel {
			who = c.Challenger.Name
		}
		b.respond(i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{
			Content:    fmt.Sprintf("~~%s challenged %s: %s.~~\n%s %s the challenge.", c.Challenger.Name, c.Opponent.Name, rulesSummary(c.Rules, c.MoveTime, c.Clock), who, verb),
			Components: []discordgo.MessageComponent{},
		})
	default:
		b.tell(i, staleComponent)
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
	m, err := b.store.AcceptChallenge(ctx, c.ID, me, challengerSide, b.now())
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "accept"))
		return
	}
	b.nudgeTimers()
	b.respond(i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{
		Content: fmt.Sprintf("Match #%d: **%s** (Red) vs **%s** (Blue) — %s.\nBoth players now send their secret set-up to me by DM; the match starts when both are in (deadline <t:%d:R>).",
			m.ID, m.Players[game.Red].Name, m.Players[game.Blue].Name, rulesSummary(m.Rules, m.MoveTime, m.Clock), m.Deadline.Unix()),
		Components:      []discordgo.MessageComponent{},
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
	if m.LiveMessage == "" && i.Message != nil {
		// Accepted before the challenge's message was recorded: the click
		// names it.
		if _, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
			x.LiveMessage = i.Message.ID
			return nil
		}); err != nil {
			b.log.Warn("recording the match's message failed", "match", m.ID, "error", err)
		}
	}
	if b.threadsFor(b.serverOf(ctx, m.GuildID)) {
		b.openThread(ctx, i, m)
	}
	// The set-up invites are in the outbox, recorded with the match.
	b.nudgeOutbox()
}

// openThread starts the match's thread from the challenge message.
func (b *Bot) openThread(ctx context.Context, i *discordgo.Interaction, m *storage.Match) {
	if i.Message == nil {
		return
	}
	name := fmt.Sprintf("Stratego #%d: %s vs %s", m.ID, m.Players[game.Red].Name, m.Players[game.Blue].Name)
	if len(name) > 100 {
		name = name[:100]
	}
	th, err := b.s.MessageThreadStartComplex(i.ChannelID, i.Message.ID, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: 10080})
	if err != nil {
		b.log.Warn("starting the match thread failed; playing in the channel", "match", m.ID, "error", err)
		return
	}
	if _, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		x.ThreadID = th.ID
		return nil
	}); err != nil {
		b.log.Warn("recording the match thread failed", "match", m.ID, "error", err)
	}
}
