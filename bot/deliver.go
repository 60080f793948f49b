package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/strategobot/strategobot/storage"
)

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

// dmChannel returns the DM channel with a user: opened once, then kept in
// memory and in the user's settings, since Discord rate-limits opening them
// (one shared limit, which after a restart would hold every DM back).
func (b *Bot) dmChannel(ctx context.Context, user string) (string, error) {
	if ch, ok := b.dmChannels.Load(user); ok {
		return ch.(string), nil
	}
	if ch := b.settingsOf(ctx, user).DMChannel; ch != "" {
		b.dmChannels.Store(user, ch)
		return ch, nil
	}
	ch, err := b.s.UserChannelCreate(user)
	if err != nil {
		return "", fmt.Errorf("open a DM channel: %w", err)
	}
	b.dmChannels.Store(user, ch.ID)
	if _, err := b.store.UpdatePlayer(ctx, user, func(p *storage.PlayerSettings) error {
		p.DMChannel = ch.ID
		return nil
	}); err != nil {
		b.log.Warn("keeping a DM channel's id failed; it is opened again after a restart", "error", err)
	}
	return ch.ID, nil
}
