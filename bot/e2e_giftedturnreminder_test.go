package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestHalfTimeOfAGiftedTurn: in a match of a day a move, Alice gives Bob
// days on her own turn (one, then three), which go to his next. His turn
// then has two days, or four, from his board's arrival, and he is
// reminded at its half time, when half of that is gone (a day, two days
// in), as on any turn, then an hour before its deadline: not when half a
// move time is left, which with three days given came with eighty-four of
// his ninety-six hours gone.
func TestHalfTimeOfAGiftedTurn(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	for _, gifts := range []int{1, 3} {
		t.Run(map[int]string{1: "a day given", 3: "three days given"}[gifts], func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			w := weeks{t, h}
			h.dayMatch()
			h.waitMoves(1, 0)
			for range gifts {
				h.alice.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
			}
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			h.waitMoves(1, 1)
			turn := day + time.Duration(gifts)*day
			m := h.match(1)
			if m.ClockPending || !m.Deadline.Equal(h.clock.Now().Add(turn)) {
				t.Fatalf("Bob's turn ends %v after his board (pending %v), want %v", m.Deadline.Sub(h.clock.Now()), m.ClockPending, turn)
			}
			due := m.Deadline
			w.reminded(h.bob, h.alice, due, turn/2)
			w.reminded(h.bob, h.alice, due, time.Hour)
		})
	}
}
