package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// sendDM sends a private message to one player of a match. When Discord says
// the member does not accept DMs from the bot (50007), the player's settings
// remember it and the match's channel asks them, once, to open DMs or use the
// private slash commands.
func (b *Bot) sendDM(ctx context.Context, m *storage.Match, side game.Side, msg *discordgo.MessageSend) bool {
	if b.isComputer(m, side) {
		return false // the computer reads no DMs
	}
	user := m.Players[side].UserID
	ch, err := b.dmChannel(user)
	if err == nil {
		_, err = b.s.ChannelMessageSendComplex(ch, msg)
	}
	var rest *discordgo.RESTError
	blocked := errors.As(err, &rest) && rest.Message != nil && rest.Message.Code == discordgo.ErrCodeCannotSendMessagesToThisUser
	switch {
	case err == nil:
		b.setDMBlocked(ctx, user, time.Time{})
		return true
	case blocked:
		if first := b.setDMBlocked(ctx, user, b.now()); first {
			text := fmt.Sprintf("<@%s>, I can't send you direct messages, so I can't show you your board privately. "+
				"Allow DMs from this server's members (server menu → Privacy Settings), or use `/stratego board` and `/stratego setup`, which only you see.", user)
			if _, err := b.s.ChannelMessageSendComplex(m.Where(), &discordgo.MessageSend{Content: text,
				AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{user}}}); err != nil {
				b.log.Warn("telling a player about closed DMs failed", "match", m.ID, "error", err)
			}
		}
	default:
		b.log.Warn("sending a DM failed", "match", m.ID, "error", err)
	}
	return false
}

// setDMBlocked records whether DMs reach a user; it returns true when this
// changed them from reaching to blocked.
func (b *Bot) setDMBlocked(ctx context.Context, user string, at time.Time) bool {
	changed := false
	p, err := b.store.Player(ctx, user)
	if err != nil || p.DMBlockedAt.IsZero() == at.IsZero() {
		return false
	}
	_, err = b.store.UpdatePlayer(ctx, user, func(p *storage.PlayerSettings) error {
		changed = p.DMBlockedAt.IsZero() && !at.IsZero()
		p.DMBlockedAt = at
		return nil
	})
	if err != nil {
		b.log.Warn("recording DM delivery failed", "error", err)
	}
	return changed
}

// dmChannel returns the DM channel with a user, created once and cached.
func (b *Bot) dmChannel(user string) (string, error) {
	if ch, ok := b.dmChannels.Load(user); ok {
		return ch.(string), nil
	}
	ch, err := b.s.UserChannelCreate(user)
	if err != nil {
		return "", fmt.Errorf("open a DM channel: %w", err)
	}
	b.dmChannels.Store(user, ch.ID)
	return ch.ID, nil
}
