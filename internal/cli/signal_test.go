package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// stuckEnv makes the test binary run stuckMain instead of its tests.
const stuckEnv = "CLI_TEST_STUCK_PROGRAM"

func TestMain(m *testing.M) {
	if os.Getenv(stuckEnv) != "" {
		Main(stuckMain)
	}
	os.Exit(m.Run())
}

// stuckMain is a program whose stop is held up: it says when it runs and
// when its context ends, and never returns.
func stuckMain(ctx context.Context, _ []string, stdout, _ io.Writer) int {
	fmt.Fprintln(stdout, "running")
	<-ctx.Done()
	fmt.Fprintln(stdout, "stopping")
	select {}
}

// TestSecondSignalEndsAtOnce: the first SIGINT or SIGTERM asks a program to
// stop and leaves it the time it needs; a second ends the process at once,
// should the stop be held up.
func TestSecondSignalEndsAtOnce(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), stuckEnv+"=1")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			lines := make(chan string, 2)
			go func() {
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					lines <- sc.Text()
				}
				exited <- cmd.Wait()
			}()
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			expect := func(want string) {
				t.Helper()
				select {
				case got := <-lines:
					if got != want {
						t.Fatalf("the program said %q, want %q", got, want)
					}
				case <-time.After(30 * time.Second):
					t.Fatalf("the program never said %q", want)
				}
			}
			expect("running")
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			expect("stopping")
			select {
			case err := <-exited:
				t.Fatalf("the first %v ended the process (%v) while it was stopping", sig, err)
			case <-time.After(300 * time.Millisecond):
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != sig {
					t.Errorf("the second %v ended the process with %v, want the signal's own end", sig, err)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("still running 30 s after a second %v", sig)
			}
		})
	}
}
