package bot

import (
	"bytes"
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// friendly is an error whose text is written for the member who caused it.
type friendly string

func (f friendly) Error() string { return string(f) }

// Errors the bot explains to members.
const (
	errNotYourMatch friendly = "This is not your match: only its two players can use its controls."
	errNoMatch      friendly = "You have no match waiting for you here. Start one with `/stratego challenge`."
	errWhichMatch   friendly = "You have more than one match: pick one with the `match` option."
)

// explain turns any error into text for the member concerned. Errors of the
// rules engine are safe to show to the player who made the attempt: they speak
// only of that player's own pieces and of what both players see. Anything
// unexpected is logged without details a player must not see, and the member
// gets an apology.
func (b *Bot) explain(err error, during string) string {
	var f friendly
	var moveErr *game.MoveError
	var setupErr *game.SetupError
	switch {
	case errors.As(err, &f):
		return string(f)
	case errors.As(err, &moveErr):
		return "That move is not allowed: " + moveErr.Reason + "."
	case errors.As(err, &setupErr):
		return "That set-up is not valid: " + setupErr.Reason + "."
	case errors.Is(err, storage.ErrStale):
		return "The board changed since you looked: that was already played, or the turn passed. Here is where things stand now:"
	case errors.Is(err, game.ErrNotYourTurn):
		return "It is not your turn yet: I'll DM you when it is."
	case errors.Is(err, game.ErrGameOver):
		return "This match is over."
	case errors.Is(err, storage.ErrNotFound):
		return "I can't find that match or challenge any more: it may have ended or expired."
	case errors.Is(err, storage.ErrExpired):
		return "This challenge has expired. Start a new one with `/stratego challenge`."
	case errors.Is(err, storage.ErrNotInvited):
		return "This challenge is for someone else."
	case errors.Is(err, storage.ErrSetupConfirmed):
		return "Your set-up is already confirmed; the match starts when your opponent has confirmed theirs."
	case errors.Is(err, game.ErrNoDrawOffer):
		return "There is no draw offer to answer."
	case errors.Is(err, storage.ErrNotStarted):
		return "The match has not started yet: both players must confirm a set-up first (`/stratego setup`)."
	}
	// Unexpected: storage or Discord trouble. Rules and set-up errors, the
	// only ones that could describe a piece, were answered above.
	b.log.Error("request failed", "during", during, "error", err)
	return "Something went wrong on my side. Please try again in a moment."
}

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
	if err := b.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: typ, Data: data}); err != nil {
		b.log.Warn("interaction response failed", "error", err)
	}
}

// updateComponents answers a click by replacing the components of the
// clicked message. An update replaces the content too (discordgo sends
// "content" even when empty), so the message's own text is sent back.
func (b *Bot) updateComponents(i *discordgo.Interaction, rows []discordgo.MessageComponent) {
	text := ""
	if i.Message != nil {
		text = i.Message.Content
	}
	b.respond(i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{Content: text, Components: rows})
}

// tell answers with a message only the member sees.
func (b *Bot) tell(i *discordgo.Interaction, text string) {
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource,
		&discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral})
}

// deferPrivate acknowledges at once with a private "thinking…" state, for work
// that may take longer than Discord's three seconds.
func (b *Bot) deferPrivate(i *discordgo.Interaction) bool {
	err := b.s.InteractionRespond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
	})
	if err != nil {
		b.log.Warn("deferring failed", "error", err)
		return false
	}
	return true
}

// deferUpdate acknowledges a component click; the message is edited later.
func (b *Bot) deferUpdate(i *discordgo.Interaction) bool {
	err := b.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	if err != nil {
		b.log.Warn("deferring failed", "error", err)
		return false
	}
	return true
}

// finish replaces a deferred answer's content.
func (b *Bot) finish(i *discordgo.Interaction, text string, files ...*discordgo.File) {
	edit := &discordgo.WebhookEdit{Content: &text}
	if len(files) > 0 {
		edit.Files = files
	}
	if _, err := b.s.InteractionResponseEdit(i, edit); err != nil {
		b.log.Warn("editing the answer failed", "error", err)
	}
}

// followUp sends one more private message after the first answer.
func (b *Bot) followUp(i *discordgo.Interaction, text string, files ...*discordgo.File) {
	_, err := b.s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: text, Flags: discordgo.MessageFlagsEphemeral, Files: files})
	if err != nil {
		b.log.Warn("follow-up failed", "error", err)
	}
}

// pngFile wraps a picture for upload. Names say what the picture is, never
// what it shows.
func pngFile(name string, data []byte) *discordgo.File {
	return &discordgo.File{Name: name, ContentType: "image/png", Reader: bytes.NewReader(data)}
}
