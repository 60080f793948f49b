package bot

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
)

// txtAwayTold begins what a player who must act is told of time given back.
const txtAwayTold = "I was away from "

// TestBotDownPastTheDeadline: the bot is down (a crash, a deploy) from
// twenty hours into Alice's day of a correspondence match until six hours
// after her deadline. On its return she has not lost on time: her clock
// stood still while nobody could take her move, so her deadline and her
// reminder an hour before it move on by the time the bot was away. She is
// told so once, and asked to send again a move she sent meanwhile; Bob,
// who waits, is told nothing. The history shows it.
func TestBotDownPastTheDeadline(t *testing.T) {
	t.Parallel()
	h, w, due := aliceToMove(t)
	h.advance(20 * time.Hour)
	h.outboxEmpty()
	down := h.clock.Now()
	h.shutdown()
	h.clock.Advance(10 * time.Hour) // past her deadline, 4 hours after down
	back := h.clock.Now()
	h.start()
	h.bot.handleDue(t.Context())
	h.bot.deliverDue(t.Context())
	h.outboxEmpty()
	m := h.match(1)
	if m.Phase != storage.PhasePlaying {
		t.Fatalf("Alice lost as the bot came back: %v", m.Result)
	}
	due = due.Add(back.Sub(down))
	if !m.Deadline.Equal(due) {
		t.Fatalf("her deadline after the bot was away: %v after it came back, want %v", m.Deadline.Sub(back), due.Sub(back))
	}
	told := h.alice.WaitDM(t, contains(txtAwayTold))
	for _, want := range []string{fullMark(down), fullMark(back), relMark(due), "send it again"} {
		if !strings.Contains(told.Content, want) {
			t.Errorf("Alice was told %q, without %q", told.Content, want)
		}
	}
	if n := countDMs(h.bob, txtAwayTold); n != 0 {
		t.Errorf("Bob, who waits, was told %d times", n)
	}
	w.reminded(h.alice, h.bob, due, time.Hour)
	history := h.alice.SlashCommand(t, h.channel, "stratego history").Reply(t)
	if want := "I was away from " + fullMark(down) + " to " + fullMark(back) + "; alice's clock stood still."; !strings.Contains(history.Content, want) {
		t.Errorf("the history does not say %q: %q", want, history.Content)
	}
	w.until(due, "the loss on time", func() bool { return h.match(1).Phase == storage.PhasePlaying })
	h.alice.WaitDM(t, contains("You lost: you ran out of time."))
	if n := countDMs(h.alice, txtAwayTold); n != 1 {
		t.Errorf("Alice was told %d times of the time given back, want once", n)
	}
	w.noRepeats()
}

// TestBotAwayOutages: each time the bot is down, the clock of the player
// who must act is given back what of it ran, once: nothing for a restart
// within storage.AwayGrace, nothing while a pause stopped the clock, each of
// two outages in a row once; a game clock keeps its time left.
func TestBotAwayOutages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		paused  bool            // the players paused the match before the bot went down
		outages []time.Duration // the bot down for each, with an hour up between them
		credit  time.Duration   // what Alice's deadline moves by
		told    int             // the times she is told
	}{
		{name: "a restart within the grace", outages: []time.Duration{storage.AwayGrace - time.Second}},
		{name: "down two hours", outages: []time.Duration{2 * time.Hour}, credit: 2 * time.Hour, told: 1},
		{name: "down twice", outages: []time.Duration{2 * time.Hour, 3 * time.Hour}, credit: 5 * time.Hour, told: 2},
		{name: "paused throughout", paused: true, outages: []time.Duration{10 * time.Hour}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, _, _ := aliceToMove(t)
			ctx := context.Background()
			h.advance(time.Hour)
			if tc.paused {
				h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
				offer := h.alice.WaitDM(t, contains("proposes to pause"))
				h.alice.ClickButton(t, offer, button(t, offer, "Pause")).Reply(t)
				if h.match(1).PausedUntil().IsZero() {
					t.Fatal("the match did not pause")
				}
			}
			h.outboxEmpty()
			before := h.match(1)
			for k, d := range tc.outages {
				if k > 0 {
					h.advance(time.Hour)
				}
				h.shutdown()
				h.clock.Advance(d)
				h.start()
				h.bot.deliverDue(ctx)
				h.outboxEmpty()
			}
			m := h.match(1)
			if m.Phase != storage.PhasePlaying {
				t.Fatalf("the match ended: %v", m.Result)
			}
			if got := m.Deadline.Sub(before.Deadline); got != tc.credit {
				t.Errorf("her deadline moved %v, want %v", got, tc.credit)
			}
			if got := countDMs(h.alice, txtAwayTold); got != tc.told {
				t.Errorf("Alice was told %d times, want %d", got, tc.told)
			}
			aways := 0
			for _, a := range m.Log {
				if a.Kind == storage.ActAway {
					aways++
				}
			}
			if aways != tc.told {
				t.Errorf("the log holds %d times away, want %d", aways, tc.told)
			}
		})
	}
}

// TestBotAwayThroughFailedStarts: the bot stops twenty hours into Alice's
// day, and for the next ten hours Discord cannot be reached (its REST API
// fails), or its REST API answers but its gateway refuses every connection:
// a service manager starts the bot again every 50 seconds, and each start
// fails. Once Discord answers again, Alice's clock is given back the whole
// time, once: a start that could not connect ran no timer, and recorded
// nothing that would leave the next start less than storage.AwayGrace to
// give back.
func TestBotAwayThroughFailedStarts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		fail func(h *harness) // before each start
		back func(h *harness) // once Discord answers again
	}{
		{"Discord unreachable", func(h *harness) {
			h.srv.FailNext(t, "GET /gateway", 1, http.StatusServiceUnavailable)
		}, func(*harness) {}},
		{"the gateway refusing", func(h *harness) { h.srv.GatewayOutage() }, func(h *harness) { h.srv.EndGatewayOutage() }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, _, due := aliceToMove(t)
			h.advance(20 * time.Hour)
			h.outboxEmpty()
			down := h.clock.Now()
			h.shutdown()
			pics, err := sharedRenderer()
			if err != nil {
				t.Fatal(err)
			}
			for range 720 { // ten hours
				h.clock.Advance(50 * time.Second)
				tc.fail(h)
				db, err := bolt.Open(bolt.Options{Path: h.dbPath, NoSync: true, Reminders: Reminders})
				if err != nil {
					t.Fatal(err)
				}
				cfg := h.cfg
				cfg.Now, cfg.Logger = h.clock.Now, slog.New(slog.DiscardHandler)
				err = New(cfg, h.srv.NewSession(t), db, pics).Run(t.Context())
				db.Close()
				if err == nil {
					t.Fatal("a start failed to reach Discord, and the bot ran on")
				}
			}
			tc.back(h)
			h.clock.Advance(50 * time.Second)
			back := h.clock.Now()
			h.start()
			h.bot.handleDue(t.Context())
			h.bot.deliverDue(t.Context())
			h.outboxEmpty()
			m := h.match(1)
			if m.Phase != storage.PhasePlaying {
				t.Fatalf("Alice lost as the bot came back: %v", m.Result)
			}
			if want := due.Add(back.Sub(down)); !m.Deadline.Equal(want) {
				t.Errorf("her deadline moved %v, want %v: the whole time no start reached Discord", m.Deadline.Sub(due), back.Sub(down))
			}
			if n := countDMs(h.alice, txtAwayTold); n != 1 {
				t.Errorf("Alice was told %d times of the time given back, want once", n)
			}
		})
	}
}

// TestBotAwayGameClock: in a 5+3 game, the bot is down for ten minutes a
// minute into Alice's first turn. On its return she still has her four
// minutes: she moves two minutes later and keeps two, and the increment.
func TestBotAwayGameClock(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("clock", "5+3"))
	sergeant := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.sendSetups(sergeant, sergeant)
	h.waitMoves(1, 0)
	h.alice.WaitDM(t, contains("the match begins"))
	h.bot.deliverDue(t.Context())
	h.advance(time.Minute)
	h.shutdown()
	h.clock.Advance(10 * time.Minute)
	h.start()
	h.bot.handleDue(t.Context())
	h.bot.deliverDue(t.Context())
	if m := h.match(1); m.Phase != storage.PhasePlaying || m.Deadline.Sub(h.clock.Now()) != 4*time.Minute {
		t.Fatalf("after ten minutes away: %v, %v left, want 4m", m.Phase, m.Deadline.Sub(h.clock.Now()))
	}
	h.alice.WaitDM(t, contains(txtAwayTold))
	h.advance(2 * time.Minute)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	if m := h.waitMoves(1, 1); m.Left[game.Red] != 2*time.Minute+3*time.Second || m.Left[game.Blue] != 5*time.Minute {
		t.Errorf("time left after Alice's move: %v, want 2m3s and 5m", m.Left)
	}
}

// TestBotAwayInSetup: the bot is down past the set-up deadline of a new
// match. On its return the match is not called off: the set-up time stood
// still, and each player, who both still owe their set-up, is told when it
// is due now.
func TestBotAwayInSetup(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	h.bob.WaitDM(t, contains("Send me your secret set-up"))
	h.bot.deliverDue(t.Context())
	before := h.match(1).Deadline
	h.advance(time.Hour)
	h.shutdown()
	h.clock.Advance(30 * time.Hour)
	h.start()
	h.bot.handleDue(t.Context())
	h.bot.deliverDue(t.Context())
	m := h.match(1)
	if m.Phase != storage.PhaseSetup || m.Deadline.Sub(before) != 30*time.Hour {
		t.Fatalf("after 30 hours away: %v, the set-up deadline moved %v; want set-up, 30h", m.Phase, m.Deadline.Sub(before))
	}
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		p.WaitDM(t, contains("Your set-up is now due "+relMark(m.Deadline)))
	}
}

// TestBotAwayBeforeDiscord: the bot gives the clocks back the time it was
// away once connected to Discord, and a DM that reaches it before that is
// done waits for it: a move Alice sends the moment it is back, past her
// deadline as it stood, is played, not refused as out of time.
func TestBotAwayBeforeDiscord(t *testing.T) {
	t.Parallel()
	h, _, _ := aliceToMove(t)
	h.advance(20 * time.Hour)
	h.outboxEmpty()
	g, err := h.match(1).Game()
	if err != nil {
		t.Fatal(err)
	}
	h.shutdown()
	h.clock.Advance(10 * time.Hour) // past her deadline
	var sent atomic.Bool
	h.beforeAct = func(_ storage.MatchID, a storage.Action) {
		if a.Kind == storage.ActAway && sent.CompareAndSwap(false, true) {
			h.alice.SendDM(t, g.LegalMoves()[0].String()) // connected, the time not yet given back
		}
	}
	h.start()
	if !sent.Load() {
		t.Fatal("no time was given back as the bot started")
	}
	if m := h.waitStored(1, 1); m.Phase != storage.PhasePlaying || m.Moves() != 1 {
		t.Fatalf("Alice's move as the bot came back: %v, %d moves", m.Phase, m.Moves())
	}
}

// TestComputerMovesAfterAway: the computer, to move in a practice match
// as the bot stopped, moves as soon as the bot is back from a long outage:
// the time given back does not leave its turn waiting for a timer.
func TestComputerMovesAfterAway(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config) { c.Limits.ComputerThinkers = 1 })
	g := practiceDuelBegun(t, h, "easy")
	h.bot.thinkers.slots <- struct{}{} // the one thinker is busy: the computer waits
	h.alice.SendDM(t, g.LegalMoves()[0].String())
	h.waitStored(1, 1)
	h.outboxEmpty()
	h.shutdown()
	h.clock.Advance(2 * time.Hour)
	h.start()
	if m := h.waitStored(1, 2); m.Moves() != 2 {
		t.Fatalf("the computer did not move after the bot came back: %v, %d moves", m.Phase, m.Moves())
	}
	var aways int
	for _, a := range h.match(1).Log {
		if a.Kind == storage.ActAway {
			aways++
		}
	}
	if aways != 1 {
		t.Errorf("the log holds %d times away, want 1", aways)
	}
}
