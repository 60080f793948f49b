package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestSetupTimeStartsWhenTheInvitesArrive: Discord holds Bob's set-up
// invite longer than the whole set-up time. The match is not called off
// while he has no invite, the set-ups are due a move time after it arrived
// (the later of the two invites), he is told when the time started, a
// restart keeps that deadline, and the match is called off only when it
// passes.
func TestSetupTimeStartsWhenTheInvitesArrive(t *testing.T) {
	t.Parallel()
	const dmRoute = "POST /channels/{channel_id}/messages"
	cases := []struct {
		name     string
		moveTime string
		turn     time.Duration
		held     time.Duration
	}{
		{"five minutes a move, held six minutes", "5m", 5 * time.Minute, 6 * time.Minute},
		{"a day a move, held three days", "24h", 24 * time.Hour, 72 * time.Hour},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			hold := h.srv.HoldNextIn(t, dmRoute, h.bob.DM(), 1)
			defer hold.Release()
			h.challenge("Classic", discordtest.Opt("move_time", tc.moveTime))
			h.srv.WaitFor(t, "Bob's invite to be held", func() bool { return hold.Waiting() == 1 })
			// Alice's invite, which may have waited for Bob's DM channel to
			// open, does not wait for Bob's held message too.
			invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
			created := h.match(1).Created
			// Alice's invite shows the earliest the set-ups can be due.
			if due := "<t:" + unix(created.Add(tc.turn)) + ":R>"; !strings.Contains(invite.Content, due) {
				t.Errorf("Alice's invite does not show the deadline %s: %q", due, invite.Content)
			}
			// Alice's set-up is in; Bob's invite is still on its way.
			preview := h.alice.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
			h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)

			h.clock.Advance(tc.held)
			for range 3 { // a reminder, then the deadline, were it due
				h.bot.handleDue(t.Context())
			}
			if m := h.match(1); m.Phase != storage.PhaseSetup || !m.ClockPending {
				t.Fatalf("after %v without Bob's invite: phase %v, clock pending %v", tc.held, m.Phase, m.ClockPending)
			}
			hold.Release()
			h.bob.WaitDM(t, contains("Send me your secret set-up"))
			h.bot.deliverDue(t.Context()) // the delivery under way, then what it owes
			arrived := h.clock.Now()
			if arrived.Sub(created) < tc.held {
				t.Fatalf("the invite took %v; the case wants %v", arrived.Sub(created), tc.held)
			}
			m := h.match(1)
			if m.Phase != storage.PhaseSetup || m.ClockPending || !m.Deadline.Equal(arrived.Add(tc.turn)) {
				t.Fatalf("Bob's invite arrived after %v: %s, clock pending %v, set-ups due %v after the creation, want %v (a move time after the arrival)",
					arrived.Sub(created), m.Phase, m.ClockPending, m.Deadline.Sub(created), arrived.Add(tc.turn).Sub(created))
			}
			late := h.bob.WaitDM(t, contains("Your set-up invite arrived late"))
			if at := "<t:" + unix(arrived) + ":t>"; !strings.Contains(late.Content, at) {
				t.Errorf("the late invite's note does not say it arrived at %s: %q", at, late.Content)
			}
			if due := "<t:" + unix(m.Deadline) + ":R>"; !strings.Contains(late.Content, due) {
				t.Errorf("the late invite's note does not give the deadline %s: %q", due, late.Content)
			}
			// Alice confirmed her set-up before: the set-up time's start
			// is nothing to her.
			h.outboxEmpty()
			if n := countDMs(h.alice, txtOpponentInviteLate); n != 0 {
				t.Errorf("Alice, whose set-up was in, was told %d times that Bob's invite arrived late", n)
			}

			// A restart keeps the set-up deadline.
			h.shutdown()
			h.start()
			if got := h.match(1); got.ClockPending || !got.Deadline.Equal(m.Deadline) {
				t.Fatalf("after a restart: clock pending %v, set-ups due %v, want %v", got.ClockPending, got.Deadline.Sub(created), m.Deadline.Sub(created))
			}
			h.advance(tc.turn - time.Second)
			if got := h.match(1); got.Phase != storage.PhaseSetup {
				t.Fatalf("called off a second before a move time after Bob's invite arrived: %s", got.Phase)
			}
			h.advance(time.Second)
			h.channelSays("The match is called off")
			if got := h.match(1); got.Phase != storage.PhaseAbandoned || got.CalledOff != storage.CallOffLateSetup {
				t.Fatalf("a move time after the arrival: %s (%v)", got.Phase, got.CalledOff)
			}
		})
	}
}

// TestPracticeSetupTimeStartsWhenTheInviteArrives: a practice match has
// one invite, the human's; held six minutes on five minutes a move, the
// set-up time starts when it arrives.
func TestPracticeSetupTimeStartsWhenTheInviteArrives(t *testing.T) {
	t.Parallel()
	const dmRoute = "POST /channels/{channel_id}/messages"
	h := newHarness(t)
	hold := h.srv.HoldNextIn(t, dmRoute, h.alice.DM(), 1)
	defer hold.Release()
	h.alice.SlashCommand(t, h.channel, "stratego practice", discordtest.Opt("move_time", "5m")).Reply(t)
	h.srv.WaitFor(t, "Alice's invite to be held", func() bool { return hold.Waiting() == 1 })
	h.clock.Advance(6 * time.Minute)
	for range 3 { // a reminder, then the deadline, were it due
		h.bot.handleDue(t.Context())
	}
	if m := h.match(1); m.Phase != storage.PhaseSetup || !m.ClockPending {
		t.Fatalf("after six minutes without the invite: phase %v, clock pending %v", m.Phase, m.ClockPending)
	}
	hold.Release()
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	h.bot.deliverDue(t.Context())
	arrived := h.clock.Now()
	if m := h.match(1); m.ClockPending || !m.Deadline.Equal(arrived.Add(5*time.Minute)) {
		t.Fatalf("the invite arrived: clock pending %v, set-ups due %v after it, want 5m", m.ClockPending, m.Deadline.Sub(arrived))
	}
	h.alice.WaitDM(t, contains("Your set-up invite arrived late"))
	h.advance(5*time.Minute - time.Second)
	if m := h.match(1); m.Phase != storage.PhaseSetup {
		t.Fatalf("called off before five minutes from the arrival: %s", m.Phase)
	}
}

// txtOpponentInviteLate begins the note to a player whose set-up invite
// came before the opponent's late one.
const txtOpponentInviteLate = "Your opponent's set-up invite arrived late"

// TestFirstInviteToldWhenTheSetupTimeStarts: Bob's set-up invite is held
// six minutes on five minutes a move; Alice's arrived at once and showed
// the earliest the set-ups could be due. When Bob's arrives the set-up time
// starts, later than Alice was shown: Alice, still placing her pieces, is
// told by DM when it started and when her set-up is due. The note is on
// its way when the bot stops (Discord makes it meanwhile), and she has it
// once after the restart; Bob hears of his own invite only.
func TestFirstInviteToldWhenTheSetupTimeStarts(t *testing.T) {
	t.Parallel()
	const dmRoute = "POST /channels/{channel_id}/messages"
	// Requests time out after 2 s: the stopping bot does not wait long for
	// the held note.
	h := newHarnessOn(t, []discordtest.Option{discordtest.WithClientTimeout(2 * time.Second)})
	holdBob := h.srv.HoldNextIn(t, dmRoute, h.bob.DM(), 1)
	defer holdBob.Release()
	h.challenge("Classic", discordtest.Opt("move_time", "5m"))
	h.srv.WaitFor(t, "Bob's invite to be held", func() bool { return holdBob.Waiting() == 1 })
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	created := h.match(1).Created
	if due := "<t:" + unix(created.Add(5*time.Minute)) + ":R>"; !strings.Contains(invite.Content, due) {
		t.Errorf("Alice's invite does not show the earliest deadline %s: %q", due, invite.Content)
	}
	// The clock moves on once her invite's arrival is recorded.
	h.srv.WaitFor(t, "Alice's invite to be recorded as arrived", func() bool { return !h.match(1).InvitePending[game.Red] })
	h.clock.Advance(6 * time.Minute)
	// Alice's note is held as it is sent, and the bot stops.
	holdAlice := h.srv.HoldNextIn(t, dmRoute, h.alice.DM(), 1)
	defer holdAlice.Release()
	holdBob.Release()
	h.bob.WaitDM(t, contains("Send me your secret set-up"))
	h.srv.WaitFor(t, "Alice's note to be held", func() bool { return holdAlice.Waiting() == 1 })
	arrived := h.clock.Now()
	h.shutdown()
	holdAlice.Release()
	h.start()
	h.advance(10 * time.Second) // past the retry the stopping bot put off
	h.outboxEmpty()

	m := h.match(1)
	if m.Phase != storage.PhaseSetup || m.ClockPending || !m.Deadline.Equal(arrived.Add(5*time.Minute)) {
		t.Fatalf("Bob's invite arrived: %s, clock pending %v, set-ups due %v after the creation, want %v",
			m.Phase, m.ClockPending, m.Deadline.Sub(created), arrived.Add(5*time.Minute).Sub(created))
	}
	if n := countDMs(h.alice, txtOpponentInviteLate); n != 1 {
		t.Fatalf("Alice was told %d times that Bob's invite arrived late, want once", n)
	}
	note := h.alice.WaitDM(t, contains(txtOpponentInviteLate))
	for _, want := range []string{"<t:" + unix(arrived) + ":t>", "<t:" + unix(m.Deadline) + ":R>", "<t:" + unix(m.Deadline) + ":f>"} {
		if !strings.Contains(note.Content, want) {
			t.Errorf("Alice's note lacks %s: %q", want, note.Content)
		}
	}
	if n := countDMs(h.alice, "Your set-up invite arrived late"); n != 0 {
		t.Errorf("Alice, whose invite came at once, was told %d times that it arrived late", n)
	}
	if n := countDMs(h.bob, "Your set-up invite arrived late"); n != 1 {
		t.Errorf("Bob was told %d times that his invite arrived late, want once", n)
	}
	if n := countDMs(h.bob, txtOpponentInviteLate); n != 0 {
		t.Errorf("Bob, whose invite was the late one, was told %d times of his opponent's", n)
	}
}

// TestWebSetupDeadlineWhileAnInviteIsHeld: Alice opens her board page while
// Bob's set-up invite is held. It shows the deadline her invite shows, the
// earliest the set-ups can be due; when Bob's invite arrives two minutes
// later, the set-up clock starts and her page gets the deadline that holds.
func TestWebSetupDeadlineWhileAnInviteIsHeld(t *testing.T) {
	t.Parallel()
	const dmRoute = "POST /channels/{channel_id}/messages"
	h := newHarness(t)
	url := webOn(t, h)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hold := h.srv.HoldNextIn(t, dmRoute, h.bob.DM(), 1)
	defer hold.Release()
	h.challenge("Classic", discordtest.Opt("move_time", "5m"))
	h.srv.WaitFor(t, "Bob's invite to be held", func() bool { return hold.Waiting() == 1 })
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	h.srv.WaitFor(t, "Alice's invite to be recorded as arrived", func() bool { return !h.match(1).InvitePending[game.Red] })
	events := webEvents(t, ctx, url, openBoardLink(t, invite))
	shown := h.match(1).DeadlineToShow(h.clock.Now())
	if due := "<t:" + unix(shown) + ":R>"; !strings.Contains(invite.Content, due) {
		t.Errorf("Alice's invite does not show the deadline %s: %q", due, invite.Content)
	}
	want := fmt.Sprintf(`"deadline":%d`, shown.UnixMilli())
	if first := nextEvent(t, events, "the page's first state", func(string) bool { return true }); !strings.Contains(first, want) {
		t.Errorf("Alice's page while Bob's invite is held lacks %s: %s", want, first)
	}

	h.clock.Advance(2 * time.Minute)
	hold.Release()
	h.bob.WaitDM(t, contains("Send me your secret set-up"))
	h.bot.deliverDue(t.Context())
	m := h.match(1)
	if m.ClockPending || !m.Deadline.Equal(h.clock.Now().Add(5*time.Minute)) {
		t.Fatalf("Bob's invite arrived: clock pending %v, set-ups due %v from now, want 5m", m.ClockPending, m.Deadline.Sub(h.clock.Now()))
	}
	want = fmt.Sprintf(`"deadline":%d`, m.Deadline.UnixMilli())
	nextEvent(t, events, "the set-up clock's start", func(e string) bool { return strings.Contains(e, want) })
}

// TestFirstInviteToldWhenAHeldInviteIsGivenUp: Bob's set-up invite is held
// two minutes, and then his DMs are closed: it is given up, which starts
// the set-up time as its arrival would. Alice, whose invite came at once,
// is told when it started.
func TestFirstInviteToldWhenAHeldInviteIsGivenUp(t *testing.T) {
	t.Parallel()
	const dmRoute = "POST /channels/{channel_id}/messages"
	h := newHarness(t)
	hold := h.srv.HoldNextIn(t, dmRoute, h.bob.DM(), 1)
	defer hold.Release()
	h.challenge("Classic", discordtest.Opt("move_time", "5m"))
	h.srv.WaitFor(t, "Bob's invite to be held", func() bool { return hold.Waiting() == 1 })
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	h.srv.WaitFor(t, "Alice's invite to be recorded as arrived", func() bool { return !h.match(1).InvitePending[game.Red] })
	h.clock.Advance(2 * time.Minute)
	h.bob.CloseDMs()
	hold.Release()
	h.srv.WaitFor(t, "Bob's invite to be given up", func() bool { return !h.match(1).ClockPending })
	gaveUp := h.clock.Now()
	h.bot.deliverDue(t.Context())
	h.outboxEmpty()
	m := h.match(1)
	if !m.Deadline.Equal(gaveUp.Add(5 * time.Minute)) {
		t.Fatalf("set-ups due %v after the invite was given up, want 5m", m.Deadline.Sub(gaveUp))
	}
	note := h.alice.WaitDM(t, contains(txtOpponentInviteLate))
	for _, want := range []string{"<t:" + unix(gaveUp) + ":t>", "<t:" + unix(m.Deadline) + ":R>"} {
		if !strings.Contains(note.Content, want) {
			t.Errorf("Alice's note lacks %s: %q", want, note.Content)
		}
	}
	if n := countDMs(h.alice, txtOpponentInviteLate); n != 1 {
		t.Errorf("Alice was told %d times, want once", n)
	}
}
