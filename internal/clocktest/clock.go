// Package clocktest is the one fake clock of the project's tests: a time
// that moves only when a test says so, so that days of a long game pass in
// no time. The local Discord (discordtest), the bot's harness and the
// storage tests all use it.
package clocktest

import (
	"sync"
	"time"
)

// Clock is a time that moves only when told to. It is safe for concurrent
// use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New returns a Clock that reads start until advanced.
func New(start time.Time) *Clock {
	return &Clock{now: start}
}

// Now returns the clock's current time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Tick moves the clock forward by d and returns the new time, in one step:
// each caller, concurrent ones included, reads a time of its own.
func (c *Clock) Tick(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}
