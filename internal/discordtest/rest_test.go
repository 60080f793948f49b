package discordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/bwmarrin/discordgo"
)

// call sends one raw request through the session's HTTP client, as a bot
// using another library would, and returns the status and decoded body.
func call(t testing.TB, srv *Server, method, path, contentType string, body []byte) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, "https://discord.com"+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bot "+srv.Token())
	req.Header.Set("User-Agent", "DiscordBot (https://example.com, 1)")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// multipartBody builds a multipart body with payload_json and files.
func multipartBody(t testing.TB, payload string, files map[string][]byte) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="payload_json"`)
	h.Set("Content-Type", "application/json")
	p, _ := mw.CreatePart(h)
	_, _ = p.Write([]byte(payload))
	i := 0
	for name, data := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files[%d]"; filename=%q`, i, name))
		h.Set("Content-Type", "image/png")
		p, _ := mw.CreatePart(h)
		_, _ = p.Write(data)
		i++
	}
	_ = mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

// errorAt digs the first Discord error code out of a 50035 body at path.
func errorAt(body map[string]any, path ...string) string {
	var n any = body["errors"]
	for _, p := range path {
		m, _ := n.(map[string]any)
		n = m[p]
	}
	m, _ := n.(map[string]any)
	list, _ := m["_errors"].([]any)
	if len(list) == 0 {
		return ""
	}
	first, _ := list[0].(map[string]any)
	code, _ := first["code"].(string)
	return code
}

// TestRequestValidation sends requests Discord refuses and checks the
// answer and the test failure for each.
func TestRequestValidation(t *testing.T) {
	t.Parallel()
	huge := bytes.Repeat([]byte{0}, 10<<20+1)
	tests := []struct {
		name        string
		method      string
		path        string // %s: the channel id
		contentType string
		body        string
		files       map[string][]byte
		status      int
		code        float64
		errPath     []string // where the 50035 error is
		errCode     string
		failure     string
	}{
		{
			name: "content over 2000 characters", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json", body: `{"content":"` + strings.Repeat("é", 2001) + `"}`,
			status: 400, code: 50035, errPath: []string{"content"}, errCode: "BASE_TYPE_MAX_LENGTH", failure: "Must be 2000 or fewer",
		},
		{
			name: "content over the schema's 4000", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json", body: `{"content":"` + strings.Repeat("x", 4001) + `"}`,
			status: 400, code: 50035, errPath: []string{"content"}, errCode: "BASE_TYPE_MAX_LENGTH", failure: "maxLength: got 4,001, want 4,000",
		},
		{
			name: "custom_id over 100 characters", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json",
			body:        `{"components":[{"type":1,"components":[{"type":2,"style":1,"label":"x","custom_id":"` + strings.Repeat("c", 101) + `"}]}]}`,
			status:      400, code: 50035, errPath: []string{"components", "0", "components", "0", "custom_id"}, errCode: "BASE_TYPE_MAX_LENGTH",
			failure: "maxLength: got 101, want 100",
		},
		{
			name: "26 select options", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json",
			body:        `{"components":[{"type":1,"components":[{"type":3,"custom_id":"s","options":[` + strings.TrimSuffix(strings.Repeat(`{"label":"a","value":"a"},`, 26), ",") + `]}]}]}`,
			status:      400, code: 50035, errPath: []string{"components", "0", "components", "0", "options"}, errCode: "BASE_TYPE_MAX_LENGTH",
			failure: "maxItems: got 26, want 25",
		},
		{
			name: "six buttons in a row", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json",
			body:        `{"components":[{"type":1,"components":[` + strings.TrimSuffix(strings.Repeat(`{"type":2,"style":1,"label":"b","custom_id":"x"},`, 6), ",") + `]}]}`,
			status:      400, code: 50035, errPath: []string{"components", "0", "components"}, errCode: "BASE_TYPE_MAX_LENGTH",
			failure: "maxItems: got 6, want 5",
		},
		{
			name: "select menu beside a button", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json",
			body:        `{"components":[{"type":1,"components":[{"type":2,"style":1,"label":"b","custom_id":"b"},{"type":3,"custom_id":"s","options":[{"label":"a","value":"a"}]}]}]}`,
			status:      400, code: 50035, errPath: []string{"components", "0", "components", "1"}, errCode: "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
			failure: "exceeds the maximum width",
		},
		{
			name: "duplicate custom ids", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json",
			body:        `{"components":[{"type":1,"components":[{"type":2,"style":1,"label":"b","custom_id":"b"},{"type":2,"style":2,"label":"c","custom_id":"b"}]}]}`,
			status:      400, code: 50035, errPath: []string{"components", "0", "components", "1", "custom_id"}, errCode: "COMPONENT_CUSTOM_ID_DUPLICATED",
			failure: "cannot be duplicated",
		},
		{
			name: "empty message", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json", body: `{"content":""}`,
			status: 400, code: 50006, failure: "Cannot send an empty message",
		},
		{
			name: "malformed JSON", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json", body: `{"content":`,
			status: 400, code: 50109, failure: "invalid JSON",
		},
		{
			name: "wrong JSON type", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json", body: `{"content":42}`,
			status: 400, code: 50035, errPath: []string{"content"}, errCode: "BASE_TYPE_BAD_TYPE", failure: "got number, want null or string",
		},
		{
			name: "invalid payload_json", method: "POST", path: "/api/v9/channels/%s/messages",
			body: `{"content":"board","attachments":[{"id":"0","filename":""}]}`, files: map[string][]byte{"board.png": {1, 2, 3}},
			status: 400, code: 50035, errPath: []string{"attachments", "0", "filename"}, errCode: "BASE_TYPE_MIN_LENGTH", failure: "minLength: got 0, want 1",
		},
		{
			name: "upload over 10 MiB", method: "POST", path: "/api/v9/channels/%s/messages",
			body: `{"content":"big"}`, files: map[string][]byte{"big.png": huge},
			status: 413, code: 40005, failure: "over the upload limit",
		},
		{
			name: "unknown route", method: "GET", path: "/api/v9/channels/%s/chess",
			status: 404, code: 0, failure: "no route /channels/",
		},
		{
			name: "unknown method", method: "PUT", path: "/api/v9/channels/%s/messages",
			status: 405, code: 0, failure: "PUT /channels/",
		},
		{
			name: "not a snowflake", method: "GET", path: "/api/v9/channels/general%.0s",
			status: 400, code: 50035, errPath: []string{"channel_id"}, errCode: "NUMBER_TYPE_COERCE", failure: `'general' does not match pattern`,
		},
		{
			name: "unknown channel", method: "GET", path: "/api/v9/channels/1%.0s",
			status: 404, code: 10003, failure: "Unknown Channel",
		},
		{
			name: "old API version", method: "GET", path: "/api/v6/channels/%s",
			status: 400, code: 50041, failure: "API v6",
		},
		{
			name: "a route the stand-in lacks", method: "GET", path: "/api/v9/guilds/1%.0s/roles",
			status: 501, code: 0, failure: "does not implement yet",
		},
		{
			name: "ephemeral flag on a channel message", method: "POST", path: "/api/v9/channels/%s/messages",
			contentType: "application/json", body: `{"content":"my secret","flags":64}`,
			status: 200, failure: "shows the message to everyone",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{TB: t}
			srv := newServer(rec)
			ch := srv.AddGuild("g").General()
			ct, body := tc.contentType, []byte(tc.body)
			if tc.files != nil {
				ct, body = multipartBody(t, tc.body, tc.files)
			}
			status, got := call(t, srv, tc.method, fmt.Sprintf(tc.path, ch.ID), ct, body)
			if status != tc.status {
				t.Errorf("status %d, want %d (%v)", status, tc.status, got)
			}
			if tc.status >= 400 && got["code"] != tc.code {
				t.Errorf("code %v, want %v (%v)", got["code"], tc.code, got)
			}
			if tc.errCode != "" {
				if code := errorAt(got, tc.errPath...); code != tc.errCode {
					t.Errorf("error at %v: %q, want %q; body %v", tc.errPath, code, tc.errCode, got)
				}
			}
			rec.wantFailure(t, tc.failure)
		})
	}
}

// TestValidRequestsPass checks that bodies discordgo builds for the bot's
// usual calls pass without a failure, whole and in parts.
func TestValidRequestsPass(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	ch := w.guild.General()
	s := w.sess
	msg, err := s.ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{
		Content: "**Red** to move",
		Embeds:  []*discordgo.MessageEmbed{{Title: "Game 1", Description: "move 12"}},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Resign", Style: discordgo.DangerButton, CustomID: "resign:1"}}}},
		Reference: nil,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessageSendReply(ch.ID, "reply", msg.Reference()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessage(ch.ID, msg.ID); err != nil {
		t.Fatal(err)
	}
	if list, err := s.ChannelMessages(ch.ID, 10, "", "", ""); err != nil || len(list) != 2 {
		t.Fatalf("list: %d, %v", len(list), err)
	}
	if _, err := s.User(w.alice.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.User("@me"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GuildMember(w.guild.ID, w.bob.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Channel(ch.ID); err != nil {
		t.Fatal(err)
	}
	if cmds, err := s.ApplicationCommands(w.srv.AppID(), ""); err != nil || len(cmds) != 1 {
		t.Fatalf("commands: %d, %v", len(cmds), err)
	}
	if err := s.ChannelMessageDelete(ch.ID, msg.ID); err != nil {
		t.Fatal(err)
	}
	if w.srv.Message(msg.ID) != nil || len(w.srv.ChannelMessages(ch)) != 1 {
		t.Errorf("the deleted message is still shown")
	}
}

// TestAuthorization checks the bot token and the User-Agent.
func TestAuthorization(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, auth, agent string
		status            int
		failure           string
	}{
		{"bot token", "Bot TOKEN", "DiscordBot (x, 1)", 200, ""},
		{"no Bot prefix", "TOKEN", "DiscordBot (x, 1)", 401, `"Bot <token>"`},
		{"wrong token", "Bot nope", "DiscordBot (x, 1)", 401, "wrong or missing bot token"},
		{"no token", "", "DiscordBot (x, 1)", 401, "wrong or missing bot token"},
		{"browser agent", "Bot TOKEN", "Mozilla/5.0", 200, "User-Agent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{TB: t}
			srv := newServer(rec)
			req, _ := http.NewRequest("GET", "https://discord.com/api/v9/users/@me", nil)
			if tc.auth != "" {
				req.Header.Set("Authorization", strings.Replace(tc.auth, "TOKEN", srv.Token(), 1))
			}
			req.Header.Set("User-Agent", tc.agent)
			resp, err := srv.HTTPClient().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.failure == "" {
				if f := rec.failures(); len(f) > 0 {
					t.Errorf("failures %q", f)
				}
				return
			}
			rec.wantFailure(t, tc.failure)
		})
	}
}

// TestForeignHost checks that the client given to the bot reaches only
// Discord's hosts, and serves attachments through the CDN host.
func TestForeignHost(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := newServer(rec)
	if _, err := srv.HTTPClient().Get("https://example.com/"); err == nil {
		t.Errorf("request to example.com succeeded")
	}
	rec.wantFailure(t, "example.com, which is not Discord")

	ch := srv.AddGuild("g").General()
	ct, body := orderedMultipart(t, `{"content":"pic"}`, []string{"p.png"}, [][]byte{pngOf(t, 2, 2, color.White)})
	status, msg := call(t, srv, "POST", "/api/v9/channels/"+ch.ID+"/messages", ct, body)
	if status != 200 {
		t.Fatalf("%d %v", status, msg)
	}
	url := msg["attachments"].([]any)[0].(map[string]any)["url"].(string)
	resp, err := srv.HTTPClient().Get(url)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(url, "https://cdn.discordapp.com/attachments/") || resp.StatusCode != 200 || len(data) == 0 || resp.Header.Get("Content-Type") != "image/png" {
		t.Errorf("GET %s: %d, %d bytes, %q", url, resp.StatusCode, len(data), resp.Header.Get("Content-Type"))
	}
}

// TestWithoutFileContents: a load test's server still tells the size and
// dimensions of an uploaded picture, but keeps no bytes of it, so the CDN
// has nothing to serve; by default it serves the bytes sent.
func TestWithoutFileContents(t *testing.T) {
	t.Parallel()
	pic := pngOf(t, 3, 2, color.White)
	tests := []struct {
		name       string
		opts       []Option
		wantStatus int
		wantBytes  int
	}{
		{"by default", nil, 200, len(pic)},
		{"WithoutFileContents", []Option{WithoutFileContents()}, 404, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, tc.opts...)
			ch := srv.AddGuild("g").General()
			ct, body := orderedMultipart(t, `{"content":"pic"}`, []string{"p.png"}, [][]byte{pic})
			status, msg := call(t, srv, "POST", "/api/v9/channels/"+ch.ID+"/messages", ct, body)
			if status != 200 {
				t.Fatalf("%d %v", status, msg)
			}
			a := msg["attachments"].([]any)[0].(map[string]any)
			if a["size"] != float64(len(pic)) || a["width"] != float64(3) || a["height"] != float64(2) {
				t.Errorf("attachment size %v, %v×%v; want %d bytes, 3×2", a["size"], a["width"], a["height"], len(pic))
			}
			resp, err := srv.HTTPClient().Get(a["url"].(string))
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.wantStatus || tc.wantStatus == 200 && !bytes.Equal(data, pic) {
				t.Errorf("GET the file: %d with %d bytes; want %d with %d", resp.StatusCode, len(data), tc.wantStatus, tc.wantBytes)
			}
			if got := len(srv.Message(msg["id"].(string)).Files[0].Data); got != tc.wantBytes {
				t.Errorf("the message's file holds %d bytes; want %d", got, tc.wantBytes)
			}
		})
	}
}

// TestWithoutRequestValidation: a load test's server accepts what only
// Discord's API description refuses (a field of the wrong type, a channel id
// that is no snowflake), and still refuses what the stand-in checks itself:
// the 2,000 characters of a message, an unknown channel.
func TestWithoutRequestValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		method, path   string // %s: the channel id
		body           string
		checked, plain int // the status with the checks and without
	}{
		{"tts of the wrong type", "POST", "/api/v9/channels/%s/messages", `{"content":"hi","tts":"yes"}`, 400, 200},
		{"content over 2000 characters", "POST", "/api/v9/channels/%s/messages", `{"content":"` + strings.Repeat("x", 2001) + `"}`, 400, 400},
		{"channel id that is no snowflake", "GET", "/api/v9/channels/general%.0s", "", 400, 404},
		{"unknown channel", "GET", "/api/v9/channels/1%.0s", "", 404, 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, validate := range []bool{true, false} {
				rec := &recorder{TB: t}
				var opts []Option
				want := tc.checked
				if !validate {
					opts, want = append(opts, WithoutRequestValidation()), tc.plain
				}
				srv := newServer(rec, opts...)
				ch := srv.AddGuild("g").General()
				ct := ""
				if tc.body != "" {
					ct = "application/json"
				}
				status, got := call(t, srv, tc.method, fmt.Sprintf(tc.path, ch.ID), ct, []byte(tc.body))
				if status != want {
					t.Errorf("validation %v: status %d, want %d (%v)", validate, status, want, got)
				}
			}
		})
	}
}

// TestReadAll: a body is read whole whatever length it declares, and one
// over the limit is refused, not cut.
func TestReadAll(t *testing.T) {
	picture := strings.Repeat("0123456789", 2500) // 25,000 bytes, a picture's size
	tests := []struct {
		name        string
		body        string
		size, limit int64
		tooBig      bool
	}{
		{"declared length", picture, 25_000, 100_000, false},
		{"unknown length", picture, -1, 100_000, false},
		{"declared too short", picture, 100, 100_000, false},
		{"declared too long", picture, 50_000, 100_000, false},
		{"at the limit", picture, 25_000, 25_000, false},
		{"over the limit", picture, 25_000, 24_999, true},
		{"over the limit, unknown length", picture, -1, 1000, true},
		{"empty", "", 0, 1000, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, tooBig, err := readAll(iotest.HalfReader(strings.NewReader(tc.body)), tc.size, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.body
			if tc.tooBig {
				want = ""
			}
			if tooBig != tc.tooBig || string(b) != want {
				t.Errorf("read %d bytes, too big %v; want %d, %v", len(b), tooBig, len(want), tc.tooBig)
			}
		})
	}
	if _, _, err := readAll(iotest.ErrReader(io.ErrUnexpectedEOF), 10, 100); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a failing body: error %v, want io.ErrUnexpectedEOF", err)
	}
}

// TestUnknownID: a request naming an id of UnknownID, in its path or its
// body, is refused as Discord refuses it without failing the test; the same
// request naming another unknown id still fails it.
func TestUnknownID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		do   func(s *discordgo.Session, id string) error
		code int
	}{
		{"a channel", func(s *discordgo.Session, id string) error { _, err := s.Channel(id); return err }, 10003},
		{"a user to DM", func(s *discordgo.Session, id string) error { _, err := s.UserChannelCreate(id); return err }, 10013},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			srv := newServer(rec)
			sess := srv.NewSession(t)
			if err := tc.do(sess, srv.UnknownID()); restCode(err) != tc.code {
				t.Errorf("error %v, want code %d", err, tc.code)
			}
			if f := rec.failures(); len(f) != 0 {
				t.Errorf("the test failed: %q", f)
			}
			if err := tc.do(sess, "123456789012345678"); restCode(err) != tc.code {
				t.Errorf("error %v, want code %d", err, tc.code)
			}
			rec.wantFailure(t, "Discord would answer 404")
		})
	}
}
