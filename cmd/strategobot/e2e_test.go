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

// TestBinaryAgainstLocalDiscord builds strategobot and runs it as its own
// process against the local Discord, reached through api_base_url as a
// REST proxy would be: it registers its command, runs a challenge to its
// DMs, and stops cleanly on SIGTERM.
func TestBinaryAgainstLocalDiscord(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "strategobot")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv := discordtest.New(t)
	club := srv.AddGuild("Stratego Club")
	alice, bob := club.AddMember("alice"), club.AddMember("bob")

	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"DISCORD_TOKEN="+srv.Token(),
		"STRATEGOBOT_API_BASE_URL="+srv.APIBase(),
		"STRATEGOBOT_DATABASE="+filepath.Join(dir, "bot.db"),
		"STRATEGOBOT_CONFIG=",
	)
	var logs strings.Builder
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
	for _, m := range []*discordtest.Member{alice, bob} {
		m.WaitDM(t, func(d *discordtest.Message) bool { return strings.Contains(d.Content, "Send me your secret set-up") })
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
	if !strings.Contains(logs.String(), "stopped") {
		t.Errorf("no clean stop in the log:\n%s", logs.String())
	}
}
