package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestTokenAsAdminsPasteIt runs the built bot with DISCORD_TOKEN as an
// admin may set it: a token copied with "Bot " before it and a newline
// after it works; a token Discord no longer knows stops the bot with exit
// code 3 (so that systemd does not restart it) and says once what to do.
func TestTokenAsAdminsPasteIt(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	tests := []struct {
		name  string
		token func(srv *discordtest.Server) string
		code  int
		log   []string
	}{
		{"with Bot before it and a newline after it", func(srv *discordtest.Server) string { return "Bot " + srv.Token() + "\n" },
			0, []string{"registered the command"}},
		{"reset in the Developer Portal", func(srv *discordtest.Server) string { srv.RevokeToken(); return srv.Token() },
			3, []string{"the token is not valid (mistyped, or reset in the Developer Portal): copy the current one from your application → Bot → Reset Token into DISCORD_TOKEN"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := discordtest.New(t)
			dir := t.TempDir()
			token := tc.token(srv)
			cmd := exec.Command(bin)
			cmd.Dir = dir
			cmd.Env = append(botEnv(srv, "STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db")), "DISCORD_TOKEN="+token)
			logs := &syncBuffer{}
			cmd.Stderr = logs
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			if tc.code == 0 {
				srv.WaitFor(t, "the command registered", func() bool { return strings.Contains(logs.String(), tc.log[0]) })
				_ = cmd.Process.Signal(syscall.SIGTERM)
			}
			var err error
			select {
			case err = <-exited:
			case <-time.After(20 * time.Second):
				t.Fatalf("still running after 20 s; its log:\n%s", logs.String())
			}
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			}
			if code != tc.code {
				t.Errorf("exit code %d (%v), want %d; its log:\n%s", code, err, tc.code, logs.String())
			}
			for _, want := range tc.log {
				if !strings.Contains(logs.String(), want) {
					t.Errorf("its log\n%s\nwants %q", logs.String(), want)
				}
			}
			if n := strings.Count(logs.String(), "Authentication failed"); n > 1 {
				t.Errorf("its log says Authentication failed %d times:\n%s", n, logs.String())
			}
		})
	}
}

// TestTokenRefusedBeforeTheGateway runs the built bot where Discord (or
// what stands at api_base_url) answers the first request, for the
// gateway's address, with 401: the bot stops with exit code 3 and the
// advice of a revoked token, not with 1, which systemd would restart for
// ever. A token that is no bot token's shape, such as the Application ID
// copied in its place, is named for what it looks like.
func TestTokenRefusedBeforeTheGateway(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"message": "401: Unauthorized", "code": 0}`))
	}))
	defer api.Close()
	for _, tc := range []struct{ token, shape string }{
		{"MTIzNDU2Nzg5MDEyMzQ1Njc4.GAbCdE.bogus", ""},
		{"123456789012345678", "Reset Token into DISCORD_TOKEN; DISCORD_TOKEN holds a number, such as the Application ID, not the bot's token, " +
			"which is three parts joined by dots"},
	} {
		dir := t.TempDir()
		cmd := exec.Command(bin)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "DISCORD_TOKEN="+tc.token, "STRATEGOBOT_CONFIG=",
			"STRATEGOBOT_API_BASE_URL="+api.URL+"/api/v9/", "STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"))
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 3 {
			t.Fatalf("%s: ended with %v, want exit code 3; output:\n%s", tc.token, err, out)
		}
		want := "401 Unauthorized: the token is not valid (mistyped, or reset in the Developer Portal): copy the current one from your application → Bot → Reset Token into DISCORD_TOKEN"
		if !strings.Contains(string(out), want) {
			t.Errorf("%s: output\n%s\nwants %q", tc.token, out, want)
		}
		if tc.shape != "" && !strings.Contains(string(out), tc.shape) {
			t.Errorf("%s: output\n%s\nwants %q", tc.token, out, tc.shape)
		}
		if tc.shape == "" && strings.Contains(string(out), "joined by dots") {
			t.Errorf("%s: output\n%s\nnames the shape of a token of a bot token's shape", tc.token, out)
		}
	}
}

// TestRefusalSaidOnce runs the built bot until Discord refuses it for good
// once it runs: its token reset, or its command refused (guild_id names a
// server it is not in). It exits 3, and its log says why once: the error
// with what to do, not a second time in another line.
func TestRefusalSaidOnce(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	tests := []struct {
		name   string
		env    []string
		revoke bool   // reset the token once the command is registered
		why    string // in the log once
	}{
		{"its token reset while it runs", nil, true, "4004"},
		{"guild_id of a server it is not in", []string{"STRATEGOBOT_GUILD_ID=4242"}, false, "Missing Access"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := discordtest.New(t)
			dir := t.TempDir()
			cmd := exec.Command(bin)
			cmd.Dir = dir
			cmd.Env = append(botEnv(srv, "STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db")), tc.env...)
			logs := &syncBuffer{}
			cmd.Stderr = logs
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			if tc.revoke {
				srv.WaitFor(t, "the command registered", func() bool { return strings.Contains(logs.String(), "registered the command") })
				srv.RevokeToken()
			}
			var err error
			select {
			case err = <-exited:
			case <-time.After(20 * time.Second):
				t.Fatalf("still running after 20 s; its log:\n%s", logs.String())
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 3 {
				t.Errorf("ended with %v, want exit code 3; its log:\n%s", err, logs.String())
			}
			if n := strings.Count(logs.String(), tc.why); n != 1 {
				t.Errorf("its log says %q %d times, want once:\n%s", tc.why, n, logs.String())
			}
		})
	}
}

// TestTokenShapeAdvice: a token Discord refuses that is not three parts
// joined by dots is named for what it looks like instead, without quoting
// it; a token of a bot token's shape gets no such advice.
func TestTokenShapeAdvice(t *testing.T) {
	for _, tc := range []struct{ token, want string }{
		{"MTIzNDU2Nzg5MDEyMzQ1Njc4.GAbCdE.abcdefghijklmnopqrstuvwxyz0123456789AB", ""},
		{"", ""},
		{"123456789012345678", "DISCORD_TOKEN holds a number, such as the Application ID"},
		{strings.Repeat("0123456789abcdef", 4), "DISCORD_TOKEN looks like the application's Public Key"},
		{"aB3dEfGhIjKlMnOpQrStUvWxYz012345", "DISCORD_TOKEN has no dots, as the Client Secret of the OAuth2 page has none"},
		{"one.two", "DISCORD_TOKEN does not look like a bot token, which is three parts joined by dots"},
		// A line of an environment file, or an export, copied into the value.
		{"DISCORD_TOKEN=MTIzNDU2Nzg5MDEyMzQ1Njc4.GAbCdE.abcdefghijklmnopqrstuvwxyz0123456789AB",
			"DISCORD_TOKEN holds DISCORD_TOKEN= before the token: set it to the token alone, as DISCORD_TOKEN=your-token"},
		{"TOKEN=aB3dEfGhIjKlMnOpQrStUvWxYz012345", "DISCORD_TOKEN holds TOKEN= before the token"},
	} {
		got := tokenShapeAdvice(tc.token)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.token, got, tc.want)
		}
		if tc.token != "" && strings.Contains(got, tc.token) {
			t.Errorf("%q: the advice quotes the token: %q", tc.token, got)
		}
	}
}
