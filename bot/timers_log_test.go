package bot

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/storage"
)

// TestTimerFailuresLeaveATrace: a due timer that the store fails is logged
// with its deadline, and one that was only overtaken (the match changed,
// ended, went or is not due) is not.
func TestTimerFailuresLeaveATrace(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		logged bool
	}{
		{"the database is down", errors.New("connection refused"), true},
		{"a wrapped database error", fmt.Errorf("read match 7: %w", storage.ErrCorrupt), true},
		{"the match changed meanwhile", fmt.Errorf("mark reminded: %w", storage.ErrStale), false},
		{"not due any more", storage.ErrNotDue, false},
		{"the match is gone", storage.ErrNotFound, false},
		{"the match is over", storage.ErrGameOver, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			b := &Bot{log: slog.New(slog.NewTextHandler(&out, nil))}
			b.timerFailed("recording a reminder failed", storage.Deadline{Kind: storage.DeadlineReminder, ID: 7}, tc.err)
			logged := strings.Contains(out.String(), "recording a reminder failed")
			if logged != tc.logged {
				t.Fatalf("logged %v, want %v: %q", logged, tc.logged, out.String())
			}
			if logged && (!strings.Contains(out.String(), "id=7") || !strings.Contains(out.String(), "deadline=")) {
				t.Errorf("the log does not name the deadline: %q", out.String())
			}
		})
	}
}
