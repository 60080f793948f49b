package main

import (
	"fmt"
	"runtime"
	"sync"
)

// loadOwner owns the stand-in outside a test: every Errorf is a violation
// of the run, and a Fatalf ends the goroutine of the member that acted.
type loadOwner struct {
	mu       sync.Mutex
	errors   []string
	cleanups []func()
}

func (o *loadOwner) Helper() {}

func (o *loadOwner) Errorf(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.errors = append(o.errors, fmt.Sprintf(format, args...))
}

func (o *loadOwner) Fatalf(format string, args ...any) {
	o.Errorf(format, args...)
	runtime.Goexit()
}

func (o *loadOwner) Cleanup(f func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.cleanups = append(o.cleanups, f)
}

func (o *loadOwner) close() {
	o.mu.Lock()
	fs := o.cleanups
	o.cleanups = nil
	o.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

func (o *loadOwner) failures() (int, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.errors) == 0 {
		return 0, ""
	}
	return len(o.errors), o.errors[0]
}
