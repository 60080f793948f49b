package discordtest

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// withMembersIntent asks for GUILD_MEMBERS on top of discordgo's default
// intents; the server must allow it with WithPrivilegedIntents.
func withMembersIntent(log *eventLog) func(*discordgo.Session) {
	return func(s *discordgo.Session) {
		s.Identify.Intents |= discordgo.IntentGuildMembers
		log.attach(s)
	}
}

// noFailures fails t if the stand-in failed the recorded test.
func noFailures(t *testing.T, rec *recorder) {
	t.Helper()
	if f := rec.failures(); len(f) != 0 {
		t.Errorf("refusals of the test's world failed the test: %q", f)
	}
}

// TestMemberLeaves checks GUILD_MEMBER_ADD and GUILD_MEMBER_REMOVE (with
// the GUILD_MEMBERS intent only) and what the bot gets about a member who
// left: 10007 Unknown Member, and 50007 for DMs once no guild is shared.
func TestMemberLeaves(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	var log eventLog
	w := newWorld(rec, withMembersIntent(&log), WithPrivilegedIntents(discordgo.IntentGuildMembers))
	s, ch := w.sess, w.guild.General()
	start, err := s.ChannelMessageSend(ch.ID, "a game")
	if err != nil {
		t.Fatal(err)
	}
	th, err := s.MessageThreadStart(ch.ID, start.ID, "a game", 60)
	if err != nil {
		t.Fatal(err)
	}
	dm, err := s.UserChannelCreate(w.bob.ID)
	if err != nil {
		t.Fatal(err)
	}

	w.guild.RemoveMember(w.bob)
	gone := log.wait(t, w.srv, "GUILD_MEMBER_REMOVE", nil)
	if user, _ := gone["user"].(map[string]any); gone["guild_id"] != w.guild.ID || user["id"] != w.bob.ID {
		t.Errorf("GUILD_MEMBER_REMOVE %v", gone)
	}
	if _, err := s.GuildMember(w.guild.ID, w.bob.ID); restCode(err) != discordgo.ErrCodeUnknownMember {
		t.Errorf("member who left: %v", err)
	}
	if err := s.ThreadMemberAdd(th.ID, w.bob.ID); restCode(err) != discordgo.ErrCodeUnknownMember {
		t.Errorf("adding a member who left to a thread: %v", err)
	}
	if _, err := s.ChannelMessageSend(dm.ID, "your move"); restCode(err) != discordgo.ErrCodeCannotSendMessagesToThisUser {
		t.Errorf("DM to a member with no guild in common: %v", err)
	}
	if ch.PermissionsOf(w.bob) != 0 || len(w.bob.Messages(ch)) != 0 {
		t.Errorf("bob still sees general")
	}
	if got := fatal(t, func(tb testing.TB) { w.bob.Say(tb, ch, "hi") }); len(got) != 1 || !strings.Contains(got[0], "cannot see") {
		t.Errorf("bob writes after leaving: %q", got)
	}

	w.guild.Join(w.bob)
	back := log.wait(t, w.srv, "GUILD_MEMBER_ADD", nil)
	if user, _ := back["user"].(map[string]any); back["guild_id"] != w.guild.ID || user["id"] != w.bob.ID {
		t.Errorf("GUILD_MEMBER_ADD %v", back)
	}
	if _, err := s.ChannelMessageSend(dm.ID, "welcome back"); err != nil {
		t.Errorf("DM after joining again: %v", err)
	}
	noFailures(t, rec)

	// Never a member: still a mistake of the bot, which fails the test.
	if _, err := s.GuildMember(w.guild.ID, "1234567890123"); restCode(err) != discordgo.ErrCodeUnknownMember {
		t.Errorf("a user who was never a member: %v", err)
	}
	rec.wantFailure(t, "Unknown Member")
}

// TestMemberEventsNeedIntent checks that a bot without GUILD_MEMBERS is not
// told who left.
func TestMemberEventsNeedIntent(t *testing.T) {
	t.Parallel()
	var log eventLog
	w := newWorld(t, log.attach)
	w.guild.RemoveMember(w.bob)
	w.alice.Say(t, w.guild.General(), "after bob left")
	log.wait(t, w.srv, "MESSAGE_CREATE", nil)
	if got := log.find("GUILD_MEMBER_REMOVE", nil); len(got) != 0 {
		t.Errorf("GUILD_MEMBER_REMOVE without the intent: %v", got)
	}
}

// TestChannelDeleted checks CHANNEL_DELETE and 10003 afterwards, for the
// channel, its threads, and an interaction answered after the deletion.
func TestChannelDeleted(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	var log eventLog
	proceed := make(chan struct{})
	answered := make(chan error, 1)
	w := newWorld(rec, func(s *discordgo.Session) {
		log.attach(s)
		s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			<-proceed
			answered <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: 4, Data: content("too late")})
		})
	}, WithResponseDeadline(time.Second))
	s := w.sess
	games := w.guild.AddChannel("games")
	start, err := s.ChannelMessageSend(games.ID, "a game")
	if err != nil {
		t.Fatal(err)
	}
	th, err := s.MessageThreadStart(games.ID, start.ID, "a game", 60)
	if err != nil {
		t.Fatal(err)
	}
	in := w.alice.SlashCommand(t, games, "stratego board")

	games.Delete()
	close(proceed)
	if err := <-answered; restCode(err) != discordgo.ErrCodeUnknownChannel {
		t.Errorf("answering an interaction of a deleted channel: %v", err)
	}
	deleted := log.wait(t, w.srv, "CHANNEL_DELETE", nil)
	if deleted["id"] != games.ID || deleted["guild_id"] != w.guild.ID {
		t.Errorf("CHANNEL_DELETE %v", deleted)
	}
	for _, id := range []string{games.ID, th.ID} {
		if _, err := s.ChannelMessageSend(id, "move"); restCode(err) != discordgo.ErrCodeUnknownChannel {
			t.Errorf("posting in deleted channel %s: %v", id, err)
		}
		if _, err := s.Channel(id); restCode(err) != discordgo.ErrCodeUnknownChannel {
			t.Errorf("reading deleted channel %s: %v", id, err)
		}
	}
	if len(w.guild.General().Threads()) != 0 || len(games.Threads()) != 0 {
		t.Errorf("threads of a deleted channel are still listed")
	}
	if got := fatal(t, func(tb testing.TB) { w.alice.Say(tb, games, "hi") }); len(got) != 1 || !strings.Contains(got[0], "was deleted") {
		t.Errorf("writing in a deleted channel: %q", got)
	}
	if r := in.Wait(t); !r.Failed {
		t.Errorf("the interaction did not fail: %+v", r)
	}
	noFailures(t, rec)
}

// TestThreadArchiving checks that threads archive after their
// auto_archive_duration of inactivity by the server's clock, what posting
// and editing in archived and locked threads answer, and what members can
// do there.
func TestThreadArchiving(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	clock := NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	var log eventLog
	w := newWorld(rec, log.attach, WithClock(clock))
	s, ch := w.sess, w.guild.General()
	start, err := s.ChannelMessageSend(ch.ID, "alice vs bob")
	if err != nil {
		t.Fatal(err)
	}
	th, err := s.MessageThreadStart(ch.ID, start.ID, "alice vs bob", 60)
	if err != nil {
		t.Fatal(err)
	}
	thread := w.srv.Channel(th.ID)
	board, err := s.ChannelMessageSend(th.ID, "board")
	if err != nil {
		t.Fatal(err)
	}
	archived := func(want bool) func(map[string]any) bool {
		return func(d map[string]any) bool {
			meta, _ := d["thread_metadata"].(map[string]any)
			return d["id"] == th.ID && meta["archived"] == want
		}
	}

	// Activity keeps it open: 59 minutes, a message, 59 more.
	clock.Advance(59 * time.Minute)
	w.alice.Say(t, thread, "thinking")
	clock.Advance(59 * time.Minute)
	if thread.Archived() {
		t.Fatal("archived 59 minutes after the last message")
	}
	clock.Advance(2 * time.Minute)
	if !thread.Archived() {
		t.Fatal("not archived an hour after the last message")
	}
	log.wait(t, w.srv, "THREAD_UPDATE", archived(true))

	// Editing in an archived thread is refused; posting unarchives it.
	if _, err := s.ChannelMessageEdit(th.ID, board.ID, "board, edited"); restCode(err) != 50083 {
		t.Errorf("edit in an archived thread: %v", err)
	}
	if _, err := s.ChannelMessageSend(th.ID, "your move"); err != nil {
		t.Fatalf("post in an archived thread: %v", err)
	}
	log.wait(t, w.srv, "THREAD_UPDATE", archived(false))
	if thread.Archived() {
		t.Error("posting did not unarchive the thread")
	}

	// A locked thread takes posts only from MANAGE_THREADS.
	thread.Lock()
	if _, err := s.ChannelMessageSend(th.ID, "move"); restCode(err) != 160005 {
		t.Errorf("post in a locked thread: %v", err)
	}
	if got := fatal(t, func(tb testing.TB) { w.bob.Say(tb, thread, "hi") }); len(got) != 1 || !strings.Contains(got[0], "locked") {
		t.Errorf("bob writes in a locked thread: %q", got)
	}
	thread.Archive()
	if _, err := s.ChannelMessageSend(th.ID, "move"); restCode(err) != 50083 {
		t.Errorf("post in a locked, archived thread: %v", err)
	}
	unarchive := false
	if _, err := s.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: &unarchive}); restCode(err) != discordgo.ErrCodeMissingPermissions {
		t.Errorf("unarchiving a locked thread without MANAGE_THREADS: %v", err)
	}
	mods := w.guild.AddRole("mods", discordgo.PermissionManageThreads)
	w.guild.GiveRole(w.srv.Bot(), mods)
	if _, err := s.ChannelMessageSend(th.ID, "the game goes on"); err != nil {
		t.Errorf("a moderator posts in a locked, archived thread: %v", err)
	}
	if thread.Archived() || !thread.Locked() {
		t.Errorf("after a moderator's post: archived %v, locked %v; want active and locked", thread.Archived(), thread.Locked())
	}

	// Unlocked and archived again: the bot unarchives it by editing the
	// thread, and a member by writing in it.
	thread.Unlock()
	w.guild.TakeRole(w.srv.Bot(), mods)
	thread.Archive()
	if got, err := s.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: &unarchive}); err != nil || got.ThreadMetadata.Archived {
		t.Errorf("unarchiving by an edit: %+v, %v", got, err)
	}
	thread.Archive()
	w.bob.Say(t, thread, "back")
	if thread.Archived() {
		t.Error("a member's message did not unarchive the thread")
	}
	noFailures(t, rec)
}

// TestForum checks a forum channel: it takes no message of its own (400,
// 50008), nor a member's or a command there; a member opens a post, a
// public thread of the forum with the member's first message, whose
// permissions are the forum's and in which the bot posts as in any thread.
func TestForum(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	var log eventLog
	w := newWorld(rec, log.attach)
	s := w.sess
	forum := w.guild.AddForum("matches")
	log.wait(t, w.srv, "CHANNEL_CREATE", func(d map[string]any) bool {
		return d["id"] == forum.ID && d["type"] == float64(discordgo.ChannelTypeGuildForum)
	})
	if c, err := s.Channel(forum.ID); err != nil || c.Type != discordgo.ChannelTypeGuildForum {
		t.Errorf("the forum: %+v, %v", c, err)
	}
	if _, err := s.ChannelMessageSend(forum.ID, "hello"); restCode(err) != discordgo.ErrCodeCannotSendMessagesInVoiceChannel {
		t.Errorf("a message in a forum: %v", err)
	}
	if got := fatal(t, func(tb testing.TB) { w.alice.Say(tb, forum, "hi") }); len(got) != 1 || !strings.Contains(got[0], "open a post") {
		t.Errorf("alice writes in a forum: %q", got)
	}
	post := w.alice.OpenPost(t, forum, "alice vs bob", "who plays?")
	log.wait(t, w.srv, "THREAD_CREATE", func(d map[string]any) bool {
		return d["id"] == post.ID && d["parent_id"] == forum.ID && d["owner_id"] == w.alice.ID
	})
	c, err := s.Channel(post.ID)
	if err != nil || c.Type != discordgo.ChannelTypeGuildPublicThread || c.ParentID != forum.ID {
		t.Fatalf("the post: %+v, %v", c, err)
	}
	if first, err := s.ChannelMessage(post.ID, post.ID); err != nil || first.Content != "who plays?" || first.Author.ID != w.alice.ID {
		t.Errorf("the post's first message: %+v, %v", first, err)
	}
	if _, err := s.ChannelMessageSend(post.ID, "board"); err != nil {
		t.Errorf("the bot posts in a post: %v", err)
	}
	forum.SetOverwrite(w.srv.Bot(), 0, discordgo.PermissionSendMessagesInThreads)
	if _, err := s.ChannelMessageSend(post.ID, "board"); restCode(err) != discordgo.ErrCodeMissingPermissions {
		t.Errorf("a post without Send Messages in Threads in its forum: %v", err)
	}
	noFailures(t, rec)
}

// TestInteractionInLockedThread checks Discord's answer to an interaction
// in a locked, archived thread: the command reaches the bot, its answer is
// refused with 50083 and the member is left with a failed command, without
// the stand-in blaming the bot.
func TestInteractionInLockedThread(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	answered := make(chan error, 1)
	w := newWorld(rec, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			answered <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: 4, Data: content("board")})
		})
	}, WithResponseDeadline(500*time.Millisecond))
	start, err := w.sess.ChannelMessageSend(w.guild.General().ID, "a game")
	if err != nil {
		t.Fatal(err)
	}
	th, err := w.sess.MessageThreadStart(w.guild.General().ID, start.ID, "a game", 60)
	if err != nil {
		t.Fatal(err)
	}
	thread := w.srv.Channel(th.ID)
	thread.Lock()
	thread.Archive()
	in := w.alice.SlashCommand(t, thread, "stratego board")
	if err := <-answered; restCode(err) != 50083 {
		t.Errorf("answer in a locked, archived thread: %v", err)
	}
	if r := in.Wait(t); !r.Failed || r.Error != DidNotRespond {
		t.Errorf("the member sees %+v", r)
	}
	noFailures(t, rec)
}

// TestBotKicked checks GUILD_DELETE without "unavailable", Missing Access
// afterwards, READY without the guild, and an invitation back.
func TestBotKicked(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	var log eventLog
	w := newWorld(rec, log.attach)
	s, ch := w.sess, w.guild.General()
	other := w.srv.AddGuild("Other Club")
	if g, err := s.Guild(w.guild.ID); err != nil || g.ID != w.guild.ID {
		t.Errorf("reading the guild: %v, %v", g, err)
	}

	w.guild.KickBot()
	gone := log.wait(t, w.srv, "GUILD_DELETE", nil)
	if _, has := gone["unavailable"]; gone["id"] != w.guild.ID || has {
		t.Errorf("GUILD_DELETE %v; want the id without unavailable", gone)
	}
	if _, err := s.ChannelMessageSend(ch.ID, "move"); restCode(err) != discordgo.ErrCodeMissingAccess {
		t.Errorf("posting after being kicked: %v", err)
	}
	if _, err := s.GuildMember(w.guild.ID, w.alice.ID); restCode(err) != discordgo.ErrCodeMissingAccess {
		t.Errorf("reading a member after being kicked: %v", err)
	}
	if _, err := s.Guild(w.guild.ID); restCode(err) != discordgo.ErrCodeMissingAccess {
		t.Errorf("reading the guild after being kicked: %v", err)
	}
	if got := fatal(t, func(tb testing.TB) { w.alice.SlashCommand(tb, ch, "stratego board") }); len(got) != 1 || !strings.Contains(got[0], "KickBot") {
		t.Errorf("a command where the bot was kicked: %q", got)
	}
	fresh := w.srv.OpenSession(t)
	fresh.State.RLock()
	guilds := len(fresh.State.Guilds)
	first := fresh.State.Guilds[0].ID
	fresh.State.RUnlock()
	if guilds != 1 || first != other.ID {
		t.Errorf("a new session has %d guilds (first %s), want only %s", guilds, first, other.ID)
	}

	// Nothing of the guild reaches the bot while it is out.
	w.guild.AddRole("while away", 0)
	ch.SetOverwrite(w.guild.Everyone(), 0, discordgo.PermissionAttachFiles)
	w.alice.Say(t, ch, "while away")
	w.guild.InviteBot()
	log.waitCount(t, w.srv, "GUILD_CREATE", 2, func(d map[string]any) bool { return d["id"] == w.guild.ID })
	for _, name := range []string{"GUILD_ROLE_CREATE", "CHANNEL_UPDATE", "MESSAGE_CREATE"} {
		if got := log.find(name, func(d map[string]any) bool { return d["guild_id"] == w.guild.ID || d["id"] == ch.ID }); len(got) != 0 {
			t.Errorf("%s while the bot was out: %v", name, got)
		}
	}
	if _, err := s.ChannelMessageSend(ch.ID, "back"); err != nil {
		t.Errorf("posting after the invitation: %v", err)
	}
	noFailures(t, rec)
}

// TestGuildOutage checks GUILD_DELETE with unavailable, a session started
// during the outage, and GUILD_CREATE when it ends.
func TestGuildOutage(t *testing.T) {
	t.Parallel()
	var log eventLog
	w := newWorld(t, log.attach)
	w.guild.Outage()
	down := log.wait(t, w.srv, "GUILD_DELETE", nil)
	if down["id"] != w.guild.ID || down["unavailable"] != true {
		t.Errorf("GUILD_DELETE %v; want unavailable true", down)
	}
	if got := fatal(t, func(tb testing.TB) { w.alice.Say(tb, w.guild.General(), "hi") }); len(got) != 1 || !strings.Contains(got[0], "unavailable") {
		t.Errorf("a member acts during an outage: %q", got)
	}
	if g, err := w.sess.Guild(w.guild.ID); err != nil || g.ID != w.guild.ID {
		t.Errorf("reading the guild during an outage: %v, %v", g, err)
	}
	w.guild.AddRole("during the outage", 0)
	var fresh eventLog
	sess := w.srv.NewSession(t)
	fresh.attach(sess)
	if err := sess.Open(); err != nil {
		t.Fatal(err)
	}
	ready := fresh.wait(t, w.srv, "READY", nil)
	if list, _ := ready["guilds"].([]any); len(list) != 1 {
		t.Errorf("READY guilds %v", ready["guilds"])
	}

	w.guild.EndOutage()
	// The first session's second GUILD_CREATE, the new session's first.
	isUp := func(d map[string]any) bool { return d["id"] == w.guild.ID && d["unavailable"] == false }
	log.waitCount(t, w.srv, "GUILD_CREATE", 2, isUp)
	fresh.waitCount(t, w.srv, "GUILD_CREATE", 1, isUp)
	if got := fresh.find("GUILD_CREATE", nil); len(got) != 1 {
		t.Errorf("the session started during the outage got %d GUILD_CREATE, want 1 (after it)", len(got))
	}
	if got := log.find("GUILD_ROLE_CREATE", nil); len(got) != 0 {
		t.Errorf("GUILD_ROLE_CREATE during the outage: %v", got)
	}
	w.alice.Say(t, w.guild.General(), "back")
}
