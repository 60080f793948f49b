package main

import (
	"errors"
	"net"
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
