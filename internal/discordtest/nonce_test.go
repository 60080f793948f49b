package discordtest

import (
	"bytes"
	"encoding/json"
	"image/color"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// sentMessage is a create's answer: the message, and its nonce, which
// discordgo v0.29's Message does not read.
type sentMessage struct {
	*discordgo.Message
	Nonce json.RawMessage
}

// createWithNonce posts a message through the session with a nonce, which
// discordgo v0.29's MessageSend cannot carry, and returns the answer.
func createWithNonce(s *discordgo.Session, channelID string, nonce any, enforce bool, text string, files ...*discordgo.File) (*sentMessage, error) {
	body := map[string]any{"content": text, "nonce": nonce}
	if enforce {
		body["enforce_nonce"] = true
	}
	endpoint := discordgo.EndpointChannelMessages(channelID)
	var raw []byte
	var err error
	if len(files) > 0 {
		ct, multipart, merr := discordgo.MultipartBodyWithJSON(body, files)
		if merr != nil {
			return nil, merr
		}
		raw, err = s.RequestRaw("POST", endpoint, ct, multipart, endpoint, 0)
	} else {
		raw, err = s.RequestWithBucketID("POST", endpoint, body, endpoint)
	}
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	var n struct {
		Nonce json.RawMessage `json:"nonce"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, err
	}
	return &sentMessage{Message: &m, Nonce: n.Nonce}, nil
}

// TestNonce checks message creates with a nonce: with enforce_nonce, a
// second create by the bot with the same nonce within two minutes returns
// the first message and posts nothing; otherwise each create posts.
func TestNonce(t *testing.T) {
	t.Parallel()
	png := pngOf(t, 2, 2, color.White)
	tests := []struct {
		name        string
		second      func(w *world, ch, other *Channel, clock *FakeClock, first *sentMessage) (*sentMessage, error)
		firstNonce  any
		enforce     bool
		same        bool   // the second create answers the first message
		code        int    // the second create's error code
		messages    int    // in ch afterwards
		failure     string // a test failure the stand-in reports, if any
		withPicture bool
	}{
		{name: "a retry with enforce_nonce", firstNonce: "move-12-bob", enforce: true, same: true, messages: 1,
			second: func(w *world, ch, _ *Channel, _ *FakeClock, _ *sentMessage) (*sentMessage, error) {
				return createWithNonce(w.sess, ch.ID, "move-12-bob", true, "board")
			}},
		{name: "a retry with a picture", firstNonce: "move-12-bob", enforce: true, same: true, messages: 1, withPicture: true,
			second: func(w *world, ch, _ *Channel, _ *FakeClock, _ *sentMessage) (*sentMessage, error) {
				return createWithNonce(w.sess, ch.ID, "move-12-bob", true, "board",
					&discordgo.File{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)})
			}},
		{name: "an integer nonce", firstNonce: 1234567, enforce: true, same: true, messages: 1,
			second: func(w *world, ch, _ *Channel, _ *FakeClock, _ *sentMessage) (*sentMessage, error) {
				return createWithNonce(w.sess, ch.ID, 1234567, true, "board")
			}},
		{name: "without enforce_nonce both post", firstNonce: "move-12-bob", messages: 2,
			second: func(w *world, ch, _ *Channel, _ *FakeClock, _ *sentMessage) (*sentMessage, error) {
				return createWithNonce(w.sess, ch.ID, "move-12-bob", false, "board")
			}},
		{name: "another nonce posts", firstNonce: "move-12-bob", enforce: true, messages: 2,
			second: func(w *world, ch, _ *Channel, _ *FakeClock, _ *sentMessage) (*sentMessage, error) {
				return createWithNonce(w.sess, ch.ID, "move-13-alice", true, "board")
			}},
		{name: "after two minutes the nonce is forgotten", firstNonce: "move-12-bob", enforce: true, messages: 2,
			second: func(w *world, ch, _ *Channel, clock *FakeClock, _ *sentMessage) (*sentMessage, error) {
				clock.Advance(time.Second) // the first create was nonceWindow ago
				return createWithNonce(w.sess, ch.ID, "move-12-bob", true, "board")
			}},
		{name: "a deleted message is not created again", firstNonce: "move-12-bob", enforce: true, code: discordgo.ErrCodeUnknownMessage,
			second: func(w *world, ch, _ *Channel, _ *FakeClock, first *sentMessage) (*sentMessage, error) {
				if err := w.sess.ChannelMessageDelete(ch.ID, first.ID); err != nil {
					return nil, err
				}
				return createWithNonce(w.sess, ch.ID, "move-12-bob", true, "board")
			}},
		{name: "the nonce of another channel's message", firstNonce: "move-12-bob", enforce: true, same: true, messages: 1,
			failure: "posts nothing in channel",
			second: func(w *world, _, other *Channel, _ *FakeClock, _ *sentMessage) (*sentMessage, error) {
				return createWithNonce(w.sess, other.ID, "move-12-bob", true, "board")
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{TB: t}
			clock := NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
			var log eventLog
			w := newWorld(rec, log.attach, WithClock(clock))
			ch, other := w.guild.General(), w.guild.AddChannel("other")
			var files []*discordgo.File
			if tc.withPicture {
				files = append(files, &discordgo.File{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)})
			}
			first, err := createWithNonce(w.sess, ch.ID, tc.firstNonce, tc.enforce, "board", files...)
			if err != nil {
				t.Fatal(err)
			}
			if string(first.Nonce) != mustJSON(tc.firstNonce) {
				t.Errorf("the answer carries nonce %s, want %s", first.Nonce, mustJSON(tc.firstNonce))
			}
			clock.Advance(nonceWindow - time.Second)
			second, err := tc.second(w, ch, other, clock, first)
			if restCode(err) != tc.code || tc.code == 0 && err != nil {
				t.Fatalf("second create: %v, want code %d", err, tc.code)
			}
			if tc.code == 0 && (second.ID == first.ID) != tc.same {
				t.Errorf("second create answered %s, first %s; want the same message: %v", second.ID, first.ID, tc.same)
			}
			if tc.same && len(second.Attachments) != len(first.Attachments) {
				t.Errorf("the repeated answer has %d attachments, the first %d", len(second.Attachments), len(first.Attachments))
			}
			all := len(w.srv.ChannelMessages(ch)) + len(w.srv.ChannelMessages(other))
			if tc.code == 0 && all != tc.messages {
				t.Errorf("%d messages posted, want %d", all, tc.messages)
			}
			// Events come in order: once the marker's has come, any second
			// MESSAGE_CREATE of the first message would have too.
			marker, err := w.sess.ChannelMessageSend(ch.ID, "marker")
			if err != nil {
				t.Fatal(err)
			}
			log.wait(t, w.srv, "MESSAGE_CREATE", func(d map[string]any) bool { return d["id"] == marker.ID })
			creates := log.find("MESSAGE_CREATE", func(d map[string]any) bool { return d["id"] == first.ID })
			if len(creates) != 1 {
				t.Fatalf("%d MESSAGE_CREATE for the first message, want 1", len(creates))
			}
			if n, _ := json.Marshal(creates[0]["nonce"]); string(n) != mustJSON(tc.firstNonce) {
				t.Errorf("MESSAGE_CREATE carries nonce %s", n)
			}
			if tc.failure != "" {
				rec.wantFailure(t, tc.failure)
			} else {
				noFailures(t, rec)
			}
		})
	}
}

// mustJSON encodes a value as JSON.
func mustJSON(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}
