package bot

import (
	"context"
	"testing"
	"time"
)

// TestRetrierWaits: the waits between tries start at a second and double up
// to ten minutes, and a wait Discord asks for is never cut short.
func TestRetrierWaits(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		asked time.Duration
		want  time.Duration
	}{
		{0, time.Second},
		{0, 2 * time.Second},
		{30 * time.Second, 30 * time.Second},
		{0, time.Minute},
		{0, 2 * time.Minute},
		{0, 4 * time.Minute},
		{0, 8 * time.Minute},
		{0, 10 * time.Minute},
		{0, 10 * time.Minute},
		{time.Hour, time.Hour},
		{0, 10 * time.Minute},
	}
	var r retrier
	for i, tt := range tests {
		if got := r.peek(tt.asked); got != tt.want {
			t.Fatalf("try %d, asked %v: waits %v, want %v", i+1, tt.asked, got, tt.want)
		}
		if r.wait(ended, tt.asked) {
			t.Fatalf("try %d: waited although the context had ended", i+1)
		}
	}
}
