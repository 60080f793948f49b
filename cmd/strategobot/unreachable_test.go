package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/buildtest"
)

// TestUnreachableDiscordSaysWhatToCheck runs the built bot and check with
// an API address where nothing listens: both exit 1 and say what to check,
// besides the error itself.
func TestUnreachableDiscordSaysWhatToCheck(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + l.Addr().String() + "/api/v9/"
	l.Close() // nothing listens there now
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{nil, "connect to Discord: it cannot be reached; check this machine's network, DNS and firewall, or api_base_url: "},
		{[]string{"check"}, "✗ Discord cannot be reached at " + base + ": "},
	}
	for _, tc := range tests {
		t.Run(strings.Join(append([]string{"strategobot"}, tc.args...), " "), func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG=",
				"STRATEGOBOT_API_BASE_URL="+base, "STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"))
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("ended with %v, want exit code 1; output:\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.want) || !strings.Contains(string(out), "network, DNS and firewall") {
				t.Errorf("output\n%s\nwant %q and what to check", out, tc.want)
			}
		})
	}
}

// TestGatewayUpgradeRefusedSaysWhatToCheck runs the built bot and check
// where api_base_url answers REST but its gateway address takes no
// WebSocket connection, as a proxy that passes plain requests alone does:
// both say so once, with what to check, and check shows no line of
// discordgo's own between its ✓ and ✗ lines.
func TestGatewayUpgradeRefusedSaysWhatToCheck(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v9/gateway", "/api/v9/gateway/bot":
			fmt.Fprintf(w, `{"url":"ws://%s/ws","shards":1}`, r.Host) // this server, which takes no WebSocket
		case "/api/v9/users/@me":
			w.Write([]byte(`{"id":"123456789012345678","username":"strategobot","bot":true}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer api.Close()
	dir := t.TempDir()
	const advice = "a proxy at api_base_url must pass WebSocket upgrades through"
	tests := []struct {
		args []string
		want string
	}{
		{nil, "connect to Discord: websocket: bad handshake: the gateway answered without taking the WebSocket connection: " + advice},
		{[]string{"check"}, "✗ the gateway refused the connection: websocket: bad handshake: the gateway answered without taking the WebSocket connection: " + advice},
	}
	for _, tc := range tests {
		t.Run(strings.Join(append([]string{"strategobot"}, tc.args...), " "), func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG=",
				"STRATEGOBOT_API_BASE_URL="+api.URL+"/api/v9/", "STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"))
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("ended with %v, want exit code 1; output:\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("output\n%s\nwants %q", out, tc.want)
			}
			if n := strings.Count(string(out), "bad handshake"); n != 1 {
				t.Errorf("output says bad handshake %d times, want once:\n%s", n, out)
			}
		})
	}
}

// TestGatewayUnreachableSaysWhatToCheck runs the built bot and check where
// api_base_url answers REST but the gateway's address it names cannot be
// reached, as where a firewall lets the API through and not the gateway's
// WebSocket: both say that the gateway cannot be reached, with what to
// check, instead of the dial's error alone or a refusal.
func TestGatewayUnreachableSaysWhatToCheck(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gateway := l.Addr().String()
	l.Close() // nothing listens there now
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v9/gateway", "/api/v9/gateway/bot":
			fmt.Fprintf(w, `{"url":"ws://%s","shards":1}`, gateway)
		case "/api/v9/users/@me":
			w.Write([]byte(`{"id":"123456789012345678","username":"strategobot","bot":true}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer api.Close()
	dir := t.TempDir()
	const advice = "check this machine's network, DNS and firewall, which must let WebSocket connections to the gateway through (wss://, port 443) as well as requests to the API"
	tests := []struct {
		args []string
		want string
	}{
		{nil, "connect to Discord: its gateway cannot be reached; " + advice + ": dial tcp " + gateway + ": "},
		{[]string{"check"}, "✗ the gateway cannot be reached: dial tcp " + gateway + ": connect: connection refused. C" + advice[1:] + ".\n"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(append([]string{"strategobot"}, tc.args...), " "), func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG=",
				"STRATEGOBOT_API_BASE_URL="+api.URL+"/api/v9/", "STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"))
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("ended with %v, want exit code 1; output:\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("output\n%s\nwants %q", out, tc.want)
			}
			if strings.Contains(string(out), "refused the connection") {
				t.Errorf("output calls an unreachable gateway a refusal:\n%s", out)
			}
		})
	}
}

// TestGatewayAddressUnreachableInCheck runs check where the API answers the
// bot's user, then cuts the request for the gateway's address: check says
// that Discord cannot be reached at the API's base, with what to check, as
// run does, rather than that the gateway refused the connection.
func TestGatewayAddressUnreachableInCheck(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v9/gateway", "/api/v9/gateway/bot":
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close() // no answer at all
			}
		case "/api/v9/users/@me":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id":"123456789012345678","username":"strategobot","bot":true}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer api.Close()
	base := api.URL + "/api/v9/"
	dir := t.TempDir()
	cmd := exec.Command(bin, "check")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG=",
		"STRATEGOBOT_API_BASE_URL="+base, "STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("ended with %v, want exit code 1; output:\n%s", err, out)
	}
	if want := "✗ Discord cannot be reached at " + base + ": Get \"" + base + "gateway\": "; !strings.Contains(string(out), want) ||
		!strings.Contains(string(out), "Check this machine's network, DNS and firewall, or api_base_url.") || strings.Contains(string(out), "refused the connection") {
		t.Errorf("output\n%s\nwants %q and what to check", out, want)
	}
}

// TestNotDiscordSaysWhatToCheck runs the built bot and check with an
// api_base_url that answers, but not as Discord's API does: a web server
// that has no such page (404, HTML), as a proxy's address without its
// /api/v9/ path gives. Both say that api_base_url is wrong, naming the
// address asked, instead of the page's HTML or "Discord may be having
// trouble". A proxy's error page (502 or 503, HTML) is named by its status, its
// HTML left out.
func TestNotDiscordSaysWhatToCheck(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	const advice = "which is not Discord's API: check api_base_url: leave it out for Discord's own, or give your REST proxy's address of Discord's API"
	const page = " with a page that is not Discord's (left out)"
	tests := []struct {
		status int
		args   []string
		want   string
	}{
		{http.StatusNotFound, nil, "connect to Discord: GET BASE/gateway answered 404 Not Found, " + advice},
		{http.StatusNotFound, []string{"check"}, "✗ GET BASE/users/@me answered 404 Not Found, " + advice},
		{http.StatusBadGateway, nil, "connect to Discord: Discord's API answered 502 Bad Gateway to every try" + page},
		{http.StatusBadGateway, []string{"check"}, "✗ Discord answered with an error at BASE: Discord's API answered 502 Bad Gateway to every try" + page +
			". Discord may be having trouble (https://discordstatus.com)"},
		{http.StatusServiceUnavailable, nil, "connect to Discord: GET BASE/gateway answered 503 Service Unavailable" + page},
		{http.StatusServiceUnavailable, []string{"check"}, "✗ Discord answered with an error at BASE: GET BASE/users/@me answered 503 Service Unavailable" + page},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d %s", tc.status, strings.Join(append([]string{"strategobot"}, tc.args...), " ")), func(t *testing.T) {
			api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(tc.status)
				w.Write([]byte("<!DOCTYPE html>\n<html><body><h1>Not Found</h1>\n<p>Nothing matches the given URI.</p></body></html>\n"))
			}))
			defer api.Close()
			base := api.URL + "/"
			dir := t.TempDir()
			cmd := exec.Command(bin, tc.args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "DISCORD_TOKEN=x", "STRATEGOBOT_CONFIG=",
				"STRATEGOBOT_API_BASE_URL="+base, "STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"))
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("ended with %v, want exit code 1; output:\n%s", err, out)
			}
			if want := strings.ReplaceAll(tc.want, "BASE/", base); !strings.Contains(string(out), strings.ReplaceAll(want, "BASE", base)) {
				t.Errorf("output\n%s\nwants %q", out, want)
			}
			for _, not := range []string{"<html", "Nothing matches"} {
				if strings.Contains(string(out), not) {
					t.Errorf("output\n%s\nshows %q", out, not)
				}
			}
			if tc.status == http.StatusNotFound && strings.Contains(string(out), "discordstatus") {
				t.Errorf("output\n%s\nblames Discord for a wrong api_base_url", out)
			}
		})
	}
}
