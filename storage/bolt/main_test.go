package bolt_test

import (
	"fmt"
	"os"
	"testing"
)

// childEnv makes the test binary, run again by a test, play a child process
// instead of running the tests: see children.
const childEnv = "STORAGE_TEST_CHILD"

// children are the roles a re-executed test binary can play; each gets the
// database path and never returns.
var children = map[string]func(path string){
	"hold":  holdChild,
	"crash": crashChild,
}

func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		child, ok := children[role]
		if !ok {
			fmt.Fprintf(os.Stderr, "unknown child role %q\n", role)
			os.Exit(2)
		}
		child(os.Getenv(childEnv + "_PATH"))
		os.Exit(0)
	}
	os.Exit(m.Run())
}
