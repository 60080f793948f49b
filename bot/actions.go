package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// Resignation and draws: what players do to a match besides moving.

// onResign asks for confirmation before resigning.
func (b *Bot) onResign(ctx context.Context, i *discordgo.Interaction, opts options) {
	m, _, err := b.matchMeant(ctx, userOf(i).ID, lookup{named: opts.str(optMatch), fits: playing})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "resign"))
		return
	}
	p := printerOf(i)
	id := func(action string) string {
		return customID{kind: kindResign, action: action, id: uint64(m.ID), version: m.Version}.String()
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: p.Sprintf("Resign match #%[1]s? Your opponent wins.", matchNumber(m)),
		Flags:   discordgo.MessageFlagsEphemeral,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: p.Sprintf("Resign"), Style: discordgo.DangerButton, CustomID: id(actYes)},
			discordgo.Button{Label: p.Sprintf("Keep playing"), Style: discordgo.SecondaryButton, CustomID: id(actNo)},
		}}},
	})
}

func (b *Bot) onResignButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, side, err := b.playerMatch(ctx, i, id.id)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "resign"))
		return
	}
	if id.action != actYes {
		b.respond(i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{Content: printerOf(i).Sprintf("You keep playing."), Components: []discordgo.MessageComponent{}})
		return
	}
	b.act(ctx, i, m, side, storage.ActResign, txtResigned)
}

// onDraw offers, accepts or declines a draw.
func (b *Bot) onDraw(ctx context.Context, i *discordgo.Interaction, opts options) {
	m, side, err := b.matchMeant(ctx, userOf(i).ID, lookup{named: opts.str(optMatch), fits: playing})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "draw"))
		return
	}
	kind, done := storage.ActOfferDraw, txtOfferedDraw
	switch opts.str(optAction) {
	case "accept":
		kind, done = storage.ActAcceptDraw, txtAcceptedDraw
	case "decline":
		kind, done = storage.ActDeclineDraw, txtDrawWithdrawn
	}
	b.act(ctx, i, m, side, kind, done)
}

func (b *Bot) onDrawButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, side, err := b.playerMatch(ctx, i, id.id)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "draw"))
		return
	}
	kind, done := storage.ActAcceptDraw, txtAcceptedDraw
	if id.action == actDecline {
		kind, done = storage.ActDeclineDraw, txtDeclinedDraw
	}
	b.act(ctx, i, m, side, kind, done)
}

// The answers to a player's resignation or draw action.
const (
	txtResigned      = "You resigned."
	txtOfferedDraw   = "You offered a draw."
	txtAcceptedDraw  = "You accepted the draw."
	txtDrawWithdrawn = "The draw offer is withdrawn."
	txtDeclinedDraw  = "You declined the draw."
)

// act records a player's resignation or draw action, answering privately
// with done, a catalogue key.
// An action that ends the match takes the one path of every change.
func (b *Bot) act(ctx context.Context, i *discordgo.Interaction, m *storage.Match, side game.Side, kind storage.ActionKind, done string) {
	if !b.deferPrivate(i) {
		return
	}
	m, err := b.store.Act(ctx, m.ID, 0, storage.Action{Kind: kind, Side: side, At: b.now()})
	if err != nil {
		b.finish(i, b.explain(printerOf(i), err, "action"))
		return
	}
	b.finish(i, printerOf(i).Sprintf(done))
	// The change recorded what it owes: the opponent is asked about an
	// offer, the offerer told of a decline, everyone of an ending.
	b.afterChange(ctx, m, nil)
}

// drawOfferMessage asks side, by DM, to accept or decline the opponent's draw offer.
func drawOfferMessage(p lang.Printer, m *storage.Match, side game.Side) *discordgo.MessageSend {
	id := func(action string) string {
		return customID{kind: kindDraw, action: action, id: uint64(m.ID), version: m.Version}.String()
	}
	return &discordgo.MessageSend{
		Content: matchTitle(p, m) + "\n" + p.Sprintf("%[1]s offers a draw.", playerName(p, m, side.Opponent())),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: p.Sprintf("Accept draw"), Style: discordgo.SuccessButton, CustomID: id(actAccept)},
			discordgo.Button{Label: p.Sprintf("Decline"), Style: discordgo.SecondaryButton, CustomID: id(actDecline)},
		}}},
	}
}
