package discordtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Guild is a server the bot is in.
type Guild struct {
	ID   string // snowflake
	Name string
	srv  *Server
}

// Channel is a guild text channel, a thread, or a member's DM with the bot.
type Channel struct {
	ID      string                // snowflake
	Name    string                // "" for a DM
	GuildID string                // "" for a DM
	Type    discordgo.ChannelType // text channel, public or private thread, DM
	srv     *Server
}

// Member is a Discord user a test acts as.
type Member struct {
	ID   string // user snowflake
	Name string // username, also the display name
	srv  *Server
}

// AddGuild adds a server with the bot in it and one text channel,
// "general". A connected session gets its GUILD_CREATE.
//
// The guild's @everyone role may do what members of a plain server may do
// in text channels (see Guild.Everyone); the bot has that too, and its
// managed role if the server was built WithBotPermissions. The guild is
// owned by a user of its own that no test acts as, so that no member (and
// not the bot) bypasses permissions unless the test says so (SetOwner).
func (s *Server) AddGuild(name string) *Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := &guild{id: s.nextID(), name: name, joinedAt: map[string]time.Time{}, left: map[string]bool{},
		memberRoles: map[string][]string{}}
	g.roles = []*role{{id: g.id, name: "@everyone", perms: defaultEveryone}}
	owner := &user{id: s.nextID(), name: name + " owner"}
	s.users[owner.id] = owner
	g.ownerID = owner.id
	s.guilds[g.id] = g
	s.guildOrder = append(s.guildOrder, g.id)
	g.general = s.addChannel(g, "general").id
	s.joinBot(g)
	s.notify()
	return &Guild{ID: g.id, Name: name, srv: s}
}

// joinBot makes the bot join a guild, with its managed role when invited
// with permissions, and sends GUILD_CREATE. Call with s.mu held.
func (s *Server) joinBot(g *guild) {
	now := s.cfg.clock.Now()
	g.botIn, g.joined = true, now
	g.members = append(g.members, s.bot.id)
	g.joinedAt[s.bot.id] = now
	delete(g.left, s.bot.id)
	if s.cfg.botPermissions != 0 {
		r := g.botRole()
		if r == nil {
			r = s.addRole(g, s.bot.name, s.cfg.botPermissions)
			r.botID = s.bot.id
		}
		g.memberRoles[s.bot.id] = []string{r.id}
	}
	s.dispatchFor("GUILD_CREATE", g.id, discordgo.IntentGuilds, func(gs *gwSession) any {
		if !gs.ready || g.unavailable {
			return nil
		}
		return s.guildJSON(g)
	})
}

// botRole returns the bot's managed role, or nil.
func (g *guild) botRole() *role {
	for _, r := range g.roles {
		if r.botID != "" {
			return r
		}
	}
	return nil
}

// addChannel adds a text channel to a guild. Call with s.mu held.
func (s *Server) addChannel(g *guild, name string) *channel {
	c := &channel{id: s.nextID(), typ: discordgo.ChannelTypeGuildText, guildID: g.id, name: name}
	s.channels[c.id] = c
	g.channels = append(g.channels, c.id)
	return c
}

// General returns the guild's first text channel, "general".
func (g *Guild) General() *Channel {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.channelHandle(s.channels[s.guilds[g.ID].general])
}

// AddChannel adds a text channel to the guild.
func (g *Guild) AddChannel(name string) *Channel {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.addChannel(s.guilds[g.ID], name)
	s.dispatch("CHANNEL_CREATE", g.ID, discordgo.IntentGuilds, s.channelJSON(c))
	s.notify()
	return s.channelHandle(c)
}

// AddForum adds a forum channel to the guild: it takes no message of its
// own (Discord answers 400 with code 50008), only posts, each a public
// thread of it that a member opens (Member.OpenPost), and whose
// permissions are the forum's.
func (g *Guild) AddForum(name string) *Channel {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.addChannel(s.guilds[g.ID], name)
	c.typ = discordgo.ChannelTypeGuildForum
	s.dispatch("CHANNEL_CREATE", g.ID, discordgo.IntentGuilds, s.channelJSON(c))
	s.notify()
	return s.channelHandle(c)
}

// OpenPost makes the member open a post in a forum, titled title, whose
// first message is text (its id the post's, as Discord's starter message):
// a public thread of the forum, owned by the member, which archives after
// three days without activity. It needs SEND_MESSAGES in the forum, as
// Discord's client asks.
func (m *Member) OpenPost(t TB, forum *Channel, title, text string) *Channel {
	t.Helper()
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	u, c := s.users[m.ID], s.channels[forum.ID]
	s.archiveDue()
	s.mayAct(t, u, c, permSendMessages, false, "open a post")
	if c.typ != discordgo.ChannelTypeGuildForum {
		t.Fatalf("discordtest: %s is no forum; only a forum has posts", c.name)
	}
	if text == "" || utf8.RuneCountInString(text) > maxContent {
		t.Fatalf("discordtest: Discord's client sends 1 to %d characters, not %d", maxContent, utf8.RuneCountInString(text))
	}
	th := s.newThreadBy(c, s.nextID(), title, discordgo.ChannelTypeGuildPublicThread, 4320, u.id)
	msg := &message{id: th.id, channelID: th.id, authorID: u.id, content: text, created: s.cfg.clock.Now()}
	s.store(msg)
	s.dispatchMessage("MESSAGE_CREATE", msg)
	s.notify()
	return s.channelHandle(th)
}

// AddMember adds a new user to the guild.
func (g *Guild) AddMember(name string) *Member {
	s := g.srv
	s.mu.Lock()
	u := &user{id: s.nextID(), name: name}
	s.users[u.id] = u
	s.mu.Unlock()
	m := &Member{ID: u.id, Name: name, srv: s}
	g.Join(m)
	return m
}

// Join makes an existing member join the guild too.
func (g *Guild) Join(m *Member) {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	gd := s.guilds[g.ID]
	if hasMember(gd, m.ID) {
		return
	}
	gd.members = append(gd.members, m.ID)
	gd.joinedAt[m.ID] = s.cfg.clock.Now()
	delete(gd.left, m.ID)
	data := s.memberJSON(gd, s.users[m.ID], nil)
	data["guild_id"] = gd.id
	s.dispatch("GUILD_MEMBER_ADD", gd.id, discordgo.IntentGuildMembers, data)
	s.notify()
}

// Channel returns a channel (text channel, thread or DM) by id, or nil.
func (s *Server) Channel(id string) *Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[id]
	if c == nil {
		return nil
	}
	return s.channelHandle(c)
}

func (s *Server) channelHandle(c *channel) *Channel {
	return &Channel{ID: c.id, Name: c.name, GuildID: c.guildID, Type: c.typ, srv: s}
}

// Threads returns the threads started in the channel, oldest first.
func (c *Channel) Threads() []*Channel {
	s := c.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Channel
	g := s.guilds[c.GuildID]
	if g == nil {
		return nil
	}
	for _, id := range g.channels {
		if th := s.channels[id]; th.parentID == c.ID && !th.deleted {
			out = append(out, s.channelHandle(th))
		}
	}
	return out
}

// ThreadMembers returns the user ids of a thread's members (the bot
// included), sorted, or nil for other channels.
func (c *Channel) ThreadMembers() []string {
	s := c.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for id := range s.channels[c.ID].threadUsers {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// Commands returns the commands registered for a guild, or the global ones
// when g is nil, as discordgo reads them.
func (s *Server) Commands(g *Guild) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	gid := ""
	if g != nil {
		gid = g.ID
	}
	var out []*discordgo.ApplicationCommand
	for _, c := range s.commands {
		if c.guildID == gid {
			raw, _ := json.Marshal(s.commandJSON(c))
			var d discordgo.ApplicationCommand
			_ = json.Unmarshal(raw, &d)
			out = append(out, &d)
		}
	}
	return out
}

// DM returns the member's DM channel with the bot, opening it if needed.
func (m *Member) DM() *Channel {
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.channelHandle(s.dmChannel(s.users[m.ID]))
}

// CloseDMs makes the member refuse DMs from the bot (privacy settings, or
// a block): sending to them answers 403 with code 50007.
func (m *Member) CloseDMs() { m.setDMs(true) }

// OpenDMs undoes CloseDMs.
func (m *Member) OpenDMs() { m.setDMs(false) }

// SetLocale sets the language of the member's Discord client ("nl", "de",
// "fr", "en-GB"): the locale of their interactions from now on.
func (m *Member) SetLocale(locale string) {
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[m.ID].locale = locale
}

// SetLocale sets the server's preferred locale (Server Settings, Community):
// guild_locale in interactions from now on, and preferred_locale in the
// GUILD_CREATE of sessions that connect after it.
func (g *Guild) SetLocale(locale string) {
	s := g.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guilds[g.ID].locale = locale
}

// localeOr returns locale, or en-US, Discord's default, when it is empty.
func localeOr(locale string) string {
	if locale == "" {
		return "en-US"
	}
	return locale
}

func (m *Member) setDMs(closed bool) {
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[m.ID].dmsClosed = closed
}

// DMs returns the messages of the member's DM with the bot, both ways,
// oldest first.
func (m *Member) DMs() []*Message {
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[m.ID]
	if u.dm == "" {
		return nil
	}
	return s.messagesOf(s.channels[u.dm], u, func(x *message) bool { return s.visible(u, x) })
}

// Messages returns what the member sees in a channel: everyone's messages
// and the member's own ephemeral ones, oldest first.
func (m *Member) Messages(ch *Channel) []*Message {
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[m.ID]
	return s.messagesOf(s.channels[ch.ID], u, func(x *message) bool { return s.visible(u, x) })
}

// Ephemerals returns every ephemeral message shown to the member, in all
// channels, oldest first.
func (m *Member) Ephemerals() []*Message {
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[m.ID]
	var out []*Message
	for _, x := range s.sortedMessages() {
		if x.ephemeralTo == u.id && s.visible(u, x) {
			out = append(out, s.view(x, u))
		}
	}
	return out
}

// WaitDM waits until the bot has sent the member a DM that match accepts
// (nil accepts any) and returns the newest such DM.
func (m *Member) WaitDM(t TB, match func(*Message) bool) *Message {
	t.Helper()
	var found *Message
	m.srv.WaitFor(t, "a DM from the bot to "+m.Name, func() bool {
		dms := m.DMs()
		for i := len(dms) - 1; i >= 0; i-- {
			if dms[i].FromBot() && (match == nil || match(dms[i])) {
				found = dms[i]
				return true
			}
		}
		return false
	})
	return found
}

// SendDM makes the member write to the bot in their DM; the bot gets
// MESSAGE_CREATE if it asked for the DIRECT_MESSAGES intent.
func (m *Member) SendDM(t TB, text string) *Message {
	t.Helper()
	return m.post(t, m.DM(), text, "")
}

// Say makes the member write in a guild channel or thread; the bot gets
// MESSAGE_CREATE with GUILD_MESSAGES, and its content only with
// MESSAGE_CONTENT or when the text mentions the bot.
func (m *Member) Say(t TB, ch *Channel, text string) *Message {
	t.Helper()
	return m.post(t, ch, text, "")
}

// Delete deletes msg, one of the member's own messages (a DM to the bot,
// say), as they would: the bot gets MESSAGE_DELETE, and from then on a
// reply to it is refused (50035, Unknown message), which does not fail the
// test, unless it is sent with fail_if_not_exists false: it then goes as a
// message that replies to nothing.
func (m *Member) Delete(t TB, msg *Message) {
	t.Helper()
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	stored := s.messages[msg.ID]
	if stored == nil || stored.authorID != m.ID {
		t.Fatalf("discordtest: %s can delete only their own messages", m.Name)
	}
	if stored.deleted {
		return
	}
	s.deleteStored(stored)
	s.notify()
}

// Reply makes the member answer a message with Discord's Reply, in to's
// channel (a DM, a guild channel or a thread): a message of type 19
// (REPLY) whose message_reference names to (message_id, channel_id, and
// guild_id in a guild) and whose referenced_message is to as it is now, in
// MESSAGE_CREATE and in REST reads alike. The reply does not ping to's
// author (mentions stays empty, the client's "@OFF"). The member must see
// to, and to must be a message of its channel that still exists and is not
// ephemeral (the client offers no Reply there); else t fails.
func (m *Member) Reply(t TB, to *Message, text string) *Message {
	t.Helper()
	if to == nil {
		t.Fatalf("discordtest: %s replies to no message", m.Name)
	}
	return m.post(t, &Channel{ID: to.ChannelID}, text, to.ID)
}

// post makes the member write text in ch, as a reply to the message
// replyTo unless that is "".
func (m *Member) post(t TB, ch *Channel, text, replyTo string) *Message {
	t.Helper()
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	u, c := s.users[m.ID], s.channels[ch.ID]
	if c == nil {
		t.Fatalf("discordtest: no channel %s", ch.ID)
	}
	s.archiveDue()
	need := int64(0)
	if c.guildID != "" {
		need = sendPermission(c)
	}
	s.mayAct(t, u, c, need, false, "write there")
	if c.typ == discordgo.ChannelTypeGuildForum {
		t.Fatalf("discordtest: forum %s has no message box in Discord's client: open a post (OpenPost)", c.name)
	}
	if err := threadPostable(c, s.permissions(u, c)); err != nil {
		t.Fatalf("discordtest: %s cannot write in thread %s: %s", m.Name, c.name, err.detail)
	}
	if text == "" || utf8.RuneCountInString(text) > maxContent {
		t.Fatalf("discordtest: Discord's client sends 1 to %d characters, not %d", maxContent, utf8.RuneCountInString(text))
	}
	msg := &message{id: s.nextID(), channelID: c.id, authorID: u.id, content: text, created: s.cfg.clock.Now()}
	if id := replyTo; id != "" {
		to := s.messages[id]
		switch {
		case to == nil || to.channelID != c.id:
			t.Fatalf("discordtest: channel %s has no message %s to reply to", c.id, id)
		case to.deleted:
			t.Fatalf("discordtest: message %s was deleted; %s cannot reply to it", id, m.Name)
		case to.ephemeralTo != "":
			t.Fatalf("discordtest: message %s is ephemeral; Discord's client offers no Reply on it", id)
		}
		ref := map[string]any{"type": int(discordgo.MessageReferenceTypeDefault), "message_id": id, "channel_id": c.id}
		if c.guildID != "" {
			ref["guild_id"] = c.guildID
		}
		msg.reference, _ = json.Marshal(ref)
		msg.typ = discordgo.MessageTypeReply
	}
	s.unarchive(c) // sending unarchives a thread, as threadPostable allowed
	s.store(msg)
	s.dispatchMessage("MESSAGE_CREATE", msg)
	s.notify()
	return s.view(msg, u)
}

// Arg is a value a member gives to a command option.
type Arg struct {
	Name    string // the option's name
	Value   any    // see Opt
	focused bool
}

// Opt gives an option a value: a string, an int, a float64, a bool, a
// *Member (user options) or a *Channel (channel options), as the option's
// type requires.
func Opt(name string, value any) Arg { return Arg{Name: name, Value: value} }

// Focused is the option a member is typing during autocomplete, with what
// they typed so far.
func Focused(name, typed string) Arg { return Arg{Name: name, Value: typed, focused: true} }

// SlashCommand makes the member run a registered chat-input command in a
// channel. command names the command and its subcommand group and
// subcommand as the member types them: "stratego challenge". The options
// are checked against the registration as Discord's client does: unknown
// options, missing required ones, values outside choices or bounds fail t.
// The interaction is dispatched at once; read the answer with Interaction.
func (m *Member) SlashCommand(t TB, ch *Channel, command string, args ...Arg) *Interaction {
	t.Helper()
	return m.runCommand(t, ch, command, args, false, false)
}

// ForgeSlashCommand is SlashCommand as a modified client sends it: values
// are sent as given, past the registered choices, min_length, max_length,
// min_value and max_value that Discord's own client enforces, so a bot must
// check them itself. Everything else is checked as SlashCommand checks it.
func (m *Member) ForgeSlashCommand(t TB, ch *Channel, command string, args ...Arg) *Interaction {
	t.Helper()
	return m.runCommand(t, ch, command, args, false, true)
}

// Autocomplete makes the member type into an autocomplete option (the one
// given with Focused) and returns the choices the bot offers. It fails the
// test if the bot does not answer in time.
func (m *Member) Autocomplete(t TB, ch *Channel, command string, args ...Arg) []*discordgo.ApplicationCommandOptionChoice {
	t.Helper()
	in := m.runCommand(t, ch, command, args, true, false)
	return in.Wait(t).Choices
}

// runCommand builds and dispatches a command or autocomplete interaction.
func (m *Member) runCommand(t TB, ch *Channel, command string, args []Arg, autocomplete, forged bool) *Interaction {
	t.Helper()
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	u, c := s.users[m.ID], s.channels[ch.ID]
	s.archiveDue()
	s.mayAct(t, u, c, permUseApplicationCommand, true, "use /"+command)
	if c.typ == discordgo.ChannelTypeGuildForum {
		t.Fatalf("discordtest: forum %s has no message box in Discord's client, where commands are typed: use a post", c.name)
	}
	words := strings.Fields(command)
	if len(words) == 0 {
		t.Fatalf("discordtest: empty command")
	}
	cmd := s.usableCommand(words[0], c)
	if cmd == nil {
		t.Fatalf("discordtest: no command /%s can be used in channel %s; registered: %s", words[0], ch.ID, s.commandNames())
	}
	// Walk down the subcommand group and subcommand the member typed.
	var chain []map[string]any
	opts := cmd.def.Options
	for _, w := range words[1:] {
		var sub *discordgo.ApplicationCommandOption
		for _, o := range opts {
			if o.Name == w && isSubcommand(o) {
				sub = o
			}
		}
		if sub == nil {
			t.Fatalf("discordtest: /%s has no subcommand %q there", cmd.def.Name, w)
		}
		chain = append(chain, map[string]any{"name": sub.Name, "type": int(sub.Type)})
		opts = sub.Options
	}
	for _, o := range opts {
		if isSubcommand(o) {
			t.Fatalf("discordtest: %q needs a subcommand; Discord's client cannot send it alone", command)
		}
	}
	resolved := map[string]map[string]any{}
	var focused *focusedOption
	given := map[string]bool{}
	leaf := []any{}
	for _, a := range args {
		var o *discordgo.ApplicationCommandOption
		for _, x := range opts {
			if x.Name == a.Name {
				o = x
			}
		}
		if o == nil {
			t.Fatalf("discordtest: %q has no option %q", command, a.Name)
		}
		if given[a.Name] {
			t.Fatalf("discordtest: option %q given twice", a.Name)
		}
		given[a.Name] = true
		entry := map[string]any{"name": o.Name, "type": int(o.Type)}
		if a.focused {
			if !autocomplete {
				t.Fatalf("discordtest: Focused(%q) is for Autocomplete", a.Name)
			}
			if !o.Autocomplete {
				t.Fatalf("discordtest: option %q of %q is not registered with autocomplete; Discord never asks the bot about it", a.Name, command)
			}
			if focused != nil {
				t.Fatalf("discordtest: only one option can be focused")
			}
			entry["focused"] = true
			entry["value"] = a.Value // what was typed so far, as a string
			focused = &focusedOption{name: o.Name, typ: o.Type}
		} else {
			if forged { // past the bounds and the choices, as a modified client may send it
				loose := *o
				loose.MinLength, loose.MaxLength, loose.MinValue, loose.MaxValue, loose.Choices = nil, 0, nil, 0, nil
				o = &loose
			}
			v, err := s.optionValue(o, a.Value, resolved, u, c)
			if err != nil {
				t.Fatalf("discordtest: option %q of %q: %v", a.Name, command, err)
			}
			entry["value"] = v
		}
		leaf = append(leaf, entry)
	}
	if autocomplete && focused == nil {
		t.Fatalf("discordtest: Autocomplete needs one Focused option")
	}
	if !autocomplete {
		for _, o := range opts {
			if o.Required && !given[o.Name] {
				t.Fatalf("discordtest: %q without its required option %q; Discord's client does not send that", command, o.Name)
			}
		}
	}
	options := leaf
	for i := len(chain) - 1; i >= 0; i-- {
		chain[i]["options"] = options
		options = []any{chain[i]}
	}
	data := map[string]any{"id": cmd.id, "name": cmd.def.Name, "type": int(discordgo.ChatApplicationCommand), "options": options}
	if cmd.guildID != "" {
		data["guild_id"] = cmd.guildID
	}
	if len(resolved) > 0 {
		data["resolved"] = resolved
	}
	typ := discordgo.InteractionApplicationCommand
	if autocomplete {
		typ = discordgo.InteractionApplicationCommandAutocomplete
	}
	in := s.newInteraction(u, c, typ)
	in.commandName = strings.Join(words, " ")
	in.focused = focused
	s.start(in, s.interactionPayload(in, data, nil))
	return &Interaction{ID: in.id, Token: in.token, Type: typ, Member: m, srv: s}
}

func isSubcommand(o *discordgo.ApplicationCommandOption) bool {
	return o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup
}

// usableCommand finds the chat-input command a member can run by name in a
// channel; a guild command wins over a global one. Call with s.mu held.
func (s *Server) usableCommand(name string, c *channel) *command {
	var global *command
	for _, cmd := range s.commands {
		if cmd.def.Name != name || commandType(cmd.def) != discordgo.ChatApplicationCommand || !cmd.usableIn(c) {
			continue
		}
		if cmd.guildID != "" {
			return cmd
		}
		global = cmd
	}
	return global
}

// commandNames lists the registered commands for failure messages.
func (s *Server) commandNames() string {
	var names []string
	for _, c := range s.commands {
		where := "global"
		if c.guildID != "" {
			where = "guild " + c.guildID
		}
		names = append(names, "/"+c.def.Name+" ("+where+")")
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// optionValue checks a value against an option as Discord's client does and
// returns it as Discord sends it, adding users and channels to resolved.
func (s *Server) optionValue(o *discordgo.ApplicationCommandOption, v any, resolved map[string]map[string]any, invoker *user, c *channel) (any, error) {
	addResolved := func(kind, id string, obj map[string]any) {
		if resolved[kind] == nil {
			resolved[kind] = map[string]any{}
		}
		resolved[kind][id] = obj
	}
	switch o.Type {
	case discordgo.ApplicationCommandOptionString:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %T", v)
		}
		n := utf8.RuneCountInString(str)
		if o.MinLength != nil && n < *o.MinLength || o.MaxLength > 0 && n > o.MaxLength || n > 6000 {
			return nil, fmt.Errorf("%d characters is outside the registered length bounds", n)
		}
		return str, checkChoice(o, str)
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		var f float64
		switch x := v.(type) {
		case int:
			f = float64(x)
		case int64:
			f = float64(x)
		case float64:
			if o.Type == discordgo.ApplicationCommandOptionInteger && x != float64(int64(x)) {
				return nil, fmt.Errorf("want an integer, got %v", x)
			}
			f = x
		default:
			return nil, fmt.Errorf("want a number, got %T", v)
		}
		if o.MinValue != nil && f < *o.MinValue || o.MaxValue != 0 && f > o.MaxValue {
			return nil, fmt.Errorf("%v is outside the registered bounds", f)
		}
		return f, checkChoice(o, f)
	case discordgo.ApplicationCommandOptionBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want a bool, got %T", v)
		}
		return b, nil
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		id := ""
		switch x := v.(type) {
		case *Member:
			id = x.ID
		case string:
			id = x
		default:
			return nil, fmt.Errorf("want a *Member, got %T", v)
		}
		u := s.users[id]
		if u == nil {
			if o.Type == discordgo.ApplicationCommandOptionMentionable {
				return id, nil // a role; roles are not modelled
			}
			return nil, fmt.Errorf("no user %s", id)
		}
		addResolved("users", id, s.userJSON(u))
		if g := s.guilds[c.guildID]; g != nil && hasMember(g, id) {
			mem := s.memberJSON(g, u, c)
			delete(mem, "user")
			addResolved("members", id, mem)
		}
		return id, nil
	case discordgo.ApplicationCommandOptionChannel:
		var ch *channel
		switch x := v.(type) {
		case *Channel:
			ch = s.channels[x.ID]
		case string:
			ch = s.channels[x]
		default:
			return nil, fmt.Errorf("want a *Channel, got %T", v)
		}
		if ch == nil || ch.guildID != c.guildID || ch.guildID == "" {
			return nil, fmt.Errorf("the channel is not in this guild")
		}
		if len(o.ChannelTypes) > 0 && !slices.Contains(o.ChannelTypes, ch.typ) {
			return nil, fmt.Errorf("channel type %d is not among the registered channel_types %v", ch.typ, o.ChannelTypes)
		}
		obj := s.channelJSON(ch)
		obj["permissions"] = strconv.FormatInt(s.permissions(invoker, ch), 10)
		addResolved("channels", ch.id, obj)
		return ch.id, nil
	case discordgo.ApplicationCommandOptionRole:
		id, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a role id string, got %T", v)
		}
		return id, nil
	}
	return nil, fmt.Errorf("option type %d is not supported by the stand-in", o.Type)
}

// checkChoice checks a value against an option's registered choices.
func checkChoice(o *discordgo.ApplicationCommandOption, v any) error {
	if len(o.Choices) == 0 {
		return nil
	}
	for _, ch := range o.Choices {
		if fmt.Sprint(ch.Value) == fmt.Sprint(v) {
			return nil
		}
	}
	return fmt.Errorf("%v is not one of the registered choices", v)
}

// newInteraction creates an interaction record. Call with s.mu held.
func (s *Server) newInteraction(u *user, c *channel, typ discordgo.InteractionType) *interaction {
	id := s.nextID()
	return &interaction{
		id: id, token: "itk." + id + "." + sessionID(id), typ: typ,
		userID: u.id, guildID: c.guildID, channelID: c.id,
	}
}

// interactionPayload renders the INTERACTION_CREATE object. Call with s.mu held.
func (s *Server) interactionPayload(in *interaction, data map[string]any, msg *message) map[string]any {
	c, u := s.channels[in.channelID], s.users[in.userID]
	ch := s.channelJSON(c)
	ch["permissions"] = strconv.FormatInt(s.permissions(u, c), 10)
	p := map[string]any{
		"id":                             in.id,
		"application_id":                 s.appID,
		"type":                           int(in.typ),
		"data":                           data,
		"channel_id":                     c.id,
		"channel":                        ch,
		"token":                          in.token,
		"version":                        1,
		"app_permissions":                strconv.FormatInt(s.permissions(s.bot, c), 10),
		"locale":                         localeOr(u.locale),
		"entitlements":                   []any{},
		"authorizing_integration_owners": in.owners(),
		"attachment_size_limit":          s.cfg.uploadLimit,
	}
	if c.guildID != "" {
		p["guild_id"] = c.guildID
		locale := localeOr(s.guilds[c.guildID].locale)
		p["guild_locale"] = locale
		p["guild"] = map[string]any{"id": c.guildID, "locale": locale, "features": []any{}}
		p["member"] = s.memberJSON(s.guilds[c.guildID], u, c)
		p["context"] = int(discordgo.InteractionContextGuild)
	} else {
		p["user"] = s.userJSON(u)
		p["context"] = int(discordgo.InteractionContextBotDM)
	}
	if msg != nil {
		obj := s.messageJSON(msg)
		if c.guildID != "" {
			obj["guild_id"] = c.guildID
		}
		p["message"] = obj
	}
	return p
}

// componentsOf returns the stored message of the bot's whose components
// the member uses: one they can see, in a channel where they may act.
// Call with s.mu held.
func (s *Server) componentsOf(t TB, m *Member, msg *Message) *message {
	t.Helper()
	if msg == nil {
		t.Fatalf("discordtest: no message")
	}
	u, stored := s.users[m.ID], s.messages[msg.ID]
	if stored == nil {
		t.Fatalf("discordtest: no message %s", msg.ID)
	}
	s.archiveDue()
	s.mayAct(t, u, s.channels[stored.channelID], 0, true, "use the components of message "+msg.ID)
	if !s.visible(u, stored) {
		t.Fatalf("discordtest: %s cannot see message %s", m.Name, msg.ID)
	}
	if stored.authorID != s.bot.id {
		t.Fatalf("discordtest: message %s is not the bot's; only its components reach the bot", msg.ID)
	}
	return stored
}

// component finds a component by custom id on a message the member can see.
// Call with s.mu held.
func (s *Server) component(t TB, m *Member, msg *Message, customID string) (*message, map[string]any, int) {
	t.Helper()
	stored := s.componentsOf(t, m, msg)
	var found map[string]any
	var ids []string
	numbered := numberComponents(stored.components)
	num := 0
	var walk func(list []any)
	walk = func(list []any) {
		for _, x := range list {
			obj, _ := x.(map[string]any)
			if id := str(obj, "custom_id"); id != "" {
				ids = append(ids, id)
				if id == customID && found == nil {
					found, num = obj, numberOf(obj["id"])
				}
			}
			kids, _ := obj["components"].([]any)
			walk(kids)
			if acc, ok := obj["accessory"]; ok {
				walk([]any{acc})
			}
		}
	}
	walk(numbered)
	if found == nil {
		t.Fatalf("discordtest: message %s has no component %q (it has %q)", msg.ID, customID, ids)
	}
	if found["disabled"] == true {
		t.Fatalf("discordtest: component %q is disabled; Discord's client does not let members use it", customID)
	}
	return stored, found, num
}

// ClickButton makes the member click a button, identified by its
// custom_id, on a message the bot sent. Clicking a disabled or link button
// fails t, as the client would not send it.
func (m *Member) ClickButton(t TB, msg *Message, customID string) *Interaction {
	t.Helper()
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	stored, comp, num := s.component(t, m, msg, customID)
	if componentType(comp) != ctButton {
		t.Fatalf("discordtest: component %q is not a button", customID)
	}
	data := map[string]any{"custom_id": customID, "component_type": ctButton, "id": num}
	return s.startComponent(m, stored, data)
}

// SelectMenu makes the member choose values in a select menu on a message
// the bot sent. Values must be among the menu's options (string selects)
// and their count within min_values and max_values.
func (m *Member) SelectMenu(t TB, msg *Message, customID string, values ...string) *Interaction {
	t.Helper()
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	stored, comp, num := s.component(t, m, msg, customID)
	ct := componentType(comp)
	if !isSelect(ct) {
		t.Fatalf("discordtest: component %q is not a select menu", customID)
	}
	minV, maxV := 1, 1
	if _, ok := comp["min_values"]; ok {
		minV = numberOf(comp["min_values"])
	}
	if _, ok := comp["max_values"]; ok {
		maxV = numberOf(comp["max_values"])
	}
	if len(values) < minV || len(values) > maxV {
		t.Fatalf("discordtest: %d values chosen; the menu takes %d to %d", len(values), minV, maxV)
	}
	data := map[string]any{"custom_id": customID, "component_type": ct, "values": values, "id": num}
	switch ct {
	case ctStringSelect:
		opts, _ := comp["options"].([]any)
		for _, v := range values {
			ok := false
			for _, o := range opts {
				ok = ok || str(o.(map[string]any), "value") == v
			}
			if !ok {
				t.Fatalf("discordtest: %q is not an option of select menu %q", v, customID)
			}
		}
	case ctUserSelect:
		users := map[string]any{}
		for _, v := range values {
			u := s.users[v]
			if u == nil {
				t.Fatalf("discordtest: no user %s", v)
			}
			users[v] = s.userJSON(u)
		}
		data["resolved"] = map[string]any{"users": users}
	}
	return s.startComponent(m, stored, data)
}

// ForgeClick makes the member send a button click that Discord's own
// client never sends: customID as a modified client crafts it, whether or
// not the message shows it, on a message of the bot's that the member can
// see. Discord forwards what the client sends and leaves it to the
// application to check that the custom id came from the message (its
// components documentation says so), so a bot must expect this.
func (m *Member) ForgeClick(t TB, msg *Message, customID string) *Interaction {
	t.Helper()
	return m.forge(t, msg, map[string]any{"custom_id": customID, "component_type": ctButton})
}

// ForgeSelect makes the member send a string select's choice that Discord's
// own client never sends: any custom id and any values, on a message of the
// bot's that the member can see (ForgeClick).
func (m *Member) ForgeSelect(t TB, msg *Message, customID string, values ...string) *Interaction {
	t.Helper()
	if values == nil {
		values = []string{}
	}
	return m.forge(t, msg, map[string]any{"custom_id": customID, "component_type": ctStringSelect, "values": values})
}

// forge dispatches a crafted component interaction on msg.
func (m *Member) forge(t TB, msg *Message, data map[string]any) *Interaction {
	t.Helper()
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	stored := s.componentsOf(t, m, msg)
	data["id"] = 1
	return s.startComponent(m, stored, data)
}

// startComponent dispatches a component interaction. Call with s.mu held.
func (s *Server) startComponent(m *Member, stored *message, data map[string]any) *Interaction {
	in := s.newInteraction(s.users[m.ID], s.channels[stored.channelID], discordgo.InteractionMessageComponent)
	in.messageID = stored.id
	s.start(in, s.interactionPayload(in, data, stored))
	return &Interaction{ID: in.id, Token: in.token, Type: in.typ, Member: m, srv: s}
}

// SubmitModal makes the member fill in and submit the modal the bot showed
// in answer to in. values maps text inputs' custom_ids to what the member
// typed; an unknown input, an empty required one or a length out of
// bounds fails t, as the client would not submit it.
func (m *Member) SubmitModal(t TB, in *Interaction, values map[string]string) *Interaction {
	t.Helper()
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	src := s.inters[in.ID]
	if src.modal == nil {
		t.Fatalf("discordtest: interaction %s was not answered with a modal", in.ID)
	}
	if src.userID != m.ID {
		t.Fatalf("discordtest: the modal of interaction %s was shown to someone else", in.ID)
	}
	if src.submitted {
		t.Fatalf("discordtest: the modal of interaction %s was already submitted; Discord closes a modal on submit", in.ID)
	}
	modal := modalOf(src.modal)
	known := map[string]TextInput{}
	for _, ti := range modal.Inputs {
		known[ti.CustomID] = ti
	}
	for id := range values {
		if _, ok := known[id]; !ok {
			t.Fatalf("discordtest: the modal has no text input %q", id)
		}
	}
	for _, ti := range modal.Inputs {
		v := values[ti.CustomID]
		n := utf8.RuneCountInString(v)
		maxLen := ti.MaxLength
		if maxLen == 0 {
			maxLen = 4000
		}
		if ti.Required && v == "" || v != "" && (n < ti.MinLength || n > maxLen) {
			t.Fatalf("discordtest: text input %q: %d characters; the modal wants %d to %d (required: %v)", ti.CustomID, n, ti.MinLength, maxLen, ti.Required)
		}
	}
	var rows []any
	srcRows, _ := src.modal["components"].([]any)
	for _, row := range srcRows {
		obj, _ := row.(map[string]any)
		switch componentType(row) {
		case ctActionRow:
			kids, _ := obj["components"].([]any)
			var out []any
			for _, k := range kids {
				id := str(k.(map[string]any), "custom_id")
				out = append(out, map[string]any{"type": ctTextInput, "custom_id": id, "value": values[id]})
			}
			rows = append(rows, map[string]any{"type": ctActionRow, "components": out})
		case ctLabel:
			kid, _ := obj["component"].(map[string]any)
			id := str(kid, "custom_id")
			rows = append(rows, map[string]any{"type": ctLabel, "component": map[string]any{"type": ctTextInput, "custom_id": id, "value": values[id]}})
		}
	}
	s.archiveDue()
	s.mayAct(t, s.users[m.ID], s.channels[src.channelID], 0, true, "submit a modal")
	src.submitted = true
	data := map[string]any{"custom_id": modal.CustomID, "components": rows}
	next := s.newInteraction(s.users[m.ID], s.channels[src.channelID], discordgo.InteractionModalSubmit)
	next.messageID = src.messageID
	next.commandName = src.commandName
	var msg *message
	if src.messageID != "" {
		msg = s.messages[src.messageID]
	}
	s.start(next, s.interactionPayload(next, data, msg))
	return &Interaction{ID: next.id, Token: next.token, Type: next.typ, Member: m, srv: s}
}
