package bot

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/ratelimit"
)

// Whether a member may see a channel has one answer, channelSeen, for
// /stratego watch and following, the queue's meeting place and
// tournaments. A match or a tournament is played where it was made, which
// may be a thread, private or archived. The bot's state holds the active
// threads only: GUILD_CREATE lists no archived one, so a thread archived
// (after a day without a post) before the bot last connected is a channel
// the state does not know. Asked of Discord once (GET /channels/{id}),
// within the time a member's answer allows, its kind and parent, which
// never change, are kept in Bot.channels for as long as the bot runs.

// channelKind is what does not change of a channel: whether it is a
// thread, whose channel, and whether it is private; or that it is gone.
type channelKind struct {
	thread  bool
	parent  string // the thread's channel
	private bool   // a private thread
	gone    bool   // Discord said there is no such channel (deleted)
}

// channelKindAgain is how long Discord's refusal to describe a channel
// (Missing Access: the bot lost sight of it) is taken as its answer,
// before it is asked again.
const channelKindAgain = 10 * time.Minute

// maxChannelKinds bounds the channels kept; when it is reached the kept
// ones are forgotten and asked again as they are needed, but for the marks
// of channels gone (room).
const maxChannelKinds = 4096

// channelKinds keeps what Discord said of channels the state did not hold;
// its zero value is empty and ready.
type channelKinds struct {
	mu   sync.Mutex
	kept map[string]keptKind
	next uint64 // the seq of the next kept
}

type keptKind struct {
	kind    channelKind
	refused time.Time // when Discord refused to say; zero for an answer kept for good
	seq     uint64    // the order in which it was kept: room forgets the oldest marks first
}

// goneMark reports whether k marks its channel gone for good.
func (k keptKind) goneMark() bool { return k.refused.IsZero() && k.kind.gone }

// get returns what is kept of channel at now: its kind, or that Discord
// refused to say (known false); ok is false when nothing is kept.
func (c *channelKinds) get(channel string, now time.Time) (kind channelKind, known, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.kept[channel]
	switch {
	case !ok:
		return channelKind{}, false, false
	case k.refused.IsZero():
		return k.kind, true, true
	}
	if age := now.Sub(k.refused); age < 0 || age >= channelKindAgain {
		delete(c.kept, channel)
		return channelKind{}, false, false
	}
	return channelKind{}, false, true
}

// keep keeps what Discord said of channel, unless it is marked gone: an
// answer asked before the channel was deleted and kept after it does not
// bring it back.
func (c *channelKinds) keep(channel string, k keptKind) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.kept[channel]; ok && old.goneMark() {
		return
	}
	c.room()
	c.put(channel, k)
}

// put keeps k of channel, in order; c.mu is held.
func (c *channelKinds) put(channel string, k keptKind) {
	c.next++
	k.seq = c.next
	c.kept[channel] = k
}

// room makes the map ready for one more channel; c.mu is held. At
// maxChannelKinds, what Discord said of live channels, and its refusals,
// are forgotten, to be asked again as they are needed; the marks of
// channels gone stay, which an answer asked before the delete and kept
// after it would otherwise undo (deleted). Only when those fill half the
// map do the older half of them go: a channel long deleted is no longer
// asked about, and when it is, Discord says it is gone.
func (c *channelKinds) room() {
	if c.kept == nil {
		c.kept = make(map[string]keptKind)
	}
	if len(c.kept) < maxChannelKinds {
		return
	}
	for channel, k := range c.kept {
		if !k.goneMark() {
			delete(c.kept, channel)
		}
	}
	if len(c.kept) < maxChannelKinds/2 {
		return
	}
	seqs := make([]uint64, 0, len(c.kept))
	for _, k := range c.kept {
		seqs = append(seqs, k.seq)
	}
	slices.Sort(seqs)
	cut := seqs[len(seqs)/2]
	for channel, k := range c.kept {
		if k.seq < cut {
			delete(c.kept, channel)
		}
	}
}

// deleted marks channel gone, whether or not something of it is kept: the
// state forgets a deleted channel, and a channel kept here, or kept by a
// question to Discord under way, would otherwise be taken for what it was.
// A channel's id is never used again; maxChannelKinds bounds the marks.
func (c *channelKinds) deleted(channel string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.kept[channel]; !ok {
		c.room()
	}
	c.put(channel, keptKind{kind: channelKind{gone: true}})
}

// channelKindOf says what channel is: from the bot's state, or when the
// state does not hold it, from what Discord said of it before, or else
// from Discord, asked within ctx without waiting out a rate limit. known
// is false when none can tell (Discord did not answer in time, or refused
// to say: the bot cannot see the channel).
func (b *Bot) channelKindOf(ctx context.Context, channel string) (kind channelKind, known bool) {
	kind, known, _ = b.channelKindAsked(ctx, channel)
	return kind, known
}

// channelKindAsked is channelKindOf, with later true when what is not
// known is so because Discord, asked now, did not answer in time (the
// deadline, a 5xx, a rate limit not waited out, the network): asked again
// later, it may tell. A refusal, now or kept from before, is not that: it
// lasts.
func (b *Bot) channelKindAsked(ctx context.Context, channel string) (kind channelKind, known, later bool) {
	if b.s == nil || b.s.State == nil {
		return channelKind{}, false, false
	}
	if k, known, held := b.channelKindHeld(channel); held {
		return k, known, false
	}
	now := b.now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(b.halt, cancel)()
	c, err := b.s.Channel(channel, discordgo.WithRetryOnRatelimit(false), discordgo.WithContext(ratelimit.WithoutWaiting(ctx)))
	var rest *discordgo.RESTError
	switch {
	case err == nil && c != nil:
		kind = channelKind{thread: c.IsThread(), parent: c.ParentID, private: c.Type == discordgo.ChannelTypeGuildPrivateThread}
		b.channels.keep(channel, keptKind{kind: kind})
		return kind, true, false
	case discordCode(err) == discordgo.ErrCodeUnknownChannel:
		kind = channelKind{gone: true}
		b.channels.keep(channel, keptKind{kind: kind})
		return kind, true, false
	case errors.As(err, &rest) && rest.Response != nil &&
		(rest.Response.StatusCode == http.StatusForbidden || rest.Response.StatusCode == http.StatusNotFound):
		// Not to be asked at every command: kept as not known, for a while.
		b.channels.keep(channel, keptKind{refused: now})
		return channelKind{}, false, false
	case errors.As(err, &rest) && rest.Response != nil &&
		rest.Response.StatusCode < http.StatusInternalServerError && rest.Response.StatusCode != http.StatusTooManyRequests:
		return channelKind{}, false, false // another refusal: asking again would not help
	}
	return channelKind{}, false, true
}

// channelKindHeld is channelKindOf without asking Discord: held is false
// when neither the bot's state nor what Discord said before tells.
func (b *Bot) channelKindHeld(channel string) (kind channelKind, known, held bool) {
	if b.s == nil || b.s.State == nil {
		return channelKind{}, false, true
	}
	if c, err := b.s.State.Channel(channel); err == nil {
		b.s.State.RLock()
		defer b.s.State.RUnlock()
		return channelKind{thread: c.IsThread(), parent: c.ParentID, private: c.Type == discordgo.ChannelTypeGuildPrivateThread}, true, true
	}
	return b.channels.get(channel, b.now())
}

// channelSeen is the one answer to whether user, with roles in guild, may
// see channel, a channel or thread of guild: for /stratego watch and
// following, the seeks' meeting place and tournaments. A member asking
// from channel itself (from; "" for one not asking now: a follower, a
// waiting seeker) sees it. Otherwise a text channel is seen with View
// Channel in it; a public thread as its channel, also one archived that
// the bot's state lost (channelKindOf asks Discord within ctx); a private
// thread only with View Channel and Manage Threads in its channel, which
// show a member every private thread of it: who else is in one the bot
// does not ask Discord member by member. A deleted channel, or a thread of
// one, is seen by nobody. known is false when the bot cannot tell (sees is
// false then): Discord did not answer in time or refused to say, or the
// state lacks the server.
func (b *Bot) channelSeen(ctx context.Context, guild, channel, user string, roles []string, from string) (sees, known bool) {
	if channel != "" && channel == from {
		return true, true // Discord let them ask there
	}
	kind, known := b.channelKindOf(ctx, channel)
	if !known {
		return false, false
	}
	return b.kindSeen(guild, channel, kind, user, roles)
}

// kindSeen is channelSeen of channel, whose kind is known, for a member
// not asking from it. A thread whose channel is deleted is gone with it:
// Discord deletes a channel's threads with it but tells the bot only of
// the channel, so the state, and what Discord said before, may still hold
// the thread; a channel the state of its server does not hold is deleted
// (GUILD_CREATE lists every channel of a server, the archived threads
// aside).
func (b *Bot) kindSeen(guild, channel string, kind channelKind, user string, roles []string) (sees, known bool) {
	rules := channel // whose overwrites say
	need := int64(discordgo.PermissionViewChannel)
	switch {
	case kind.gone:
		return false, true
	case kind.thread:
		rules = kind.parent
		if kind.private {
			need |= discordgo.PermissionManageThreads
		}
	}
	if b.channelDeletedOf(guild, rules) {
		return false, true
	}
	return b.rolesMay(guild, rules, user, roles, need)
}

// kindGone reports whether a channel of guild, of kind, is gone: deleted,
// or a thread whose channel is deleted, which Discord deletes with it but
// tells the bot of the channel only.
func (b *Bot) kindGone(guild string, kind channelKind) bool {
	return kind.gone || kind.thread && b.channelDeletedOf(guild, kind.parent)
}

// channelDeletedOf reports whether the bot's state holds guild, as
// Discord sent it, but not channel: the channel was deleted. A server
// READY only named (Unavailable: seconds after a start, or through an
// outage) holds no channel yet, as deletedChannels knows.
func (b *Bot) channelDeletedOf(guild, channel string) bool {
	if b.s == nil || b.s.State == nil {
		return false
	}
	if _, err := b.s.State.Channel(channel); err == nil {
		return false
	}
	deleted := false
	b.withGuild(guild, func(g *discordgo.Guild) { deleted = !g.Unavailable })
	return deleted
}

// maxSightAsks bounds the questions about channels one command asks of
// Discord at once (memberSeesEach).
const maxSightAsks = 4

// sight is what the bot tells of whether a member sees a channel: known is
// false when it cannot tell (sees is false then), and later then when that
// is because Discord, asked now, did not answer in time, so that asking
// again may tell (channelKindAsked); not because of what lasts, a refusal
// or the state lacking the server.
type sight struct{ sees, known, later bool }

// memberSeesHeld is memberSees without asking Discord: held is false when
// neither the bot's state nor what Discord said before tells.
func (b *Bot) memberSeesHeld(i *discordgo.Interaction, channel string) (s sight, held bool) {
	switch {
	case i.Member == nil || i.Member.User == nil:
		return sight{known: true}, true
	case channel != "" && channel == i.ChannelID:
		return sight{sees: true, known: true}, true // Discord let them ask there
	}
	kind, known, held := b.channelKindHeld(channel)
	if !held || !known {
		return sight{}, held
	}
	s.sees, s.known = b.kindSeen(i.GuildID, channel, kind, i.Member.User.ID, i.Member.Roles)
	return s, true
}

// memberSeesEach is memberSees of each of channels, once each. Those that
// the bot's state and what Discord said before do not tell are asked of
// Discord together, at most maxSightAsks at a time, within ctx: the time
// the command's answer allows them all. One not answered in it is not
// known, and later (sight).
func (b *Bot) memberSeesEach(ctx context.Context, i *discordgo.Interaction, channels []string) map[string]sight {
	out := make(map[string]sight, len(channels))
	var ask []string
	asking := make(map[string]bool)
	for _, channel := range channels {
		if _, told := out[channel]; told || asking[channel] {
			continue
		}
		if s, held := b.memberSeesHeld(i, channel); held {
			out[channel] = s
			continue
		}
		asking[channel] = true
		ask = append(ask, channel)
	}
	got := make([]sight, len(ask))
	limit := make(chan struct{}, maxSightAsks)
	var wg sync.WaitGroup
	for k, channel := range ask {
		wg.Go(func() {
			select {
			case limit <- struct{}{}:
				defer func() { <-limit }()
			case <-ctx.Done():
				got[k].later = true // not asked in time
				return
			}
			kind, known, later := b.channelKindAsked(ctx, channel)
			if !known {
				got[k].later = later
				return
			}
			got[k].sees, got[k].known = b.kindSeen(i.GuildID, channel, kind, i.Member.User.ID, i.Member.Roles)
		})
	}
	wg.Wait()
	for k, channel := range ask {
		out[channel] = got[k]
	}
	return out
}
