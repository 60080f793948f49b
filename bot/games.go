package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

func playing(m *storage.Match, _ game.Side) bool { return m.Phase == storage.PhasePlaying }

// onBoard shows the member their own board, privately.
func (b *Bot) onBoard(ctx context.Context, i *discordgo.Interaction, opts options) {
	m, side, err := b.matchFor(ctx, i, opts.str(optMatch), playing)
	if err != nil {
		b.tell(i, b.explain(err, "board"))
		return
	}
	if !b.deferPrivate(i) {
		return
	}
	g, err := m.Game()
	if err != nil {
		b.finish(i, b.explain(err, "board"))
		return
	}
	settings, _ := b.store.Player(ctx, userOf(i).ID)
	n := game.NumberingModern
	if settings != nil {
		n = settings.Numbering
	}
	v := g.View(game.ViewerOf(side))
	nar := narrator{viewer: game.ViewerOf(side), names: names(m), numbering: n}
	b.finish(i, matchTitle(m)+"\n"+b.statusLine(m, g, nar), b.boardFile(m, &v, n)...)
}

// onResign asks for confirmation before resigning.
func (b *Bot) onResign(ctx context.Context, i *discordgo.Interaction, opts options) {
	m, _, err := b.matchFor(ctx, i, opts.str(optMatch), playing)
	if err != nil {
		b.tell(i, b.explain(err, "resign"))
		return
	}
	id := func(action string) string {
		return customID{kind: kindResign, action: action, id: uint64(m.ID), version: m.Version}.String()
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: fmt.Sprintf("Resign match #%d? Your opponent wins.", m.ID),
		Flags:   discordgo.MessageFlagsEphemeral,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Resign", Style: discordgo.DangerButton, CustomID: id(actYes)},
			discordgo.Button{Label: "Keep playing", Style: discordgo.SecondaryButton, CustomID: id(actNo)},
		}}},
	})
}

func (b *Bot) onResignButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, side, err := b.playerMatch(ctx, i, storage.MatchID(id.id))
	if err != nil {
		b.tell(i, b.explain(err, "resign"))
		return
	}
	if id.action != actYes {
		b.respond(i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{Content: "You keep playing.", Components: []discordgo.MessageComponent{}})
		return
	}
	b.act(ctx, i, m, side, storage.ActResign, "You resigned.")
}

// onDraw offers, accepts or declines a draw.
func (b *Bot) onDraw(ctx context.Context, i *discordgo.Interaction, opts options) {
	m, side, err := b.matchFor(ctx, i, opts.str(optMatch), playing)
	if err != nil {
		b.tell(i, b.explain(err, "draw"))
		return
	}
	kind, done := storage.ActOfferDraw, "You offered a draw."
	switch opts.str(optAction) {
	case "accept":
		kind, done = storage.ActAcceptDraw, "You accepted the draw."
	case "decline":
		kind, done = storage.ActDeclineDraw, "The draw offer is withdrawn."
	}
	b.deferPrivate(i)
	b.actDeferred(ctx, i, m, side, kind, done)
}

func (b *Bot) onDrawButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, side, err := b.playerMatch(ctx, i, storage.MatchID(id.id))
	if err != nil {
		b.tell(i, b.explain(err, "draw"))
		return
	}
	kind, done := storage.ActAcceptDraw, "You accepted the draw."
	if id.action == actDecline {
		kind, done = storage.ActDeclineDraw, "You declined the draw."
	}
	b.act(ctx, i, m, side, kind, done)
}

// act records a player's action from a button, answering privately.
func (b *Bot) act(ctx context.Context, i *discordgo.Interaction, m *storage.Match, side game.Side, kind storage.ActionKind, done string) {
	if !b.deferPrivate(i) {
		return
	}
	b.actDeferred(ctx, i, m, side, kind, done)
}

func (b *Bot) actDeferred(ctx context.Context, i *discordgo.Interaction, m *storage.Match, side game.Side, kind storage.ActionKind, done string) {
	m, err := b.store.Act(ctx, m.ID, 0, storage.Action{Kind: kind, Side: side, At: b.now()})
	if err != nil {
		b.finish(i, b.explain(err, "action"))
		return
	}
	b.finish(i, done)
	b.nudgeTimers()
	switch {
	case m.Phase == storage.PhaseFinished:
		b.announce(ctx, m, func(n narrator, v *game.View) string { return "" })
	case kind == storage.ActOfferDraw:
		b.offerDrawTo(ctx, m, side.Opponent())
	case kind == storage.ActDeclineDraw:
		other := side.Opponent()
		b.sendDM(ctx, m, other, &discordgo.MessageSend{Content: fmt.Sprintf("%s\n%s declined the draw; the game goes on.", matchTitle(m), m.Players[side].Name)})
	}
}

// offerDrawTo asks the opponent, by DM, to accept or decline a draw.
func (b *Bot) offerDrawTo(ctx context.Context, m *storage.Match, side game.Side) {
	id := func(action string) string {
		return customID{kind: kindDraw, action: action, id: uint64(m.ID), version: m.Version}.String()
	}
	b.sendDM(ctx, m, side, &discordgo.MessageSend{
		Content: fmt.Sprintf("%s\n%s offers a draw.", matchTitle(m), m.Players[side.Opponent()].Name),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Accept draw", Style: discordgo.SuccessButton, CustomID: id(actAccept)},
			discordgo.Button{Label: "Decline", Style: discordgo.SecondaryButton, CustomID: id(actDecline)},
		}}},
	})
}

// onGames lists the member's active matches.
func (b *Bot) onGames(ctx context.Context, i *discordgo.Interaction) {
	user := userOf(i).ID
	list, err := b.store.PlayerMatches(ctx, user, true, 25)
	if err != nil {
		b.tell(i, b.explain(err, "games"))
		return
	}
	if len(list) == 0 {
		b.tell(i, "You have no match going. Start one with `/stratego challenge`.")
		return
	}
	var lines []string
	for _, m := range list {
		side, _ := m.SideOf(user)
		line := fmt.Sprintf("**#%d** vs %s — %s, you are %s — %s", m.ID, m.Players[side.Opponent()].Name, m.Rules.Variant, side, turnWord(m, side))
		if !m.Deadline.IsZero() {
			line += fmt.Sprintf(" (deadline <t:%d:R>)", m.Deadline.Unix())
		}
		if m.GuildID != "" {
			line += fmt.Sprintf(" · <#%s>", m.Where())
		}
		lines = append(lines, line)
	}
	b.tell(i, truncate(strings.Join(lines, "\n"), 2000))
}
