package bot

import (
	"net/http"
	"testing"
	"time"
)

// TestAwayToldThoughDiscordFails: the notice of the time given back, owed
// as the bot comes back, reaches the player once though Discord answers
// its first try with a 503 and the bot stops again before its retry.
func TestAwayToldThoughDiscordFails(t *testing.T) {
	t.Parallel()
	h, _, _ := aliceToMove(t)
	h.advance(20 * time.Hour)
	h.outboxEmpty()
	h.shutdown()
	h.clock.Advance(10 * time.Hour)
	h.srv.FailNextIn(t, createMessageRoute, h.alice.DM(), 1, http.StatusServiceUnavailable)
	h.start()
	h.srv.WaitFor(t, "the 503", func() bool {
		for _, r := range h.srv.Requests(createMessageRoute) {
			if r.Status == http.StatusServiceUnavailable {
				return true
			}
		}
		return false
	})
	h.shutdown()
	h.start()
	h.srv.WaitFor(t, "the notice of the time away", func() bool {
		h.advance(time.Minute)
		return countDMs(h.alice, txtAwayTold) > 0
	})
	h.outboxEmpty()
	if n := countDMs(h.alice, txtAwayTold); n != 1 {
		t.Errorf("Alice was told %d times of the time given back, want once", n)
	}
}
