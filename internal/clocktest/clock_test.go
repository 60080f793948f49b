package clocktest

import (
	"sync"
	"testing"
	"time"
)

// TestClock: the clock reads its start until advanced, and concurrent ticks
// each read a time of their own.
func TestClock(t *testing.T) {
	start := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	c := New(start)
	if !c.Now().Equal(start) {
		t.Fatalf("a new clock reads %v, want %v", c.Now(), start)
	}
	c.Advance(time.Hour)
	if want := start.Add(time.Hour); !c.Now().Equal(want) {
		t.Fatalf("after an hour: %v, want %v", c.Now(), want)
	}
	var mu sync.Mutex
	seen := map[time.Time]bool{}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			at := c.Tick(time.Minute)
			mu.Lock()
			defer mu.Unlock()
			seen[at] = true
		})
	}
	wg.Wait()
	if len(seen) != 50 || !c.Now().Equal(start.Add(time.Hour+50*time.Minute)) {
		t.Errorf("50 ticks read %d distinct times and left the clock at %v", len(seen), c.Now().Sub(start))
	}
}
