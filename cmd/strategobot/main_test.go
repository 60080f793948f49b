package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestDispatch(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		env    string
		code   int
		stdout string
		stderr string
	}{
		{"help", []string{"help"}, "", 0, "usage: strategobot", ""},
		{"unknown command", []string{"frobnicate"}, "", 2, "", `unknown command "frobnicate"`},
		{"no token", nil, "", 2, "", "DISCORD_TOKEN is not set"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DISCORD_TOKEN", tc.env)
			var out, errOut bytes.Buffer
			code := dispatch(context.Background(), tc.args, &out, &errOut)
			if code != tc.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.code, errOut.String())
			}
			if !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", out.String(), errOut.String(), tc.stdout, tc.stderr)
			}
		})
	}
}

// TestUsageListsEveryCommand: help names each command once, with its summary.
func TestUsageListsEveryCommand(t *testing.T) {
	var out bytes.Buffer
	cmds := commands()
	usage(&out, cmds)
	for name, cmd := range cmds {
		if n := strings.Count(out.String(), "\n  "+name+" "); n != 1 || !strings.Contains(out.String(), cmd.summary) {
			t.Errorf("%q listed %d times (summary shown: %v) in\n%s", name, n, strings.Contains(out.String(), cmd.summary), out.String())
		}
	}
	section := out.String()[strings.Index(out.String(), "Commands:\n"):]
	section = section[:strings.Index(section, "\n\n")]
	if lines := strings.Count(section, "\n"); lines != len(cmds) {
		t.Errorf("%d command lines for %d commands", lines, len(cmds))
	}
}
