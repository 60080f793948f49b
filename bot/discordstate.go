package bot

import (
	"encoding/base64"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Reading discordgo's state. discordgo hands out pointers into its state,
// and when Discord sends a known server or channel again (GUILD_CREATE after
// READY, GUILD_UPDATE, CHANNEL_UPDATE) it overwrites that struct in place
// under the state's lock. So what the bot reads of one it copies under the
// same lock. The lookups themselves lock too, and are made before: a read
// lock taken twice deadlocks once a writer waits between the two.

// botUserID is the bot's own Discord user id: READY's, or before it the
// one its token begins with (tokenUserID), since the web board and the
// timers may ask before the gateway is up (which seat is the computer's).
func (b *Bot) botUserID() string {
	if u, ok := b.botUser(); ok {
		return u.ID
	}
	if b.s == nil {
		return ""
	}
	return tokenUserID(b.s.Token)
}

// tokenUserID is the user id a bot token begins with: a token's first part
// is its bot's id, in base64. It is "" for a token not shaped so.
func tokenUserID(token string) string {
	first, _, ok := strings.Cut(strings.TrimPrefix(token, "Bot "), ".")
	if !ok {
		return ""
	}
	first = strings.TrimRight(first, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		id, err := enc.DecodeString(first)
		if err == nil && len(id) > 0 && len(id) <= 20 && strings.Trim(string(id), "0123456789") == "" {
			return string(id)
		}
	}
	return ""
}

// botUser is a copy of the bot's own Discord user, and whether READY has
// brought it. A new session's READY replaces it, under the state's lock.
func (b *Bot) botUser() (discordgo.User, bool) {
	if b.s == nil || b.s.State == nil {
		return discordgo.User{}, false
	}
	b.s.State.RLock()
	defer b.s.State.RUnlock()
	if b.s.State.User == nil {
		return discordgo.User{}, false
	}
	return *b.s.State.User, true
}

// withGuild calls read with a server's struct under the state's lock, and
// reports whether the bot knows the server.
func (b *Bot) withGuild(guildID string, read func(g *discordgo.Guild)) bool {
	if guildID == "" || b.s == nil || b.s.State == nil {
		return false
	}
	g, err := b.s.State.Guild(guildID)
	if err != nil {
		return false
	}
	b.s.State.RLock()
	defer b.s.State.RUnlock()
	read(g)
	return true
}

// guildLocale returns a server's preferred locale, and false when the bot
// does not know the server.
func (b *Bot) guildLocale(guildID string) (string, bool) {
	var locale string
	known := b.withGuild(guildID, func(g *discordgo.Guild) { locale = g.PreferredLocale })
	return locale, known
}

// guildChannelIDs returns the ids of a server's channels as far as the bot
// knows them (nil when it does not know the server).
func (b *Bot) guildChannelIDs(guildID string) []string {
	var ids []string
	b.withGuild(guildID, func(g *discordgo.Guild) {
		ids = make([]string, len(g.Channels))
		for k, c := range g.Channels {
			ids[k] = c.ID
		}
	})
	return ids
}

// guildThreadIDs returns the ids of a server's active threads as far as
// the bot knows them: GUILD_CREATE and THREAD_CREATE carry them, and an
// archived one, since the bot connected, only until it is unarchived.
func (b *Bot) guildThreadIDs(guildID string) []string {
	var ids []string
	b.withGuild(guildID, func(g *discordgo.Guild) {
		for _, c := range g.Threads {
			ids = append(ids, c.ID)
		}
	})
	return ids
}

// deletedChannels returns those of ids, channels of a server, that the
// bot's view of the server no longer holds: deleted since a moderator named
// them. None when the bot does not know the server, or knows it only as
// unavailable (an outage, with no channels).
func (b *Bot) deletedChannels(guildID string, ids []string) []string {
	var gone []string
	b.withGuild(guildID, func(g *discordgo.Guild) {
		if g.Unavailable {
			return
		}
		for _, id := range ids {
			if !slices.ContainsFunc(g.Channels, func(c *discordgo.Channel) bool { return c.ID == id }) {
				gone = append(gone, id)
			}
		}
	})
	return gone
}

// roleDeleted reports whether role, one of a server's, is gone from the
// bot's view of the server: deleted since a moderator named it. False when
// the bot does not know the server, or knows it only as unavailable.
func (b *Bot) roleDeleted(guildID, role string) bool {
	deleted := false
	b.withGuild(guildID, func(g *discordgo.Guild) {
		deleted = !g.Unavailable && role != guildID &&
			!slices.ContainsFunc(g.Roles, func(r *discordgo.Role) bool { return r.ID == role })
	})
	return deleted
}

// threadParent returns the channel a thread belongs to, and false when
// channelID is no thread the bot knows of (GUILD_CREATE and THREAD_CREATE
// carry the active threads).
func (b *Bot) threadParent(channelID string) (string, bool) {
	if b.s == nil || b.s.State == nil {
		return "", false
	}
	c, err := b.s.State.Channel(channelID)
	if err != nil {
		return "", false
	}
	b.s.State.RLock()
	defer b.s.State.RUnlock()
	if !c.IsThread() {
		return "", false
	}
	return c.ParentID, true
}
