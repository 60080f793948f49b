package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
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
	// Only a match in play can be resigned: ask nothing that a click would
	// then refuse.
	switch {
	case !m.Phase.Active():
		b.tell(i, b.explain(printerOf(i), game.ErrGameOver, "resign"))
		return
	case m.Phase != storage.PhasePlaying:
		b.tell(i, b.explain(printerOf(i), storage.ErrNotStarted, "resign"))
		return
	}
	p := printerOf(i)
	id := func(action string) string {
		return customID{kind: kindResign, action: action, id: uint64(m.ID), version: uint64(m.Moves())}.String()
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content: resignQuestion(p, m.ID),
		Flags:   discordgo.MessageFlagsEphemeral,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: p.Sprintf("Resign"), Style: discordgo.DangerButton, CustomID: id(actYes)},
			discordgo.Button{Label: p.Sprintf("Keep playing"), Style: discordgo.SecondaryButton, CustomID: id(actNo)},
		}}},
	})
}

// resignQuestion asks, in p, whether to resign match id.
func resignQuestion(p lang.Printer, id storage.MatchID) string {
	return p.Sprintf("Resign match #%[1]s? Your opponent wins.", id.String())
}

// onResignButton answers the question of /stratego resign in its message:
// the question stays, the answer is written under it, and the buttons go,
// which meant nothing more. Only a refusal that asks to try again (the
// clocks standing still, a failure on the bot's side) leaves them.
//
// Both buttons may be pressed before either answer shows, and Keep
// playing's answer, from the match read before a resignation was stored,
// may reach Discord after Resign's: Keep playing reads the match again
// once its answer is in, and writes the match's end in the question when
// it came meanwhile, so that the question ends telling the truth. When
// Resign's answer cannot be written in the question, a follow-up tells
// the player what came of it.
func (b *Bot) onResignButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	p := printerOf(i)
	m, side, err := b.playerMatch(ctx, i, id.id)
	if err != nil {
		b.tell(i, b.explain(p, err, "resign"))
		return
	}
	question := resignQuestion(p, m.ID)
	if id.action != actYes {
		b.keepPlaying(ctx, i, m, side)
		return
	}
	if !b.deferUpdate(i) {
		return
	}
	m, err = b.recordAction(ctx, m.ID, 0, side, storage.ActResign)
	answer := p.Sprintf(txtResigned)
	if err != nil {
		answer = b.explain(p, err, "resign")
	}
	text := question + "\n" + answer
	edit := &discordgo.WebhookEdit{Content: &text, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if err == nil || b.settlesResignation(err) {
		edit.Components = &[]discordgo.MessageComponent{}
	}
	if err := b.editOriginal(i, edit); err != nil {
		// The question keeps its buttons, and says nothing of the press.
		b.log.Warn("answering the resignation's question failed; telling the player in a follow-up", "error", err)
		b.followUp(i, &discordgo.WebhookParams{Content: text, AllowedMentions: &discordgo.MessageAllowedMentions{}})
	}
	if err == nil {
		b.afterChange(ctx, m, nil)
	}
}

// keepPlaying answers Keep playing under the question of /stratego resign
// (onResignButton), from m as side's press read it: "You keep playing.",
// or that the match is over. Once that answer is in, the match is read
// again: when it ended since, by a resignation pressed meanwhile above
// all, whose answer may have reached Discord first, the question is
// edited to tell so, as Resign's answer does.
func (b *Bot) keepPlaying(ctx context.Context, i *discordgo.Interaction, m *storage.Match, side game.Side) {
	p := printerOf(i)
	question := resignQuestion(p, m.ID)
	over := !m.Phase.Active()
	answer := p.Sprintf("You keep playing.")
	if over {
		// Over meanwhile: there is no playing on.
		answer = b.explain(p, game.ErrGameOver, "resign")
	}
	err := b.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
		Content: question + "\n" + answer, Components: []discordgo.MessageComponent{}, AllowedMentions: &discordgo.MessageAllowedMentions{}}}, b.untilStop())
	b.metrics.interaction(i, err)
	if err != nil {
		b.log.Warn("interaction response failed", "error", err)
		return
	}
	if over {
		return
	}
	now, err := b.store.Match(ctx, m.ID)
	if err != nil || now.Phase.Active() {
		return
	}
	text := question + "\n" + b.resignAnswer(p, now, side)
	if err := b.editOriginal(i, &discordgo.WebhookEdit{Content: &text, AllowedMentions: &discordgo.MessageAllowedMentions{}}); err != nil {
		b.log.Warn("telling the match's end under the resignation's question failed", "match", m.ID, "error", err)
	}
}

// resignAnswer is what the question of /stratego resign answers of m, over:
// that side resigned it, or that it is over.
func (b *Bot) resignAnswer(p lang.Printer, m *storage.Match, side game.Side) string {
	if m.Result.Method == game.Resignation && m.Result.Outcome == game.WinFor(side.Opponent()) {
		return p.Sprintf(txtResigned)
	}
	return b.explain(p, game.ErrGameOver, "resign")
}

// settlesResignation reports whether err, refusing a resignation, answers
// its question for good: the match is over, or ends now.
func (b *Bot) settlesResignation(err error) bool {
	switch {
	case errors.Is(err, game.ErrGameOver), errors.Is(err, storage.ErrSetupTimeUp):
		return true
	case errors.Is(err, storage.ErrTimeUp), errors.Is(err, storage.ErrRoundOver):
		// Unless the clocks stand still while the bot is cut off from
		// the gateway (refusalText): then it is to be tried again.
		return !b.deafNow() || b.cfg.Shared
	}
	return false
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
		// Declining the opponent's offer, or taking back one's own, as the
		// offer standing is (the answer to a pause's decline does the same).
		kind, done = storage.ActDeclineDraw, txtDeclinedDraw
		if g, err := m.Game(); err == nil {
			if by, ok := g.DrawOffer(); ok && by == side {
				done = txtDrawWithdrawn
			}
		}
	}
	b.act(ctx, i, m, side, kind, done)
}

func (b *Bot) onDrawButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	m, side, err := b.playerMatch(ctx, i, id.id)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "draw"))
		return
	}
	// They answer the opponent's offer, never the presser's own: once that
	// stands (the old offer answered otherwise, and one of theirs made),
	// Decline would take it back.
	if m.Phase == storage.PhasePlaying {
		if g, err := m.Game(); err == nil {
			if by, ok := g.DrawOffer(); ok && by == side {
				b.tell(i, b.explain(printerOf(i), game.ErrNoDrawOffer, "draw"))
				return
			}
		}
	}
	kind, done := storage.ActAcceptDraw, txtAcceptedDraw
	if id.action == actDecline {
		kind, done = storage.ActDeclineDraw, txtDeclinedDraw
	}
	b.act(ctx, i, m, side, kind, done)
}

// onGiveTime gives the opponent more time (storage.Match.GiftTime), at most
// storage.MaxGifts times a match.
func (b *Bot) onGiveTime(ctx context.Context, i *discordgo.Interaction, opts options) {
	p := printerOf(i)
	m, side, err := b.matchMeant(ctx, userOf(i).ID, lookup{named: opts.str(optMatch), fits: playing})
	if err != nil {
		b.tell(i, b.explain(p, err, "give time"))
		return
	}
	// Refused here at once, not deferred first; giveTime refuses the same
	// for the web board, which comes to it directly.
	if m.Practice() {
		b.tell(i, p.Sprintf(txtComputerNeedsNoTime))
		return
	}
	if !b.deferPrivate(i) {
		return
	}
	m, err = b.giveTime(ctx, m, side, m.GiftsBy(side))
	var given givenAlready
	if errors.As(err, &given) {
		b.finish(i, b.givenAlreadyText(p, given.now, side))
		return
	}
	if err != nil {
		b.finish(i, b.explain(p, err, "give time"))
		return
	}
	left := storage.MaxGifts - m.GiftsBy(side)
	b.finish(i, p.Sprintf(txtGaveTime, b.playerName(p, m, side.Opponent()), giftText(p, m), left))
	b.afterChange(ctx, m, nil)
}

// giveTime records side's gift of more time to its opponent in m, from
// Discord or the web board; the caller runs afterChange.
//
// A gift is made for what its press saw: seen, side's gifts its command
// read, or its page showed. The store records it as the gift after those
// (storage.Action.Gift) and refuses it once that one was given, so that
// presses of the same moment (a double click, the command sent twice, two
// processes sharing the store) and those of a page that has not shown a
// gift made since give once, however far apart they come: the others are
// refused with givenAlready. Other changes of the match meanwhile (a
// move, a reminder) do not matter.
func (b *Bot) giveTime(ctx context.Context, m *storage.Match, side game.Side, seen int) (*storage.Match, error) {
	if m.Practice() {
		return nil, friendly(txtComputerNeedsNoTime)
	}
	changed, err := b.store.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActGiveTime, Side: side, Gift: seen + 1, At: b.now()})
	if errors.Is(err, storage.ErrGiftGiven) {
		now, err := b.store.Match(ctx, m.ID)
		if err != nil {
			return nil, fmt.Errorf("give time in match %d: %w", m.ID, err)
		}
		return nil, givenAlready{now: now}
	}
	if err != nil {
		return nil, fmt.Errorf("give time in match %d: %w", m.ID, err)
	}
	return changed, nil
}

// givenAlready refuses a gift of time that was given already, by a press
// of the same moment or since the page pressed showed side's gifts: now is
// the match with it.
type givenAlready struct{ now *storage.Match }

func (givenAlready) Error() string { return "that gift of time was given already" }

// givenAlreadyText tells side, in p, that its gift of time was given
// already, and how many it has left.
func (b *Bot) givenAlreadyText(p lang.Printer, m *storage.Match, side game.Side) string {
	return p.Sprintf(txtGaveTimeAlready, b.playerName(p, m, side.Opponent()), giftText(p, m), max(0, storage.MaxGifts-m.GiftsBy(side)))
}

// giftText names what one gift of time adds in m: "15 seconds" on a game
// clock, else the move time it adds ("1 day", "2 hours").
func giftText(p lang.Printer, m *storage.Match) string {
	return render.GiftText(p, m.Clock.On(), m.GiftTime())
}

// The texts of gifts of time.
const (
	txtGaveTime            = "You gave %[1]s %[2]s more. Gifts of time you have left in this match: %[3]d."
	txtComputerNeedsNoTime = "The computer needs no extra time: it moves at once."
	txtGaveTimeAlready     = "That time was given already: you gave %[1]s %[2]s more, and this press gives nothing more. Gifts of time you have left in this match: %[3]d."
	txtTimeGiven           = "%[1]s gave you %[2]s more."
	txtTimeGivenDue        = "%[1]s gave you %[2]s more: your move is now due <t:%[3]s:R> (<t:%[3]s:f>)."
	txtTimeGivenNext       = "%[1]s gave you %[2]s more for your next move."
	txtGiftsLeft           = "Time given: %[1]s %[2]d×, %[3]s %[4]d× (%[5]s each)"
)

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
	m, err := b.recordAction(ctx, m.ID, 0, side, kind)
	if err != nil {
		b.finish(i, b.explain(printerOf(i), err, "action"))
		return
	}
	b.finish(i, printerOf(i).Sprintf(done))
	// The change recorded what it owes: the opponent is asked about an
	// offer, the offerer told of a decline, everyone of an ending.
	b.afterChange(ctx, m, nil)
}

// recordAction records side's resignation or draw action at the match's
// version (0: any), from Discord or the web board; the caller runs afterChange.
func (b *Bot) recordAction(ctx context.Context, id storage.MatchID, version uint64, side game.Side, kind storage.ActionKind) (*storage.Match, error) {
	return b.store.Act(ctx, id, version, storage.Action{Kind: kind, Side: side, At: b.now()})
}

// drawOfferMessage asks side, by DM, to accept or decline the opponent's draw offer.
func (b *Bot) drawOfferMessage(p lang.Printer, m *storage.Match, side game.Side) *discordgo.MessageSend {
	id := func(action string) string {
		return customID{kind: kindDraw, action: action, id: uint64(m.ID), version: uint64(m.Moves())}.String()
	}
	return &discordgo.MessageSend{
		Content: b.matchTitle(p, m) + "\n" + p.Sprintf("%[1]s offers a draw.", b.playerName(p, m, side.Opponent())),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: p.Sprintf("Accept draw"), Style: discordgo.SuccessButton, CustomID: id(actAccept)},
			discordgo.Button{Label: p.Sprintf("Decline"), Style: discordgo.SecondaryButton, CustomID: id(actDecline)},
		}}},
	}
}
