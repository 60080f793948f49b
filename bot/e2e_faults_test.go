package bot

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

func TestThreadPerMatch(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Threads = true })
	h.startClassic()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	threads := h.channel.Threads()
	if len(threads) != 1 {
		t.Fatalf("%d threads", len(threads))
	}
	m, _ := h.db.Match(context.Background(), 1)
	if m.ThreadID != threads[0].ID {
		t.Fatalf("the match is in %q, the thread is %q", m.ThreadID, threads[0].ID)
	}
	h.srv.WaitFor(t, "the public board in the thread", func() bool {
		for _, msg := range h.srv.ChannelMessages(threads[0]) {
			if strings.Contains(msg.Content, "alice moved A4-A5") && len(msg.Files) == 1 {
				return true
			}
		}
		return false
	})
}

// TestDiscordTrouble: a 502 and a 429 on the way do not lose a move's messages.
func TestDiscordTrouble(t *testing.T) {
	h := newHarness(t)
	h.startClassic()
	const send = "POST /channels/{channel_id}/messages"
	h.srv.FailNext(t, send, 1, 502)
	h.srv.RateLimitNext(t, send, 1, 50*time.Millisecond)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	h.channelSays("alice moved A4-A5")
}

func TestPanicInHandlerIsContained(t *testing.T) {
	var logs bytes.Buffer
	b := New(Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))}, nil, nil, nil)
	b.guard(context.Background(), "test", func(context.Context) { panic("boom") })
	if !strings.Contains(logs.String(), "handler panicked") || !strings.Contains(logs.String(), "boom") {
		t.Fatalf("logs: %s", logs.String())
	}
	ran := false
	b.guard(context.Background(), "test", func(context.Context) { ran = true })
	if !ran {
		t.Fatal("the bot stopped handling after a panic")
	}
}
