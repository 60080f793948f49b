package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/strategobot/strategobot/internal/cli"
)

const versionUsage = `usage: strategobot version    (or strategobot -version)

Prints one line: the module's version, the source revision it was built
from and whether the tree had uncommitted changes, and the Go version. The
bot's first log line says the same. It reads no environment variable.
Exit code: 0, or 2 when given an argument.
`

// runVersion is `strategobot version`.
func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	if err := cli.ParseFlags(cli.NewFlagSet("version", versionUsage, stdout), args); err != nil {
		return cli.NoFlagsFailed(stderr, "strategobot version", versionUsage, err)
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, versionLine(info))
	return 0
}

// versionLine describes a build in one line from its build information,
// e.g. "strategobot v1.2.0, revision 0123456789ab (modified), go1.26.8".
// A build outside a module or a repository says what it does not know.
func versionLine(info *debug.BuildInfo) string {
	if info == nil {
		return "strategobot, no build information"
	}
	version := info.Main.Version
	if version == "" || version == "(devel)" {
		version = "devel"
	}
	vcs := map[string]string{}
	for _, s := range info.Settings {
		if strings.HasPrefix(s.Key, "vcs.") {
			vcs[s.Key] = s.Value
		}
	}
	revision := "revision unknown"
	if r := vcs["vcs.revision"]; r != "" {
		revision = "revision " + r[:min(len(r), 12)]
		if t := vcs["vcs.time"]; t != "" {
			revision += " of " + t
		}
		if vcs["vcs.modified"] == "true" {
			revision += " (modified)"
		}
	}
	goVersion := info.GoVersion
	if goVersion == "" {
		goVersion = "Go version unknown"
	}
	return fmt.Sprintf("strategobot %s, %s, %s", version, revision, goVersion)
}
