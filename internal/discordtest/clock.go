package discordtest

import (
	"time"

	"github.com/strategobot/strategobot/internal/clocktest"
)

// Clock tells the stand-in the time for everything measured in minutes or
// more: message timestamps and the 15-minute life of an interaction token.
// The 3-second deadline of a first response always uses real time, because
// the bot under test measures it with real time too.
type Clock interface {
	Now() time.Time
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// FakeClock is a Clock that moves only when told to, so that a test can let
// 15 minutes pass in no time: the project's one fake clock, clocktest's.
type FakeClock = clocktest.Clock

// NewFakeClock returns a FakeClock that reads start until advanced.
func NewFakeClock(start time.Time) *FakeClock { return clocktest.New(start) }
