package bot

import (
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestTimeStartsWhenTheBoardArrives: Discord holds Bob's board after
// Alice's move, or rate-limits it for ten minutes. Whatever the delay and
// whichever the clock, Bob cannot lose on time while he has no board, gets
// his whole time from its arrival, is told when his time started when it
// came late (a day given meanwhile included), and is reminded at half time
// and an hour before, counted from the arrival.
func TestTimeStartsWhenTheBoardArrives(t *testing.T) {
	t.Parallel()
	const dmRoute = "POST /channels/{channel_id}/messages"
	const stormReplies, stormStep = 20, 30 * time.Second // ten minutes of 429s
	cases := []struct {
		name  string
		terms discordtest.Arg
		turn  time.Duration // Bob's time for his move
		held  time.Duration // how long his board is held; 0: a 429 storm instead
		gift  bool          // Alice gives him a day while it is held
	}{
		{"a day a move, held a minute", discordtest.Opt("move_time", "24h"), 24 * time.Hour, time.Minute, false},
		{"a day a move, held six minutes", discordtest.Opt("move_time", "24h"), 24 * time.Hour, 6 * time.Minute, false},
		{"a day a move, held three days", discordtest.Opt("move_time", "24h"), 24 * time.Hour, 72 * time.Hour, false},
		{"a day a move, a 429 storm", discordtest.Opt("move_time", "24h"), 24 * time.Hour, 0, false},
		{"a day a move, held six minutes, a day given meanwhile", discordtest.Opt("move_time", "24h"), 24 * time.Hour, 6 * time.Minute, true},
		{"5+3 clock, held a minute", discordtest.Opt("clock", "5+3"), 5 * time.Minute, time.Minute, false},
		{"5+3 clock, held six minutes", discordtest.Opt("clock", "5+3"), 5 * time.Minute, 6 * time.Minute, false},
		{"5+3 clock, held three days", discordtest.Opt("clock", "5+3"), 5 * time.Minute, 72 * time.Hour, false},
		{"5+3 clock, a 429 storm", discordtest.Opt("clock", "5+3"), 5 * time.Minute, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// In a storm every 429 on Bob's DM channel costs half a minute of
			// the bot's clock, as Discord's retry_after would.
			var storm atomic.Pointer[harness]
			var stormChannel atomic.Value
			hook := discordtest.WithRequestHook(func(r discordtest.Request) {
				ch, _ := stormChannel.Load().(string)
				if h := storm.Load(); h != nil && ch != "" && r.Status == 429 && strings.Contains(r.Path, "/channels/"+ch+"/") {
					h.clock.Advance(stormStep)
				}
			})
			h := newHarnessOn(t, []discordtest.Option{hook})
			h.challenge("Classic", tc.terms)
			h.sendSetups(placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}), placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}))
			h.waitMoves(1, 0)
			h.alice.WaitDM(t, contains("the match begins"))

			bobDM := h.bob.DM()
			var hold *discordtest.Hold
			if tc.held > 0 {
				hold = h.srv.HoldNextIn(t, dmRoute, bobDM, 1)
				defer hold.Release()
			} else {
				stormChannel.Store(bobDM.ID)
				storm.Store(h)
				h.srv.RateLimitNextIn(t, dmRoute, bobDM, stormReplies, 5*time.Millisecond)
			}
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			moved := h.waitStored(1, 1).Log[0].At

			if hold != nil {
				h.srv.WaitFor(t, "Bob's board to be held", func() bool { return hold.Waiting() == 1 })
				// Without his board, Bob's time has not started: the timers
				// find nothing to do however long Discord takes.
				if tc.gift {
					h.alice.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
				}
				h.clock.Advance(tc.held)
				h.bot.handleDue(t.Context())
				if m := h.match(1); m.Phase != storage.PhasePlaying || !m.ClockPending {
					t.Fatalf("after %v without his board: phase %v, clock pending %v, result %+v", tc.held, m.Phase, m.ClockPending, m.Result)
				}
				hold.Release()
			}
			h.bob.WaitDM(t, contains("A4-A5"))
			h.bot.deliverDue(t.Context()) // the delivery under way, then what it owes
			arrived := h.clock.Now()
			if arrived.Sub(moved) < time.Minute {
				t.Fatalf("the board took %v; the case wants a minute or more", arrived.Sub(moved))
			}

			turn := tc.turn
			if tc.gift {
				turn += 24 * time.Hour
			}
			m := h.match(1)
			if m.ClockPending || !m.Deadline.Equal(arrived.Add(turn)) {
				t.Fatalf("Bob's board arrived at %v: clock pending %v, deadline %v, want %v (the whole %v from arrival)",
					arrived.Sub(moved), m.ClockPending, m.Deadline.Sub(moved), arrived.Add(turn).Sub(moved), turn)
			}
			late := h.bob.WaitDM(t, contains("Your board arrived late"))
			if at := "<t:" + strconv.FormatInt(arrived.Unix(), 10) + ":t>"; !strings.Contains(late.Content, at) {
				t.Errorf("the late board's note does not say it arrived at %s: %q", at, late.Content)
			}
			if due := "<t:" + strconv.FormatInt(m.Deadline.Unix(), 10) + ":R>"; !strings.Contains(late.Content, due) {
				t.Errorf("the late board's note does not give the deadline %s: %q", due, late.Content)
			}

			reminders := func() int {
				n := 0
				for _, dm := range h.bob.DMs() {
					if strings.Contains(dm.Content, "Reminder: your move is due") {
						n++
					}
				}
				return n
			}
			// Reminders come at half time and an hour before, from arrival:
			// half the turn's time, the day given meanwhile included. A game
			// clock sends none.
			elapsed := time.Duration(0)
			for _, at := range Reminders(turn) {
				if m.Clock.On() {
					break
				}
				want := reminders() + 1
				h.advance(turn - at - elapsed - time.Second)
				if got := reminders(); got != want-1 {
					t.Errorf("a second before the reminder %v before the deadline: %d reminders, want %d", at, got, want-1)
				}
				h.advance(time.Second)
				h.srv.WaitFor(t, "the reminder", func() bool { return reminders() == want })
				elapsed = turn - at
			}
			h.advance(turn - elapsed - time.Second)
			if m := h.match(1); m.Phase != storage.PhasePlaying {
				t.Fatalf("Bob lost a second before his whole %v from arrival ran out: %+v", turn, m.Result)
			}
			h.advance(time.Second)
			h.srv.WaitFor(t, "Bob's time to run out", func() bool { return h.match(1).Phase == storage.PhaseFinished })
			if m := h.match(1); m.Result != (game.Result{Outcome: game.RedWon, Method: game.TimeForfeit}) {
				t.Errorf("after Bob's time ran out: %+v", m.Result)
			}
		})
	}
}
