package discordtest

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// Permission bits the stand-in acts on; the rest are carried along.
const (
	permAdministrator         int64 = discordgo.PermissionAdministrator
	permViewChannel           int64 = discordgo.PermissionViewChannel
	permSendMessages          int64 = discordgo.PermissionSendMessages
	permSendTTS               int64 = discordgo.PermissionSendTTSMessages
	permManageMessages        int64 = discordgo.PermissionManageMessages
	permAttachFiles           int64 = discordgo.PermissionAttachFiles
	permReadMessageHistory    int64 = discordgo.PermissionReadMessageHistory
	permUseApplicationCommand int64 = discordgo.PermissionUseApplicationCommands
	permManageThreads         int64 = discordgo.PermissionManageThreads
	permCreatePublicThreads   int64 = discordgo.PermissionCreatePublicThreads
	permCreatePrivateThreads  int64 = discordgo.PermissionCreatePrivateThreads
	permSendInThreads         int64 = discordgo.PermissionSendMessagesInThreads

	// permAll is every permission bit Discord defines (bits 0 to 52), what
	// an owner or an administrator has.
	permAll int64 = 1<<53 - 1

	// defaultEveryone is what @everyone may do in a new guild of the
	// stand-in: everything a member of a plain server may do in a text
	// channel (viewing, sending, attaching, threads, history, commands),
	// nothing of a moderator's. The bot too, unless a test takes it away.
	defaultEveryone int64 = 2248473465835073
)

// Overwrite types of Discord's permission_overwrites.
const (
	overwriteRole   = 0
	overwriteMember = 1
)

// role is a guild role; @everyone has the guild's id.
type role struct {
	id, name string
	perms    int64
	position int
	botID    string // the bot's managed role: the bot's user id
}

// overwrite is one entry of a channel's permission_overwrites.
type overwrite struct {
	id          string
	typ         int // overwriteRole or overwriteMember
	allow, deny int64
}

// Role is a role of a guild, @everyone included, as a test sees it.
type Role struct {
	ID      string // snowflake; @everyone's is the guild's id
	Name    string
	GuildID string
	srv     *Server
}

// A Target is what a channel permission overwrite applies to: a *Role
// (Guild.Everyone included) or a *Member (Server.Bot for the bot).
type Target interface {
	overwriteTarget() (id string, typ int)
}

func (r *Role) overwriteTarget() (string, int)   { return r.ID, overwriteRole }
func (m *Member) overwriteTarget() (string, int) { return m.ID, overwriteMember }

// Bot returns the bot user as a *Member, so that a test can give it roles
// and write channel overwrites for it. A test cannot act as the bot:
// Say, SlashCommand and the other actions fail t.
func (s *Server) Bot() *Member {
	return &Member{ID: s.bot.id, Name: s.bot.name, srv: s}
}

// Everyone returns the guild's @everyone role, whose permissions every
// member has. It starts with what members of a plain server may do in text
// channels (view, send, attach files, read history, create and talk in
// threads, use commands) and nothing of a moderator's.
func (g *Guild) Everyone() *Role {
	return &Role{ID: g.ID, Name: "@everyone", GuildID: g.ID, srv: g.srv}
}

// BotRole returns the managed role the bot got on joining the guild
// (WithBotPermissions), or nil when the bot was invited without
// permissions and has no role of its own.
func (g *Guild) BotRole() *Role {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.guilds[g.ID].roles {
		if r.botID != "" {
			return &Role{ID: r.id, Name: r.name, GuildID: g.ID, srv: s}
		}
	}
	return nil
}

// AddRole creates a role with the given permissions (discordgo.Permission*
// bits) above the existing ones; the bot gets GUILD_ROLE_CREATE.
func (g *Guild) AddRole(name string, perms int64) *Role {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	gd := s.guilds[g.ID]
	r := s.addRole(gd, name, perms)
	s.dispatch("GUILD_ROLE_CREATE", g.ID, discordgo.IntentGuilds, map[string]any{"guild_id": g.ID, "role": roleJSON(r)})
	s.notify()
	return &Role{ID: r.id, Name: name, GuildID: g.ID, srv: s}
}

// addRole appends a role to a guild. Call with s.mu held.
func (s *Server) addRole(g *guild, name string, perms int64) *role {
	r := &role{id: s.nextID(), name: name, perms: perms, position: len(g.roles)}
	g.roles = append(g.roles, r)
	return r
}

// SetPermissions replaces the role's permissions (discordgo.Permission*
// bits); the bot gets GUILD_ROLE_UPDATE.
func (r *Role) SetPermissions(perms int64) {
	s := r.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	ro := s.guilds[r.GuildID].role(r.ID)
	ro.perms = perms
	s.dispatch("GUILD_ROLE_UPDATE", r.GuildID, discordgo.IntentGuilds, map[string]any{"guild_id": r.GuildID, "role": roleJSON(ro)})
	s.notify()
}

// Delete deletes the role, as a moderator does in the server's settings:
// its members lose it, and the bot gets GUILD_ROLE_DELETE (and, as on
// Discord, no GUILD_MEMBER_UPDATE for them). @everyone and the bot's
// managed role cannot be deleted: it panics.
func (r *Role) Delete() {
	s := r.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[r.GuildID]
	ro := g.role(r.ID)
	if r.ID == r.GuildID || ro == nil || ro.botID != "" {
		panic(fmt.Sprintf("discordtest: cannot delete role %q: @everyone, the bot's own or no role of the guild", r.Name))
	}
	g.roles = slices.DeleteFunc(g.roles, func(x *role) bool { return x == ro })
	for id, roles := range g.memberRoles {
		g.memberRoles[id] = slices.DeleteFunc(slices.Clone(roles), func(x string) bool { return x == r.ID })
	}
	s.dispatch("GUILD_ROLE_DELETE", r.GuildID, discordgo.IntentGuilds, map[string]any{"guild_id": r.GuildID, "role_id": r.ID})
	s.notify()
}

// GiveRole gives a member (or the bot, Server.Bot) a role of the guild.
// The bot gets GUILD_MEMBER_UPDATE: always when it is about the bot itself,
// else only with the GUILD_MEMBERS intent, as on Discord.
func (g *Guild) GiveRole(m *Member, r *Role) { g.setRole(m, r, true) }

// TakeRole takes a role away from a member (or the bot).
func (g *Guild) TakeRole(m *Member, r *Role) { g.setRole(m, r, false) }

func (g *Guild) setRole(m *Member, r *Role, give bool) {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	gd := s.guilds[g.ID]
	if r.ID == g.ID || gd.role(r.ID) == nil || !hasMember(gd, m.ID) {
		panic(fmt.Sprintf("discordtest: cannot change role %q of %s in guild %s: not a role of the guild or not a member", r.Name, m.Name, g.Name))
	}
	roles := slices.DeleteFunc(slices.Clone(gd.memberRoles[m.ID]), func(id string) bool { return id == r.ID })
	if give {
		roles = append(roles, r.ID)
	}
	gd.memberRoles[m.ID] = roles
	s.dispatchMemberUpdate(gd, s.users[m.ID])
	s.notify()
}

// dispatchMemberUpdate sends GUILD_MEMBER_UPDATE. Call with s.mu held.
func (s *Server) dispatchMemberUpdate(g *guild, u *user) {
	data := s.memberJSON(g, u, nil)
	data["guild_id"] = g.id
	intent := discordgo.IntentGuildMembers
	if u.bot {
		intent = 0 // always sent about the current user
	}
	s.dispatch("GUILD_MEMBER_UPDATE", g.id, intent, data)
}

// SetOverwrite sets the channel's permission overwrite for a role or a
// member, replacing any earlier one for them; the bot gets CHANNEL_UPDATE.
// Threads have no overwrites of their own (they follow their parent
// channel's), so calling it on a thread panics.
func (c *Channel) SetOverwrite(t Target, allow, deny int64) {
	c.overwrite(t, &overwrite{allow: allow, deny: deny})
}

// RemoveOverwrite removes the channel's overwrite for a role or a member.
func (c *Channel) RemoveOverwrite(t Target) { c.overwrite(t, nil) }

func (c *Channel) overwrite(t Target, ow *overwrite) {
	s := c.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[c.ID]
	if ch.typ != discordgo.ChannelTypeGuildText && ch.typ != discordgo.ChannelTypeGuildNews && ch.typ != discordgo.ChannelTypeGuildForum {
		panic("discordtest: permission overwrites belong to guild text channels and forums; threads follow their parent's")
	}
	id, typ := t.overwriteTarget()
	ch.overwrites = slices.DeleteFunc(ch.overwrites, func(o overwrite) bool { return o.id == id })
	if ow != nil {
		ow.id, ow.typ = id, typ
		ch.overwrites = append(ch.overwrites, *ow)
	}
	s.dispatch("CHANNEL_UPDATE", ch.guildID, discordgo.IntentGuilds, s.channelJSON(ch))
	s.notify()
}

// PermissionsOf returns what a member (or the bot, Server.Bot) may do in
// the channel, computed as Discord does; 0 when they are not in its guild
// or cannot see it (a private thread they are not in). In a DM it returns
// what anyone may do there.
func (c *Channel) PermissionsOf(m *Member) int64 {
	s := c.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.permissions(s.users[m.ID], s.channels[c.ID])
}

// role finds a role of the guild by id.
func (g *guild) role(id string) *role {
	for _, r := range g.roles {
		if r.id == id {
			return r
		}
	}
	return nil
}

// basePermissions computes a member's guild-wide permissions the way
// Discord documents it: everything for the owner, else @everyone's
// permissions and those of every role of theirs, everything again with
// ADMINISTRATOR. Call with s.mu held.
func (s *Server) basePermissions(g *guild, u *user) int64 {
	if !hasMember(g, u.id) {
		return 0
	}
	if g.ownerID == u.id {
		return permAll
	}
	perms := g.roles[0].perms
	for _, id := range g.memberRoles[u.id] {
		if r := g.role(id); r != nil {
			perms |= r.perms
		}
	}
	if perms&permAdministrator != 0 {
		return permAll
	}
	return perms
}

// permissions computes what a user may do in a channel: the base
// permissions, then the overwrites of the channel (a thread's parent) in
// Discord's order: @everyone's, the member's roles' (all denies, then all
// allows), the member's own. A private thread is invisible to those who are
// not in it and lack MANAGE_THREADS. Call with s.mu held.
func (s *Server) permissions(u *user, c *channel) int64 {
	if c == nil || u == nil {
		return 0
	}
	if c.typ == discordgo.ChannelTypeDM {
		return defaultEveryone
	}
	g := s.guilds[c.guildID]
	if g == nil || (u.bot && !g.botIn) {
		return 0
	}
	base := s.basePermissions(g, u)
	if base&permAdministrator != 0 {
		return permAll
	}
	target := c
	if isThread(c) {
		target = s.channels[c.parentID]
	}
	perms := base
	var everyone, member *overwrite
	var roleAllow, roleDeny int64
	mine := g.memberRoles[u.id]
	for i := range target.overwrites {
		o := &target.overwrites[i]
		switch {
		case o.typ == overwriteRole && o.id == g.id:
			everyone = o
		case o.typ == overwriteRole && slices.Contains(mine, o.id):
			roleAllow |= o.allow
			roleDeny |= o.deny
		case o.typ == overwriteMember && o.id == u.id:
			member = o
		}
	}
	if everyone != nil {
		perms = perms&^everyone.deny | everyone.allow
	}
	perms = perms&^roleDeny | roleAllow
	if member != nil {
		perms = perms&^member.deny | member.allow
	}
	if c.typ == discordgo.ChannelTypeGuildPrivateThread && !c.threadUsers[u.id] && perms&permManageThreads == 0 {
		perms &^= permViewChannel
	}
	return perms
}

// isThread reports whether a channel is a thread.
func isThread(c *channel) bool {
	switch c.typ {
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread, discordgo.ChannelTypeGuildNewsThread:
		return true
	}
	return false
}

// sendPermission is the permission that lets one post in a channel:
// SEND_MESSAGES_IN_THREADS in threads, where SEND_MESSAGES has no effect.
func sendPermission(c *channel) int64 {
	if isThread(c) {
		return permSendInThreads
	}
	return permSendMessages
}

// permissionNames names the bits the stand-in checks, for failure messages.
var permissionNames = []struct {
	bit  int64
	name string
}{
	{permViewChannel, "VIEW_CHANNEL"}, {permSendMessages, "SEND_MESSAGES"}, {permSendTTS, "SEND_TTS_MESSAGES"},
	{permManageMessages, "MANAGE_MESSAGES"}, {permAttachFiles, "ATTACH_FILES"},
	{permReadMessageHistory, "READ_MESSAGE_HISTORY"}, {permUseApplicationCommand, "USE_APPLICATION_COMMANDS"},
	{permManageThreads, "MANAGE_THREADS"}, {permCreatePublicThreads, "CREATE_PUBLIC_THREADS"},
	{permCreatePrivateThreads, "CREATE_PRIVATE_THREADS"}, {permSendInThreads, "SEND_MESSAGES_IN_THREADS"},
}

// permissionList names the bits of a permission set the stand-in knows.
func permissionList(perms int64) string {
	out := ""
	for _, p := range permissionNames {
		if perms&p.bit != 0 {
			if out != "" {
				out += ", "
			}
			out += p.name
		}
	}
	if out == "" {
		return strconv.FormatInt(perms, 10)
	}
	return out
}

// botMay checks that the bot may do something needing perms in a channel
// it can see, and answers as Discord does when it may not: 403 with code
// 50013 Missing Permissions. A refusal the test's world explains does not
// fail the test. Call with s.mu held.
func (s *Server) botMay(c *channel, need int64, what string) *apiError {
	if c.guildID == "" {
		return nil
	}
	if missing := need &^ s.permissions(s.bot, c); missing != 0 {
		return refusal(errMissingPermissions(), fmt.Sprintf("%s needs %s in channel %s", what, permissionList(missing), c.name))
	}
	return nil
}

// refusal marks an answer as one the test's world explains (permissions
// the test set, a member who left, a channel it deleted), so that it does
// not fail the test, and says why.
func refusal(e *apiError, detail string) *apiError {
	e.expected, e.detail = true, detail
	return e
}

// roleJSON renders a role object.
func roleJSON(r *role) map[string]any {
	obj := map[string]any{
		"id": r.id, "name": r.name, "permissions": strconv.FormatInt(r.perms, 10), "position": r.position,
		"color": 0, "colors": map[string]any{"primary_color": 0, "secondary_color": nil, "tertiary_color": nil},
		"hoist": false, "managed": r.botID != "", "mentionable": false, "flags": 0, "icon": nil, "unicode_emoji": nil,
	}
	if r.botID != "" {
		obj["tags"] = map[string]any{"bot_id": r.botID}
	}
	return obj
}

// overwritesJSON renders a channel's permission_overwrites.
func overwritesJSON(list []overwrite) []any {
	out := []any{}
	for _, o := range list {
		out = append(out, map[string]any{
			"id": o.id, "type": o.typ, "allow": strconv.FormatInt(o.allow, 10), "deny": strconv.FormatInt(o.deny, 10),
		})
	}
	return out
}
