package storage

import (
	"os/exec"
	"strings"
	"testing"
)

// deps lists the packages pattern depends on, itself included.
func deps(t *testing.T, pattern string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pattern).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	return strings.Fields(string(out))
}

// within reports whether pkg is root or one of its subpackages.
func within(pkg, root string) bool {
	return pkg == root || strings.HasPrefix(pkg, root+"/")
}

// TestImportsNothingAbove: the store and its backends keep a practice
// match's level as a plain name, so they link nothing of the computer player
// (game/ai) and its search, and nothing of the pictures (render and its
// fonts), which come after the store on a move's way.
func TestImportsNothingAbove(t *testing.T) {
	above := []string{"github.com/strategobot/strategobot/game/ai", "github.com/strategobot/strategobot/render", "github.com/fogleman/gg"}
	for _, pkg := range deps(t, "github.com/strategobot/strategobot/storage/...") {
		for _, a := range above {
			if within(pkg, a) {
				t.Errorf("storage depends on %s", pkg)
			}
		}
	}
}

// TestImportsNoDatabase: the contract and what the backends share link no
// database; each backend brings its own (storage/bolt bbolt,
// storage/postgres pgx).
func TestImportsNoDatabase(t *testing.T) {
	databases := []string{
		"go.etcd.io/bbolt", "github.com/jackc/pgx",
		"github.com/strategobot/strategobot/storage/bolt", "github.com/strategobot/strategobot/storage/postgres",
	}
	for _, pkg := range deps(t, "github.com/strategobot/strategobot/storage") {
		for _, db := range databases {
			if within(pkg, db) {
				t.Errorf("storage depends on %s", pkg)
			}
		}
	}
}
