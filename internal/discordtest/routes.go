package discordtest

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"strconv"
	"time"

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
	"GET /guilds/{guild_id}":                   (*Server).getGuild,
	"GET /guilds/{guild_id}/members/{user_id}": (*Server).getGuildMember,

	"GET /channels/{channel_id}":                                (*Server).getChannel,
	"PATCH /channels/{channel_id}":                              (*Server).editChannel,
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
	obj := s.userJSON(s.bot)
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

// getGuild answers GET /guilds/{guild_id}: the guild, while the bot is in
// it (during an outage too: REST is still answered); 403 with code 50001
// Missing Access once the bot was removed (KickBot), as Discord answers
// about a guild the bot is not in; 404 with code 10004 for a guild that
// does not exist.
func (s *Server) getGuild(q *request) (int, any, *apiError) {
	g := s.guilds[q.params["guild_id"]]
	if g == nil {
		return 0, nil, errUnknownGuild()
	}
	if !g.botIn {
		return 0, nil, refusal(errMissingAccess(), "the bot was removed from guild "+g.name)
	}
	obj := s.guildJSON(g)
	for _, k := range []string{"joined_at", "large", "unavailable", "member_count", "voice_states", "members", "channels", "threads", "presences", "stage_instances", "guild_scheduled_events"} {
		delete(obj, k)
	}
	maps.Copy(obj, map[string]any{
		"home_header": nil, "splash": nil, "discovery_splash": nil, "region": "deprecated", "widget_enabled": false,
		"widget_channel_id": nil, "max_presences": nil, "max_members": 500000, "max_stage_video_channel_users": 50,
		"max_video_channel_users": 25, "premium_subscription_count": 0, "safety_alerts_channel_id": nil, "nsfw": false,
		"incidents_data": nil,
	})
	return http.StatusOK, obj, nil
}

func (s *Server) getGuildMember(q *request) (int, any, *apiError) {
	g := s.guilds[q.params["guild_id"]]
	if g == nil {
		return 0, nil, errUnknownGuild()
	}
	if !g.botIn {
		return 0, nil, refusal(errMissingAccess(), "the bot was removed from guild "+g.name)
	}
	u := s.users[q.params["user_id"]]
	if u != nil && g.left[u.id] {
		return 0, nil, refusal(errUnknownMember(), u.name+" left guild "+g.name)
	}
	if u == nil || !hasMember(g, u.id) {
		return 0, nil, errUnknownMember()
	}
	return http.StatusOK, s.memberJSON(g, u, nil), nil
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

// botChannel finds a channel the bot can see, or answers as Discord does:
// 10003 for a channel that does not exist (or was deleted), 50001 Missing
// Access for one in a guild the bot is not in, or one it cannot view.
func (s *Server) botChannel(id string) (*channel, *apiError) {
	c := s.channels[id]
	switch {
	case c == nil:
		return nil, errUnknownChannel()
	case c.deleted:
		return nil, refusal(errUnknownChannel(), "channel "+c.name+" was deleted")
	case c.typ == discordgo.ChannelTypeDM:
		return c, nil
	case !s.guilds[c.guildID].botIn:
		return nil, refusal(errMissingAccess(), "the bot was removed from the guild of channel "+c.name)
	case !s.botSees(c):
		return nil, refusal(errMissingAccess(), "the bot lacks VIEW_CHANNEL in channel "+c.name+" (or is not in this private thread)")
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
	if m != nil && m.channelID == c.id && m.byModerator {
		return nil, refusal(errUnknownMessage(), "message "+id+" was deleted by a moderator")
	}
	if m == nil || m.channelID != c.id || m.deleted || m.ephemeralTo != "" {
		return nil, errUnknownMessage()
	}
	return m, nil
}

// listMessages answers the newest messages. Without READ_MESSAGE_HISTORY
// Discord answers an empty list rather than an error.
func (s *Server) listMessages(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	out := []any{}
	if c.guildID != "" && s.permissions(s.bot, c)&permReadMessageHistory == 0 {
		return http.StatusOK, out, nil
	}
	limit := 50
	if v, err := strconv.Atoi(q.query.Get("limit")); err == nil && v >= 1 && v <= 100 {
		limit = v
	}
	before, after := q.query.Get("before"), q.query.Get("after")
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
	if err := s.botMay(c, permReadMessageHistory, "reading a message"); err != nil {
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

// nonceWindow is how long a nonce sent with enforce_nonce deduplicates
// message creates: Discord says "a few minutes"; the stand-in takes the
// short end, so that a bot relying on more fails here first.
const nonceWindow = 2 * time.Minute

// nonceEntry is a message created with enforce_nonce.
type nonceEntry struct {
	messageID, channelID string
	at                   time.Time // server clock
}

// createExtras are the fields of a message create that only the create reads.
type createExtras struct {
	Nonce        json.RawMessage `json:"nonce"`
	EnforceNonce bool            `json:"enforce_nonce"`
	TTS          bool            `json:"tts"`
}

func (s *Server) createMessage(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	if c.typ == discordgo.ChannelTypeGuildForum {
		return 0, nil, refusal(errNonTextChannel(), "forum "+c.name+" takes no message of its own, only posts (threads)")
	}
	if c.typ == discordgo.ChannelTypeDM {
		to := s.users[c.recipient]
		if to.dmsClosed {
			return 0, nil, errCannotDM()
		}
		if !s.sharesGuild(to) {
			return 0, nil, refusal(errCannotDM(), to.name+" shares no guild with the bot any more")
		}
	}
	f, err := parseFields(q.body)
	if err != nil {
		return 0, nil, err
	}
	var extra createExtras
	_ = json.Unmarshal(q.body, &extra)
	need := sendPermission(c)
	if extra.TTS {
		need |= permSendTTS
	}
	if len(q.uploads) > 0 {
		need |= permAttachFiles
	}
	if err := s.botMay(c, need, "posting this message"); err != nil {
		return 0, nil, err
	}
	if present(f.MessageReference) && c.guildID != "" && s.permissions(s.bot, c)&permReadMessageHistory == 0 {
		return 0, nil, refusal(errReplyWithoutHistory(), "a reply needs READ_MESSAGE_HISTORY in channel "+c.name)
	}
	if err := threadPostable(c, s.permissions(s.bot, c)); err != nil {
		return 0, nil, err
	}
	if present(f.MessageReference) {
		keep, err := s.replyTarget(c, f.MessageReference)
		if err != nil {
			return 0, nil, err
		}
		if !keep {
			f.MessageReference = nil
		}
	}
	key := s.bot.id + "|" + string(bytes.TrimSpace(extra.Nonce))
	enforce := extra.EnforceNonce && present(extra.Nonce)
	if e := s.nonces[key]; enforce && e != nil && s.cfg.clock.Now().Sub(e.at) < nonceWindow {
		return s.repeatedNonce(q, c, e, extra.Nonce)
	}
	m := &message{id: s.nextID(), channelID: c.id, authorID: s.bot.id, created: s.cfg.clock.Now()}
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
	if present(extra.Nonce) {
		m.nonce = append(json.RawMessage(nil), extra.Nonce...)
	}
	s.unarchive(c)
	s.store(m)
	s.dispatchMessage("MESSAGE_CREATE", m)
	if enforce {
		s.nonces[key] = &nonceEntry{messageID: m.id, channelID: c.id, at: m.created}
	}
	return http.StatusOK, s.createdJSON(m), nil
}

// repeatedNonce answers a create whose nonce, with enforce_nonce, names a
// message the bot created within the last few minutes: that message, and
// no new one. If that message was deleted meanwhile Discord answers 10008
// Unknown Message rather than create it again. Call with s.mu held.
func (s *Server) repeatedNonce(q *request, c *channel, e *nonceEntry, nonce json.RawMessage) (int, any, *apiError) {
	first := s.messages[e.messageID]
	if first.deleted {
		return 0, nil, refusal(errUnknownMessage(), "the message created with nonce "+string(nonce)+" was deleted since; Discord does not create it again")
	}
	if e.channelID != c.id {
		// Discord dedups per sender, not per channel: the bot gets back a
		// message of another channel and this one is never posted.
		s.violation("POST %s: nonce %s with enforce_nonce was used %v ago for message %s in channel %s; Discord answers with that message and posts nothing in channel %s",
			q.op.Template, nonce, s.cfg.clock.Now().Sub(e.at).Round(time.Second), first.id, e.channelID, c.id)
	}
	return http.StatusOK, s.createdJSON(first), nil
}

// createdJSON renders the answer to a message create: the message with the
// nonce it was sent with.
func (s *Server) createdJSON(m *message) map[string]any {
	obj := s.messageJSON(m)
	if m.nonce != nil {
		obj["nonce"] = m.nonce
	}
	return obj
}

// store adds a new message to its channel; a message is activity that
// keeps a thread from archiving.
func (s *Server) store(m *message) {
	s.messages[m.id] = m
	c := s.channels[m.channelID]
	c.messages = append(c.messages, m.id)
	if isThread(c) && m.ephemeralTo == "" {
		c.active = m.created
	}
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
	if m.authorID != s.bot.id {
		return 0, nil, errNotAuthor()
	}
	if len(q.uploads) > 0 {
		if err := s.botMay(c, permAttachFiles, "adding files to a message"); err != nil {
			return 0, nil, err
		}
	}
	if err := threadEditable(c, s.permissions(s.bot, c)); err != nil {
		return 0, nil, err
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
	if m.authorID != s.bot.id {
		if c.typ == discordgo.ChannelTypeDM {
			return 0, nil, &apiError{status: 403, code: 50003, message: "Cannot execute action on a DM channel", detail: "a bot cannot delete what a member wrote in a DM"}
		}
		if err := s.botMay(c, permManageMessages, "deleting another author's message"); err != nil {
			return 0, nil, err
		}
	}
	s.deleteStored(m)
	return http.StatusNoContent, nil, nil
}

// replyTarget checks the message a new message of c replies to (its
// message_reference, raw): true when it is there; when it is gone (or
// never was in c), Discord refuses the reply (50035, Unknown message)
// unless fail_if_not_exists is false, and then posts the message as one
// that replies to nothing (false).
func (s *Server) replyTarget(c *channel, raw json.RawMessage) (bool, *apiError) {
	var ref struct {
		MessageID       string `json:"message_id"`
		ChannelID       string `json:"channel_id"`
		FailIfNotExists *bool  `json:"fail_if_not_exists"`
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		return false, errInvalidForm(formError("message_reference", "BASE_TYPE_BAD_TYPE", err.Error()))
	}
	in := c.id
	if ref.ChannelID != "" {
		in = ref.ChannelID
	}
	if m := s.messages[ref.MessageID]; m != nil && !m.deleted && m.ephemeralTo == "" && m.channelID == in {
		return true, nil
	}
	if ref.FailIfNotExists != nil && !*ref.FailIfNotExists {
		return false, nil
	}
	return false, refusal(errInvalidForm(formError("message_reference", "REPLIES_UNKNOWN_MESSAGE", "Unknown message")),
		"the message replied to, "+ref.MessageID+", is not there (deleted?) and fail_if_not_exists is not false")
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
	if c.guildID == "" || s.botSees(c) {
		s.dispatch("MESSAGE_DELETE", c.guildID, intentFor(c), data)
	}
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
	if err := s.botMay(c, permCreatePublicThreads, "starting a public thread"); err != nil {
		return 0, nil, err
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
	if c.typ == discordgo.ChannelTypeGuildForum {
		s.violation("POST %s: opening a forum post through the API is not implemented by the stand-in", q.op.Template)
		return 0, nil, &apiError{status: http.StatusNotImplemented, message: "501: Not Implemented", expected: true}
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
	need, what := permCreatePublicThreads, "starting a public thread"
	if typ == discordgo.ChannelTypeGuildPrivateThread {
		need, what = permCreatePrivateThreads, "starting a private thread"
	}
	if err := s.botMay(c, need, what); err != nil {
		return 0, nil, err
	}
	th := s.newThread(c, s.nextID(), body.Name, typ, body.AutoArchiveDuration)
	th.invitable = body.Invitable == nil || *body.Invitable
	return http.StatusCreated, s.channelJSON(th), nil
}

// newThread creates a thread owned and joined by the bot.
func (s *Server) newThread(parent *channel, id, name string, typ discordgo.ChannelType, archive int) *channel {
	return s.newThreadBy(parent, id, name, typ, archive, s.bot.id)
}

// newThreadBy creates a thread owned and joined by user owner.
func (s *Server) newThreadBy(parent *channel, id, name string, typ discordgo.ChannelType, archive int, owner string) *channel {
	if archive == 0 {
		archive = 1440 // a channel's default_auto_archive_duration, unless set otherwise
	}
	now := s.cfg.clock.Now()
	th := &channel{
		id: id, typ: typ, guildID: parent.guildID, name: name, parentID: parent.id, ownerID: owner,
		autoArchive: archive, created: now, archivedAt: now, active: now, threadUsers: map[string]bool{owner: true},
	}
	s.channels[th.id] = th
	s.threads = append(s.threads, th.id)
	g := s.guilds[parent.guildID]
	g.channels = append(g.channels, th.id)
	data := s.channelJSON(th)
	data["newly_created"] = true
	s.dispatch("THREAD_CREATE", th.guildID, discordgo.IntentGuilds, data)
	return th
}

func (s *Server) joinThread(q *request) (int, any, *apiError) {
	return s.addToThread(q.params["channel_id"], s.bot.id)
}

func (s *Server) addThreadMember(q *request) (int, any, *apiError) {
	return s.addToThread(q.params["channel_id"], q.params["user_id"])
}

// addToThread adds the bot or a member to a thread. Both need the thread
// active; adding someone else needs the right to post in it.
func (s *Server) addToThread(channelID, userID string) (int, any, *apiError) {
	c, err := s.botChannel(channelID)
	if err != nil {
		return 0, nil, err
	}
	if !isThread(c) {
		return 0, nil, errWrongChannelType()
	}
	if c.archived {
		return 0, nil, refusal(errThreadArchived(), "thread "+c.name+" is archived; unarchive it (or send a message in it) first")
	}
	if userID != s.bot.id {
		if err := s.botMay(c, permSendInThreads, "adding a member to a thread"); err != nil {
			return 0, nil, err
		}
	}
	g := s.guilds[c.guildID]
	if g.left[userID] {
		return 0, nil, refusal(errUnknownMember(), s.users[userID].name+" left guild "+g.name)
	}
	if !hasMember(g, userID) {
		return 0, nil, errUnknownMember()
	}
	c.threadUsers[userID] = true
	return http.StatusNoContent, nil, nil
}

// threadEdit is the part of a thread edit (PATCH /channels/{id}) the
// stand-in acts on.
type threadEdit struct {
	Name                *string `json:"name"`
	Archived            *bool   `json:"archived"`
	Locked              *bool   `json:"locked"`
	AutoArchiveDuration *int    `json:"auto_archive_duration"`
}

// editChannel edits a thread: unarchiving it needs SEND_MESSAGES_IN_THREADS
// (MANAGE_THREADS when it is locked); locking needs MANAGE_THREADS; the
// other fields need MANAGE_THREADS or being its creator. An archived thread
// takes no edit that does not unarchive it (50083). Editing text channels
// is not implemented.
func (s *Server) editChannel(q *request) (int, any, *apiError) {
	c, err := s.botChannel(q.params["channel_id"])
	if err != nil {
		return 0, nil, err
	}
	if !isThread(c) {
		s.violation("PATCH %s: editing channels other than threads is not implemented by the stand-in", q.op.Template)
		return 0, nil, &apiError{status: http.StatusNotImplemented, message: "501: Not Implemented", expected: true}
	}
	var body threadEdit
	_ = json.Unmarshal(q.body, &body)
	perms := s.permissions(s.bot, c)
	unarchiving := body.Archived != nil && !*body.Archived
	if c.archived && !unarchiving {
		return 0, nil, refusal(errThreadArchived(), "thread "+c.name+" is archived; an edit must unarchive it")
	}
	var need int64
	switch {
	case unarchiving && (c.locked || body.Locked != nil && *body.Locked) && c.archived:
		need |= permManageThreads
	case unarchiving && c.archived:
		need |= permSendInThreads
	}
	if body.Locked != nil && *body.Locked != c.locked {
		need |= permManageThreads
	}
	if (body.Name != nil || body.AutoArchiveDuration != nil || body.Archived != nil && *body.Archived) && c.ownerID != s.bot.id {
		need |= permManageThreads
	}
	if missing := need &^ perms; missing != 0 {
		return 0, nil, refusal(errMissingPermissions(), "editing thread "+c.name+" needs "+permissionList(missing))
	}
	now := s.cfg.clock.Now()
	if body.Name != nil {
		c.name = *body.Name
	}
	if body.Locked != nil {
		c.locked = *body.Locked
	}
	if body.AutoArchiveDuration != nil {
		c.autoArchive, c.active, c.archivedAt = *body.AutoArchiveDuration, now, now
	}
	if body.Archived != nil && *body.Archived != c.archived {
		c.archived, c.archivedAt = *body.Archived, now
		if !c.archived {
			c.active = now
		}
	}
	s.dispatchThread("THREAD_UPDATE", c)
	return http.StatusOK, s.channelJSON(c), nil
}
