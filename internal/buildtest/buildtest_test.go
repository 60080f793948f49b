package buildtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinary builds a command once, names it as the command, and Remove
// deletes it.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a command")
	}
	bin := Binary(t, "./cmd/strategobot")
	if filepath.Base(bin) != "strategobot" {
		t.Errorf("built %s, want a binary named strategobot", bin)
	}
	if again := Binary(t, "./cmd/strategobot"); again != bin {
		t.Errorf("built twice: %s and %s", bin, again)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "strategobot ") {
		t.Errorf("strategobot version: %q, %v", out, err)
	}
	Remove()
	if _, err := os.Stat(bin); !os.IsNotExist(err) {
		t.Errorf("%s left after Remove: %v", bin, err)
	}
}

// TestBinaryRefusesRelativeNames: a package is named from the module's root.
func TestBinaryRefusesRelativeNames(t *testing.T) {
	if _, err := compile("cmd/strategobot"); err == nil {
		t.Error("cmd/strategobot built; want it refused for ./cmd/strategobot")
	}
}
