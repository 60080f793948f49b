package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// TestGatewayOutagePastTheDeadline: twenty hours into Alice's day of a
// correspondence match, Discord's gateway goes out for ten hours, past her
// deadline, while the bot's process runs on and its reconnects are refused:
// nobody can send it a move. Her clock stands still meanwhile, as when the
// process is down: no reminder, no loss on time. Once the bot is connected
// again she is told, as after a restart, that her clock stood still, and
// her deadline and her reminder an hour before it move on by the time the
// bot could not hear Discord; the history says so.
func TestGatewayOutagePastTheDeadline(t *testing.T) {
	t.Parallel()
	h, w, due := aliceToMove(t)
	h.advance(20 * time.Hour)
	h.outboxEmpty()
	down := h.clock.Now()
	reminded := countDMs(h.alice, txtMoveReminder) // at half time
	before := h.srv.GatewayStats()
	h.srv.GatewayOutage()
	h.srv.WaitFor(t, "a reconnect refused", func() bool { return h.srv.GatewayStats().Refused > before.Refused })
	for range 10 {
		h.advance(time.Hour) // past her reminder, then past her deadline
	}
	if m := h.match(1); m.Phase != storage.PhasePlaying {
		t.Fatalf("Alice lost while nobody could send the bot a move: %v", m.Result)
	}
	if n := countDMs(h.alice, txtMoveReminder) - reminded; n != 0 {
		t.Errorf("Alice was reminded %d times while nobody could send the bot a move", n)
	}
	back := h.clock.Now()
	h.srv.EndGatewayOutage()
	h.srv.WaitFor(t, "the resume", func() bool { return h.srv.GatewayStats().Resumes > before.Resumes })
	h.srv.WaitFor(t, "the time given back", func() bool { return !h.bot.deafNow() })
	h.advance(0)
	h.outboxEmpty()
	m := h.match(1)
	if m.Phase != storage.PhasePlaying {
		t.Fatalf("Alice lost as the bot came back: %v", m.Result)
	}
	due = due.Add(back.Sub(down))
	if !m.Deadline.Equal(due) {
		t.Fatalf("her deadline after the outage: %v after it ended, want %v", m.Deadline.Sub(back), due.Sub(back))
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
	history := h.alice.SlashCommand(t, h.channel, "stratego history").Reply(t)
	if want := "I was away from " + fullMark(down) + " to " + fullMark(back) + "; alice's clock stood still."; !strings.Contains(history.Content, want) {
		t.Errorf("the history does not say %q: %q", want, history.Content)
	}
	w.reminded(h.alice, h.bob, due, time.Hour)
	w.until(due, "the loss on time", func() bool { return h.match(1).Phase == storage.PhasePlaying })
	h.alice.WaitDM(t, contains("You lost: you ran out of time."))
	if n := countDMs(h.alice, txtAwayTold); n != 1 {
		t.Errorf("Alice was told %d times of the time given back, want once", n)
	}
	w.noRepeats()
}

// TestGatewayOutageMoveReplayed: Alice sends her move by DM during a
// gateway outage that runs past her deadline; Discord hands it to the bot
// as it resumes. It is played, once the time away has been given back:
// not refused as sent after her time ran out.
func TestGatewayOutageMoveReplayed(t *testing.T) {
	t.Parallel()
	h, _, _ := aliceToMove(t)
	h.advance(20 * time.Hour)
	h.outboxEmpty()
	before := h.srv.GatewayStats()
	h.srv.GatewayOutage()
	h.srv.WaitFor(t, "a reconnect refused", func() bool { return h.srv.GatewayStats().Refused > before.Refused })
	h.advance(10 * time.Hour)
	g, err := h.match(1).Game()
	if err != nil {
		t.Fatal(err)
	}
	h.alice.SendDM(t, g.LegalMoves()[0].String())
	h.srv.EndGatewayOutage()
	if m := h.waitStored(1, 1); m.Phase != storage.PhasePlaying || m.Moves() != 1 {
		t.Fatalf("Alice's move sent during the outage: %v, %d moves", m.Phase, m.Moves())
	}
	if st := h.srv.GatewayStats(); st.Replayed == before.Replayed {
		t.Errorf("gateway before %+v, after %+v: want the DM replayed on the resume", before, st)
	}
}

// TestGatewayOutageBoardArrives: Alice moves, and Discord holds Bob's
// board; the gateway goes out, and three hours into the outage the board
// arrives (REST still answers): Bob's clock starts then. When the bot is
// connected again, thirty hours later, his clock is given back what of the
// outage it ran, from his board's arrival, no more: his whole day is still
// before him.
func TestGatewayOutageBoardArrives(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.outboxEmpty()
	h.advance(time.Hour)
	hold := h.aliceMovesBobsBoardHeld()
	before := h.srv.GatewayStats()
	h.srv.GatewayOutage()
	h.srv.WaitFor(t, "a reconnect refused", func() bool { return h.srv.GatewayStats().Refused > before.Refused })
	h.clock.Advance(3 * time.Hour)
	hold.Release()
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	h.bot.deliverDue(t.Context())
	arrived := h.clock.Now()
	if m := h.match(1); m.ClockPending || !m.Deadline.Equal(arrived.Add(day)) {
		t.Fatalf("Bob's board arrived during the outage: pending %v, deadline %v after it, want a day", m.ClockPending, m.Deadline.Sub(arrived))
	}
	h.advance(30 * time.Hour)
	back := h.clock.Now()
	h.srv.EndGatewayOutage()
	h.srv.WaitFor(t, "the time given back", func() bool { return h.srv.GatewayStats().Resumes > before.Resumes && !h.bot.deafNow() })
	h.advance(0)
	h.outboxEmpty()
	m := h.match(1)
	if m.Phase != storage.PhasePlaying {
		t.Fatalf("Bob lost as the bot came back: %v", m.Result)
	}
	if due := back.Add(day); !m.Deadline.Equal(due) {
		t.Errorf("Bob's deadline after the outage: %v after it ended, want %v", m.Deadline.Sub(back), day)
	}
	if n := countDMs(h.bob, txtAwayTold); n != 1 {
		t.Errorf("Bob was told %d times of the time given back, want once", n)
	}
}
