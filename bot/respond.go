package bot

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// userOf returns who made the interaction, in a server or in a DM.
func userOf(i *discordgo.Interaction) *discordgo.User {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User
	}
	if i.User != nil {
		return i.User
	}
	return &discordgo.User{}
}

// displayName is the name to show for a user in a server (nickname first).
func displayName(i *discordgo.Interaction) string {
	if i.Member != nil && i.Member.Nick != "" {
		return i.Member.Nick
	}
	u := userOf(i)
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// respond sends the first answer to an interaction.
func (b *Bot) respond(i *discordgo.Interaction, typ discordgo.InteractionResponseType, data *discordgo.InteractionResponseData) {
	if data != nil && attachmentsOf(data.Files) != nil {
		// The attachments' descriptions go inside "data".
		payload := struct {
			Type discordgo.InteractionResponseType `json:"type"`
			Data *describedData                    `json:"data"`
		}{typ, &describedData{data, attachmentsOf(data.Files)}}
		_, err := b.sendFiles("POST", discordgo.EndpointInteractionResponse(i.ID, i.Token), payload, data.Files)
		b.metrics.interaction(i, err)
		if err != nil {
			b.log.Warn("interaction response failed", "error", err)
		}
		return
	}
	err := b.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: typ, Data: data}, b.untilStop())
	b.metrics.interaction(i, err)
	if err != nil {
		b.log.Warn("interaction response failed", "error", err)
	}
}

// tell answers with a message only the member sees. It pings nobody: a
// refusal may repeat what the member typed ("@everyone" as a match number).
func (b *Bot) tell(i *discordgo.Interaction, text string) {
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource,
		&discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{}})
}

// privateFlag makes an answer ephemeral in a server; in the DM it is private anyway.
func privateFlag(i *discordgo.Interaction) discordgo.MessageFlags {
	if i.GuildID != "" {
		return discordgo.MessageFlagsEphemeral
	}
	return 0
}

// updateComponents answers a click by replacing the components of the
// clicked message. An update replaces the content too (discordgo sends
// "content" even when empty), so the message's own text is sent back.
func (b *Bot) updateComponents(i *discordgo.Interaction, rows []discordgo.MessageComponent) {
	text := ""
	if i.Message != nil {
		text = i.Message.Content
	}
	rows = keptLinks(i.Message, rows)
	if rows == nil {
		rows = []discordgo.MessageComponent{} // sent as [], which removes them
	}
	b.respond(i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{Content: text, Components: rows})
}

// deferPrivate acknowledges at once with a private "thinking…" state, for work
// that may take longer than Discord's three seconds.
func (b *Bot) deferPrivate(i *discordgo.Interaction) bool {
	return b.acknowledge(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
	})
}

// acknowledge sends a deferral and reports whether the work it
// acknowledges goes on (deferred). discordgo's own retries are off: a 502
// is sent again here, once, so that "answered already" (40060) is known
// to answer our own deferral sent again, and any other 40060 to be another
// process's answer.
func (b *Bot) acknowledge(i *discordgo.Interaction, resp *discordgo.InteractionResponse) bool {
	err := b.s.InteractionRespond(i, resp, b.untilStop(), discordgo.WithRestRetries(0))
	resent := false
	if badGateway(err) && !b.cutShort(err) {
		resent = true
		err = b.s.InteractionRespond(i, resp, b.untilStop(), discordgo.WithRestRetries(0))
	}
	b.metrics.interaction(i, err)
	return b.deferred(err, resent)
}

// badGateway reports whether err is a 502, as discordgo gives it once it
// retries no more.
func badGateway(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), maxRetries+"502")
}

// deferred reports whether the work a deferral acknowledges goes on after
// the deferral's request ended with err (resent: the deferral was sent
// again after a 502). Discord refusing it (a 4xx: the interaction expired)
// means the member sees that it failed, and nothing is done. "Answered
// already" (40060) to a deferral sent again after a 502 means Discord took
// the first; to one sent once, it means another process answered (two
// gateway sessions of one shard during a deploy, or two processes given
// the same shard): that one does the work, and this one stops, so that a
// command is handled once. A time-out, a broken connection or a 5xx leave
// unknown whether Discord took it, and it often did: the member then sees
// "thinking…" until the work's answer replaces it. Giving up there left a
// member who typed a move waiting for an answer that never came, their
// move not played and their clock running. So the work goes on: a move is
// played, and if Discord had not taken the deferral after all, the member
// learns it stood from the boards the move sends.
func (b *Bot) deferred(err error, resent bool) bool {
	if err == nil {
		return true
	}
	if discordCode(err) == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged && !b.cutShort(err) {
		if resent {
			// Sent again after a 502, and Discord had the first.
			b.log.Warn("deferring was answered late; the work goes on", "error", err)
			return true
		}
		b.log.Warn("another process answered the interaction; it does the work", "error", err)
		return false
	}
	var rest *discordgo.RESTError
	if b.cutShort(err) || errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode < 500 {
		b.log.Warn("deferring failed", "error", err)
		return false
	}
	b.log.Warn("deferring failed, perhaps only its answer; the work goes on", "error", err)
	return true
}

// deferUpdate acknowledges a component click; the message is edited later.
func (b *Bot) deferUpdate(i *discordgo.Interaction) bool {
	return b.acknowledge(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
}

// finish replaces a deferred answer's content.
func (b *Bot) finish(i *discordgo.Interaction, text string, files ...*discordgo.File) {
	if len(files) > 0 {
		b.finishWithPayload(i, map[string]any{"content": text}, files)
		return
	}
	if err := b.editOriginal(i, &discordgo.WebhookEdit{Content: &text}); err != nil {
		b.log.Warn("editing the answer failed", "error", err)
	}
}

// finishWith replaces a deferred answer's content, with components.
func (b *Bot) finishWith(i *discordgo.Interaction, text string, components []discordgo.MessageComponent, files ...*discordgo.File) {
	b.finishWithPayload(i, map[string]any{"content": text, "components": components}, files)
}

// finishWithPayload replaces a deferred answer with payload and files.
func (b *Bot) finishWithPayload(i *discordgo.Interaction, payload any, files []*discordgo.File) {
	endpoint := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	err := b.editAnswer(func(opt discordgo.RequestOption) error {
		rewind(files)
		_, err := b.sendFiles("PATCH", endpoint, payload, files, opt)
		return err
	})
	if err != nil {
		b.log.Warn("editing the answer failed", "error", err)
	}
}

// editOriginal edits the first answer to an interaction, asked again while
// Discord fails it (editAnswer).
func (b *Bot) editOriginal(i *discordgo.Interaction, edit *discordgo.WebhookEdit) error {
	return b.editAnswer(func(opt discordgo.RequestOption) error { return b.editOriginalOnce(i, edit, opt) })
}

// editOriginalOnce edits the first answer to an interaction, once. discordgo's
// InteractionResponseEdit files every webhook edit of every interaction
// under one rate-limit bucket, which it holds for the whole request: all
// members' answers would wait in one line (strategoload showed
// it). Discord limits them per interaction token, and so does this.
func (b *Bot) editOriginalOnce(i *discordgo.Interaction, edit *discordgo.WebhookEdit, opt discordgo.RequestOption) error {
	uri := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	_, err := b.s.RequestWithBucketID("PATCH", uri, edit, uri, opt)
	return err
}

// answerBudget is how long an edit of an interaction's answer is asked
// again while Discord fails it: a handler's budget (guard).
const answerBudget = handlerBudget

// editAnswer makes edit, an edit of an interaction's answer (its
// @original), and asks it again while Discord fails it for a while (a
// 5xx, a time-out), a little later each time: an edit is the same however
// often it is made, and given up at the first failure it left the member
// on "thinking…" until the token expired, though the work (a move) was
// done. It tries for answerBudget at most, and not after the bot stops;
// edit's requests are made with the option it is given, which ends them
// then too.
func (b *Bot) editAnswer(edit func(discordgo.RequestOption) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), answerBudget)
	defer cancel()
	ctx, stop := b.whileRunning(ctx)
	defer stop()
	var w retrier
	for {
		err := edit(discordgo.WithContext(ctx))
		if err == nil {
			return nil
		}
		if failure, asked := classify(err); failure != retryLater || b.cutShort(err) || !b.retryWait(ctx, &w, asked) {
			return err
		}
	}
}

// answerMessage reads the first answer to an interaction (its @original),
// asked again while Discord fails it for a while, as editAnswer asks an
// edit again: a read is the same however often it is made. The message
// is what a challenge's expiry edits, and what a match the queue made
// keeps up to date; given up at the first failure, a challenge kept its
// buttons past its expiry for good.
func (b *Bot) answerMessage(i *discordgo.Interaction) (*discordgo.Message, error) {
	var msg *discordgo.Message
	err := b.editAnswer(func(opt discordgo.RequestOption) error {
		var err error
		msg, err = b.s.InteractionResponse(i, opt)
		return err
	})
	return msg, err
}

// whileRunning is ctx, ended too when the bot's requests are cut
// (requestGrace after it stops, as untilStop's): for an answer a handler
// asks again, whose own ctx outlives the stop, its requests and the waits
// between them alike.
func (b *Bot) whileRunning(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if b.halt.Err() != nil {
		// Cut already: AfterFunc would cancel ctx on a goroutine of its
		// own, and a request made meanwhile would still go out.
		cancel()
		return ctx, cancel
	}
	stop := context.AfterFunc(b.halt, cancel)
	return ctx, func() { stop(); cancel() }
}

// retryWait waits w's next wait, at least asked, before a handler asks
// Discord again, and reports false if ctx ended or the bot stopped first:
// Run waits for the handlers, and a stop must not wait out a backoff.
func (b *Bot) retryWait(ctx context.Context, w *retrier, asked time.Duration) bool {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-b.stopping:
			cancel()
		case <-ctx.Done():
		}
	}()
	return w.wait(ctx, asked) && !b.stopped()
}

// stopped reports whether Run stopped (or is stopping).
func (b *Bot) stopped() bool {
	select {
	case <-b.stopping:
		return true
	default:
		return false
	}
}

// followUp sends one more private message after the first answer.
func (b *Bot) followUp(i *discordgo.Interaction, msg *discordgo.WebhookParams) {
	msg.Flags |= discordgo.MessageFlagsEphemeral
	if len(msg.Files) > 0 {
		if _, err := b.sendFiles("POST", discordgo.EndpointFollowupMessage(i.AppID, i.Token)+"?wait=true", msg, msg.Files); err != nil {
			b.log.Warn("follow-up failed", "error", err)
		}
		return
	}
	if _, err := b.s.FollowupMessageCreate(i, true, msg, b.untilStop()); err != nil {
		b.log.Warn("follow-up failed", "error", err)
	}
}

// replayLink is the link to the board of a member's match under an answer to
// /stratego history or record (nil when the web board is off): their own
// side's, in a server too, since both answers are ephemeral (only the member
// sees them). Once the match is over, their side's frames show both armies.
func (b *Bot) replayLink(ctx context.Context, i *discordgo.Interaction, m *storage.Match, side game.Side) []discordgo.MessageComponent {
	return b.withBoardLink(printerOf(i), nil, m, game.ViewerOf(side), b.settingsOf(ctx, userOf(i).ID).LinkGen)
}

// keptLinks returns rows with the link buttons of msg added: the menus under
// a board change as the player picks, and its "Open board" link stays.
func keptLinks(msg *discordgo.Message, rows []discordgo.MessageComponent) []discordgo.MessageComponent {
	if msg == nil {
		return rows
	}
	for _, c := range msg.Components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, rc := range row.Components {
			if b, ok := rc.(*discordgo.Button); ok && b.Style == discordgo.LinkButton && b.URL != "" {
				rows = withButton(rows, discordgo.Button{Label: b.Label, Style: discordgo.LinkButton, URL: b.URL})
			}
		}
	}
	return rows
}
