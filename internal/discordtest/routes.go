package discordtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// routes maps "METHOD /template" of Discord's API description to what the
// stand-in does. A valid route missing here fails the test as "not
// implemented", so that the gap is seen and filled, never mistaken for a
// refusal by Discord.
var routes = map[string]handler{
	"GET /gateway":                             (*Server).getGateway,
	"GET /gateway/bot":                         (*Server).getGatewayBot,
	"GET /users/@me":                           (*Server).getMe,
	"GET /users/{user_id}":                     (*Server).getUser,
	"POST /users/@me/channels":                 (*Server).createDM,
	"GET /guilds/{guild_id}/members/{user_id}": (*Server).getGuildMember,

	"GET /channels/{channel_id}":                                (*Server).getChannel,
	"GET /channels/{channel_id}/messages":                       (*Server).listMessages,
	"POST /channels/{channel_id}/messages":                      (*Server).createMessage,
	"GET /channels/{channel_id}/messages/{message_id}":          (*Server).getMessage,
	"PATCH /channels/{channel_id}/messages/{message_id}":        (*Server).editMessage,
	"DELETE /channels/{channel_id}/messages/{message_id}":       (*Server).deleteMessage,
	"POST /channels/{channel_id}/messages/{message_id}/threads": (*Server).threadFromMessage,
	"POST /channels/{channel_id}/threads":                       (*Server).threadWithoutMessage,
	"PUT /channels/{channel_id}/thread-members/@me":             (*Server).joinThread,
	"PUT /channels/{channel_id}/thread-members/{user_id}":       (*Server).addThreadMember,

	"GET /applications/{application_id}/commands":                                   (*Server).listCommands,
	"PUT /applications/{application_id}/commands":                                   (*Server).overwriteCommands,
	"POST /applications/{application_id}/commands":                                  (*Server).createCommand,
	"GET /applications/{application_id}/commands/{command_id}":                      (*Server).getCommand,
	"PATCH /applications/{application_id}/commands/{command_id}":                    (*Server).editCommand,
	"DELETE /applications/{application_id}/commands/{command_id}":                   (*Server).deleteCommand,
	"GET /applications/{application_id}/guilds/{guild_id}/commands":                 (*Server).listCommands,
	"PUT /applications/{application_id}/guilds/{guild_id}/commands":                 (*Server).overwriteCommands,
	"POST /applications/{application_id}/guilds/{guild_id}/commands":                (*Server).createCommand,
	"GET /applications/{application_id}/guilds/{guild_id}/commands/{command_id}":    (*Server).getCommand,
	"PATCH /applications/{application_id}/guilds/{guild_id}/commands/{command_id}":  (*Server).editCommand,
	"DELETE /applications/{application_id}/guilds/{guild_id}/commands/{command_id}": (*Server).deleteCommand,

	"POST /interactions/{interaction_id}/{interaction_token}/callback":    (*Server).interactionCallback,
	"POST /webhooks/{webhook_id}/{webhook_token}":                         (*Server).createFollowup,
	"GET /webhooks/{webhook_id}/{webhook_token}/messages/@original":       (*Server).getWebhookMessage,
	"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original":     (*Server).editWebhookMessage,
	"DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original":    (*Server).deleteWebhookMessage,
	"GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}":    (*Server).getWebhookMessage,
	"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}":  (*Server).editWebhookMessage,
	"DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": (*Server).deleteWebhookMessage,
}

func (s *Server) getGateway(*request) (int, any, *apiError) {
	return http.StatusOK, map[string]any{"url": s.GatewayURL()}, nil
}

func (s *Server) getGatewayBot(*request) (int, any, *apiError) {
	return http.StatusOK, map[string]any{
		"url":    s.GatewayURL(),
		"shards": 1,
		"session_start_limit": map[string]any{
			"total": 1000, "remaining": 1000 - s.stats.Identifies, "reset_after": 86400000, "max_concurrency": 1,
		},
	}, nil
}

func (s *Server) getMe(*request) (int, any, *apiError) {
	obj := s.userJSON(s.app)
	obj["verified"] = true
	obj["mfa_enabled"] = false
	obj["locale"] = "en-US"
	obj["email"] = nil
	return http.StatusOK, obj, nil
}

func (s *Server) getUser(q *request) (int, any, *apiError) {
	u := s.users[q.params["user_id"]]
	if u == nil {
		return 0, nil, errUnknownUser()
	}
	return http.StatusOK, s.userJSON(u), nil
}

func (s *Server) getGuildMember(q *request) (int, any, *apiError) {
	g := s.guilds[q.params["guild_id"]]
	if g == nil {
		return 0, nil, &apiError{status: 404, code: 10004, message: "Unknown Guild"}
	}
	u := s.users[q.params["user_id"]]
	if u == nil || !slices.Contains(g.members, u.id) {
		return 0, nil, &apiError{status: 404, code: 10007, message: "Unknown Member"}
	}
	return http.StatusOK, s.memberJSON(g, u, false), nil
}

// createDM opens (or returns) the DM channel between the bot and a user.
func (s *Server) createDM(q *request) (int, any, *apiError) {
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	_ = json.Unmarshal(q.body, &body)
	u := s.users[body.RecipientID]
	if u == nil {
		return 0, nil, errUnknownUser()
	}
	if u.bot {
		return 0, nil, &apiError{status: 400, code: 50007, message: "Cannot send messages to this user", detail: "the bot cannot DM itself"}
	}
	return http.StatusOK, s.channelJSON(s.dmChannel(u)), nil
}

// dmChannel returns the DM channel of a user with the bot, opening it.
func (s *Server) dmChannel(u *user) *channel {
	if u.dm != "" {
		return s.channels[u.dm]
	}
	c := &channel{id: s.nextID(), typ: discordgo.ChannelTypeDM, recipient: u.id}
	s.channels[c.id] = c
	u.dm = c.id
	return c
}

// botChannel finds a channel the bot can use.
func (s *Server) botChannel(id string) (*channel, *apiError) {
	c := s.channels[id]
	if c == nil {
		return nil, errUnknownChannel()
	}
	if c.typ == discordgo.ChannelTypeGuildPrivateThread && !c.threadUsers[s.app.id] {
		return nil, errMissingAccess()
	}
	return c, nil
}

func (s *Server) getChannel(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, s.channelJSON(c), nil
}

// channelMessage finds a non-ephemeral message of a channel.
func (s *Server) channelMessage(c *channel, id string) (*message, *apiError) {
	m := s.messages[id]
	if m == nil || m.channelID != c.id || m.deleted || m.ephemeralTo != "" {
		return nil, errUnknownMessage()
	}
	return m, nil
}

func (s *Server) listMessages(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	limit := 50
	if v, err := strconv.Atoi(q.query.Get("limit")); err == nil && v >= 1 && v <= 100 {
		limit = v
	}
	before, after := q.query.Get("before"), q.query.Get("after")
	out := []any{}
	for i := len(c.messages) - 1; i >= 0 && len(out) < limit; i-- {
		m := s.messages[c.messages[i]]
		if m.deleted || m.ephemeralTo != "" {
			continue
		}
		if before != "" && !idLess(m.id, before) || after != "" && !idLess(after, m.id) {
			continue
		}
		out = append(out, s.messageJSON(m))
	}
	return http.StatusOK, out, nil
}

// idLess compares snowflakes.
func idLess(a, b string) bool {
	x, _ := strconv.ParseUint(a, 10, 64)
	y, _ := strconv.ParseUint(b, 10, 64)
	return x < y
}

func (s *Server) getMessage(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	m, err := s.channelMessage(c, q.params["message_id"])
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, s.messageJSON(m), nil
}

// createFlags are the message flags a bot may set when sending a message.
const createFlags = flagSuppressEmbeds | flagSuppressNotices | 1<<13 | flagComponentsV2

func (s *Server) createMessage(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	if c.typ == discordgo.ChannelTypeDM && s.users[c.recipient].dmsClosed {
		return 0, nil, errCannotDM()
	}
	f, err := parseFields(q.body)
	if err != nil {
		return 0, nil, err
	}
	m := &message{id: s.nextID(), channelID: c.id, authorID: s.app.id, created: s.cfg.clock.Now()}
	if err := s.compose(m, f, q.uploads, false, q.version); err != nil {
		return 0, nil, err
	}
	if m.flags&flagEphemeral != 0 {
		// Discord honours the flag only on interaction responses and posts
		// this message for everyone to see; for a bot that hides things,
		// that is a leak, so the stand-in fails the test.
		s.violation("POST %s: flag 64 (EPHEMERAL) on a channel message: Discord ignores it there and shows the message to everyone; only interaction responses and follow-ups can be ephemeral", q.op.Template)
	}
	m.flags &= createFlags
	s.store(m)
	s.dispatchMessage("MESSAGE_CREATE", m)
	return http.StatusOK, s.messageJSON(m), nil
}

// store adds a new message to its channel.
func (s *Server) store(m *message) {
	s.messages[m.id] = m
	c := s.channels[m.channelID]
	c.messages = append(c.messages, m.id)
}

func (s *Server) editMessage(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	m, err := s.channelMessage(c, q.params["message_id"])
	if err != nil {
		return 0, nil, err
	}
	if m.authorID != s.app.id {
		return 0, nil, errNotAuthor()
	}
	return s.applyEdit(q, m)
}

// applyEdit edits a message the bot may edit and tells the gateway.
func (s *Server) applyEdit(q *request, m *message) (int, any, *apiError) {
	f, err := parseFields(q.body)
	if err != nil {
		return 0, nil, err
	}
	edited := *m
	if err := s.compose(&edited, f, q.uploads, true, q.version); err != nil {
		return 0, nil, err
	}
	edited.edited = s.cfg.clock.Now()
	edited.edits++
	edited.flags &^= flagLoading
	*m = edited
	s.dispatchMessage("MESSAGE_UPDATE", m)
	return http.StatusOK, s.messageJSON(m), nil
}

func (s *Server) deleteMessage(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	m, err := s.channelMessage(c, q.params["message_id"])
	if err != nil {
		return 0, nil, err
	}
	s.deleteStored(m)
	return http.StatusNoContent, nil, nil
}

// deleteStored marks a message deleted and tells the gateway.
func (s *Server) deleteStored(m *message) {
	m.deleted = true
	if m.ephemeralTo != "" {
		return
	}
	c := s.channels[m.channelID]
	data := map[string]any{"id": m.id, "channel_id": m.channelID}
	if c.guildID != "" {
		data["guild_id"] = c.guildID
	}
	s.dispatch("MESSAGE_DELETE", c.guildID, intentFor(c), data)
}

// threadBody is the body of both thread creations.
type threadBody struct {
	Name                string `json:"name"`
	AutoArchiveDuration int    `json:"auto_archive_duration"`
	Type                *int   `json:"type"`
	Invitable           *bool  `json:"invitable"`
}

func (s *Server) threadFromMessage(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	if c.typ != discordgo.ChannelTypeGuildText && c.typ != discordgo.ChannelTypeGuildNews {
		return 0, nil, errWrongChannelType()
	}
	m, err := s.channelMessage(c, q.params["message_id"])
	if err != nil {
		return 0, nil, err
	}
	if m.threadID != "" {
		return 0, nil, errThreadExists()
	}
	var body threadBody
	_ = json.Unmarshal(q.body, &body)
	// A thread started from a message has the message's id.
	th := s.newThread(c, m.id, body.Name, discordgo.ChannelTypeGuildPublicThread, body.AutoArchiveDuration)
	th.fromMessage = m.id
	m.threadID = th.id
	return http.StatusCreated, s.channelJSON(th), nil
}

func (s *Server) threadWithoutMessage(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	if c.typ != discordgo.ChannelTypeGuildText && c.typ != discordgo.ChannelTypeGuildNews {
		return 0, nil, errWrongChannelType()
	}
	var body threadBody
	_ = json.Unmarshal(q.body, &body)
	typ := discordgo.ChannelTypeGuildPrivateThread // v9's default, kept from the first thread API
	if body.Type != nil {
		typ = discordgo.ChannelType(*body.Type)
	} else if q.version >= 10 {
		return 0, nil, errInvalidForm(formError("type", "BASE_TYPE_REQUIRED", "This field is required"))
	}
	if typ == discordgo.ChannelTypeGuildNewsThread && c.typ != discordgo.ChannelTypeGuildNews {
		return 0, nil, errWrongChannelType()
	}
	th := s.newThread(c, s.nextID(), body.Name, typ, body.AutoArchiveDuration)
	th.invitable = body.Invitable == nil || *body.Invitable
	return http.StatusCreated, s.channelJSON(th), nil
}

// newThread creates a thread owned and joined by the bot.
func (s *Server) newThread(parent *channel, id, name string, typ discordgo.ChannelType, archive int) *channel {
	if archive == 0 {
		archive = 1440 // a channel's default_auto_archive_duration, unless set otherwise
	}
	th := &channel{
		id: id, typ: typ, guildID: parent.guildID, name: name, parentID: parent.id, ownerID: s.app.id,
		autoArchive: archive, created: s.cfg.clock.Now(), threadUsers: map[string]bool{s.app.id: true},
	}
	s.channels[th.id] = th
	g := s.guilds[parent.guildID]
	g.channels = append(g.channels, th.id)
	data := s.channelJSON(th)
	data["newly_created"] = true
	s.dispatch("THREAD_CREATE", th.guildID, discordgo.IntentGuilds, data)
	return th
}

func (s *Server) joinThread(q *request) (int, any, *apiError) {
	return s.addToThread(q.params["channel_id"], s.app.id)
}

func (s *Server) addThreadMember(q *request) (int, any, *apiError) {
	return s.addToThread(q.params["channel_id"], q.params["user_id"])
}

func (s *Server) addToThread(channelID, userID string) (int, any, *apiError) {
	c := s.channels[channelID]
	if c == nil {
		return 0, nil, errUnknownChannel()
	}
	if c.typ != discordgo.ChannelTypeGuildPublicThread && c.typ != discordgo.ChannelTypeGuildPrivateThread {
		return 0, nil, errWrongChannelType()
	}
	g := s.guilds[c.guildID]
	if !slices.Contains(g.members, userID) && userID != s.app.id {
		return 0, nil, &apiError{status: 404, code: 10007, message: "Unknown Member"}
	}
	c.threadUsers[userID] = true
	return http.StatusNoContent, nil, nil
}
