package postgres_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/strategobot/strategobot/internal/pgtest"
)

// childEnv makes the test binary, run again by a test, play a child process
// instead of running the tests: see children.
const childEnv = "POSTGRES_TEST_CHILD"

// children are the roles a re-executed test binary can play; each gets the
// database's connection string and never returns.
var children = map[string]func(url string){
	"crash": crashChild,
	"hold":  holdChild,
}

func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		child, ok := children[role]
		if !ok {
			fmt.Fprintf(os.Stderr, "unknown child role %q\n", role)
			os.Exit(2)
		}
		child(os.Getenv(childEnv + "_URL"))
		os.Exit(0)
	}
	os.Exit(pgtest.Main(m))
}
