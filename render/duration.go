package render

import (
	"time"

	"github.com/strategobot/strategobot/internal/lang"
)

// The words of a span of time, and of a gift of time.
const (
	txtDurationDays    = "%[1]d days"
	txtDurationHours   = "%[1]d hours"
	txtDurationMinutes = "%[1]d minutes"
	txtGiftSeconds     = "15 seconds"
)

// Duration writes d in whole days, else whole hours, else minutes: "2
// days", "1 hour", "90 minutes".
func Duration(p lang.Printer, d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return p.Sprintf(txtDurationDays, int(d/(24*time.Hour)))
	case d%time.Hour == 0:
		return p.Sprintf(txtDurationHours, int(d/time.Hour))
	}
	return p.Sprintf(txtDurationMinutes, int(d/time.Minute))
}

// GiftText names what one gift of time adds to a match (its
// storage.Match.GiftTime): "15 seconds" on a game clock, else the move time
// it adds ("1 day", "2 hours"). Discord's messages and the web board both
// word it so.
func GiftText(p lang.Printer, onClock bool, gift time.Duration) string {
	if onClock {
		return p.Sprintf(txtGiftSeconds)
	}
	return Duration(p, gift)
}
