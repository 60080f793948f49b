package bot

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/storage"
)

// A server the bot was removed from while it was down (or while it handled
// the GUILD_DELETE, and stopped before it was done) sends no GUILD_DELETE
// again: its matches would stay on, their clocks running in a server the bot
// cannot post in, and its tournaments would pair rounds nobody can play.
// So at each READY, the servers of the shard that hold something under way
// in the store (a match, a challenge or a tournament with a timer: the
// things that run by themselves) but are missing from READY's list are
// asked about: Discord answering GET /guilds/{id} with 403 Missing Access or
// 404 Unknown Guild says the bot is no longer in one, and it is handled by
// removedFrom, as a GUILD_DELETE is, its players told the same way. Any
// other answer (a 5xx, a time-out, the guild itself) changes nothing: the
// next READY asks again. A server in an outage is in READY, unavailable,
// and is not asked about. A server whose only things under way have no
// timer (a match whose clock waits for its board to arrive, a seek, which
// expires by itself) is not seen: nothing there runs by itself meanwhile,
// and a later READY sees it once a clock runs. Those of its matches in the
// channels of the things seen are called off with them (ChannelMatches).
//
// As a GUILD_DELETE, it is the work of the process that serves the shard,
// which alone sees its READY, whether or not it runs the timers: each
// change is a transaction that a second run finds done, so that a restart,
// or another process, tells nobody twice.

// firstReadyWait bounds how long the timers wait, as the bot starts, for the
// look at its first READY's missing servers: Discord slow to answer holds
// them no longer.
const firstReadyWait = 10 * time.Second

// awaitFirstReady waits until the servers missing from the first READY were
// looked at (or firstReadyWait, or the stop): down past a deadline, the bot
// would otherwise time out a match, or close a round and pair the next, in
// a server it was removed from meanwhile, before it sees the removal. (On a
// shared database, another process may run the timers already: it does not
// wait for this one's READY.)
func (b *Bot) awaitFirstReady(ctx context.Context) {
	wait := time.NewTimer(firstReadyWait)
	defer wait.Stop()
	select {
	case <-b.firstReady:
	case <-ctx.Done():
	case <-wait.C:
		b.log.Warn("the servers missing from READY are still being looked at; the timers start meanwhile", "after", firstReadyWait)
	}
}

// onReady looks for the servers of shard (its id and count) that the bot
// was removed from unseen: those held in the store and missing from ready.
func (b *Bot) onReady(ctx context.Context, shard [2]int, ready map[string]bool) {
	defer b.firstOnce.Do(func() { close(b.firstReady) })
	held, err := b.heldServers(ctx, shard)
	if err != nil {
		b.log.Error("listing the servers with matches under way failed; their removals are looked for at the next READY", "error", err)
		return
	}
	guilds := make([]string, 0, len(held))
	for g := range held {
		if !ready[g] {
			guilds = append(guilds, g)
		}
	}
	slices.Sort(guilds)
	for _, g := range guilds {
		if ctx.Err() != nil || b.halt.Err() != nil {
			return
		}
		if !b.notInServer(g) {
			continue
		}
		b.log.Info("removed from a server while the bot was away (it is missing from READY, and Discord says so)", "guild", g)
		b.removedFrom(ctx, g, held[g])
	}
}

// notInServer asks Discord whether the bot is in a server, and reports
// whether it said for sure that it is not.
func (b *Bot) notInServer(guild string) bool {
	_, err := b.s.Guild(guild, b.untilStop())
	if err == nil {
		return false
	}
	switch discordCode(err) {
	case discordgo.ErrCodeMissingAccess, discordgo.ErrCodeUnknownGuild:
		return true
	}
	if !b.cutShort(err) {
		b.log.Warn("asking Discord whether the bot is still in a server failed; asked again at the next READY", "guild", guild, "error", err)
	}
	return false
}

// heldServers returns the servers of shard that hold a match, a challenge or
// a tournament with a timer, each with the channels they are in.
func (b *Bot) heldServers(ctx context.Context, shard [2]int) (map[string][]string, error) {
	held := map[string][]string{}
	add := func(guild, channel string) {
		if guild != "" && channel != "" && onShard(guild, shard) && !slices.Contains(held[guild], channel) {
			held[guild] = append(held[guild], channel)
		}
	}
	timers, err := b.store.DueDeadlines(ctx, farFuture, 0)
	if err != nil {
		return nil, err
	}
	seen := map[storage.MatchID]bool{}
	for _, d := range timers {
		if d.Kind == storage.DeadlineChallenge {
			c, err := b.store.Challenge(ctx, storage.ChallengeID(d.ID))
			if err != nil {
				if !goneForGood(err) {
					return nil, err
				}
				b.badRecord(err, "challenge", d.ID)
				continue
			}
			add(c.GuildID, c.ChannelID)
			continue
		}
		id := storage.MatchID(d.ID)
		if seen[id] {
			continue
		}
		seen[id] = true
		m, err := b.store.Match(ctx, id)
		if err != nil {
			if !goneForGood(err) {
				return nil, err
			}
			b.badRecord(err, "match", d.ID)
			continue
		}
		if m.Phase.Active() {
			add(m.GuildID, m.ChannelID)
		}
	}
	tournaments, unreadable, err := b.dueTournaments(ctx, farFuture)
	if err != nil {
		return nil, err
	}
	if unreadable != nil {
		b.log.Error("tournaments that cannot be read are left out of the look for servers the bot was removed from", "tournaments", unreadable.IDs, "error", unreadable)
	}
	for _, t := range tournaments {
		if !t.Done {
			add(t.GuildID, t.ChannelID)
		}
	}
	return held, nil
}

// onShard reports whether a server's events come to shard (its id and
// count), as Discord routes them: (guild_id >> 22) % count.
func onShard(guild string, shard [2]int) bool {
	if shard[1] <= 1 {
		return true
	}
	id, err := strconv.ParseUint(guild, 10, 64)
	return err == nil && int((id>>22)%uint64(shard[1])) == shard[0]
}

// badRecord logs a record a look passed over as it cannot be read (not one
// that is gone): its kind and id, and the error, which shows no record.
func (b *Bot) badRecord(err error, kind string, id uint64) {
	if !errors.Is(err, storage.ErrNotFound) {
		b.log.Error("a stored record cannot be read; passed over", "record", kind, "id", id, "error", err)
	}
}
