package discordtest

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// TestGatewayHandshake checks HELLO, IDENTIFY → READY, GUILD_CREATE
// (zlib-compressed, as discordgo asks), heartbeats and a guild joined later.
func TestGatewayHandshake(t *testing.T) {
	t.Parallel()
	srv := newServer(t, WithHeartbeatInterval(50*time.Millisecond))
	g := srv.AddGuild("Stratego Club")
	alice := g.AddMember("alice")
	sess := srv.OpenSession(t)

	st := sess.State
	st.RLock() // discordgo updates guilds in place under this lock
	if st.User == nil || st.User.ID != srv.AppID() || !st.User.Bot {
		t.Errorf("READY user %+v", st.User)
	}
	if len(st.Guilds) != 1 || len(st.Guilds[0].Channels) != 1 || st.Guilds[0].Channels[0].Name != "general" {
		t.Errorf("guilds in state: %+v", st.Guilds)
	}
	st.RUnlock()
	if _, err := st.Member(g.ID, alice.ID); err != nil {
		t.Errorf("alice is not in the state: %v", err)
	}
	srv.WaitFor(t, "three acknowledged heartbeats", func() bool { return srv.GatewayStats().Heartbeats >= 3 })
	sess.RLock()
	ack := sess.LastHeartbeatAck
	sess.RUnlock()
	if time.Since(ack) > time.Second {
		t.Errorf("last heartbeat ACK %v ago", time.Since(ack))
	}

	later := srv.AddGuild("Second Club")
	srv.WaitFor(t, "the new guild in discordgo's state", func() bool {
		st.RLock()
		defer st.RUnlock()
		return len(st.Guilds) == 2 && st.Guilds[1].ID == later.ID && !st.Guilds[1].Unavailable
	})
	if s := srv.GatewayStats(); s.Identifies != 1 || s.Connections != 1 {
		t.Errorf("stats %+v", s)
	}
}

// TestResume drops the connection, dispatches a slash command while the bot
// is away, and checks that discordgo resumes and gets it in time.
func TestResume(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		cut   func(*Server)
		fresh bool // the session is lost: a new IDENTIFY, events in between lost
	}{
		{"network drop", (*Server).DropGateway, false},
		{"reconnect opcode", (*Server).ReconnectGateway, false},
		{"invalidated session", (*Server).InvalidateSessions, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, func(s *discordgo.Session) {
				s.AddHandler(respond(t, func(i *discordgo.Interaction) *discordgo.InteractionResponse {
					return &discordgo.InteractionResponse{Type: 4, Data: content("back")}
				}))
			})
			tc.cut(w.srv)
			if tc.fresh {
				w.srv.WaitFor(t, "a second IDENTIFY", func() bool { return w.srv.GatewayStats().Identifies == 2 })
				w.srv.WaitReady(t)
			} else {
				// Dispatched while discordgo is away (its Close sleeps a second).
				w.srv.WaitFor(t, "the connection to go", func() bool {
					w.srv.mu.Lock()
					defer w.srv.mu.Unlock()
					return len(w.srv.conns) == 0 || tc.name == "reconnect opcode"
				})
			}
			reply := w.alice.SlashCommand(t, w.guild.General(), "stratego board").Reply(t)
			if reply.Content != "back" {
				t.Errorf("reply %q", reply.Content)
			}
			st := w.srv.GatewayStats()
			if tc.fresh {
				if st.InvalidSessions != 1 || st.Resumes != 0 {
					t.Errorf("stats %+v", st)
				}
				return
			}
			if st.Resumes != 1 || st.Identifies != 1 || st.Replayed < 1 && tc.name == "network drop" {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

// TestGatewayOutage: while the gateway is out, every connection is refused
// and REST still answers; once it is back, the client resumes and gets what
// was dispatched meanwhile.
func TestGatewayOutage(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(respond(t, func(i *discordgo.Interaction) *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{Type: 4, Data: content("back")}
		}))
	})
	w.srv.GatewayOutage()
	w.srv.WaitFor(t, "a connection refused", func() bool { return w.srv.GatewayStats().Refused > 0 })
	if _, err := w.sess.User("@me"); err != nil {
		t.Errorf("REST during the outage: %v", err)
	}
	in := w.alice.SlashCommand(t, w.guild.General(), "stratego board")
	w.srv.EndGatewayOutage()
	if reply := in.Reply(t); reply.Content != "back" {
		t.Errorf("reply %q", reply.Content)
	}
	if st := w.srv.GatewayStats(); st.Resumes != 1 || st.Identifies != 1 || st.Replayed < 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestGatewayRefusals checks the close codes Discord uses to refuse a
// client, and that each fails the test.
func TestGatewayRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		setup   func(*discordgo.Session)
		failure string
	}{
		{"wrong token", func(s *discordgo.Session) { s.Token, s.Identify.Token = "Bot nope", "Bot nope" }, "wrong token"},
		{"privileged intent", func(s *discordgo.Session) {
			s.Identify.Intents = discordgo.IntentsAllWithoutPrivileged | discordgo.IntentMessageContent
		}, "privileged intents 32768"},
		{"invalid shard", func(s *discordgo.Session) { s.ShardID, s.ShardCount = 3, 2 }, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{TB: t}
			srv := newServer(rec)
			srv.AddGuild("g")
			sess := srv.NewSession(t)
			sess.ShouldReconnectOnError = false
			tc.setup(sess)
			if err := sess.Open(); err == nil {
				t.Errorf("Open succeeded")
			}
			if tc.failure != "" {
				rec.wantFailure(t, tc.failure)
			}
		})
	}
}

// TestShards checks that guild events go to the shard that owns the guild
// and DMs to shard 0.
func TestShards(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	var guilds [2]*Guild
	for guilds[0] == nil || guilds[1] == nil {
		g := srv.AddGuild("g")
		var id uint64
		for _, c := range g.ID {
			id = id*10 + uint64(c-'0')
		}
		guilds[(id>>22)%2] = g
	}
	alice := guilds[0].AddMember("alice")
	guilds[1].Join(alice)
	got := [2]chan string{make(chan string, 4), make(chan string, 4)}
	for shard := range 2 {
		sess := srv.NewSession(t)
		sess.ShardID, sess.ShardCount = shard, 2
		sess.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			got[shard] <- ic.GuildID
			_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: 4, Data: content("ok")})
		})
		if err := sess.Open(); err != nil {
			t.Fatal(err)
		}
		if shard == 0 {
			if _, err := sess.ApplicationCommandBulkOverwrite(srv.AppID(), "", testCommands()); err != nil {
				t.Fatal(err)
			}
		}
	}
	srv.WaitFor(t, "two sessions", func() bool { return srv.GatewayStats().Identifies == 2 })
	for shard, g := range guilds {
		alice.SlashCommand(t, g.General(), "stratego board").Reply(t)
		if id := <-got[shard]; id != g.ID {
			t.Errorf("shard %d got guild %s, want %s", shard, id, g.ID)
		}
	}
	alice.SlashCommand(t, alice.DM(), "stratego board").Reply(t)
	if id := <-got[0]; id != "" {
		t.Errorf("a DM interaction went with guild %q", id)
	}
}

// TestPlainHTTPForAnotherProcess checks what a bot running as its own
// process needs: the API under a base URL and a ws:// gateway URL.
func TestPlainHTTPForAnotherProcess(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	resp, err := http.Get(srv.APIBase() + "gateway")
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		URL string `json:"url"`
	}
	err = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if err != nil || !strings.HasPrefix(body.URL, "ws://127.0.0.1:") || body.URL != srv.GatewayURL() {
		t.Fatalf("gateway url %q, %v", body.URL, err)
	}
	conn, _, err := websocket.DefaultDialer.Dial(body.URL+"/?v=9&encoding=json", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var hello struct {
		Op int `json:"op"`
		D  struct {
			HeartbeatInterval int `json:"heartbeat_interval"`
		} `json:"d"`
	}
	if err := conn.ReadJSON(&hello); err != nil || hello.Op != 10 || hello.D.HeartbeatInterval != 41250 {
		t.Errorf("HELLO %+v, %v", hello, err)
	}
}

// TestDispatchFrame: the dispatch payload written around an event's data
// is the JSON the gateway sends, field for field.
func TestDispatchFrame(t *testing.T) {
	tests := []gwEvent{
		{seq: 1, name: "READY", data: json.RawMessage(`{"v":10,"session_id":"abc","user":{"id":"1"}}`)},
		{seq: 123456789, name: "MESSAGE_CREATE", data: json.RawMessage(`{"content":"a \"quoted\" \u00e9 line\n","attachments":[]}`)},
		{seq: 7, name: "GUILD_MEMBER_REMOVE", data: json.RawMessage(`null`)},
	}
	for _, ev := range tests {
		t.Run(ev.name, func(t *testing.T) {
			raw := dispatchFrame(ev)
			var got, want any
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			old, err := json.Marshal(map[string]any{"op": opDispatch, "s": ev.seq, "t": ev.name, "d": ev.data})
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(old, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("frame %s, want the fields of %s", raw, old)
			}
		})
	}
}
