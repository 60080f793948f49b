package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// A match's channel that the bot could not post in comes back (README, "When
// things go away"): once the bot may post there again, the channel is
// posted the board as it stands, and then the boards of the moves as
// before; its players are told once that board is posted. The bot learns it
// two ways:
//   - from the gateway: a change of the channel's overwrites
//     (CHANNEL_UPDATE; a thread's are its channel's), of a role of the
//     bot's or of @everyone (GUILD_ROLE_UPDATE), or of the bot's roles
//     (GUILD_MEMBER_UPDATE), or a thread unlocked (THREAD_UPDATE): what it
//     may do there is worked out from discordgo's state, as Discord does,
//     and the match comes back at once when it may view and post;
//   - by trying: like a tournament's announcement, a public notice of a
//     match whose channel was found out of reach lostChannelRetry ago or
//     more brings it back, and the board it owes is the try; refused again,
//     the channel is out of reach for lostChannelRetry more, and the players,
//     who were not told it was back, are not told again.
// A tournament's channel comes back the same two ways (its next
// announcements are posted there). A deleted channel never comes back. The
// change of a match is the store's
// (Store.ChannelBack), one transaction that one caller makes: of several
// processes, or of the gateway and a try at once, one brings the channel
// back and records its one board.

// channelBackReason is the Reason of the note that tells a player their
// match's channel is back.
const channelBackReason = "channel-back"

// Texts of a match's channel back within reach, and of one where the bot
// may post but not attach files.
const (
	txtChannelBack        = "I can post in this channel again: the match is shown here again, as before."
	txtChannelBackPlayers = "I can post in the match's channel again, so its board is shown there again after each move. You go on playing here as before."
	txtNoAttach           = "I may not attach files in this channel, so the board is shown as text: a moderator can give me the Attach Files permission here."
)

// channelBackMessage is what the channel is posted when it comes back: the
// public board as it stood then (before the game began, only that it is
// back).
func (b *Bot) channelBackMessage(p lang.Printer, snap *snapshot, n storage.Notice) (*discordgo.MessageSend, error) {
	m := snap.m
	if m.Started.IsZero() || m.Started.After(n.At) || n.Log > len(m.Log) {
		// Back in the set-ups: the game's first board follows.
		return &discordgo.MessageSend{Content: b.matchTitle(p, m) + "\n" + p.Sprintf(txtChannelBack), AllowedMentions: &discordgo.MessageAllowedMentions{}}, nil
	}
	g, err := snap.gameAt(n.Log, b.countReplay)
	if err != nil {
		return nil, err
	}
	back := func(n narrator, _ *game.View) string { return n.p.Sprintf(txtChannelBack) }
	return b.boardMessage(p, m, g, game.PublicViewer, game.NumberingModern, back, time.Time{}, false), nil
}

// toldChannelBack are the notes to a match's players that its channel is
// back, owed once its board there was posted at at.
func toldChannelBack(n storage.Notice, at time.Time) []storage.Notice {
	var out []storage.Notice
	for _, to := range []storage.Audience{storage.AudienceRed, storage.AudienceBlue} {
		out = append(out, storage.Notice{Match: n.Match, Event: storage.EventFallback, To: to, At: at, Reason: channelBackReason, Practice: n.Practice})
	}
	return out
}

// backLive records id, the board posted in a match's channel as it came
// back, as the message a live board edits from then on, when it has one.
func (b *Bot) backLive(ctx context.Context, match storage.MatchID, id string) {
	m, err := b.store.Match(ctx, match)
	if err != nil {
		b.log.Warn("reading a match whose channel came back failed; its live board is posted anew", "match", match, "error", err)
		return
	}
	if m.LiveMessage != "" && m.LiveMessage != id {
		b.replaceLiveMessage(ctx, match, m.LiveMessage, id)
	}
}

// tryLostChannel brings back the channel of m, n's match as n is composed
// from, when n is a public notice and the channel was found out of reach,
// not deleted, lostChannelRetry ago or more (the rule of a tournament's
// channel): n is then not posted (m still counts the channel out of reach),
// and the board the channel is owed is the try.
func (b *Bot) tryLostChannel(ctx context.Context, n storage.Notice, m *storage.Match, now time.Time) {
	if n.To != storage.AudiencePublic || n.Event == storage.EventChannelBack ||
		!m.PublicGone || m.PublicDeleted || !m.Phase.Active() || now.Sub(m.PublicLost) < lostChannelRetry {
		return
	}
	b.matchChannelBack(ctx, m.ID, now, "tried again")
}

// matchChannelBack brings back the channel of match id at now (why says
// how the bot learnt it, for the log). Another caller may have done it.
func (b *Bot) matchChannelBack(ctx context.Context, id storage.MatchID, now time.Time, why string) {
	back, err := b.store.ChannelBack(ctx, id, now)
	switch {
	case errors.Is(err, storage.ErrNotDue) || errors.Is(err, storage.ErrGameOver):
		return // back already, deleted, or over
	case err != nil:
		b.log.Warn("recording that a match's channel is within reach again failed", "match", id, "error", err)
		return
	}
	b.afterChange(ctx, back, nil)
	b.log.Info("the match's channel is within reach again; its board is posted there", "match", id, "how", why)
}

// onPermissionsChanged looks, after the gateway told that what the bot may
// do in a server may have changed (in channel, or in all its channels when
// ""), for the matches and tournaments whose channel there was out of the
// bot's reach, and brings back those the bot may view and post in now, as
// discordgo's state says. A thread follows its channel's permissions: the
// threads of channel that the state holds (the active ones, and those
// archived since the bot connected) are looked at with it, and channel may
// be a thread itself (THREAD_UPDATE: unlocked). A server whose state the
// bot lacks, or a thread it does not hold, is left to the tries.
func (b *Bot) onPermissionsChanged(ctx context.Context, guildID, channel string) {
	channels := []string{channel}
	if channel == "" {
		channels = b.guildChannelIDs(guildID)
	}
	channels = append(channels, b.threadsIn(guildID, channels)...)
	var open []string
	for _, ch := range channels {
		if may, known := b.botMayPost(ch); known && may {
			open = append(open, ch)
		}
	}
	if len(open) == 0 {
		return // nothing can come back there: no store read
	}
	b.tournamentChannelsBack(ctx, guildID, open)
	for _, ch := range open {
		matches, err := b.readableMatches(b.store.ChannelMatches(ctx, ch, true, 0))
		if err != nil {
			b.log.Warn("listing a channel's matches after its permissions changed failed", "channel", ch, "error", err)
			continue
		}
		for _, m := range matches {
			if m.GuildID == guildID && m.PublicGone && !m.PublicDeleted && m.Where() == ch {
				b.matchChannelBack(ctx, m.ID, b.now(), "permissions changed")
			}
		}
	}
}

// threadOpened reports whether e, a THREAD_UPDATE, unlocked its thread:
// one that was locked before (as the state held it) and is not now. Other
// updates (a thread archiving itself, a new name) change nothing of what
// the bot may do there, and a post unarchives a thread that is not locked.
// A thread the state did not hold counts as opened when it is not locked.
func threadOpened(e *discordgo.ThreadUpdate) bool {
	locked := func(c *discordgo.Channel) bool { return c.ThreadMetadata != nil && c.ThreadMetadata.Locked }
	return !locked(e.Channel) && (e.BeforeUpdate == nil || locked(e.BeforeUpdate))
}

// threadsIn returns the threads of guild that the bot's state holds whose
// channel is one of channels.
func (b *Bot) threadsIn(guildID string, channels []string) []string {
	var ids []string
	b.withGuild(guildID, func(g *discordgo.Guild) {
		for _, c := range g.Threads {
			if slices.Contains(channels, c.ParentID) {
				ids = append(ids, c.ID)
			}
		}
	})
	return ids
}

// tournamentChannelsBack is onPermissionsChanged for the server's
// tournaments: one whose channel, one of open, was out of reach, not
// deleted, and that the bot may post in now, posts its next announcements
// there, as it does when it tries the channel again (lostChannelRetry).
func (b *Bot) tournamentChannelsBack(ctx context.Context, guildID string, open []string) {
	list, _, err := b.serverTournaments(ctx, guildID, false)
	if err != nil {
		b.log.Warn("listing a server's tournaments after its permissions changed failed", "guild", guildID, "error", err)
		return
	}
	errNotLost := errors.New("the channel is within reach, or deleted")
	for _, t := range list {
		if t.ChannelLost.IsZero() || t.ChannelDeleted || !slices.Contains(open, t.ChannelID) {
			continue
		}
		_, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
			if x.ChannelLost.IsZero() || x.ChannelDeleted {
				return errNotLost
			}
			x.ChannelLost = time.Time{}
			return nil
		})
		switch {
		case errors.Is(err, errNotLost):
		case err != nil:
			b.log.Warn("recording that a tournament's channel is within reach again failed", "tournament", t.ID, "error", err)
		default:
			b.log.Info("a tournament's channel is within reach again; its announcements are posted there", "tournament", t.ID, "how", "permissions changed")
		}
	}
}

// ownRoleChanged reports whether role, of guild guildID, is @everyone or one
// of the bot's roles there: a change of its permissions may change the bot's.
func (b *Bot) ownRoleChanged(guildID, role string) bool {
	if role == guildID {
		return true
	}
	bot := b.botUserID()
	if bot == "" || b.s == nil || b.s.State == nil {
		return false
	}
	member, err := b.s.State.Member(guildID, bot)
	if err != nil {
		return false
	}
	b.s.State.RLock()
	defer b.s.State.RUnlock()
	return slices.Contains(member.Roles, role)
}

// botMayPost reports whether the bot may view and post in channel, a
// server's text channel or a thread of one, as discordgo's state knows its
// roles and the channel's overwrites (a thread's are its channel's, where it
// needs Send Messages in Threads, and Manage Threads when the thread is
// locked); known is false when the state cannot say (a channel or server
// it does not hold, a thread whose channel it does not hold, a private
// thread, which the bot sees only as one of its members).
func (b *Bot) botMayPost(channel string) (may, known bool) {
	bot := b.botUserID()
	if bot == "" || b.s == nil || b.s.State == nil {
		return false, false
	}
	c, err := b.s.State.Channel(channel)
	if err != nil {
		return false, false
	}
	b.s.State.RLock()
	guildID, thread, parentID := c.GuildID, c.IsThread(), c.ParentID
	private := c.Type == discordgo.ChannelTypeGuildPrivateThread
	locked := thread && c.ThreadMetadata != nil && c.ThreadMetadata.Locked
	b.s.State.RUnlock()
	if guildID == "" || private {
		return false, false
	}
	need := int64(discordgo.PermissionViewChannel | discordgo.PermissionSendMessages)
	if thread {
		if c, err = b.s.State.Channel(parentID); err != nil {
			return false, false
		}
		need = discordgo.PermissionViewChannel | discordgo.PermissionSendMessagesInThreads
		if locked {
			need |= discordgo.PermissionManageThreads
		}
	}
	g, err := b.s.State.Guild(guildID)
	if err != nil {
		return false, false
	}
	member, err := b.s.State.Member(guildID, bot)
	if err != nil {
		return false, false
	}
	b.s.State.RLock()
	defer b.s.State.RUnlock()
	return channelPermissions(g, c, bot, member.Roles)&need == need, true
}

// mayPost reports whether the bot may post to a channel, as far as
// discordgo's state knows (true when it does not know, or for a DM): a
// message refused for a missing permission is sent without its pictures
// only where it may.
func (b *Bot) mayPost(to audienceOf) bool {
	if to.user != "" {
		return true
	}
	may, known := b.botMayPost(to.channel)
	return may || !known
}

// channelPermissions works out what a member with roles may do in channel c
// of server g, as Discord documents it: everything for the owner; else
// @everyone's permissions and those of their roles, everything with
// ADMINISTRATOR; then the channel's overwrites for @everyone, for their
// roles (all denies, then all allows) and for the member.
func channelPermissions(g *discordgo.Guild, c *discordgo.Channel, userID string, roles []string) int64 {
	if g.OwnerID == userID {
		return discordgo.PermissionAll
	}
	var perms int64
	for _, r := range g.Roles {
		if r.ID == g.ID || slices.Contains(roles, r.ID) {
			perms |= r.Permissions
		}
	}
	if perms&discordgo.PermissionAdministrator != 0 {
		return discordgo.PermissionAll
	}
	var everyone, member *discordgo.PermissionOverwrite
	var allow, deny int64
	for _, o := range c.PermissionOverwrites {
		switch {
		case o.Type == discordgo.PermissionOverwriteTypeRole && o.ID == g.ID:
			everyone = o
		case o.Type == discordgo.PermissionOverwriteTypeRole && slices.Contains(roles, o.ID):
			allow |= o.Allow
			deny |= o.Deny
		case o.Type == discordgo.PermissionOverwriteTypeMember && o.ID == userID:
			member = o
		}
	}
	if everyone != nil {
		perms = perms&^everyone.Deny | everyone.Allow
	}
	perms = perms&^deny | allow
	if member != nil {
		perms = perms&^member.Deny | member.Allow
	}
	return perms
}

// withoutPicture returns part without its pictures when Discord refused it
// for a missing permission (sendErr), as when the bot may post in the
// channel but not attach files there: a tournament's announcement as it
// is, its text table saying what its picture shows; a match's message to
// its channel as its text (outgoing.text). When the bot may not post at
// all, the bare message is refused too.
func withoutPicture(n storage.Notice, part outgoing, sendErr error) (outgoing, bool) {
	if discordCode(sendErr) != discordgo.ErrCodeMissingPermissions {
		return outgoing{}, false
	}
	switch {
	case part.send != nil && len(part.send.Files) > 0 && n.Tournament != 0:
		bare := *part.send
		bare.Files = nil
		return outgoing{to: part.to, send: &bare}, true
	case part.send != nil && len(part.send.Files) > 0 && part.text != "":
		bare := *part.send
		bare.Files, bare.Content = nil, part.text
		return outgoing{to: part.to, send: &bare}, true
	case part.edit != nil && len(part.edit.Files) > 0 && part.text != "":
		bare := *part.edit
		text := part.text
		bare.Files, bare.Content, bare.Attachments = nil, &text, &[]*discordgo.MessageAttachment{}
		return outgoing{to: part.to, edit: &bare}, true
	}
	return outgoing{}, false
}

// withText gives each of parts, the messages of a notice to a match's
// channel, that has pictures its text (outgoing.text): its content, the
// pictures' alt texts (written for the channel's view, as the pictures are
// drawn), and a note for the moderators, in p.
func withText(p lang.Printer, parts []outgoing) {
	for i := range parts {
		var content string
		var files []*discordgo.File
		switch {
		case parts[i].send != nil:
			content, files = parts[i].send.Content, parts[i].send.Files
		case parts[i].edit != nil && parts[i].edit.Content != nil:
			content, files = *parts[i].edit.Content, parts[i].edit.Files
		}
		if len(files) == 0 {
			continue
		}
		lines := []string{content}
		for _, f := range files {
			if d, ok := f.Reader.(describedReader); ok && d.alt != "" {
				lines = append(lines, d.alt)
			}
		}
		note := "-# " + p.Sprintf(txtNoAttach)
		parts[i].text = truncate(strings.Join(lines, "\n"), maxMessage-chars(note)-1) + "\n" + note
	}
}
