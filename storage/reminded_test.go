package storage

import (
	"testing"
	"time"
)

// TestMarkRemindedCountsWhatIsDue: a reminder marked sent at at counts the
// later ones of the schedule due by at as sent with it (the bot was down
// past them), so that one reminder is said, not each at the same moment;
// one still to come stays planned.
func TestMarkRemindedCountsWhatIsDue(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c := Changes{Reminders: func(time.Duration) []time.Duration { return []time.Duration{12 * time.Hour, time.Hour} }}
	for _, tc := range []struct {
		name     string
		at       time.Duration // when the first reminder is marked, after base
		sent     int
		remindAt time.Duration // the next planned, after base; 0: none
	}{
		{"at half time", 12 * time.Hour, 1, 23 * time.Hour},
		{"an hour later", 13 * time.Hour, 1, 23 * time.Hour},
		{"at the hour before", 23 * time.Hour, 2, 0},
		{"in the last hour", 23*time.Hour + 30*time.Minute, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := setupMatch(base)
			m.setDeadline(base.Add(24*time.Hour), c.reminders())
			if !m.RemindAt.Equal(base.Add(12 * time.Hour)) {
				t.Fatalf("the first reminder is planned at %v, want half time", m.RemindAt.Sub(base))
			}
			if err := c.MarkReminded(m, base.Add(tc.at)); err != nil {
				t.Fatal(err)
			}
			want := time.Time{}
			if tc.remindAt != 0 {
				want = base.Add(tc.remindAt)
			}
			if m.RemindersSent != tc.sent || !m.RemindAt.Equal(want) {
				t.Errorf("marked at %v: %d sent, next at %v; want %d, %v", tc.at, m.RemindersSent, m.RemindAt, tc.sent, want)
			}
		})
	}
}
