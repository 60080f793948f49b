package discordtest

import (
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// This file holds what happens to a server over time that the bot does not
// control: members leave, moderators delete channels and lock threads,
// threads archive, the bot is removed, the guild goes through an outage.
// Each change is dispatched to the bot as Discord does, and what the bot
// does afterwards is answered as Discord answers it, without failing the
// test: these refusals are part of the world the test built.

// RemoveMember makes a member leave the guild (or be kicked or banned:
// Discord sends the bot the same). The bot gets GUILD_MEMBER_REMOVE if it
// has the GUILD_MEMBERS intent. Afterwards the member is no longer in the
// guild's threads, GET /guilds/{id}/members/{user} and adding them to a
// thread answer 404 with code 10007 Unknown Member, and DMs to them answer
// 403 with code 50007 once they share no guild with the bot. Join brings
// them back. If the member owned the guild, ownership goes back to the
// guild's own owner first.
func (g *Guild) RemoveMember(m *Member) {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	gd := s.guilds[g.ID]
	if m.ID == s.bot.id {
		panic("discordtest: use KickBot to remove the bot from a guild")
	}
	if !hasMember(gd, m.ID) {
		return
	}
	s.dropMember(gd, m.ID)
	data := map[string]any{"guild_id": gd.id, "user": s.userJSON(s.users[m.ID])}
	s.dispatch("GUILD_MEMBER_REMOVE", gd.id, discordgo.IntentGuildMembers, data)
	s.notify()
}

// dropMember removes a user from a guild, its roles and its threads. Call
// with s.mu held.
func (s *Server) dropMember(g *guild, id string) {
	g.members = slices.DeleteFunc(g.members, func(x string) bool { return x == id })
	delete(g.joinedAt, id)
	delete(g.memberRoles, id)
	g.left[id] = true
	if g.ownerID == id {
		g.ownerID = g.formerOwner
	}
	for _, cid := range g.channels {
		delete(s.channels[cid].threadUsers, id)
	}
}

// SetOwner makes a member the guild's owner, who has every permission
// whatever roles and overwrites say; the bot gets GUILD_UPDATE.
func (g *Guild) SetOwner(m *Member) {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	gd := s.guilds[g.ID]
	if !hasMember(gd, m.ID) || m.ID == s.bot.id {
		panic("discordtest: the owner must be a member of the guild other than the bot")
	}
	if gd.formerOwner == "" {
		gd.formerOwner = gd.ownerID
	}
	gd.ownerID = m.ID
	s.dispatchGuildUpdate(gd)
	s.notify()
}

// dispatchGuildUpdate sends GUILD_UPDATE: the guild object without the
// fields only GUILD_CREATE carries. Call with s.mu held.
func (s *Server) dispatchGuildUpdate(g *guild) {
	data := s.guildJSON(g)
	for _, k := range []string{"joined_at", "large", "unavailable", "member_count", "voice_states", "members", "channels", "threads", "presences", "stage_instances", "guild_scheduled_events"} {
		delete(data, k)
	}
	s.dispatch("GUILD_UPDATE", g.id, discordgo.IntentGuilds, data)
}

// Delete deletes a text channel, with its threads, or a thread, as a
// moderator would. The bot gets CHANNEL_DELETE (THREAD_DELETE for a
// thread it could see); from then on every route on the channel answers 404
// with code 10003 Unknown Channel, and members can no longer act there.
func (c *Channel) Delete() {
	s := c.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[c.ID]
	if ch.typ == discordgo.ChannelTypeDM {
		panic("discordtest: a DM cannot be deleted")
	}
	if ch.deleted {
		return
	}
	g := s.guilds[ch.guildID]
	var gone []*channel
	for _, id := range g.channels {
		if x := s.channels[id]; x.id == ch.id || x.parentID == ch.id {
			gone = append(gone, x)
		}
	}
	for _, x := range gone {
		sees := s.botSees(x)
		x.deleted = true
		g.channels = slices.DeleteFunc(g.channels, func(id string) bool { return id == x.id })
		switch {
		case !isThread(x):
			s.dispatch("CHANNEL_DELETE", g.id, discordgo.IntentGuilds, s.channelJSON(x))
		case sees && x == ch:
			s.dispatch("THREAD_DELETE", g.id, discordgo.IntentGuilds, map[string]any{
				"id": x.id, "guild_id": g.id, "parent_id": x.parentID, "type": int(x.typ)})
		}
	}
	s.notify()
}

// DeleteMessage deletes a message in a server's channel, as a moderator
// would. The bot gets MESSAGE_DELETE; from then on editing, reading or
// replying to it answers 404 with code 10008 Unknown Message, which does not
// fail the test.
func (s *Server) DeleteMessage(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[id]
	if m == nil || m.ephemeralTo != "" || s.channels[m.channelID].guildID == "" {
		panic("discordtest: DeleteMessage wants a message of a server's channel")
	}
	if m.deleted {
		return
	}
	m.byModerator = true
	s.deleteStored(m)
	s.notify()
}

// Archive archives a thread, as a moderator (or the clock) would.
// Sending a message in it unarchives it, unless it is locked and the sender
// lacks MANAGE_THREADS; editing messages in it answers 400 with code 50083.
func (c *Channel) Archive() { c.setThread(func(th *channel) { th.archived = true }) }

// Unarchive unarchives a thread.
func (c *Channel) Unarchive() { c.setThread(func(th *channel) { th.archived = false }) }

// Lock locks a thread: only those with MANAGE_THREADS may post in it
// (others get 403 with code 160005 Thread is locked) or unarchive it (for
// others, sending in a locked archived thread answers 400 with code 50083).
func (c *Channel) Lock() { c.setThread(func(th *channel) { th.locked = true }) }

// Unlock unlocks a thread.
func (c *Channel) Unlock() { c.setThread(func(th *channel) { th.locked = false }) }

// setThread changes a thread and tells the bot with THREAD_UPDATE.
func (c *Channel) setThread(change func(*channel)) {
	s := c.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.channels[c.ID]
	if !isThread(th) {
		panic("discordtest: " + c.Name + " is not a thread")
	}
	s.archiveDue()
	wasArchived := th.archived
	change(th)
	now := s.cfg.clock.Now()
	if th.archived != wasArchived {
		th.archivedAt = now
		if !th.archived {
			th.active = now
		}
	}
	s.dispatchThread("THREAD_UPDATE", th)
	s.notify()
}

// Archived reports whether a thread is archived now, by the server's clock.
func (c *Channel) Archived() bool {
	s := c.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	s.archiveDue()
	return s.channels[c.ID].archived
}

// Locked reports whether a thread is locked.
func (c *Channel) Locked() bool {
	s := c.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.channels[c.ID].locked
}

// archiveDue archives the threads whose auto_archive_duration has passed
// since their last activity, by the server's clock, and tells the bot
// (THREAD_UPDATE). The stand-in runs it before every request and member
// action, so a thread archives at the first of them after its time. Call
// with s.mu held.
func (s *Server) archiveDue() {
	now := s.cfg.clock.Now()
	// Only threads archive: a run with thousands of channels and few
	// threads must not walk every channel on every request.
	for _, id := range s.threads {
		th := s.channels[id]
		if th.archived || th.deleted {
			continue
		}
		if due := th.active.Add(time.Duration(th.autoArchive) * time.Minute); !now.Before(due) {
			th.archived, th.archivedAt = true, due
			s.dispatchThread("THREAD_UPDATE", th)
			s.notify()
		}
	}
}

// unarchive brings an archived thread back to life, as sending a message in
// it does. Call with s.mu held.
func (s *Server) unarchive(th *channel) {
	if !th.archived {
		return
	}
	now := s.cfg.clock.Now()
	th.archived, th.archivedAt, th.active = false, now, now
	s.dispatchThread("THREAD_UPDATE", th)
}

// dispatchThread sends a thread event to the bot, if it can see the thread.
// Call with s.mu held.
func (s *Server) dispatchThread(name string, th *channel) {
	if s.botSees(th) {
		s.dispatch(name, th.guildID, discordgo.IntentGuilds, s.channelJSON(th))
	}
}

// threadPostable checks that someone with perms may post in a channel: in
// a locked thread only with MANAGE_THREADS (Discord answers 50083 when the
// thread is also archived, 160005 otherwise). Call with s.mu held; on
// success the caller unarchives the thread when it posts.
func threadPostable(c *channel, perms int64) *apiError {
	if !isThread(c) || !c.locked || perms&permManageThreads != 0 {
		return nil
	}
	if c.archived {
		return refusal(errThreadArchived(), "thread "+c.name+" is locked and archived; only MANAGE_THREADS may unarchive it")
	}
	return refusal(errThreadLocked(), "thread "+c.name+" is locked; only MANAGE_THREADS may post in it")
}

// threadEditable checks that messages of a channel may be edited: not in an
// archived thread, nor in a locked one without MANAGE_THREADS. Call with
// s.mu held.
func threadEditable(c *channel, perms int64) *apiError {
	if !isThread(c) {
		return nil
	}
	if c.archived {
		return refusal(errThreadArchived(), "thread "+c.name+" is archived; send a message in it or unarchive it first")
	}
	if c.locked && perms&permManageThreads == 0 {
		return refusal(errThreadLocked(), "thread "+c.name+" is locked; only MANAGE_THREADS may edit messages in it")
	}
	return nil
}

// KickBot removes the bot from the guild, as an admin kicking it does. The
// bot gets GUILD_DELETE without "unavailable"; from then on the guild is
// missing from READY, requests about its channels answer 403 with code
// 50001 Missing Access, and members can no longer use its commands or
// components there. InviteBot brings it back.
func (g *Guild) KickBot() {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	gd := s.guilds[g.ID]
	if !gd.botIn {
		return
	}
	s.dispatch("GUILD_DELETE", gd.id, discordgo.IntentGuilds, map[string]any{"id": gd.id})
	gd.botIn = false
	s.dropMember(gd, s.bot.id)
	s.notify()
}

// InviteBot adds the bot back to a guild it was kicked from; it gets
// GUILD_CREATE.
func (g *Guild) InviteBot() {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	gd := s.guilds[g.ID]
	if gd.botIn {
		return
	}
	s.joinBot(gd)
	s.notify()
}

// Outage makes the guild unavailable, as during a Discord outage: the bot
// gets GUILD_DELETE with "unavailable": true, a new session's READY lists
// the guild as unavailable and gets no GUILD_CREATE for it, and members
// cannot act in it. EndOutage ends it with GUILD_CREATE. REST requests
// about the guild are still answered.
func (g *Guild) Outage() {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	gd := s.guilds[g.ID]
	if gd.unavailable {
		return
	}
	s.dispatch("GUILD_DELETE", gd.id, discordgo.IntentGuilds, map[string]any{"id": gd.id, "unavailable": true})
	gd.unavailable = true
	s.notify()
}

// EndOutage makes the guild available again; the bot gets GUILD_CREATE.
func (g *Guild) EndOutage() {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	gd := s.guilds[g.ID]
	if !gd.unavailable {
		return
	}
	gd.unavailable = false
	s.dispatchFor("GUILD_CREATE", gd.id, discordgo.IntentGuilds, func(gs *gwSession) any {
		if !gs.ready {
			return nil
		}
		return s.guildJSON(gd)
	})
	s.notify()
}

// botSees reports whether the bot can see a channel: it exists, the bot is
// in its guild, and VIEW_CHANNEL is not denied (a private thread needs
// membership or MANAGE_THREADS). Call with s.mu held.
func (s *Server) botSees(c *channel) bool {
	if c == nil || c.deleted {
		return false
	}
	if c.typ == discordgo.ChannelTypeDM {
		return true
	}
	return s.permissions(s.bot, c)&permViewChannel != 0
}

// sharesGuild reports whether a user is in some guild the bot is in: bots
// can DM only such users. Call with s.mu held.
func (s *Server) sharesGuild(u *user) bool {
	for _, g := range s.guilds {
		if g.botIn && hasMember(g, u.id) {
			return true
		}
	}
	return false
}

// mayAct fails t unless a member could do something needing perms in a
// channel in Discord's client: the channel exists, the guild is available,
// they can see the channel and have perms there. withBot also asks for the
// bot to be in the guild (commands and components). Call with s.mu held.
func (s *Server) mayAct(t TB, u *user, c *channel, need int64, withBot bool, what string) {
	t.Helper()
	switch {
	case u.bot:
		t.Fatalf("discordtest: a test cannot act as the bot (%s)", what)
	case c == nil:
		t.Fatalf("discordtest: %s: no such channel", what)
	case c.deleted:
		t.Fatalf("discordtest: %s: channel %s was deleted", what, c.name)
	}
	if c.guildID != "" {
		g := s.guilds[c.guildID]
		switch {
		case g.unavailable:
			t.Fatalf("discordtest: %s: guild %s is unavailable (Outage); its members cannot act", what, g.name)
		case withBot && !g.botIn:
			t.Fatalf("discordtest: %s: the bot was removed from guild %s (KickBot); its commands and components are gone", what, g.name)
		}
	}
	if !s.canSee(u, c) {
		t.Fatalf("discordtest: %s cannot see channel %s (%s)", u.name, c.name, what)
	}
	if c.guildID != "" {
		if missing := need &^ s.permissions(u, c); missing != 0 {
			t.Fatalf("discordtest: %s lacks %s in channel %s; Discord's client does not let them %s", u.name, permissionList(missing), c.name, what)
		}
	}
}
