package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/buildtest"
)

// TestLogAttrs: durations are written as people read them in either
// format, and discordgo's lines reach the log at their own level.
func TestLogAttrs(t *testing.T) {
	tests := []struct {
		format string
		log    func(l *slog.Logger)
		want   string
	}{
		{"json", func(l *slog.Logger) { l.Warn("reconnecting", "in", time.Second) }, `"in":"1s"`},
		{"text", func(l *slog.Logger) { l.Warn("reconnecting", "in", 1500*time.Millisecond) }, `in=1.5s`},
		{"json", func(l *slog.Logger) { l.Info("started", "move_time", duration(24*time.Hour)) }, `"move_time":"24h0m0s"`},
		{"json", func(l *slog.Logger) {
			discordgoLogger(l)(discordgo.LogError, 2, "error decoding websocket message, %s", "EOF")
		}, `"level":"ERROR","msg":"discordgo: error decoding websocket message, EOF"`},
		// The bot logs Open's error itself, with what to do.
		{"json", func(l *slog.Logger) {
			discordgoLogger(l)(discordgo.LogError, 2, "error connecting to gateway %s, %s", "ws://127.0.0.1:1", "refused")
		}, `"level":"DEBUG","msg":"discordgo: error connecting to gateway ws://127.0.0.1:1, refused"`},
		{"text", func(l *slog.Logger) {
			discordgoLogger(l)(discordgo.LogWarning, 2, "error reading from gateway %s websocket, %s\n", "ws://x", "EOF")
		}, `level=WARN msg="discordgo: error reading from gateway ws://x websocket, EOF"`},
	}
	for _, tc := range tests {
		cfg := defaultConfig()
		cfg.LogFormat = tc.format
		cfg.LogLevel = "debug"
		var out bytes.Buffer
		tc.log(newLogger(cfg, &out))
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%s log %q, want %q", tc.format, out.String(), tc.want)
		}
	}
}

// TestSessionLogsErrorsAlone: discordgo's warnings and debug lines may
// quote the gateway's payloads, members' messages included: the bot's
// sessions log discordgo's errors alone.
func TestSessionLogsErrorsAlone(t *testing.T) {
	s, err := newSession("x", DiscordAPIBaseURL)
	if err != nil {
		t.Fatal(err)
	}
	if s.LogLevel != discordgo.LogError {
		t.Errorf("the session's LogLevel is %d, want LogError", s.LogLevel)
	}
}

// TestJSONLogIsJSON runs the built bot with log_format = "json" and
// log_level = "debug" where the gateway cannot be reached, which discordgo
// logs itself: every line of the log is a JSON object, discordgo's too.
func TestJSONLogIsJSON(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/v9/gateway") {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"url":"ws://127.0.0.1:1","shards":1}`))
			return
		}
		http.NotFound(w, r)
	}))
	defer api.Close()
	dir := t.TempDir()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG=", "STRATEGOBOT_LOG_FORMAT=json", "STRATEGOBOT_LOG_LEVEL=debug",
		"STRATEGOBOT_API_BASE_URL="+api.URL+"/api/v9/", "STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	sawDiscordgo := false
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Errorf("a line of the log is no JSON object: %q", line)
			continue
		}
		if msg, _ := entry["msg"].(string); strings.HasPrefix(msg, "discordgo: error connecting to gateway") {
			sawDiscordgo = entry["level"] == "DEBUG"
		}
	}
	if !sawDiscordgo {
		t.Errorf("the log has no discordgo error at level DEBUG:\n%s", stderr.String())
	}
}
