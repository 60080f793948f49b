package storagetest

import (
	"fmt"
	"os"
	"os/exec"
)

// Tests that need a second process (one killed in the middle of its commits,
// one holding the database) run the test binary again as a child that plays
// a role instead of running the tests: a backend's TestMain calls PlayChild
// first, and a test starts a child with ChildCommand.

// childEnv names the variables that tell a test binary run again which role
// to play (childEnv) and with what argument (childEnv_ARG).
const childEnv = "STORAGETEST_CHILD"

// Child is a role a test binary run again can play: it gets the argument
// given to ChildCommand (a database's path or connection string) and never
// returns.
type Child func(arg string)

// PlayChild plays this process's role when ChildCommand started it, among
// children, and exits; otherwise it returns at once and the tests run.
// TestMain calls it first. An unknown role exits with status 2.
func PlayChild(children map[string]Child) {
	role := os.Getenv(childEnv)
	if role == "" {
		return
	}
	child, ok := children[role]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown child role %q\n", role)
		os.Exit(2)
	}
	child(os.Getenv(childEnv + "_ARG"))
	os.Exit(0)
}

// ChildCommand returns the command that runs this test binary again, running
// none of its tests, as a child that plays role with arg (see PlayChild). env
// adds variables ("KEY=value") the role reads.
func ChildCommand(role, arg string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+role, childEnv+"_ARG="+arg)
	cmd.Env = append(cmd.Env, env...)
	return cmd
}
