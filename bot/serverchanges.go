package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// What becomes of a match when its server changes under it (README, "When
// things go away"):
//   - its thread is locked, archived for good or deleted: the match moves to
//     the thread's channel (an archived thread that is merely idle comes back
//     by itself when the next board is posted in it, and the bot unarchives
//     it to edit a live board there: sendPartTo);
//   - its channel is deleted, or the bot may no longer post there: the match
//     goes on by DM, and both players are told so once; once the bot may
//     post there again, the match comes back (channelback.go);
//   - the bot may post there but not attach files: the boards are posted as
//     text, with a note for the moderators (withText);
//   - a player leaves the server: the match goes on; they can still move by
//     DM while they share a server with the bot, and otherwise lose on time
//     like anyone who does not move; the channel is told they left;
//   - the bot is removed from the server: its tournaments there are
//     cancelled (none of their games starts any more), its matches there are
//     called off with no result and its challenges withdrawn, and the
//     players are told by DM where the bot can still reach them.

// Reasons of fallback notices (storage.Notice.Reason).
const (
	dmClosedReason    = "dm-closed:"    // + user id: a player's DMs are closed
	memberLeftReason  = "member-left:"  // + user id: a player left the server
	channelGoneReason = "channel-gone:" // + a word: the channel cannot be written to
)

// What a player, or the channel, is told when Discord refused a message
// about the match, even as plain text (refusedNote).
const (
	txtRefusedPlayer = "Discord refused the message I tried to send you about this match, even as plain text. " +
		"`/stratego board match:%[1]s` shows your board, and you move as usual."
	txtRefusedSetup = "Discord refused the message I tried to send you about this match, even as plain text. " +
		"`/stratego setup match:%[1]s` sends your set-up."
	txtRefusedPublic = "Discord refused the message I tried to post here about this match, even as plain text. " +
		"`/stratego watch match:%[1]s` shows its board."
)

// publicUnreachable decides what follows when the match's public board cannot
// be posted: retry says the notice is to be sent again now (in the thread's
// channel); follow are the notices that tell the players instead.
func (b *Bot) publicUnreachable(ctx context.Context, n storage.Notice, channel string, sendErr error, now time.Time) (follow []storage.Notice, retry bool) {
	m, err := b.store.Match(ctx, n.Match)
	if err != nil {
		b.log.Warn("reading a match whose channel is out of reach failed", "match", n.Match, "error", err)
		return nil, false
	}
	if m.ThreadID != "" && channel == m.ThreadID && m.ThreadID != m.ChannelID {
		moved, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
			x.ThreadID = ""
			return nil
		})
		if err != nil {
			b.log.Warn("moving a match out of its thread failed", "match", m.ID, "error", err)
			return nil, false
		}
		b.afterChange(ctx, moved, nil)
		b.log.Info("the match's thread is out of reach; the match moves to its channel", "match", m.ID, "error", sendErr)
		return nil, true
	}
	if m.PublicGone {
		return nil, false
	}
	deleted := discordCode(sendErr) == discordgo.ErrCodeUnknownChannel
	gone, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		x.PublicGone, x.PublicLost, x.PublicDeleted = true, now, x.PublicDeleted || deleted
		return nil
	})
	if err != nil {
		b.log.Warn("recording that a match's channel is out of reach failed", "match", m.ID, "error", err)
		return nil, false
	}
	b.afterChange(ctx, gone, nil)
	why := "access"
	if deleted {
		why = "deleted"
	}
	b.log.Info("the match's channel is out of reach; the match goes on by DM", "match", m.ID, "error", sendErr)
	if !m.Phase.Active() || n.Event == storage.EventChannelBack {
		// A channel tried again and still out of reach: its players were
		// not told it was back (they are once its board is posted).
		return nil, false
	}
	for _, to := range []storage.Audience{storage.AudienceRed, storage.AudienceBlue} {
		follow = append(follow, storage.Notice{Match: m.ID, Event: storage.EventFallback, To: to, At: now, Reason: channelGoneReason + why})
	}
	return follow, false
}

// playerUnreachable says, in the match's channel, why a player gets no more
// DMs: they left the server, or they closed their DMs. It is said once in
// each match, until a DM reaches them again: a channel that was told in
// another match has not been told in this one.
func (b *Bot) playerUnreachable(ctx context.Context, n storage.Notice, user string, now time.Time) []storage.Notice {
	b.setDMBlocked(ctx, user, now)
	since := b.settingsOf(ctx, user).DMBlockedAt
	m, err := b.store.Match(ctx, n.Match)
	if err != nil {
		b.log.Warn("reading a match whose player is out of reach failed", "match", n.Match, "error", err)
		return nil
	}
	side, ok := m.SideOf(user)
	if !ok || (!m.ToldUnreachable[side].IsZero() && !m.ToldUnreachable[side].Before(since)) {
		return nil // already told, in this match
	}
	reason := dmClosedReason
	if m.GuildID != "" && b.hasLeft(ctx, m.GuildID, user) {
		reason = memberLeftReason
	}
	told, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		x.ToldUnreachable[side] = now
		return nil
	})
	if err != nil {
		b.log.Warn("recording that a match's channel is told a player is out of reach failed", "match", m.ID, "error", err)
		return nil
	}
	b.afterChange(ctx, told, nil)
	return []storage.Notice{{Match: n.Match, Event: storage.EventFallback, To: storage.AudiencePublic, At: now, Reason: reason + user}}
}

// discordCode is Discord's JSON error code in err, or 0.
func discordCode(err error) int {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil {
		return rest.Message.Code
	}
	return 0
}

// fallbackMessage words a fallback notice for its audience.
func (b *Bot) fallbackMessage(p lang.Printer, m *storage.Match, n storage.Notice) *discordgo.MessageSend {
	if user, ok := strings.CutPrefix(n.Reason, dmClosedReason); ok {
		return &discordgo.MessageSend{
			Content: p.Sprintf("<@%[1]s>, I can't send you direct messages, so I can't show you your board privately. "+
				"Allow DMs from this server's members (server menu → Privacy Settings), or use `/stratego board` and `/stratego setup`, which only you see.", user),
			AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{user}},
		}
	}
	if user, ok := strings.CutPrefix(n.Reason, memberLeftReason); ok {
		name := user
		if side, ok := m.SideOf(user); ok {
			name = b.playerName(p, m, side)
		}
		return &discordgo.MessageSend{
			Content: b.matchTitle(p, m) + "\n" + p.Sprintf("%[1]s has left the server, so I can no longer reach them. The match goes on: they can still move by DM "+
				"while they share a server with me, and like anyone who does not move in time, they lose on time.", name),
			AllowedMentions: &discordgo.MessageAllowedMentions{},
		}
	}
	if n.Reason == refusedReason {
		text := p.Sprintf(txtRefusedPlayer, m.ID.String())
		switch {
		case n.To == storage.AudiencePublic:
			text = p.Sprintf(txtRefusedPublic, m.ID.String())
		case m.Phase == storage.PhaseSetup:
			text = p.Sprintf(txtRefusedSetup, m.ID.String())
		}
		return &discordgo.MessageSend{Content: b.matchTitle(p, m) + "\n" + text, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	}
	if n.Reason == channelBackReason {
		return &discordgo.MessageSend{Content: b.matchTitle(p, m) + "\n" + p.Sprintf(txtChannelBackPlayers)}
	}
	if why, ok := strings.CutPrefix(n.Reason, channelGoneReason); ok {
		what := p.Sprintf("I may no longer post in the match's channel, so the match goes on here, by DM: your boards keep coming to you, " +
			"and you move as before, with the menus under your board or by typing a move such as `B4 B5`. Nothing is posted in the channel until a moderator lets me post there again; then its boards come back there.")
		if why == "deleted" {
			what = p.Sprintf("The match's channel was deleted, so the match goes on here, by DM: your boards keep coming to you, " +
				"and you move as before, with the menus under your board or by typing a move such as `B4 B5`. Nothing is posted in the channel any more.")
		}
		return &discordgo.MessageSend{Content: b.matchTitle(p, m) + "\n" + what}
	}
	return nil
}

// onGuildDelete handles the bot's removal from a server. A server that is
// merely unavailable (an outage) comes back by itself: nothing changes. A
// removal the bot missed (it was down) is found at its next READY
// (removeddown.go), and handled the same way, by removedFrom.
func (b *Bot) onGuildDelete(ctx context.Context, e *discordgo.GuildDelete) {
	if e.Guild == nil || e.Unavailable {
		if e.Guild != nil {
			b.log.Warn("a server is unavailable (a Discord outage); its matches wait", "guild", e.ID)
		}
		return
	}
	var channels []string
	if e.BeforeDelete != nil {
		for _, c := range e.BeforeDelete.Channels {
			channels = append(channels, c.ID)
		}
	}
	// A match whose channel was deleted goes on by DM, and the server
	// lists that channel no more (nor does a server the state never
	// knew): the store knows them, by their timers.
	if held, err := b.heldServers(ctx, [2]int{0, 1}); err != nil {
		b.log.Error("listing a removed server's matches by their timers failed", "guild", e.ID, "error", err)
	} else {
		for _, ch := range held[e.ID] {
			if !slices.Contains(channels, ch) {
				channels = append(channels, ch)
			}
		}
	}
	b.removedFrom(ctx, e.ID, channels)
}

// removedFrom ends what the bot had under way in a server it was removed
// from, whose channels are channels (the server's, and those its matches
// and challenges with a timer are in, a deleted channel among them): it
// cancels the server's tournaments, calls off its matches in those
// channels with no result and withdraws their challenges; the changes'
// notices tell the players by DM. Each change is one transaction that a second run finds done (a match over, a
// challenge gone, a tournament done), so that whichever process runs it,
// and however often, the players are told once.
func (b *Bot) removedFrom(ctx context.Context, guild string, channels []string) {
	cancelled := b.cancelServerTournaments(ctx, guild)
	called, withdrawn := 0, 0
	for _, ch := range channels {
		matches, err := b.readableMatches(b.store.ChannelMatches(ctx, ch, true, 0))
		if err != nil {
			b.log.Error("listing a removed server's matches failed", "guild", guild, "error", err)
			continue
		}
		for _, m := range matches {
			if m.GuildID != guild {
				continue
			}
			off, err := b.store.Abandon(ctx, m.ID, 0, b.now(), storage.CallOffBotRemoved)
			if err != nil {
				if !errors.Is(err, storage.ErrGameOver) {
					b.log.Error("calling off a match of a removed server failed", "match", m.ID, "error", err)
				}
				continue
			}
			b.afterChange(ctx, off, nil)
			called++
		}
		challenges, err := b.readableChallenges(b.store.ChannelChallenges(ctx, ch))
		if err != nil {
			b.log.Error("listing a removed server's challenges failed", "guild", guild, "error", err)
			continue
		}
		for _, c := range challenges {
			if _, err := b.store.DeleteChallenge(ctx, c.ID); err == nil {
				withdrawn++
			}
		}
	}
	b.log.Info("removed from a server", "guild", guild, "tournaments cancelled", cancelled, "matches called off", called, "challenges withdrawn", withdrawn)
	b.nudgeTimers()
}

// cancelServerTournaments cancels the tournaments under way of a server the
// bot was removed from, before its matches are called off: nobody could
// play their next rounds there, and a game called off by the removal is
// nobody's forfeit. The cancel, the bot's own (cancelledText), calls off
// their games still on. It returns how many it cancelled.
func (b *Bot) cancelServerTournaments(ctx context.Context, guild string) (cancelled int) {
	open, _, err := b.serverTournaments(ctx, guild, false)
	if err != nil {
		b.log.Error("listing a removed server's tournaments failed", "guild", guild, "error", err)
		return 0
	}
	for _, t := range open {
		switch err := b.cancelTournament(ctx, t.ID, b.botUserID()); {
		case err == nil:
			cancelled++
		case !errors.Is(err, errRefused):
			b.log.Error("cancelling a removed server's tournament failed", "tournament", t.ID, "error", err)
		}
	}
	return cancelled
}
