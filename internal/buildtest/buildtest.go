// Package buildtest builds the project's commands for tests that run them as
// processes of their own: each once per test process, into one temporary
// folder that Remove deletes.
//
//	func TestMain(m *testing.M) {
//		code := m.Run()
//		buildtest.Remove()
//		os.Exit(code)
//	}
//
//	bin := buildtest.Binary(t, "./cmd/strategobot")
package buildtest

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// build is one command's build, done once.
type build struct {
	once sync.Once
	path string
	err  error
}

var (
	mu     sync.Mutex
	dir    string                // the temporary folder of the binaries; "" before the first
	builds = map[string]*build{} // by package
)

// Binary returns the path of the built command pkg, a package path relative
// to the module's root such as "./cmd/strategobot", building it on first use.
// The binary has the command's name, as it would installed.
func Binary(t testing.TB, pkg string) string {
	t.Helper()
	mu.Lock()
	b := builds[pkg]
	if b == nil {
		b = new(build)
		builds[pkg] = b
	}
	mu.Unlock()
	b.once.Do(func() { b.path, b.err = compile(pkg) })
	if b.err != nil {
		t.Fatalf("build %s: %v", pkg, b.err)
	}
	return b.path
}

// compile builds pkg into its own folder of the temporary one.
func compile(pkg string) (string, error) {
	if !strings.HasPrefix(pkg, "./") {
		return "", fmt.Errorf("%q: name the package by its path from the module's root, ./cmd/NAME", pkg)
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	mu.Lock()
	if dir == "" {
		dir, err = os.MkdirTemp("", "strategobot-buildtest-")
	}
	base := dir
	mu.Unlock()
	if err != nil {
		return "", err
	}
	// A folder per package, so that each binary keeps its own name.
	out := filepath.Join(base, strings.ReplaceAll(strings.TrimPrefix(pkg, "./"), "/", "_"))
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(out, path.Base(pkg))
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, b)
	}
	return bin, nil
}

// moduleRoot is the folder of the go.mod above the working directory.
func moduleRoot() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(b))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside a module")
	}
	return filepath.Dir(mod), nil
}

// Remove deletes the built binaries. Call it from TestMain once the tests
// are over.
func Remove() {
	mu.Lock()
	defer mu.Unlock()
	if dir != "" {
		_ = os.RemoveAll(dir)
		dir = ""
	}
	builds = map[string]*build{}
}
