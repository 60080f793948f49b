package main

import (
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage/bolt"
)

// stopBound is what the test allows for a signal to end the process. The aim
// is under a second; a loaded machine gets room before the test fails.
const stopBound = 5 * time.Second

// TestInterruptAtAnyMoment sends SIGINT or SIGTERM to the built bot while
// it waits at each step of its start (another process's lock on the
// database, the gateway's address, READY, the command's registration), once
// it serves, and while Discord holds a send (an interaction's answer, a
// message of the outbox) or rate-limits it for a minute: it ends at once,
// with exit code 0 and no error in its log.
func TestInterruptAtAnyMoment(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	const register = "PUT /applications/{application_id}/commands"
	const answer = "POST /interactions/{interaction_id}/{interaction_token}/callback"
	const send = "POST /channels/{channel_id}/messages"
	tests := []struct {
		name string
		// hold makes the local Discord, or the database at path, leave
		// one step unanswered, and returns whether the bot now waits there.
		hold func(t *testing.T, srv *discordtest.Server, path string) func(p *botProcess) bool
		// then is what members of club do once the bot serves, to bring
		// it to the step held (nil: nothing).
		then func(t *testing.T, club *discordtest.Guild)
	}{
		{"waiting for the database's lock", func(t *testing.T, srv *discordtest.Server, path string) func(p *botProcess) bool {
			db, err := bolt.Open(bolt.Options{Path: path})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			// The bot waits bolt.DefaultTimeout (2 s) for the lock
			// from its first log line on; the signal comes 100 ms in.
			return func(p *botProcess) bool { return strings.Contains(p.logs.String(), "msg=starting") }
		}, nil},
		{"waiting for the gateway's address", func(t *testing.T, srv *discordtest.Server, _ string) func(*botProcess) bool {
			h := srv.HoldNext(t, "GET /gateway", 1)
			return func(*botProcess) bool { return h.Waiting() > 0 }
		}, nil},
		{"waiting for READY", func(t *testing.T, srv *discordtest.Server, _ string) func(*botProcess) bool {
			h := srv.HoldReady()
			return func(*botProcess) bool { return h.Waiting() > 0 }
		}, nil},
		{"registering the command", func(t *testing.T, srv *discordtest.Server, _ string) func(*botProcess) bool {
			h := srv.HoldNext(t, register, 1)
			return func(*botProcess) bool { return h.Waiting() > 0 }
		}, nil},
		{"serving", func(t *testing.T, srv *discordtest.Server, _ string) func(*botProcess) bool {
			return func(*botProcess) bool { return len(srv.Requests(register)) > 0 }
		}, nil},
		{"an answer held by Discord", func(t *testing.T, srv *discordtest.Server, _ string) func(*botProcess) bool {
			h := srv.HoldNext(t, answer, 1)
			t.Cleanup(h.Release)
			return func(*botProcess) bool { return h.Waiting() > 0 }
		}, func(t *testing.T, club *discordtest.Guild) {
			alice, bob := club.AddMember("alice"), club.AddMember("bob")
			alice.SlashCommand(t, club.General(), "stratego challenge", discordtest.Opt("opponent", bob))
		}},
		{"a message of the outbox held by Discord", func(t *testing.T, srv *discordtest.Server, _ string) func(*botProcess) bool {
			// The first message the outbox sends: a set-up invite.
			h := srv.HoldNext(t, send, 1)
			t.Cleanup(h.Release)
			return func(*botProcess) bool { return h.Waiting() > 0 }
		}, func(t *testing.T, club *discordtest.Guild) {
			alice, bob := club.AddMember("alice"), club.AddMember("bob")
			msg := alice.SlashCommand(t, club.General(), "stratego challenge", discordtest.Opt("opponent", bob)).Reply(t)
			bob.ClickButton(t, msg, buttonID(t, msg, "Accept")).Reply(t)
		}},
		{"an answer Discord rate-limits for a minute", func(t *testing.T, srv *discordtest.Server, _ string) func(p *botProcess) bool {
			srv.RateLimitNext(t, answer, 1, time.Minute)
			return func(*botProcess) bool { return rateLimited(srv, answer) }
		}, func(t *testing.T, club *discordtest.Guild) {
			alice, bob := club.AddMember("alice"), club.AddMember("bob")
			alice.SlashCommand(t, club.General(), "stratego challenge", discordtest.Opt("opponent", bob))
		}},
		{"a message of the outbox Discord rate-limits for a minute", func(t *testing.T, srv *discordtest.Server, _ string) func(p *botProcess) bool {
			srv.RateLimitNext(t, send, 1, time.Minute)
			return func(*botProcess) bool { return rateLimited(srv, send) }
		}, func(t *testing.T, club *discordtest.Guild) {
			alice, bob := club.AddMember("alice"), club.AddMember("bob")
			msg := alice.SlashCommand(t, club.General(), "stratego challenge", discordtest.Opt("opponent", bob)).Reply(t)
			bob.ClickButton(t, msg, buttonID(t, msg, "Accept")).Reply(t)
		}},
	}
	for _, tc := range tests {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(tc.name+", "+sig.String(), func(t *testing.T) {
				srv := discordtest.New(t)
				club := srv.AddGuild("Stratego Club")
				dir := t.TempDir()
				waiting := tc.hold(t, srv, filepath.Join(dir, "bot.db"))
				p := startBot(t, bin, srv, dir)
				if tc.then != nil {
					srv.WaitFor(t, "the command registered", func() bool { return len(srv.Requests(register)) > 0 })
					tc.then(t, club)
				}
				srv.WaitFor(t, "the bot at that step", func() bool { return waiting(p) })
				time.Sleep(100 * time.Millisecond) // well inside the step
				start := time.Now()
				if err := p.cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				var err error
				select {
				case err = <-p.exited:
				case <-time.After(stopBound):
					t.Fatalf("still running %s after %v; its log:\n%s", stopBound, sig, p.logs.String())
				}
				t.Logf("stopped %s after %v", time.Since(start).Round(time.Millisecond), sig)
				if err != nil {
					t.Errorf("the process ended with %v, want exit code 0; its log:\n%s", err, p.logs.String())
				}
				if strings.Contains(p.logs.String(), "level=ERROR") {
					t.Errorf("an error in the log of a stop asked for:\n%s", p.logs.String())
				}
				// A request cut by the stop is logged with its URL, whose
				// interaction token would let a reader of the log see and
				// edit the bot's answers to that member for 15 minutes.
				for _, m := range tokenInLog.FindAllStringSubmatch(p.logs.String(), -1) {
					if m[1] != "xxxxx" {
						t.Errorf("an interaction's token in the log:\n%s", p.logs.String())
					}
				}
			})
		}
	}
}

// tokenInLog matches the token in the URL of an interaction's answer.
var tokenInLog = regexp.MustCompile(`/(?:interactions|webhooks)/[0-9]+/([^/?"\s]+)`)

// TestStartLogNamesVersionAndInvite: the first line of the bot's log is
// its version, the line `strategobot version` prints, and the second,
// once READY names the application, the invite link.
func TestStartLogNamesVersionAndInvite(t *testing.T) {
	bin := buildtest.Binary(t, "./cmd/strategobot")
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	version := strings.TrimSpace(string(out))
	if !strings.HasPrefix(version, "strategobot ") || !strings.Contains(version, "go1.") || strings.Contains(version, "\n") {
		t.Fatalf("strategobot version printed %q, want one line naming the Go version", out)
	}
	srv := discordtest.New(t)
	p := startBot(t, bin, srv, t.TempDir())
	srv.WaitFor(t, "the command registered", func() bool {
		return strings.Contains(p.logs.String(), "registered the command")
	})
	lines := strings.Split(p.logs.String(), "\n")
	if !strings.Contains(lines[0], `msg=starting version="`+version+`"`) {
		t.Errorf("first log line %q, want the version %q", lines[0], version)
	}
	invite := `invite="https://discord.com/oauth2/authorize?client_id=` + srv.Bot().ID + "&permissions="
	if !strings.Contains(lines[1], "msg=connected") || !strings.Contains(lines[1], invite) || !strings.Contains(lines[1], "scope=bot+applications.commands") {
		t.Errorf("second log line %q, want the invite link %s…", lines[1], invite)
	}
}

// botProcess is one run of the built bot whose log is read while it runs.
type botProcess struct {
	cmd    *exec.Cmd
	exited chan error    // its exit, once
	gone   chan struct{} // closed once it exited
	logs   *syncBuffer
}

// startBot starts the built bot against srv on the database bot.db in dir,
// with its log kept, and kills it when the test ends if it still runs.
func startBot(t *testing.T, bin string, srv *discordtest.Server, dir string) *botProcess {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = botEnv(srv,
		"STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"),
	)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &botProcess{cmd: cmd, exited: make(chan error, 1), gone: make(chan struct{}), logs: logs}
	go func() {
		p.exited <- cmd.Wait()
		close(p.gone)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // harmless once it exited
		<-p.gone
	})
	return p
}

// rateLimited reports whether the local Discord answered a request of route
// with 429.
func rateLimited(srv *discordtest.Server, route string) bool {
	for _, r := range srv.Requests(route) {
		if r.Status == http.StatusTooManyRequests {
			return true
		}
	}
	return false
}
