package discordtest

import (
	"bytes"
	"fmt"
	"image/color"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Permission sets the tests use.
const (
	view    = discordgo.PermissionViewChannel
	send    = discordgo.PermissionSendMessages
	attach  = discordgo.PermissionAttachFiles
	history = discordgo.PermissionReadMessageHistory
)

// TestPermissionOrder checks the computation of a member's permissions in
// a channel against the rules of Discord's documentation, one rule a row:
// base permissions from @everyone and roles, ADMINISTRATOR and the owner,
// then the overwrites of @everyone, of the member's roles (denies, then
// allows) and of the member, and threads following their parent.
func TestPermissionOrder(t *testing.T) {
	t.Parallel()
	type world struct {
		g       *Guild
		ch      *Channel
		bob     *Member
		a, b    *Role // roles bob has
		other   *Role // a role bob does not have
		private *Channel
	}
	tests := []struct {
		name    string
		setup   func(w world)
		where   func(w world) *Channel
		want    int64 // bits that must be set
		without int64 // bits that must be clear
		exact   int64 // if not 0: the whole set
		nothing bool  // no permission at all
	}{
		{name: "@everyone's permissions by default", exact: defaultEveryone},
		{name: "roles add to @everyone", setup: func(w world) {
			w.g.Everyone().SetPermissions(0)
			w.a.SetPermissions(view | send)
		}, exact: view | send},
		{name: "ADMINISTRATOR has everything", setup: func(w world) {
			w.a.SetPermissions(discordgo.PermissionAdministrator)
			w.ch.SetOverwrite(w.bob, 0, view|send)
		}, exact: permAll},
		{name: "the owner has everything", setup: func(w world) {
			w.g.SetOwner(w.bob)
			w.ch.SetOverwrite(w.g.Everyone(), 0, view)
		}, exact: permAll},
		{name: "@everyone's overwrite denies", setup: func(w world) {
			w.ch.SetOverwrite(w.g.Everyone(), 0, send)
		}, want: view, without: send},
		{name: "a role's allow beats @everyone's deny", setup: func(w world) {
			w.ch.SetOverwrite(w.g.Everyone(), 0, send)
			w.ch.SetOverwrite(w.a, send, 0)
		}, want: send},
		{name: "one role's allow beats another role's deny", setup: func(w world) {
			w.ch.SetOverwrite(w.a, 0, send)
			w.ch.SetOverwrite(w.b, send, 0)
		}, want: send},
		{name: "a role bob lacks does not count", setup: func(w world) {
			w.ch.SetOverwrite(w.other, 0, send)
		}, want: send},
		{name: "the member's deny beats a role's allow", setup: func(w world) {
			w.ch.SetOverwrite(w.a, send, 0)
			w.ch.SetOverwrite(w.bob, 0, send)
		}, without: send},
		{name: "the member's allow beats @everyone's deny", setup: func(w world) {
			w.ch.SetOverwrite(w.g.Everyone(), 0, view)
			w.ch.SetOverwrite(w.bob, view, 0)
		}, want: view},
		{name: "removing an overwrite restores", setup: func(w world) {
			w.ch.SetOverwrite(w.bob, 0, send)
			w.ch.RemoveOverwrite(w.bob)
		}, want: send},
		{name: "a thread follows its parent's overwrites", setup: func(w world) {
			w.ch.SetOverwrite(w.b, 0, discordgo.PermissionSendMessagesInThreads)
		}, where: func(w world) *Channel { return w.private }, want: view, without: discordgo.PermissionSendMessagesInThreads},
		{name: "a private thread is hidden from those not in it", setup: func(w world) {
			w.private.srv.mu.Lock()
			delete(w.private.srv.channels[w.private.ID].threadUsers, w.bob.ID)
			w.private.srv.mu.Unlock()
		}, where: func(w world) *Channel { return w.private }, without: view},
		{name: "MANAGE_THREADS sees private threads", setup: func(w world) {
			w.private.srv.mu.Lock()
			delete(w.private.srv.channels[w.private.ID].threadUsers, w.bob.ID)
			w.private.srv.mu.Unlock()
			w.a.SetPermissions(discordgo.PermissionManageThreads)
		}, where: func(w world) *Channel { return w.private }, want: view},
		{name: "a deleted role counts no more", setup: func(w world) {
			w.g.Everyone().SetPermissions(view)
			w.a.SetPermissions(send)
			w.a.Delete()
		}, exact: view},
		{name: "a member who left has nothing", setup: func(w world) {
			w.g.RemoveMember(w.bob)
		}, nothing: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, nil)
			x := world{g: w.guild, ch: w.guild.General(), bob: w.bob}
			x.a, x.b, x.other = w.guild.AddRole("a", 0), w.guild.AddRole("b", 0), w.guild.AddRole("other", 0)
			w.guild.GiveRole(w.bob, x.a)
			w.guild.GiveRole(w.bob, x.b)
			th, err := w.sess.ThreadStartComplex(x.ch.ID, &discordgo.ThreadStart{Name: "p", Type: discordgo.ChannelTypeGuildPrivateThread})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.sess.ThreadMemberAdd(th.ID, w.bob.ID); err != nil {
				t.Fatal(err)
			}
			x.private = w.srv.Channel(th.ID)
			if tc.setup != nil {
				tc.setup(x)
			}
			where := x.ch
			if tc.where != nil {
				where = tc.where(x)
			}
			got := where.PermissionsOf(w.bob)
			switch {
			case tc.nothing && got != 0:
				t.Errorf("permissions %d, want none", got)
			case tc.exact != 0 && got != tc.exact:
				t.Errorf("permissions %d, want %d", got, tc.exact)
			case got&tc.want != tc.want || got&tc.without != 0:
				t.Errorf("permissions %s; want %s set and %s clear", permissionList(got), permissionList(tc.want), permissionList(tc.without))
			}
		})
	}
}

// TestStateAgreesWithModel checks that what the bot learns over the
// gateway (roles, overwrites, its own roles, the owner) lets discordgo
// compute the same permissions as the stand-in enforces, after every kind
// of change.
func TestStateAgreesWithModel(t *testing.T) {
	t.Parallel()
	// discordgo updates its state before it calls handlers, and its
	// UserChannelPermissions reads the state without a lock: the test
	// reads only once the handler of the last event of a step has run.
	seen := make(chan string, 8)
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(func(_ *discordgo.Session, _ *discordgo.GuildRoleCreate) { seen <- "GUILD_ROLE_CREATE" })
		s.AddHandler(func(_ *discordgo.Session, _ *discordgo.GuildRoleUpdate) { seen <- "GUILD_ROLE_UPDATE" })
		s.AddHandler(func(_ *discordgo.Session, _ *discordgo.GuildRoleDelete) { seen <- "GUILD_ROLE_DELETE" })
		s.AddHandler(func(_ *discordgo.Session, _ *discordgo.ChannelUpdate) { seen <- "CHANNEL_UPDATE" })
		s.AddHandler(func(_ *discordgo.Session, _ *discordgo.GuildMemberUpdate) { seen <- "GUILD_MEMBER_UPDATE" })
	}, WithBotPermissions(view|send|discordgo.PermissionEmbedLinks))
	ch, bot := w.guild.General(), w.srv.Bot()
	agree := func(step string, events ...string) {
		t.Helper()
		var got []string // handlers run concurrently, in any order
		for range events {
			select {
			case e := <-seen:
				got = append(got, e)
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: got %v of the events %v", step, got, events)
			}
		}
		if slices.Sort(got); !slices.Equal(got, events) {
			t.Fatalf("%s: events %v, want %v", step, got, events)
		}
		want := ch.PermissionsOf(bot)
		perms, err := w.sess.State.UserChannelPermissions(w.srv.BotID(), ch.ID)
		if err != nil || perms != want {
			t.Errorf("%s: discordgo computes %d (%v), the stand-in %d", step, perms, err, want)
		}
	}
	w.srv.WaitFor(t, "general in discordgo's state", func() bool {
		_, err := w.sess.State.Channel(ch.ID)
		return err == nil
	})
	agree("GUILD_CREATE")
	w.guild.Everyone().SetPermissions(0)
	agree("@everyone's permissions changed", "GUILD_ROLE_UPDATE")
	if w.guild.BotRole() == nil {
		t.Fatal("no managed role for a bot invited with permissions")
	}
	w.guild.BotRole().SetPermissions(view | send | attach)
	agree("the bot's role changed", "GUILD_ROLE_UPDATE")
	ch.SetOverwrite(w.guild.BotRole(), 0, attach)
	agree("a role overwrite", "CHANNEL_UPDATE")
	mod := w.guild.AddRole("moderator", discordgo.PermissionManageThreads)
	w.guild.GiveRole(bot, mod)
	agree("a new role for the bot", "GUILD_MEMBER_UPDATE", "GUILD_ROLE_CREATE") // sorted
	ch.SetOverwrite(bot, attach, 0)
	agree("a member overwrite", "CHANNEL_UPDATE")
	mod.Delete()
	agree("the bot's new role deleted", "GUILD_ROLE_DELETE")
}

// TestBotRefusals checks what the bot's requests answer under each kind of
// missing permission: Discord's status and code, nothing posted, and no
// test failure, since the test's world explains the refusal.
func TestBotRefusals(t *testing.T) {
	t.Parallel()
	png := pngOf(t, 2, 2, color.Black)
	file := func() []*discordgo.File {
		return []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}
	}
	type env struct {
		w       *world
		ch      *Channel
		thread  string // a public thread of ch
		own     string // a message of the bot in ch
		alices  string // a message of alice in ch
		botRole *Role
	}
	tests := []struct {
		name  string
		deny  func(e env)
		do    func(e env) error
		code  int // 0: the request succeeds
		after func(t *testing.T, e env)
	}{
		{name: "posting without VIEW_CHANNEL", deny: func(e env) { e.ch.SetOverwrite(e.w.srv.Bot(), 0, view) },
			do: func(e env) error { _, err := e.w.sess.ChannelMessageSend(e.ch.ID, "hi"); return err }, code: 50001},
		{name: "reading the channel without VIEW_CHANNEL", deny: func(e env) { e.ch.SetOverwrite(e.w.guild.Everyone(), 0, view) },
			do: func(e env) error { _, err := e.w.sess.Channel(e.ch.ID); return err }, code: 50001},
		{name: "posting without SEND_MESSAGES", deny: func(e env) { e.ch.SetOverwrite(e.w.guild.Everyone(), 0, send) },
			do: func(e env) error { _, err := e.w.sess.ChannelMessageSend(e.ch.ID, "hi"); return err }, code: 50013},
		{name: "a role of the bot allows what @everyone denies", deny: func(e env) {
			e.ch.SetOverwrite(e.w.guild.Everyone(), 0, send)
			e.ch.SetOverwrite(e.botRole, send, 0)
		}, do: func(e env) error { _, err := e.w.sess.ChannelMessageSend(e.ch.ID, "hi"); return err }},
		{name: "a picture without ATTACH_FILES", deny: func(e env) { e.ch.SetOverwrite(e.w.srv.Bot(), 0, attach) },
			do: func(e env) error {
				_, err := e.w.sess.ChannelMessageSendComplex(e.ch.ID, &discordgo.MessageSend{Content: "board", Files: file()})
				return err
			}, code: 50013},
		{name: "text without ATTACH_FILES", deny: func(e env) { e.ch.SetOverwrite(e.w.srv.Bot(), 0, attach) },
			do: func(e env) error { _, err := e.w.sess.ChannelMessageSend(e.ch.ID, "text only"); return err }},
		{name: "a picture added by an edit without ATTACH_FILES", deny: func(e env) { e.ch.SetOverwrite(e.w.srv.Bot(), 0, attach) },
			do: func(e env) error {
				_, err := e.w.sess.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: e.own, Channel: e.ch.ID, Files: file()})
				return err
			}, code: 50013},
		{name: "an edit of text without SEND_MESSAGES", deny: func(e env) { e.ch.SetOverwrite(e.w.srv.Bot(), 0, send) },
			do: func(e env) error { _, err := e.w.sess.ChannelMessageEdit(e.ch.ID, e.own, "edited"); return err }},
		{name: "reading a message without READ_MESSAGE_HISTORY", deny: func(e env) { e.ch.SetOverwrite(e.w.srv.Bot(), 0, history) },
			do: func(e env) error { _, err := e.w.sess.ChannelMessage(e.ch.ID, e.own); return err }, code: 50013},
		{name: "listing messages without READ_MESSAGE_HISTORY lists none", deny: func(e env) { e.ch.SetOverwrite(e.w.srv.Bot(), 0, history) },
			do: func(e env) error {
				list, err := e.w.sess.ChannelMessages(e.ch.ID, 10, "", "", "")
				if err == nil && len(list) != 0 {
					return fmt.Errorf("listed %d messages, want none", len(list))
				}
				return err
			}},
		{name: "a reply without READ_MESSAGE_HISTORY", deny: func(e env) { e.ch.SetOverwrite(e.w.srv.Bot(), 0, history) },
			do: func(e env) error {
				_, err := e.w.sess.ChannelMessageSendReply(e.ch.ID, "re", &discordgo.MessageReference{MessageID: e.alices, ChannelID: e.ch.ID})
				return err
			}, code: 160002},
		{name: "a thread without CREATE_PUBLIC_THREADS", deny: func(e env) {
			e.ch.SetOverwrite(e.w.srv.Bot(), 0, discordgo.PermissionCreatePublicThreads)
		}, do: func(e env) error { _, err := e.w.sess.MessageThreadStart(e.ch.ID, e.own, "game", 60); return err }, code: 50013},
		{name: "a private thread without CREATE_PRIVATE_THREADS", deny: func(e env) {
			e.ch.SetOverwrite(e.w.srv.Bot(), 0, discordgo.PermissionCreatePrivateThreads)
		}, do: func(e env) error {
			_, err := e.w.sess.ThreadStartComplex(e.ch.ID, &discordgo.ThreadStart{Name: "p", Type: discordgo.ChannelTypeGuildPrivateThread})
			return err
		}, code: 50013},
		{name: "posting in a thread without SEND_MESSAGES_IN_THREADS", deny: func(e env) {
			e.ch.SetOverwrite(e.w.srv.Bot(), send, discordgo.PermissionSendMessagesInThreads)
		}, do: func(e env) error { _, err := e.w.sess.ChannelMessageSend(e.thread, "move"); return err }, code: 50013},
		{name: "SEND_MESSAGES does not count in threads", deny: func(e env) {
			e.ch.SetOverwrite(e.w.srv.Bot(), send, discordgo.PermissionSendMessagesInThreads)
		}, do: func(e env) error { _, err := e.w.sess.ChannelMessageSend(e.ch.ID, "in the channel"); return err }},
		{name: "SEND_MESSAGES_IN_THREADS suffices in threads", deny: func(e env) {
			e.ch.SetOverwrite(e.w.srv.Bot(), discordgo.PermissionSendMessagesInThreads, send)
		}, do: func(e env) error { _, err := e.w.sess.ChannelMessageSend(e.thread, "move"); return err }},
		{name: "adding a member to a thread without SEND_MESSAGES_IN_THREADS", deny: func(e env) {
			e.ch.SetOverwrite(e.w.srv.Bot(), 0, discordgo.PermissionSendMessagesInThreads)
		}, do: func(e env) error { return e.w.sess.ThreadMemberAdd(e.thread, e.w.bob.ID) }, code: 50013},
		{name: "deleting alice's message without MANAGE_MESSAGES", deny: func(e env) {},
			do: func(e env) error { return e.w.sess.ChannelMessageDelete(e.ch.ID, e.alices) }, code: 50013},
		{name: "deleting alice's message with MANAGE_MESSAGES", deny: func(e env) {
			e.ch.SetOverwrite(e.botRole, discordgo.PermissionManageMessages, 0)
		}, do: func(e env) error { return e.w.sess.ChannelMessageDelete(e.ch.ID, e.alices) }},
		{name: "ADMINISTRATOR bypasses every overwrite", deny: func(e env) {
			e.botRole.SetPermissions(discordgo.PermissionAdministrator)
			e.ch.SetOverwrite(e.w.srv.Bot(), 0, view|send|attach)
		}, do: func(e env) error {
			_, err := e.w.sess.ChannelMessageSendComplex(e.ch.ID, &discordgo.MessageSend{Content: "board", Files: file()})
			return err
		}},
		{name: "DMs do not depend on guild permissions", deny: func(e env) {
			e.w.guild.Everyone().SetPermissions(0)
			e.ch.SetOverwrite(e.w.srv.Bot(), 0, view|send|attach)
		}, do: func(e env) error {
			dm, err := e.w.sess.UserChannelCreate(e.w.alice.ID)
			if err == nil {
				_, err = e.w.sess.ChannelMessageSendComplex(dm.ID, &discordgo.MessageSend{Content: "your board", Files: file()})
			}
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{TB: t}
			w := newWorld(rec, nil)
			e := env{w: w, ch: w.guild.General(), botRole: w.guild.AddRole("bots", 0)}
			w.guild.GiveRole(w.srv.Bot(), e.botRole)
			own, err := w.sess.ChannelMessageSend(e.ch.ID, "alice vs bob")
			if err != nil {
				t.Fatal(err)
			}
			e.own, e.alices = own.ID, w.alice.Say(t, e.ch, "hello").ID
			th, err := w.sess.MessageThreadStart(e.ch.ID, own.ID, "alice vs bob", 60)
			if err != nil {
				t.Fatal(err)
			}
			e.thread = th.ID
			before := len(w.srv.ChannelMessages(e.ch)) + len(w.srv.ChannelMessages(w.srv.Channel(th.ID)))
			tc.deny(e)
			err = tc.do(e)
			if got := restCode(err); got != tc.code || (tc.code == 0) != (err == nil) {
				t.Fatalf("got %v (code %d), want code %d", err, got, tc.code)
			}
			after := len(w.srv.ChannelMessages(e.ch)) + len(w.srv.ChannelMessages(w.srv.Channel(th.ID)))
			if tc.code != 0 && after != before {
				t.Errorf("%d messages before the refused request, %d after", before, after)
			}
			if f := rec.failures(); len(f) != 0 {
				t.Errorf("a refusal of the test's world failed the test: %q", f)
			}
			if tc.code != 0 {
				reqs := w.srv.Requests("")
				if last := reqs[len(reqs)-1]; last.Code != tc.code || last.Status != 403 && last.Status != 400 {
					t.Errorf("recorded %+v", last)
				}
			}
		})
	}
}

// TestInteractionPermissions checks app_permissions and the member's
// permissions in interactions against the model, and that an interaction
// answer needs none of the bot's channel permissions.
func TestInteractionPermissions(t *testing.T) {
	t.Parallel()
	got := make(chan *discordgo.Interaction, 1)
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(respond(t, func(i *discordgo.Interaction) *discordgo.InteractionResponse {
			got <- i
			return &discordgo.InteractionResponse{Type: 4, Data: content("answered where the bot may not post")}
		}))
	})
	ch := w.guild.General()
	players := w.guild.AddRole("players", discordgo.PermissionManageMessages)
	w.guild.GiveRole(w.alice, players)
	ch.SetOverwrite(w.srv.Bot(), 0, send|attach)
	ch.SetOverwrite(w.alice, 0, attach)

	reply := w.alice.SlashCommand(t, ch, "stratego challenge", Opt("opponent", w.bob)).Reply(t)
	if reply.Content != "answered where the bot may not post" {
		t.Errorf("reply %q", reply.Content)
	}
	i := <-got
	wantApp, wantAlice := ch.PermissionsOf(w.srv.Bot()), ch.PermissionsOf(w.alice)
	if i.AppPermissions != wantApp || i.AppPermissions&send != 0 {
		t.Errorf("app_permissions %d, want %d (no SEND_MESSAGES)", i.AppPermissions, wantApp)
	}
	if i.Member.Permissions != wantAlice || wantAlice&discordgo.PermissionManageMessages == 0 || wantAlice&attach != 0 {
		t.Errorf("member permissions %d, want %d (MANAGE_MESSAGES from her role, no ATTACH_FILES)", i.Member.Permissions, wantAlice)
	}
	resolved := i.ApplicationCommandData().Resolved.Members[w.bob.ID]
	if resolved == nil || resolved.Permissions != ch.PermissionsOf(w.bob) {
		t.Errorf("resolved bob %+v, want permissions %d", resolved, ch.PermissionsOf(w.bob))
	}
}

// TestMembersAndPermissions checks that members can see and do only what
// their permissions allow, and that the bot gets no events of channels it
// cannot see.
func TestMembersAndPermissions(t *testing.T) {
	t.Parallel()
	events := make(chan *discordgo.MessageCreate, 8)
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { events <- m })
	})
	hidden := w.guild.AddChannel("staff")
	hidden.SetOverwrite(w.guild.Everyone(), 0, view)
	hidden.SetOverwrite(w.alice, view, 0)
	hidden.SetOverwrite(w.srv.Bot(), view, 0)
	quiet := w.guild.AddChannel("announcements")
	quiet.SetOverwrite(w.guild.Everyone(), 0, send|discordgo.PermissionUseApplicationCommands)

	tests := []struct {
		name string
		do   func(tb testing.TB)
		want string // "" : allowed
	}{
		{"bob writes where he cannot see", func(tb testing.TB) { w.bob.Say(tb, hidden, "hi") }, "cannot see channel staff"},
		{"alice writes where she is allowed to see", func(tb testing.TB) { w.alice.Say(tb, hidden, "hi") }, ""},
		{"bob writes without SEND_MESSAGES", func(tb testing.TB) { w.bob.Say(tb, quiet, "hi") }, "lacks SEND_MESSAGES"},
		{"bob uses a command without USE_APPLICATION_COMMANDS", func(tb testing.TB) {
			w.bob.SlashCommand(tb, quiet, "stratego board")
		}, "lacks USE_APPLICATION_COMMANDS"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fatal(t, tc.do)
			if tc.want == "" && len(got) != 0 || tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)) {
				t.Errorf("failures %q, want %q", got, tc.want)
			}
		})
	}
	if len(w.bob.Messages(hidden)) != 0 || len(w.alice.Messages(hidden)) != 1 {
		t.Errorf("bob sees %d messages of staff, alice %d", len(w.bob.Messages(hidden)), len(w.alice.Messages(hidden)))
	}
	// The bot can see staff; hide it and check that the next message
	// there does not reach it, while one in general does.
	if m := <-events; m.ChannelID != hidden.ID {
		t.Errorf("first event from %s", m.ChannelID)
	}
	hidden.SetOverwrite(w.srv.Bot(), 0, view)
	w.alice.Say(t, hidden, "secret")
	w.alice.Say(t, w.guild.General(), "public")
	if m := <-events; m.ChannelID != w.guild.General().ID {
		t.Errorf("the bot got a message of a channel it cannot see: %+v", m.Message)
	}
	if hidden.PermissionsOf(w.srv.Bot())&view != 0 {
		t.Errorf("the bot still sees staff")
	}
}
