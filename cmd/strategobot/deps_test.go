package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoTestCode: the product links none of the test packages, neither
// Go's nor the project's stand-ins for Discord and PostgreSQL. The load test,
// which uses them, is strategoload.
func TestLinksNoTestCode(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := map[string]bool{}
	for _, pkg := range strings.Fields(string(out)) {
		deps[pkg] = true
	}
	if !deps["github.com/strategobot/strategobot/bot"] {
		t.Fatalf("go list -deps . lists no bot package: is it reading the wrong package?\n%s", out)
	}
	for _, pkg := range []string{
		"testing",
		"net/http/httptest",
		"github.com/strategobot/strategobot/internal/discordtest",
		"github.com/strategobot/strategobot/internal/pgtest",
		"github.com/strategobot/strategobot/internal/buildtest",
		"github.com/strategobot/strategobot/internal/cli/clitest",
	} {
		if deps[pkg] {
			t.Errorf("strategobot links %s", pkg)
		}
	}
}
