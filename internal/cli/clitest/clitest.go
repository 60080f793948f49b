// Package clitest checks a cli.Program in its tests: that its usage lists
// every command, that each command's -h describes its flags, and that every
// command line of the documentation that runs it parses.
package clitest

import (
	"bytes"
	"context"
	"flag"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/cli"
)

// CheckUsage checks that the program's usage names each command once, with
// its summary, and nothing else in its list of commands.
func CheckUsage(t *testing.T, p *cli.Program) {
	t.Helper()
	var out bytes.Buffer
	p.Usage(&out)
	usage := out.String()
	seen := map[string]bool{}
	for _, cmd := range p.Commands {
		if seen[cmd.Name] {
			t.Errorf("two commands named %q", cmd.Name)
		}
		seen[cmd.Name] = true
		listed := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(cmd.Name) + ` +` + regexp.QuoteMeta(cmd.Summary) + `$`)
		if n := len(listed.FindAllString(usage, -1)); n != 1 {
			t.Errorf("%q listed %d times with its summary in\n%s", cmd.Name, n, usage)
		}
	}
	start := strings.Index(usage, "Commands:\n")
	if start < 0 {
		t.Fatalf("no Commands: in\n%s", usage)
	}
	section := usage[start:]
	section = section[:strings.Index(section, "\n\n")]
	if lines := strings.Count(section, "\n"); lines != len(p.Commands) {
		t.Errorf("%d command lines for %d commands", lines, len(p.Commands))
	}
}

// CheckHelp runs each command with -h, as CheckCommandHelp does; env gives
// the environment variables each command reads by command, and must name
// every command (with nil when it reads none).
func CheckHelp(t *testing.T, p *cli.Program, env map[string][]string) {
	t.Helper()
	if len(env) != len(p.Commands) {
		t.Errorf("%d commands tested, %d commands", len(env), len(p.Commands))
	}
	for name, vars := range env {
		t.Run(name, func(t *testing.T) {
			cmd, ok := p.Lookup(name)
			if !ok {
				t.Fatalf("no command %q", name)
			}
			CheckCommandHelp(t, p.Name, cmd, vars)
		})
	}
}

// CheckCommandHelp runs cmd with -h: its usage, on stdout, begins "usage: PROGRAM",
// describes every flag and names each environment variable of env.
func CheckCommandHelp(t *testing.T, program string, cmd cli.Command, env []string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := cmd.Run(context.Background(), []string{"-h"}, &out, &errOut); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	// Help asked for is the answer, not an error: it goes to stdout, so
	// that `PROGRAM CMD -h | less` shows it.
	if errOut.Len() > 0 {
		t.Errorf("-h wrote to stderr:\n%s", errOut.String())
	}
	help := out.String()
	if !strings.HasPrefix(help, "usage: "+program) {
		t.Errorf("no usage line first in\n%s", help)
	}
	cmd.Flags(io.Discard).VisitAll(func(f *flag.Flag) {
		if strings.TrimSpace(f.Usage) == "" {
			t.Errorf("-%s has no description", f.Name)
		}
		listed := regexp.MustCompile(`(?m)^  -` + regexp.QuoteMeta(f.Name) + `\s`)
		if !listed.MatchString(help) || !strings.Contains(help, f.Usage) {
			t.Errorf("-%s or its description %q missing from\n%s", f.Name, f.Usage, help)
		}
	})
	for _, v := range env {
		if !strings.Contains(help, v) {
			t.Errorf("%s missing from\n%s", v, help)
		}
	}
}
