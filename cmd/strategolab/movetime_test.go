package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestMovetime times the computer on positions of two real games and
// refuses command lines it cannot run.
func TestMovetime(t *testing.T) {
	games := []string{"../../internal/lab/beliefs/testdata/classic-2013.10-11.xml", "../../internal/lab/beliefs/testdata/classic-2014.0-346.xml"}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout *regexp.Regexp
		stderr string
	}{
		{"normal on two games", append([]string{"-level", "normal", "-every", "40"}, games...), 0,
			regexp.MustCompile(`^normal, [1-9]\d* positions of 2 games \(one ply in 40\): median [\d.]+ ms, 90th percentile [\d.]+ ms, 99th [\d.]+ ms, longest [\d.]+ ms\n$`), ""},
		{"no record", []string{"-level", "hard"}, 2, nil, "name one or more Gravon records"},
		{"random does not think", append([]string{"-level", "random"}, games...), 2, nil, `-level is easy, normal or hard, not "random"`},
		{"every 0", append([]string{"-every", "0"}, games...), 2, nil, "-every is 1 or more"},
		{"only Barrage records wanted", append([]string{"-variant", "barrage"}, games...), 1, nil, "no position to time in 0 games"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := program().Dispatch(context.Background(), append([]string{"movetime"}, tc.args...), &out, &errOut)
			if code != tc.code || (tc.stdout != nil && !tc.stdout.MatchString(out.String())) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %v, %q", code, out.String(), errOut.String(), tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}
