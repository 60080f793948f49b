package storage

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsNothingOfTheComputer: the store and its backends keep a
// practice match's level as a plain name, so they link nothing of the
// computer player (game/ai) and its search.
func TestImportsNothingOfTheComputer(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/strategobot/strategobot/storage/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/strategobot/strategobot/game/ai" || strings.HasPrefix(pkg, "github.com/strategobot/strategobot/game/ai/") {
			t.Errorf("storage depends on %s", pkg)
		}
	}
}
