package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// stopBound is what the test allows for a signal to end the process. The aim
// is under a second; a loaded machine gets room before the test fails.
const stopBound = 5 * time.Second

// TestInterruptAtAnyMoment sends SIGINT or SIGTERM to the built bot while
// it waits for Discord at each step of its start (the gateway's address,
// READY, the command's registration) and once it serves: it ends at once,
// with exit code 0 and no error in its log.
func TestInterruptAtAnyMoment(t *testing.T) {
	bin := buildBinary(t)
	const register = "PUT /applications/{application_id}/commands"
	tests := []struct {
		name string
		// hold makes the local Discord leave one step unanswered, and
		// returns whether the bot now waits there.
		hold func(t *testing.T, srv *discordtest.Server) func() bool
	}{
		{"waiting for the gateway's address", func(t *testing.T, srv *discordtest.Server) func() bool {
			h := srv.HoldNext(t, "GET /gateway", 1)
			return func() bool { return h.Waiting() > 0 }
		}},
		{"waiting for READY", func(t *testing.T, srv *discordtest.Server) func() bool {
			h := srv.HoldReady()
			return func() bool { return h.Waiting() > 0 }
		}},
		{"registering the command", func(t *testing.T, srv *discordtest.Server) func() bool {
			h := srv.HoldNext(t, register, 1)
			return func() bool { return h.Waiting() > 0 }
		}},
		{"serving", func(t *testing.T, srv *discordtest.Server) func() bool {
			return func() bool { return len(srv.Requests(register)) > 0 }
		}},
	}
	for _, tc := range tests {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(tc.name+", "+sig.String(), func(t *testing.T) {
				srv := discordtest.New(t)
				srv.AddGuild("Stratego Club")
				waiting := tc.hold(t, srv)
				p := startBot(t, bin, srv)
				srv.WaitFor(t, "the bot at that step", waiting)
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
			})
		}
	}
}

// TestStartLogNamesVersionAndInvite: the first line of the bot's log is
// its version, the line `strategobot version` prints, and the second,
// once READY names the application, the invite link.
func TestStartLogNamesVersionAndInvite(t *testing.T) {
	bin := buildBinary(t)
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	version := strings.TrimSpace(string(out))
	if !strings.HasPrefix(version, "strategobot ") || !strings.Contains(version, "go1.") || strings.Contains(version, "\n") {
		t.Fatalf("strategobot version printed %q, want one line naming the Go version", out)
	}
	srv := discordtest.New(t)
	p := startBot(t, bin, srv)
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

// startBot starts the built bot against srv on a fresh database, with its
// log kept, and kills it when the test ends if it still runs.
func startBot(t *testing.T, bin string, srv *discordtest.Server) *botProcess {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"DISCORD_TOKEN="+srv.Token(),
		"STRATEGOBOT_API_BASE_URL="+srv.APIBase(),
		"STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"),
		"STRATEGOBOT_CONFIG=",
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
