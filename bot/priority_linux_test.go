//go:build linux

package bot

import (
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/logsafe"
)

// niceOfThisThread returns the nice value of the calling OS thread (the raw
// getpriority answers 20 - nice).
func niceOfThisThread(t *testing.T) int {
	t.Helper()
	prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return 20 - prio
}

// TestThinkingAtLowestPriority: the computer thinks on a thread of nice 19,
// so that the operating system gives people's work the cores first; the
// caller's thread keeps its priority, and a panic in the thinking reaches the
// caller as before.
func TestThinkingAtLowestPriority(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := niceOfThisThread(t)
	think := newThinking(1, defaultComputerPace)
	var during int
	think.do(make(chan struct{}), think.book(time.Now()), func() { during = niceOfThisThread(t) })
	if during != 19 {
		t.Errorf("thinking ran at nice %d, want 19", during)
	}
	if after := niceOfThisThread(t); after != before {
		t.Errorf("the caller's thread went from nice %d to %d", before, after)
	}
	defer func() {
		// It comes as logsafe's report of where it happened, on the
		// thinker's own goroutine: the caller's guard logs it.
		rep, ok := recover().(logsafe.Report)
		if !ok || rep.Kind != "a value of type string" || !strings.Contains(rep.At, "TestThinkingAtLowestPriority") {
			t.Errorf("the thinker's panic reached the caller as %#v", rep)
		}
		if len(think.slots) != 0 {
			t.Error("a thinker that panicked kept its slot")
		}
	}()
	think.do(make(chan struct{}), think.book(time.Now()), func() { panic("lost in thought") })
}
