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
	if b.settingsOf(ctx, user).DMBlockedAt.IsZero() == at.IsZero() {
		return false
	}
	_, err := b.updatePlayer(ctx, user, func(p *storage.PlayerSettings) error {
		changed = p.DMBlockedAt.IsZero() && !at.IsZero()
		p.DMBlockedAt = at
		return nil
	})
	if err != nil {
		b.log.Warn("recording DM delivery failed", "error", err)
	}
	return changed
}

// waitingFor is a notice's answer while another worker opens a DM channel
// and the DM channel with user is not open yet: discordgo sends the requests
// of one route one at a time, and opening DM channels is one route, so a
// worker that waited would sit idle behind it, and with many new players at
// once (a tournament's start) every worker would, holding back the boards of
// every other match. The notice is tried again as soon as its DM channel is
// open, or when it may open it itself (see deliverDue).
type waitingFor struct{ user string }

func (waitingFor) Error() string { return "waiting for another DM channel to be opened" }

// knownDMChannel returns the DM channel with a user if it was opened before:
// kept in memory and in the user's settings.
func (b *Bot) knownDMChannel(ctx context.Context, user string) (string, bool) {
	if ch, ok := b.dmChannels.Load(user); ok {
		return ch.(string), true
	}
	if ch := b.settingsOf(ctx, user).DMChannel; ch != "" {
		b.dmChannels.Store(user, ch)
		return ch, true
	}
	return "", false
}

// dmChannel returns the DM channel with a user: opened once, then kept in
// memory and in the user's settings, since Discord rate-limits opening them
// (one shared limit, which after a restart would hold every DM back). While
// another worker opens one it fails with waitingFor.
func (b *Bot) dmChannel(ctx context.Context, user string) (string, error) {
	if ch, ok := b.knownDMChannel(ctx, user); ok {
		return ch, nil
	}
	if !b.dmOpening.CompareAndSwap(false, true) {
		return "", waitingFor{user}
	}
	b.dmOpenings.Add(1)
	defer func() {
		b.dmOpening.Store(false)
		// The queues waiting for this opening may go now, not when some
		// worker is next done: that one may be sending a message Discord
		// holds for a while.
		b.nudgeOutbox()
	}()
	if ch, ok := b.dmChannels.Load(user); ok {
		return ch.(string), nil // opened by the worker before
	}
	ch, err := b.s.UserChannelCreate(user, b.untilStop())
	if err != nil {
		return "", fmt.Errorf("open a DM channel: %w", err)
	}
	b.dmChannels.Store(user, ch.ID)
	if _, err := b.updatePlayer(ctx, user, func(p *storage.PlayerSettings) error {
		p.DMChannel = ch.ID
		return nil
	}); err != nil {
		b.log.Warn("keeping a DM channel's id failed; it is opened again after a restart", "error", err)
	}
	return ch.ID, nil
}

// forgetDMChannel forgets the DM channel kept for user, in memory and in
// their settings: the next message opens it anew.
func (b *Bot) forgetDMChannel(ctx context.Context, user string) {
	ch, ok := b.knownDMChannel(ctx, user)
	if !ok {
		return
	}
	b.dmChannels.Delete(user)
	if _, err := b.updatePlayer(ctx, user, func(p *storage.PlayerSettings) error {
		if p.DMChannel == ch {
			p.DMChannel = ""
		}
		return nil
	}); err != nil {
		b.log.Warn("forgetting a DM channel's id failed", "error", err)
	}
}

// mustWaitForDM reports whether a message to user would wait for another
// worker's DM channel opening: then the notice is put back before its
// pictures are drawn.
func (b *Bot) mustWaitForDM(ctx context.Context, user string) bool {
	if _, ok := b.knownDMChannel(ctx, user); ok {
		return false
	}
	return b.dmOpening.Load()
}
