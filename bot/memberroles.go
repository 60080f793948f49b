package bot

import (
	"maps"
	"slices"
	"sync"
	"time"
)

// What a follower sees is checked before each board they are sent
// (unfollowUnseen), from discordgo's state: the server's roles and the
// channel's overwrites, which the gateway keeps current (GUILD_ROLE_CREATE,
// _UPDATE, _DELETE and CHANNEL_UPDATE come with the Guilds intent), and the
// member's own roles, which the state does not keep. Those are asked of
// Discord (GET /guilds/{guild}/members/{user}), on the server's rate-limit
// bucket, which every other question about its members shares (hasLeft,
// seeks). GUILD_MEMBER_UPDATE and _REMOVE, which would tell the bot of a
// role taken or a member gone, come only with the privileged GUILD_MEMBERS
// intent, which the bot does not ask for (Intents).
//
// So each answer is kept for memberRolesFor: a follower costs one question
// in that time, whatever the number of moves or of the matches of that
// server they follow, instead of one a board. The check itself still runs
// before every board, so a new overwrite or a role's permissions changed
// apply at the next move; only a member's own roles, and whether they are
// still a member, may be that old. A follower whose role was taken, or who
// left the server, thus gets the boards of at most memberRolesFor more:
// boards of the public view, which hides every rank the channel does not
// see, of a channel they saw until then. Fresher word replaces an answer at
// once, for a member already kept: the roles an interaction of the member
// in that server carries, and every answer Discord gives to the bot's
// questions about that member, hasLeft's and the seeks' included, an
// Unknown Member above all, which ends the following at the next board.
// Those questions add no member: most are about members who follow
// nothing (tournament players, seekers), who would fill the store.

// memberRolesFor is how long a member's roles, or their absence from a
// server, are taken as Discord last said (see above).
const memberRolesFor = 5 * time.Minute

// maxMembersKept bounds the members whose roles are kept: when it is
// reached, those older than memberRolesFor go first, else the oldest
// eighth. A member takes about 100 bytes and a few roles' ids.
const maxMembersKept = 4096

// memberRoles keeps the roles of members of servers as Discord last gave
// them, for memberRolesFor; its zero value is empty and ready.
type memberRoles struct {
	mu   sync.Mutex
	kept map[memberKey]keptRoles
}

type memberKey struct{ guild, user string }

type keptRoles struct {
	roles []string  // the member's roles; nil when left
	left  bool      // Discord said the user is not a member of the server
	at    time.Time // when Discord's answer was asked for, or the interaction came
}

// get returns the roles of user in guild as kept at now, or left when
// they are not a member; ok is false when nothing fresh is kept. The
// roles returned are not to be changed.
func (c *memberRoles) get(guild, user string, now time.Time) (roles []string, left, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, found := c.kept[memberKey{guild, user}]
	if !found || !fresh(k, now) {
		return nil, false, false
	}
	return k.roles, k.left, true
}

// fresh reports whether k may still be taken at now: not when the clock
// went back past it.
func fresh(k keptRoles, now time.Time) bool {
	age := now.Sub(k.at)
	return age >= 0 && age < memberRolesFor
}

// put keeps the roles of user in guild (left: that they are not a member),
// as known at at; an answer older than the one kept is dropped, so that a
// slow question does not undo what an interaction said since.
func (c *memberRoles) put(guild, user string, roles []string, left bool, at time.Time) {
	c.keep(guild, user, roles, left, at, true)
}

// refresh is put for a member already kept: an interaction's roles, which
// would otherwise fill the store with members who follow nothing.
func (c *memberRoles) refresh(guild, user string, roles []string, at time.Time) {
	c.keep(guild, user, roles, false, at, false)
}

func (c *memberRoles) keep(guild, user string, roles []string, left bool, at time.Time, add bool) {
	key := memberKey{guild, user}
	k := keptRoles{roles: slices.Clone(roles), left: left, at: at}
	if left {
		k.roles = nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old, found := c.kept[key]
	switch {
	case found && at.Before(old.at):
		return
	case !found && !add:
		return
	case !found && len(c.kept) >= maxMembersKept:
		c.makeRoom(at)
	}
	if c.kept == nil {
		c.kept = map[memberKey]keptRoles{}
	}
	c.kept[key] = k
}

// makeRoom drops what is no longer fresh at now and, if that frees
// nothing, the oldest eighth of the members kept, so that a store full of
// fresh members is not searched again at each new one. The caller holds mu.
func (c *memberRoles) makeRoom(now time.Time) {
	for key, k := range c.kept {
		if !fresh(k, now) {
			delete(c.kept, key)
		}
	}
	if len(c.kept) < maxMembersKept {
		return
	}
	keys := slices.Collect(maps.Keys(c.kept))
	slices.SortFunc(keys, func(a, b memberKey) int { return c.kept[a].at.Compare(c.kept[b].at) })
	for _, key := range keys[:max(1, len(keys)/8)] {
		delete(c.kept, key)
	}
}
