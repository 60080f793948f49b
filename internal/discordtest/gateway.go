package discordtest

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Gateway opcodes.
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opVoiceState     = 4
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatAck   = 11
)

// Gateway close codes Discord uses.
const (
	closeUnknownOpcode      = 4001
	closeDecodeError        = 4002
	closeNotAuthenticated   = 4003
	closeAuthFailed         = 4004
	closeAlreadyAuth        = 4005
	closeInvalidShard       = 4010
	closeInvalidAPIVersion  = 4012
	closeInvalidIntents     = 4013
	closeDisallowedIntents  = 4014
	privilegedIntents       = discordgo.IntentGuildMembers | discordgo.IntentGuildPresences | discordgo.IntentMessageContent
	maxReplayedEventsStored = 10000
)

// GatewayStats counts what happened on the gateway.
type GatewayStats struct {
	Connections     int // websocket connections accepted
	Refused         int // connections refused during an outage (GatewayOutage)
	Identifies      int // IDENTIFYs answered with READY
	Resumes         int // RESUMEs answered with the missed events and RESUMED
	InvalidSessions int // RESUMEs refused with INVALID_SESSION
	Heartbeats      int // heartbeats acknowledged
	Replayed        int // events sent again on a resume
	Dispatched      int // events dispatched (each counted once per session)
}

// GatewayStats returns the gateway counters so far.
func (s *Server) GatewayStats() GatewayStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// gwSession is a gateway session: it outlives its connections, so that a
// client can resume it and get the events it missed.
type gwSession struct {
	id       string
	shard    [2]int
	intents  discordgo.Intent
	compress bool
	version  int
	seq      int64
	events   []gwEvent // every dispatched event, for replay on resume
	conn     *gwConn   // nil while disconnected
	ready    bool      // READY and the GUILD_CREATEs have been sent
	invalid  bool      // closed by the client or the test: cannot be resumed
}

// gwEvent is one dispatched event.
type gwEvent struct {
	seq  int64
	name string
	data json.RawMessage
}

// ownsGuild reports whether a guild's events go to this connection's shard;
// DMs (guild "") go to shard 0, as on Discord.
func (gs *gwSession) ownsGuild(guildID string) bool {
	if gs.shard[1] <= 1 {
		return true
	}
	if guildID == "" {
		return gs.shard[0] == 0
	}
	var id uint64
	_, _ = fmt.Sscan(guildID, &id)
	return int((id>>22)%uint64(gs.shard[1])) == gs.shard[0]
}

// gwConn is one websocket connection.
type gwConn struct {
	ws        *websocket.Conn
	out       chan frame
	done      chan struct{}
	closeOnce sync.Once
	session   *gwSession // set by IDENTIFY or RESUME, under s.mu
}

// frame is one websocket message to send.
type frame struct {
	typ  int // websocket.TextMessage or BinaryMessage
	data []byte
}

// close ends the connection abruptly, without a close frame, as a network
// failure would. It is safe to call more than once.
func (c *gwConn) close() {
	c.closeOnce.Do(func() {
		close(c.done)
		_ = c.ws.UnderlyingConn().Close()
	})
}

// closeWith ends the connection with a close code, as Discord does when it
// refuses something.
func (c *gwConn) closeWith(code int, reason string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	c.close()
}

// send queues a frame; a client too slow to read 4096 frames is dropped.
func (c *gwConn) send(f frame) {
	select {
	case c.out <- f:
	case <-c.done:
	default:
		c.close()
	}
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// serveGateway runs one gateway connection: HELLO, then IDENTIFY or RESUME,
// heartbeats, and whatever the stand-in dispatches.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "closed", http.StatusServiceUnavailable)
		return
	}
	if s.gatewayOut.Load() {
		s.stats.Refused++
		s.notify()
		s.mu.Unlock()
		http.Error(w, "the gateway is out", http.StatusServiceUnavailable)
		return
	}
	s.wg.Add(1) // hijacked connections are not waited for by httptest
	s.mu.Unlock()
	defer s.wg.Done()

	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.violation("gateway: websocket upgrade: %v", err)
		return
	}
	c := &gwConn{ws: ws, out: make(chan frame, 4096), done: make(chan struct{})}
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.stats.Connections++
	s.mu.Unlock()
	s.wg.Add(1)
	go s.writeLoop(c)
	defer func() {
		c.close()
		s.mu.Lock()
		delete(s.conns, c)
		if gs := c.session; gs != nil && gs.conn == c {
			gs.conn = nil
		}
		s.notify()
		s.mu.Unlock()
	}()

	version := 0
	_, _ = fmt.Sscan(r.URL.Query().Get("v"), &version)
	if version != 9 && version != 10 {
		s.violation("gateway: API version %q in the URL; Discord closes with 4012 unless it is 9 or 10", r.URL.Query().Get("v"))
		c.closeWith(closeInvalidAPIVersion, "Invalid API version")
		return
	}
	if enc := r.URL.Query().Get("encoding"); enc != "" && enc != "json" {
		s.violation("gateway: encoding %q; the stand-in speaks only json", enc)
		c.closeWith(closeDecodeError, "Decode error")
		return
	}
	s.sendOp(c, opHello, map[string]any{"heartbeat_interval": s.cfg.heartbeat.Milliseconds(), "_trace": []string{"discordtest"}})

	for {
		mt, data, err := ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) {
				// Discord forgets a session the client closed on purpose.
				s.mu.Lock()
				if c.session != nil {
					c.session.invalid = true
				}
				s.mu.Unlock()
			}
			return
		}
		if mt != websocket.TextMessage {
			s.violation("gateway: the client sent a binary frame; Discord expects JSON text")
			c.closeWith(closeDecodeError, "Decode error")
			return
		}
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if err := json.Unmarshal(data, &p); err != nil {
			s.violation("gateway: undecodable payload %q: %v", data, err)
			c.closeWith(closeDecodeError, "Decode error")
			return
		}
		if p.Op == opIdentify && !s.waitReadyHold() {
			return
		}
		if !s.handleOp(c, p.Op, p.D, version) {
			return
		}
	}
}

// handleOp answers one payload from the client; false ends the connection.
func (s *Server) handleOp(c *gwConn, op int, d json.RawMessage, version int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch op {
	case opHeartbeat:
		s.stats.Heartbeats++
		s.notify()
		s.sendOpLocked(c, opHeartbeatAck, nil)
		return true
	case opIdentify:
		return s.identify(c, d, version)
	case opResume:
		return s.resume(c, d)
	case opPresenceUpdate, opVoiceState, opRequestMembers:
		if c.session == nil {
			c.closeWith(closeNotAuthenticated, "Not authenticated")
			return false
		}
		return true // accepted and ignored
	default:
		s.violation("gateway: unknown opcode %d", op)
		c.closeWith(closeUnknownOpcode, "Unknown opcode")
		return false
	}
}

// identifyData is the part of IDENTIFY the stand-in reads.
type identifyData struct {
	Token      string          `json:"token"`
	Intents    *int64          `json:"intents"`
	Compress   bool            `json:"compress"`
	Shard      *[2]int         `json:"shard"`
	Properties json.RawMessage `json:"properties"`
}

// identify starts a new session. Call with s.mu held.
func (s *Server) identify(c *gwConn, d json.RawMessage, version int) bool {
	if c.session != nil {
		s.violation("gateway: a second IDENTIFY on one connection")
		c.closeWith(closeAlreadyAuth, "Already authenticated")
		return false
	}
	var id identifyData
	if err := json.Unmarshal(d, &id); err != nil {
		s.violation("gateway: undecodable IDENTIFY: %v", err)
		c.closeWith(closeDecodeError, "Decode error")
		return false
	}
	if s.tokenRevoked.Load() && strings.TrimPrefix(id.Token, "Bot ") == s.cfg.token {
		c.closeWith(closeAuthFailed, "Authentication failed.")
		return false
	}
	if strings.TrimPrefix(id.Token, "Bot ") != s.cfg.token {
		s.violation("gateway: IDENTIFY with a wrong token")
		c.closeWith(closeAuthFailed, "Authentication failed.")
		return false
	}
	s.botDown = false
	if id.Intents == nil {
		s.violation("gateway: IDENTIFY without intents; they are required since API v8")
		c.closeWith(closeInvalidIntents, "Invalid intent(s).")
		return false
	}
	intents := discordgo.Intent(*id.Intents)
	if missing := intents & privilegedIntents &^ s.cfg.privileged; missing != 0 {
		s.violation("gateway: IDENTIFY asks for privileged intents %d that the application does not have (WithPrivilegedIntents)", missing)
		c.closeWith(closeDisallowedIntents, "Disallowed intent(s).")
		return false
	}
	if len(id.Properties) == 0 {
		s.violation("gateway: IDENTIFY without properties")
		c.closeWith(closeDecodeError, "Decode error")
		return false
	}
	gs := &gwSession{id: sessionID(s.nextID()), shard: [2]int{0, 1}, intents: intents, compress: id.Compress, version: version}
	if id.Shard != nil {
		gs.shard = *id.Shard
		if gs.shard[1] < 1 || gs.shard[0] < 0 || gs.shard[0] >= gs.shard[1] {
			s.violation("gateway: invalid shard %v", gs.shard)
			c.closeWith(closeInvalidShard, "Invalid shard.")
			return false
		}
	}
	c.session, gs.conn = gs, c
	s.sessions[gs.id] = gs
	s.stats.Identifies++

	var guilds []any
	for _, gid := range s.guildOrder {
		if gs.ownsGuild(gid) && s.guilds[gid].botIn {
			guilds = append(guilds, map[string]any{"id": gid, "unavailable": true})
		}
	}
	me := s.userJSON(s.bot)
	me["verified"], me["mfa_enabled"] = true, false
	ready := map[string]any{
		"v":                  version,
		"user":               me,
		"guilds":             orEmpty(guilds),
		"session_id":         gs.id,
		"resume_gateway_url": s.GatewayURL(),
		"session_type":       "normal",
		"private_channels":   []any{},
		"relationships":      []any{},
		"presences":          []any{},
		"user_settings":      map[string]any{},
		"application":        map[string]any{"id": s.appID, "flags": 0},
		"_trace":             []string{"discordtest"},
	}
	if id.Shard != nil {
		ready["shard"] = gs.shard
	}
	s.sendEvent(gs, "READY", ready)
	if intents&discordgo.IntentGuilds != 0 {
		for _, gid := range s.guildOrder {
			// A guild in an outage stays unavailable until it ends.
			if g := s.guilds[gid]; gs.ownsGuild(gid) && g.botIn && !g.unavailable {
				s.sendEvent(gs, "GUILD_CREATE", s.guildJSON(g))
			}
		}
	}
	gs.ready = true
	s.notify()
	return true
}

// sessionID makes a session id that looks like Discord's: 32 hex digits.
func sessionID(snowflake string) string {
	var n uint64
	_, _ = fmt.Sscan(snowflake, &n)
	return fmt.Sprintf("%016x%016x", n, n*0x9e3779b97f4a7c15)
}

// resume reattaches a session and replays what it missed. Call with s.mu held.
func (s *Server) resume(c *gwConn, d json.RawMessage) bool {
	var rd struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(d, &rd); err != nil {
		s.violation("gateway: undecodable RESUME: %v", err)
		c.closeWith(closeDecodeError, "Decode error")
		return false
	}
	if s.tokenRevoked.Load() && strings.TrimPrefix(rd.Token, "Bot ") == s.cfg.token {
		c.closeWith(closeAuthFailed, "Authentication failed.")
		return false
	}
	if strings.TrimPrefix(rd.Token, "Bot ") != s.cfg.token {
		s.violation("gateway: RESUME with a wrong token")
		c.closeWith(closeAuthFailed, "Authentication failed.")
		return false
	}
	gs := s.sessions[rd.SessionID]
	if gs == nil || gs.invalid || rd.Seq > gs.seq {
		// Not resumable: the client must IDENTIFY afresh.
		s.stats.InvalidSessions++
		s.sendOpLocked(c, opInvalidSession, false)
		s.notify()
		return true
	}
	if gs.conn != nil && gs.conn != c {
		gs.conn.close() // a zombie connection of the same session
	}
	c.session, gs.conn = gs, c
	for _, ev := range gs.events {
		if ev.seq > rd.Seq {
			s.writeEvent(gs, ev)
			s.stats.Replayed++
		}
	}
	s.stats.Resumes++
	s.sendEvent(gs, "RESUMED", map[string]any{"_trace": []string{"discordtest"}})
	s.notify()
	return true
}

// sendOp sends a non-dispatch payload.
func (s *Server) sendOp(c *gwConn, op int, d any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sendOpLocked(c, op, d)
}

func (s *Server) sendOpLocked(c *gwConn, op int, d any) {
	raw, _ := json.Marshal(map[string]any{"op": op, "d": d, "s": nil, "t": nil})
	c.send(frame{typ: websocket.TextMessage, data: raw})
}

// sendEvent dispatches one event to one session, keeping it for replay.
// Call with s.mu held.
func (s *Server) sendEvent(gs *gwSession, name string, data any) {
	raw, err := json.Marshal(data)
	if err != nil {
		s.violation("stand-in bug: encode %s: %v", name, err)
		return
	}
	gs.seq++
	ev := gwEvent{seq: gs.seq, name: name, data: raw}
	gs.events = append(gs.events, ev)
	if len(gs.events) > maxReplayedEventsStored {
		gs.events = gs.events[len(gs.events)-maxReplayedEventsStored:]
	}
	s.stats.Dispatched++
	s.log.Debug("dispatch", "session", gs.id, "seq", ev.seq, "event", name)
	s.writeEvent(gs, ev)
}

// writeEvent queues an event on the session's connection, if it has one.
// READY and GUILD_CREATE go zlib-compressed when the client asked for
// compression, as Discord does with large payloads.
func (s *Server) writeEvent(gs *gwSession, ev gwEvent) {
	if gs.conn == nil {
		return
	}
	raw := dispatchFrame(ev)
	f := frame{typ: websocket.TextMessage, data: raw}
	if gs.compress && (ev.name == "READY" || ev.name == "GUILD_CREATE") {
		var buf bytes.Buffer
		zw := zlib.NewWriter(&buf)
		_, _ = zw.Write(raw)
		_ = zw.Close()
		f = frame{typ: websocket.BinaryMessage, data: buf.Bytes()}
	}
	gs.conn.send(f)
}

// dispatchFrame is a dispatch payload, {"op":0,"s":…,"t":…,"d":…}, written
// around the event's data as sendEvent encoded it, not encoded once more:
// under load that was a sixth of the stand-in's JSON work.
func dispatchFrame(ev gwEvent) []byte {
	b := make([]byte, 0, len(ev.data)+len(ev.name)+40)
	b = append(b, `{"op":`...)
	b = strconv.AppendInt(b, opDispatch, 10)
	b = append(b, `,"s":`...)
	b = strconv.AppendInt(b, ev.seq, 10)
	b = append(b, `,"t":`...)
	b = strconv.AppendQuote(b, ev.name) // names are capitals and underscores: JSON and Go quote them alike
	b = append(b, `,"d":`...)
	b = append(b, ev.data...)
	return append(b, '}')
}

// writeLoop sends queued frames until the connection ends.
func (s *Server) writeLoop(c *gwConn) {
	defer s.wg.Done()
	for {
		select {
		case f := <-c.out:
			_ = c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := c.ws.WriteMessage(f.typ, f.data); err != nil {
				c.close()
				return
			}
		case <-c.done:
			return
		}
	}
}

// dispatch sends an event to every session that should get it: the shard
// of the guild (shard 0 for DMs) with the needed intent (0: none needed).
// Sessions that are disconnected but resumable keep it for replay. Call
// with s.mu held.
func (s *Server) dispatch(name, guildID string, intent discordgo.Intent, data any) {
	s.dispatchFor(name, guildID, intent, func(*gwSession) any { return data })
}

// dispatchFor is dispatch with a payload that may differ per session; a
// nil payload skips the session. Nothing of a guild the bot is not in, or
// of one in an outage, is dispatched.
func (s *Server) dispatchFor(name, guildID string, intent discordgo.Intent, data func(*gwSession) any) {
	if g := s.guilds[guildID]; g != nil && (!g.botIn || g.unavailable) {
		return
	}
	for _, gs := range s.sessions {
		if gs.invalid || !gs.ownsGuild(guildID) || intent != 0 && gs.intents&intent == 0 {
			continue
		}
		if d := data(gs); d != nil {
			s.sendEvent(gs, name, d)
		}
	}
}

// intentFor is the intent that carries message events of a channel.
func intentFor(c *channel) discordgo.Intent {
	if c.typ == discordgo.ChannelTypeDM {
		return discordgo.IntentDirectMessages
	}
	return discordgo.IntentGuildMessages
}

// dispatchMessage sends MESSAGE_CREATE or MESSAGE_UPDATE for a message.
// Ephemeral messages are never dispatched, nor messages of guild channels
// the bot cannot see. MESSAGE_CREATE carries the nonce the message was
// created with. In guilds, a session without
// MESSAGE_CONTENT gets other authors' messages without content, embeds,
// attachments and components unless they mention the bot, as on Discord;
// DMs always carry content. Call with s.mu held.
func (s *Server) dispatchMessage(name string, m *message) {
	c := s.channels[m.channelID]
	if m.ephemeralTo != "" || c.guildID != "" && !s.botSees(c) {
		return
	}
	full := s.messageJSON(m)
	if name == "MESSAGE_CREATE" && m.nonce != nil {
		full["nonce"] = m.nonce
	}
	if c.guildID != "" {
		full["guild_id"] = c.guildID
		if m.webhookID == "" {
			mem := s.memberJSON(s.guilds[c.guildID], s.users[m.authorID], nil)
			delete(mem, "user")
			full["member"] = mem
		}
	}
	// Without MESSAGE_CONTENT, a session gets no content of others' guild
	// messages that do not mention the bot, nor of the message one replies to.
	stripped, gated := full, false
	if s.contentGated(m) {
		stripped, gated = withoutContent(full), true
	}
	if ref, ok := full["referenced_message"].(map[string]any); ok {
		if r := s.referencedMessage(m); r != nil && s.contentGated(r) {
			stripped = maps.Clone(stripped)
			stripped["referenced_message"], gated = withoutContent(ref), true
		}
	}
	s.dispatchFor(name, c.guildID, intentFor(c), func(gs *gwSession) any {
		if gated && gs.intents&discordgo.IntentMessageContent == 0 {
			return stripped
		}
		return full
	})
}

// contentGated reports whether a message's content reaches only sessions
// with the MESSAGE_CONTENT intent: a guild message by someone else than the
// bot that does not mention it. Call with s.mu held.
func (s *Server) contentGated(m *message) bool {
	c := s.channels[m.channelID]
	return c.guildID != "" && m.authorID != s.bot.id && !strings.Contains(m.content, "<@"+s.bot.id+">")
}

// withoutContent returns a copy of a message object with the fields that
// MESSAGE_CONTENT guards emptied.
func withoutContent(obj map[string]any) map[string]any {
	out := maps.Clone(obj)
	out["content"], out["embeds"], out["attachments"], out["components"] = "", []any{}, []any{}, []any{}
	return out
}

// DropGateway cuts every gateway connection without a close frame, as a
// network failure would. Sessions stay resumable: discordgo reconnects,
// sends RESUME and gets the events dispatched in between. Wait for
// GatewayStats().Resumes to see it happen.
func (s *Server) DropGateway() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.close()
	}
}

// GatewayOutage cuts every gateway connection without a close frame, and
// refuses each new one (503, before the WebSocket upgrade) until
// EndGatewayOutage, as an outage of Discord's gateway does while its REST
// API may still answer. Sessions stay resumable. Wait for
// GatewayStats().Refused to see the client's reconnects refused.
func (s *Server) GatewayOutage() {
	s.gatewayOut.Store(true)
	s.DropGateway()
}

// EndGatewayOutage lets connections to the gateway through again.
func (s *Server) EndGatewayOutage() { s.gatewayOut.Store(false) }

// RevokeToken resets the bot's token, as its owner does in the Developer
// Portal (or Discord does on finding it leaked): every gateway connection
// is closed with 4004 Authentication failed, and from then on IDENTIFY and
// RESUME with the old token get 4004 and REST requests 401, none of them a
// failure of the test.
func (s *Server) RevokeToken() {
	s.tokenRevoked.Store(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.closeWith(closeAuthFailed, "Authentication failed.")
	}
}

// ReconnectGateway asks every connected client to reconnect (opcode 7), as
// Discord does before maintenance; discordgo closes and resumes.
func (s *Server) ReconnectGateway() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		s.sendOpLocked(c, opReconnect, nil)
	}
}

// InvalidateSessions forgets every gateway session and cuts the
// connections: a client's RESUME then gets INVALID_SESSION and it must
// IDENTIFY again, receiving a fresh READY. Events dispatched meanwhile are
// lost, as on Discord.
func (s *Server) InvalidateSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, gs := range s.sessions {
		gs.invalid = true
	}
	for c := range s.conns {
		c.close()
	}
}
