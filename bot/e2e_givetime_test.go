package bot

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestGiveTime: a player gives the opponent more time, a move's time (a day
// at most) in a game with a time per move and 15 seconds on a game clock,
// three times a match at most. The opponent is told by DM, the board and the history show it, and
// the time counts: to the turn under way, or to the next.
func TestGiveTime(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		terms discordtest.Arg
		turn  time.Duration // the time per move
		gift  string
		add   time.Duration
	}{
		{"a day a move", discordtest.Opt("move_time", "24h"), 24 * time.Hour, "1 day", 24 * time.Hour},
		{"a week a move", discordtest.Opt("move_time", "168h"), 168 * time.Hour, "1 day", 24 * time.Hour},
		{"an hour a move", discordtest.Opt("move_time", "1h"), time.Hour, "1 hour", time.Hour},
		{"a 5+3 clock", discordtest.Opt("clock", "5+3"), 0, "15 seconds", 15 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.challenge("Classic", tc.terms)
			h.sendSetups(placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}), placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}))
			before := h.waitMoves(1, 0).Deadline

			// Alice's turn runs: Bob's gift moves her deadline on.
			got := h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t).Content
			if want := "You gave alice " + tc.gift + " more. Gifts of time you have left in this match: 2."; got != want {
				t.Errorf("Bob's gift answered %q, want %q", got, want)
			}
			h.bot.deliverDue(t.Context())
			m := h.match(1)
			if !m.Deadline.Equal(before.Add(tc.add)) {
				t.Errorf("Alice's deadline %v after the gift, want %v", m.Deadline.Sub(before), tc.add)
			}
			due := "<t:" + strconv.FormatInt(m.Deadline.Unix(), 10) + ":R>"
			h.alice.WaitDM(t, contains("bob gave you "+tc.gift+" more: your move is now due "+due))

			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			h.waitMoves(1, 1)
			h.bob.WaitDM(t, contains("Time given: alice 0×, bob 1× ("+tc.gift+" each)"))
			h.channelSays("Time given: alice 0×, bob 1×")

			// On Bob's own turn his gifts go to Alice's next one.
			h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
			h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
			if got := h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t).Content; !strings.Contains(got, "already given your opponent more time 3 times") {
				t.Errorf("a fourth gift answered %q", got)
			}
			if m := h.match(1); m.GiftsBy(game.Blue) != storage.MaxGifts {
				t.Errorf("Bob's gifts stored: %d, want %d", m.GiftsBy(game.Blue), storage.MaxGifts)
			}
			h.bot.deliverDue(t.Context())
			if !strings.Contains(lastDM(h.alice).Content, "bob gave you "+tc.gift+" more") {
				t.Errorf("Alice was not told of Bob's gift on his turn: %q", lastDM(h.alice).Content)
			}
			h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
			moved := h.waitMoves(1, 2)
			started := h.clock.Now()
			want := started.Add(tc.turn + 2*tc.add)
			if moved.Clock.On() {
				// On a clock every gift stays on it: the first, given in
				// her turn, was still left when she moved at once.
				clock := 5*time.Minute + 3*time.Second + 3*tc.add
				want = started.Add(clock)
				if left := moved.Left[game.Red]; left != clock {
					t.Errorf("Alice's clock after three gifts: %v, want %v", left, clock)
				}
			}
			if !moved.Deadline.Equal(want) {
				t.Errorf("Alice's next turn ends %v after it began, want %v", moved.Deadline.Sub(started), want.Sub(started))
			}

			history := h.alice.SlashCommand(t, h.channel, "stratego history").Reply(t).Content
			if n := strings.Count(history, "bob gave alice "+tc.gift+" more."); n != 3 {
				t.Errorf("the history shows %d of Bob's 3 gifts:\n%s", n, history)
			}
		})
	}
}

// TestGiftToldAfterItsTurn: Bob gives Alice a day in her turn, and
// Discord refuses the DM that tells her; she moves before it is sent
// again. The DM, sent then, says what he gave, not that it is for her next
// move: the day went to the turn she has played.
func TestGiftToldAfterItsTurn(t *testing.T) {
	t.Parallel()
	const dmRoute = "POST /channels/{channel_id}/messages"
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.outboxEmpty()
	h.srv.FailNextIn(t, dmRoute, h.alice.DM(), 1, 500)
	h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
	h.bot.deliverDue(t.Context())
	if n := countDMs(h.alice, "bob gave you 1 day more"); n != 0 {
		t.Fatalf("the refused DM arrived %d times", n)
	}
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitStored(1, 1)
	h.advance(time.Hour)
	h.outboxEmpty()
	told := h.alice.WaitDM(t, contains("bob gave you 1 day more"))
	if want := "bob gave you 1 day more."; !strings.HasSuffix(told.Content, want) {
		t.Errorf("Alice, told of the gift after her move, read %q; want it to end %q", told.Content, want)
	}
	if m := h.match(1); m.TurnTime(int(game.Red)) != 24*time.Hour {
		t.Errorf("Alice's next turn has %v, want a day: the gift went to the turn she played", m.TurnTime(int(game.Red)))
	}
}
