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
