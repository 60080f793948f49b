package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built is the strategobot binary that tests run as a process of its own,
// built once for the whole test run (a build takes seconds).
var built struct {
	once sync.Once
	dir  string
	path string
	out  []byte
	err  error
}

// buildBinary returns the path of the built binary, building it on first use.
func buildBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "strategobot-test-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "strategobot")
		built.out, built.err = exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.path
}

// removeBinary deletes the built binary once the tests are over.
func removeBinary() {
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
}
