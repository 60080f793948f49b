package main

import (
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/pgtest"
)

// TestBinaryAgainstLocalDiscord builds strategobot and runs it as its own
// process against the local Discord, reached through api_base_url as a
// REST proxy would be: it registers its command, runs a challenge to its
// DMs, and stops cleanly on SIGTERM. It does so on a bbolt file and on a
// PostgreSQL database, whose password must stay out of the log.
func TestBinaryAgainstLocalDiscord(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	const password = "pw-never-logged" // the test server trusts its socket and ignores it
	tests := []struct {
		name     string
		database func(t *testing.T) string
	}{
		{"bbolt", func(t *testing.T) string { return filepath.Join(t.TempDir(), "bot.db") }},
		{"postgres", func(t *testing.T) string {
			u, err := url.Parse(pgtest.NewDatabase(t))
			if err != nil {
				t.Fatal(err)
			}
			u.User = url.UserPassword(u.User.Username(), password)
			return u.String()
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runAgainstLocalDiscord(t, bin, tc.database(t))
		})
	}
}

func runAgainstLocalDiscord(t *testing.T, bin, database string) {
	const publicURL = "https://stratego.example.org"
	dir := t.TempDir()
	srv := discordtest.New(t)
	club := srv.AddGuild("Stratego Club")
	alice, bob := club.AddMember("alice"), club.AddMember("bob")

	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = botEnv(srv,
		"STRATEGOBOT_DATABASE="+database,
		"STRATEGOBOT_METRICS_ADDR=127.0.0.1:0",
		"STRATEGOBOT_WEB_ADDR=127.0.0.1:0",
		"STRATEGOBOT_PUBLIC_URL="+publicURL,
	)
	var logs syncBuffer // read while the process writes it
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	srv.WaitFor(t, "the command registered by the process", func() bool {
		return len(srv.Requests("PUT /applications/{application_id}/commands")) > 0
	})

	msg := alice.SlashCommand(t, club.General(), "stratego challenge", discordtest.Opt("opponent", bob)).Reply(t)
	accept := ""
	for _, b := range msg.Buttons() {
		if b.Label == "Accept" {
			accept = b.CustomID
		}
	}
	bob.ClickButton(t, msg, accept).Reply(t)
	var link string
	for _, m := range []*discordtest.Member{alice, bob} {
		invite := m.WaitDM(t, func(d *discordtest.Message) bool { return strings.Contains(d.Content, "Send me your secret set-up") })
		for _, b := range invite.Buttons() {
			if b.Label == "Open board" {
				link = b.URL
			}
		}
		if !strings.HasPrefix(link, publicURL+"/board#") {
			t.Fatalf("the set-up invite's board link: %q", link)
		}
	}

	// The board in the browser, on the port the log names: a page's event
	// stream stays open until the process stops.
	webAddr := regexp.MustCompile(`serving the board in the browser"? addr=(\S+)`).FindStringSubmatch(logs.String())
	if webAddr == nil {
		t.Fatalf("no web address in the log:\n%s", logs.String())
	}
	_, token, _ := strings.Cut(link, "#")
	req, _ := http.NewRequest("GET", "http://"+webAddr[1]+"/api/events", nil)
	req.Header.Set("X-Strategobot-Capability", token)
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if stream.StatusCode != 200 || stream.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("the event stream: %d %s", stream.StatusCode, stream.Header.Get("Content-Type"))
	}

	// /healthz and /metrics, on the port the log names.
	addr := regexp.MustCompile(`serving /metrics and /healthz"? addr=(\S+)`).FindStringSubmatch(logs.String())
	if addr == nil {
		t.Fatalf("no metrics address in the log:\n%s", logs.String())
	}
	for path, want := range map[string]string{"/healthz": "ok", "/metrics": "strategobot_interactions_total{kind=\"component\",outcome=\"ok\"}"} {
		resp, err := http.Get("http://" + addr[1] + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %d %q; want 200 with %q", path, resp.StatusCode, truncate(string(body), 300), want)
		}
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the process ended with %v; its log:\n%s", err, logs.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("the process did not stop on SIGTERM; its log:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), token) {
		t.Errorf("the log shows a link's token:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "stopped") {
		t.Errorf("no clean stop in the log:\n%s", logs.String())
	}
	if u, err := url.Parse(database); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && strings.Contains(logs.String(), pw) {
			t.Errorf("the log shows the database password:\n%s", logs.String())
		}
	}
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// syncBuffer is a log buffer safe to read while a process writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
