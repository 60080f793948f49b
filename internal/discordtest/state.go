package discordtest

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// discordEpoch is the first millisecond of 2015, where snowflakes start.
const discordEpoch = 1420070400000

// Message flags the stand-in acts on.
const (
	flagSuppressEmbeds  = 1 << 2
	flagEphemeral       = 1 << 6
	flagLoading         = 1 << 7
	flagSuppressNotices = 1 << 12
	flagComponentsV2    = 1 << 15
)

// user is a Discord account: the bot or a member a test acts as.
type user struct {
	id, name  string
	bot       bool
	dmsClosed bool   // the member does not accept DMs from the bot
	dm        string // id of the DM channel with the bot, "" until opened
	locale    string // the client's language, sent in interactions; "" is en-US
}

// guild is a server the bot is (or was) in.
type guild struct {
	id, name    string
	joined      time.Time
	general     string               // id of "general", the first text channel
	channels    []string             // text channels and threads, in creation order, deleted ones dropped
	members     []string             // user ids, in joining order
	joinedAt    map[string]time.Time // by user id
	left        map[string]bool      // users who were members and left
	roles       []*role              // @everyone first (its id is the guild's), then in creation order
	memberRoles map[string][]string  // role ids by user id, @everyone left out
	ownerID     string               // a user of its own, never a member a test acts as, unless SetOwner
	formerOwner string               // the guild's own owner while a member owns it
	botIn       bool                 // false once the bot was removed (KickBot)
	locale      string               // the server's preferred locale; "" is en-US
	unavailable bool                 // an outage (Outage): GUILD_DELETE with unavailable
}

// channel is a guild text channel, a thread, or a DM with the bot.
type channel struct {
	id          string
	typ         discordgo.ChannelType
	guildID     string // "" for a DM
	name        string
	parentID    string          // threads: the text channel
	ownerID     string          // threads: who created it
	recipient   string          // DMs: the member
	fromMessage string          // threads started from a message
	autoArchive int             // threads: minutes
	invitable   bool            // private threads
	created     time.Time       // threads
	messages    []string        // message ids in order, ephemeral ones included
	threadUsers map[string]bool // threads: members who joined
	overwrites  []overwrite     // text channels: permission overwrites, in the order set
	deleted     bool            // deleted by the test (Channel.Delete): 10003 from now on
	archived    bool            // threads: archived, by the clock or by Archive
	locked      bool            // threads: only MANAGE_THREADS may unarchive and post
	archivedAt  time.Time       // threads: archive_timestamp
	active      time.Time       // threads: last activity (creation, message, unarchiving)
}

// message is a stored message with everything the stand-in must remember.
type message struct {
	id, channelID string
	authorID      string
	typ           discordgo.MessageType
	content       string
	embeds        []any // as sent, decoded generically
	components    []any // as sent, decoded generically
	flags         int
	attachments   []*attachment
	created       time.Time
	edited        time.Time // zero when never edited
	edits         int
	ephemeralTo   string       // user id when ephemeral, else ""
	interaction   *interaction // the interaction this message answers, if any
	webhookID     string       // interaction responses come through the app's webhook
	threadID      string       // a thread started from this message
	reference     json.RawMessage
	nonce         json.RawMessage // as sent with the create, echoed in its answer and MESSAGE_CREATE
	deleted       bool
	byModerator   bool // deleted by the test (Server.DeleteMessage): 10008 from now on, the test's own doing
}

// attachment is an uploaded file kept with its bytes.
type attachment struct {
	id, filename, contentType, description string
	data                                   []byte // nil WithoutFileContents
	size, width, height                    int
}

// nextID returns a fresh snowflake. Ids grow with the clock and a counter so
// that they sort by creation, as Discord's do.
func (s *Server) nextID() string {
	ms := uint64(s.cfg.clock.Now().UnixMilli() - discordEpoch)
	id := ms << 22
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return strconv.FormatUint(id, 10)
}

// UnknownID returns an id that names nothing in the stand-in's world, as
// one an admin mistyped does: Discord's refusal of a request that names it
// (Unknown Channel, Unknown User, Missing Access) is then part of the
// test's world, not a mistake of the bot, and does not fail the test.
func (s *Server) UnknownID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextID()
	if s.unknownIDs == nil {
		s.unknownIDs = map[string]bool{}
	}
	s.unknownIDs[id] = true
	return id
}

// namesUnknownID reports whether a request names an id of UnknownID, in
// its path or its body. Call with s.mu held.
func (s *Server) namesUnknownID(q *request) bool {
	for id := range s.unknownIDs {
		for _, v := range q.params {
			if v == id {
				return true
			}
		}
		if bytes.Contains(q.body, []byte(`"`+id+`"`)) {
			return true
		}
	}
	return false
}

// timestamp formats a time the way Discord does.
func timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000+00:00")
}

// userJSON renders a user object.
func (s *Server) userJSON(u *user) map[string]any {
	obj := map[string]any{
		"id":                     u.id,
		"username":               u.name,
		"global_name":            u.name,
		"avatar":                 nil,
		"discriminator":          "0",
		"public_flags":           0,
		"flags":                  0,
		"primary_guild":          nil,
		"avatar_decoration_data": nil,
		"collectibles":           nil,
		"banner":                 nil,
		"accent_color":           nil,
	}
	if u.bot {
		obj["bot"] = true
		obj["global_name"] = nil
	}
	return obj
}

// memberJSON renders a guild member object. Interactions add the member's
// permissions in the channel of the interaction, as Discord does: pass that
// channel as in, or nil elsewhere.
func (s *Server) memberJSON(g *guild, u *user, in *channel) map[string]any {
	roles := []any{}
	for _, id := range g.memberRoles[u.id] {
		roles = append(roles, id)
	}
	obj := map[string]any{
		"user":                         s.userJSON(u),
		"nick":                         nil,
		"avatar":                       nil,
		"banner":                       nil,
		"roles":                        roles,
		"joined_at":                    timestamp(g.joinedAt[u.id]),
		"premium_since":                nil,
		"deaf":                         false,
		"mute":                         false,
		"flags":                        0,
		"pending":                      false,
		"communication_disabled_until": nil,
	}
	if in != nil {
		obj["permissions"] = strconv.FormatInt(s.permissions(u, in), 10)
	}
	return obj
}

// channelJSON renders a channel object.
func (s *Server) channelJSON(c *channel) map[string]any {
	last := any(nil)
	if n := len(c.messages); n > 0 {
		last = c.messages[n-1]
	}
	switch c.typ {
	case discordgo.ChannelTypeDM:
		return map[string]any{
			"id":              c.id,
			"type":            int(c.typ),
			"last_message_id": last,
			"flags":           0,
			"recipients":      []any{s.userJSON(s.users[c.recipient])},
		}
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread:
		meta := map[string]any{
			"archived":              c.archived,
			"auto_archive_duration": c.autoArchive,
			"archive_timestamp":     timestamp(c.archivedAt),
			"locked":                c.locked,
			"create_timestamp":      timestamp(c.created),
		}
		if c.typ == discordgo.ChannelTypeGuildPrivateThread {
			meta["invitable"] = c.invitable
		}
		count := 0
		for _, id := range c.messages {
			if m := s.messages[id]; m != nil && !m.deleted {
				count++
			}
		}
		return map[string]any{
			"id":                  c.id,
			"type":                int(c.typ),
			"guild_id":            c.guildID,
			"parent_id":           c.parentID,
			"owner_id":            c.ownerID,
			"name":                c.name,
			"last_message_id":     last,
			"rate_limit_per_user": 0,
			"flags":               0,
			"thread_metadata":     meta,
			"message_count":       count,
			"member_count":        len(c.threadUsers),
			"total_message_sent":  count,
		}
	default:
		out := map[string]any{
			"id":                    c.id,
			"type":                  int(c.typ),
			"guild_id":              c.guildID,
			"name":                  c.name,
			"position":              0,
			"parent_id":             nil,
			"topic":                 nil,
			"nsfw":                  false,
			"rate_limit_per_user":   0,
			"last_message_id":       last,
			"flags":                 0,
			"permission_overwrites": overwritesJSON(c.overwrites),
		}
		if c.typ == discordgo.ChannelTypeGuildForum {
			out["available_tags"] = []any{}
			out["default_auto_archive_duration"] = 4320
		}
		return out
	}
}

// guildJSON renders the full guild object of GUILD_CREATE.
func (s *Server) guildJSON(g *guild) map[string]any {
	var channels, threads, members, roles []any
	for _, id := range g.channels {
		c := s.channels[id]
		switch {
		case !isThread(c):
			channels = append(channels, s.channelJSON(c))
		case !c.archived && s.botSees(c):
			threads = append(threads, s.channelJSON(c)) // active threads the bot can see
		}
	}
	for _, id := range g.members {
		members = append(members, s.memberJSON(g, s.users[id], nil))
	}
	for _, r := range g.roles {
		roles = append(roles, roleJSON(r))
	}
	system := any(nil)
	if c := s.channels[g.general]; c != nil && !c.deleted {
		system = c.id
	}

	return map[string]any{
		"id":                            g.id,
		"name":                          g.name,
		"icon":                          nil,
		"owner_id":                      g.ownerID,
		"afk_channel_id":                nil,
		"afk_timeout":                   300,
		"verification_level":            0,
		"default_message_notifications": 0,
		"explicit_content_filter":       0,
		"roles":                         roles,
		"emojis":                        []any{},
		"stickers":                      []any{},
		"features":                      []any{},
		"mfa_level":                     0,
		"application_id":                nil,
		"system_channel_id":             system,
		"system_channel_flags":          0,
		"rules_channel_id":              nil,
		"vanity_url_code":               nil,
		"description":                   nil,
		"banner":                        nil,
		"premium_tier":                  0,
		"preferred_locale":              localeOr(g.locale),
		"public_updates_channel_id":     nil,
		"nsfw_level":                    0,
		"premium_progress_bar_enabled":  false,
		"joined_at":                     timestamp(g.joined),
		"large":                         false,
		"unavailable":                   false,
		"member_count":                  len(g.members),
		"voice_states":                  []any{},
		"members":                       orEmpty(members),
		"channels":                      orEmpty(channels),
		"threads":                       orEmpty(threads),
		"presences":                     []any{},
		"stage_instances":               []any{},
		"guild_scheduled_events":        []any{},
	}
}

// attachmentJSON renders an attachment object; url points at the stand-in's
// CDN path through the real CDN host, which Server.HTTPClient rewrites.
func (s *Server) attachmentJSON(m *message, a *attachment) map[string]any {
	url := "https://cdn.discordapp.com/attachments/" + m.channelID + "/" + a.id + "/" + a.filename
	obj := map[string]any{
		"id":        a.id,
		"filename":  a.filename,
		"size":      a.size,
		"url":       url,
		"proxy_url": url,
	}
	if a.contentType != "" {
		obj["content_type"] = a.contentType
	}
	if a.description != "" {
		obj["description"] = a.description
	}
	if a.width > 0 {
		obj["width"], obj["height"] = a.width, a.height
	}
	if m.ephemeralTo != "" {
		obj["ephemeral"] = true
	}
	return obj
}

// messageJSON renders a message object as REST answers carry it; gateway
// events add guild_id (and member) on top. A reply (type 19) carries the
// message it answers as referenced_message, as that message is now: null
// once it is deleted, and itself without a referenced_message, as Discord
// sends it.
func (s *Server) messageJSON(m *message) map[string]any {
	obj := s.basicMessageJSON(m)
	if m.typ == discordgo.MessageTypeReply {
		obj["referenced_message"] = nil
		if ref := s.referencedMessage(m); ref != nil {
			obj["referenced_message"] = s.basicMessageJSON(ref)
		}
	}
	return obj
}

// referencedMessage returns the message a reply answers, or nil when it is
// gone. Call with s.mu held.
func (s *Server) referencedMessage(m *message) *message {
	var ref struct {
		MessageID string `json:"message_id"`
	}
	_ = json.Unmarshal(m.reference, &ref)
	r := s.messages[ref.MessageID]
	if r == nil || r.deleted || r.ephemeralTo != "" {
		return nil
	}
	return r
}

// basicMessageJSON renders a message object without referenced_message.
func (s *Server) basicMessageJSON(m *message) map[string]any {
	atts := []any{}
	for _, a := range m.attachments {
		atts = append(atts, s.attachmentJSON(m, a))
	}
	edited := any(nil)
	if !m.edited.IsZero() {
		edited = timestamp(m.edited)
	}
	obj := map[string]any{
		"id":               m.id,
		"channel_id":       m.channelID,
		"type":             int(m.typ),
		"author":           s.userJSON(s.users[m.authorID]),
		"content":          m.content,
		"timestamp":        timestamp(m.created),
		"edited_timestamp": edited,
		"tts":              false,
		"mention_everyone": false,
		"mentions":         []any{},
		"mention_roles":    []any{},
		"attachments":      atts,
		"embeds":           orEmpty(m.embeds),
		"components":       numberComponents(m.components),
		"pinned":           false,
		"flags":            m.flags,
	}
	if m.webhookID != "" {
		obj["webhook_id"] = m.webhookID
		obj["application_id"] = s.appID
	}
	if in := m.interaction; in != nil {
		invoker := s.userJSON(s.users[in.userID])
		obj["interaction_metadata"] = map[string]any{
			"id":                             in.id,
			"type":                           int(in.typ),
			"user":                           invoker,
			"authorizing_integration_owners": in.owners(),
		}
		if in.typ == discordgo.InteractionApplicationCommand {
			obj["interaction"] = map[string]any{"id": in.id, "type": int(in.typ), "name": in.commandName, "user": invoker}
		}
	}
	if m.threadID != "" {
		if c := s.channels[m.threadID]; c != nil {
			obj["thread"] = s.channelJSON(c)
		}
	}
	if len(m.reference) > 0 {
		obj["message_reference"] = s.referenceJSON(m)
	}
	return obj
}

// referenceJSON renders a reply's message_reference as Discord answers it.
func (s *Server) referenceJSON(m *message) map[string]any {
	var ref struct {
		Type      int    `json:"type"`
		MessageID string `json:"message_id"`
		ChannelID string `json:"channel_id"`
	}
	_ = json.Unmarshal(m.reference, &ref)
	out := map[string]any{"type": ref.Type, "message_id": ref.MessageID, "channel_id": m.channelID}
	if ref.ChannelID != "" {
		out["channel_id"] = ref.ChannelID
	}
	if c := s.channels[m.channelID]; c != nil && c.guildID != "" {
		out["guild_id"] = c.guildID
	}
	return out
}

// numberComponents returns a copy of a component tree as Discord stores
// it: every component carries a numeric "id", null fields are dropped, and
// select menus state their min_values and max_values (default 1).
func numberComponents(tree []any) []any {
	next := 1
	var walk func(v any) any
	walk = func(v any) any {
		obj, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := make(map[string]any, len(obj)+1)
		for k, val := range obj {
			if val != nil {
				out[k] = val
			}
		}
		if _, ok := out["id"]; !ok {
			out["id"] = next
		}
		next++
		if isSelect(componentType(obj)) {
			for _, k := range []string{"min_values", "max_values"} {
				if _, ok := out[k]; !ok {
					out[k] = 1
				}
			}
		}
		if kids, ok := obj["components"].([]any); ok {
			copied := make([]any, len(kids))
			for i, k := range kids {
				copied[i] = walk(k)
			}
			out["components"] = copied
		}
		if kid, ok := obj["component"]; ok {
			out["component"] = walk(kid)
		}
		return out
	}
	out := make([]any, 0, len(tree))
	for _, c := range tree {
		out = append(out, walk(c))
	}
	return out
}

func orEmpty(list []any) []any {
	if list == nil {
		return []any{}
	}
	return list
}
