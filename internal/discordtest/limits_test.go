package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// rawGet sends GET path with the given Authorization header and returns
// the answer's status, headers and body.
func rawGet(t testing.TB, srv *Server, path, auth string) (int, http.Header, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("GET", "https://discord.com"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("User-Agent", "DiscordBot (https://example.com, 1)")
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, resp.Header, body
}

// TestGlobalRateLimit checks the limit across routes: 429 with global true
// once a client is over it, interaction callbacks exempt, and discordgo
// getting through by waiting.
func TestGlobalRateLimit(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(respond(t, func(*discordgo.Interaction) *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{Type: 4, Data: content("answered")}
		}))
	}, WithGlobalRateLimit(5))
	ch := w.guild.General()
	auth := "Bot " + w.srv.Token()
	other := w.guild.AddChannel("other")

	// A fresh second, then requests to two channels (two route buckets, one
	// global limit) until the first 429; on a slow machine a second may
	// pass in between, letting more through.
	time.Sleep(globalWindow)
	var status int
	var h http.Header
	var body map[string]any
	passed := 0
	for i := 0; i < 30; i++ {
		path := "/api/v9/channels/" + []string{ch.ID, other.ID}[i%2]
		if status, h, body = rawGet(t, w.srv, path, auth); status != http.StatusOK {
			break
		}
		passed++
	}
	if passed < 5 || status != http.StatusTooManyRequests || body["global"] != true || h.Get("X-RateLimit-Global") != "true" ||
		h.Get("X-RateLimit-Scope") != "global" || h.Get("Retry-After") != "1" {
		t.Errorf("after %d requests: %d %v %v", passed, status, body, h)
	}
	// Interaction endpoints are not bound by the global limit.
	if r := w.alice.SlashCommand(t, ch, "stratego board").Reply(t); r.Content != "answered" {
		t.Errorf("reply %q", r.Content)
	}

	// discordgo waits out the global 429s and gets every message through.
	for i := range 8 {
		if _, err := w.sess.ChannelMessageSend(ch.ID, fmt.Sprint("message ", i)); err != nil {
			t.Fatal(err)
		}
	}
	global := 0
	for _, r := range w.srv.Requests("POST /channels/{channel_id}/messages") {
		if r.Status == http.StatusTooManyRequests {
			global++
		}
	}
	if n := len(w.srv.ChannelMessages(ch)); n != 9 || global == 0 {
		t.Errorf("%d messages in the channel, %d global 429s; want 9 messages through some 429s", n, global)
	}
}

// TestNoGlobalLimitByDefault checks that, without WithGlobalRateLimit, a
// burst over 50 requests a second across routes passes.
func TestNoGlobalLimitByDefault(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	g := srv.AddGuild("g")
	ids := []string{g.General().ID, g.AddChannel("other").ID}
	for i := range GlobalRequestsPerSecond + 10 {
		if status, _, body := rawGet(t, srv, "/api/v9/channels/"+ids[i%2], "Bot "+srv.Token()); status != http.StatusOK {
			t.Fatalf("request %d: %d %v", i+1, status, body)
		}
	}
}

// TestInvalidRequests checks the count of invalid answers (401, 403, 429,
// not 404) and the test failure when a client nears Discord's ban.
func TestInvalidRequests(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	w := newWorld(rec, nil, WithInvalidRequestThreshold(10))
	ch := w.guild.General()
	ch.SetOverwrite(w.srv.Bot(), 0, discordgo.PermissionSendMessages)

	if status, _, _ := rawGet(t, w.srv, "/api/v9/channels/"+ch.ID, "Bot wrong-token"); status != http.StatusUnauthorized {
		t.Fatalf("wrong token: %d", status)
	}
	w.srv.RateLimitNext(t, "GET /channels/{channel_id}", 1, 10*time.Millisecond)
	if _, err := w.sess.Channel(ch.ID); err != nil {
		t.Fatal(err)
	}
	rawGet(t, w.srv, "/api/v9/channels/1", "Bot "+w.srv.Token()) // 404: not counted
	if n := w.srv.InvalidRequests(); n != 2 {
		t.Errorf("%d invalid requests after a 401 and a 429, want 2", n)
	}
	base := len(rec.failures()) // the wrong token and the unknown channel are the bot's mistakes
	for i := range 7 {
		if _, err := w.sess.ChannelMessageSend(ch.ID, "move"); restCode(err) != discordgo.ErrCodeMissingPermissions {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	if n, f := w.srv.InvalidRequests(), rec.failures(); n != 9 || len(f) != base {
		t.Errorf("after 7 refusals: %d invalid requests, failures %q; want 9 and no new failure", n, f)
	}
	if _, err := w.sess.ChannelMessageSend(ch.ID, "move"); restCode(err) != discordgo.ErrCodeMissingPermissions {
		t.Fatal(err)
	}
	var nearing []string
	for _, f := range rec.failures() {
		if strings.Contains(f, "invalid answers") {
			nearing = append(nearing, f)
		}
	}
	if len(nearing) != 1 || !strings.Contains(nearing[0], "got 10 invalid answers") {
		t.Errorf("failures %q; want one about 10 invalid answers", rec.failures())
	}
	_, _ = w.sess.ChannelMessageSend(ch.ID, "again") // one more refusal: not reported twice
	if n := len(rec.failures()); n != base+1 {
		t.Errorf("%d failures after one more refusal, want %d (one for the threshold)", n, base+1)
	}
}
