package bot

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// TestTournamentResultAfterTheGamesEnd: a tournament game's end is posted
// before the tournament's result and standings that it makes, however slow
// Discord is with the game's end. The game is played in a thread, whose
// first post after the resignation Discord holds: the standings, due in
// the tournament's channel meanwhile, wait for it and for the finale (the
// outbox does not offer them), and follow both once they are through.
func TestTournamentResultAfterTheGamesEnd(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.playInThreads(t)
	m := h.bobMeetsCarol()
	h.srv.WaitFor(t, "the match's thread", func() bool { return h.match(m.ID).ThreadID != "" })
	threads := h.channel.Threads()
	if len(threads) != 1 {
		t.Fatalf("%d threads, want the match's", len(threads))
	}
	thread := threads[0]
	h.setUp(m, game.Red, game.Blue)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })
	h.outboxEmpty()

	hold := h.srv.HoldNextIn(t, createMessageRoute, thread, 1)
	t.Cleanup(hold.Release)
	loser := h.members[m.Players[game.Blue].UserID]
	ask := loser.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", m.ID.String())).Reply(t)
	loser.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.srv.WaitFor(t, "the result recorded while the game's end is held", func() bool {
		_, s := h.stored()
		return s.Status() == tournament.Finished && hold.Waiting() == 1
	})
	// Read the outbox first: a notice it no longer offers has been posted.
	due, err := h.db.DueNotices(context.Background(), h.clock.Now(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range due {
		if n.Tournament != 0 {
			t.Errorf("the outbox offers the tournament's %s while the game's end is held", n.Event)
		}
	}
	if n := h.channelCount("**Cup**, round 1: "); n != 0 {
		t.Fatalf("the standings were posted while the game's end was held")
	}
	hold.Release()
	h.channelSays("**Cup**, round 1: ")
	h.channelSays("**Cup** is over")
	var result uint64
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if strings.Contains(msg.Content, "**Cup**, round 1: ") {
			result = id(t, msg.ID)
		}
	}
	ended, finale := false, false
	for _, msg := range h.srv.ChannelMessages(thread) {
		isEnd, isFinale := strings.Contains(msg.Content, "resigned"), strings.Contains(msg.Content, "The final position with every piece shown")
		if (isEnd || isFinale) && id(t, msg.ID) > result {
			t.Errorf("the game's %q was posted after the standings", msg.Content)
		}
		ended, finale = ended || isEnd, finale || isFinale
	}
	if !ended || !finale {
		t.Errorf("the thread has the game's end %v, its finale %v; want both", ended, finale)
	}
}

// id reads a Discord id, which grows with the time it was made.
func id(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestTournamentCallOffsBeforeTheStandings: a tournament game still on is
// called off by a change of the tournament — its round's deadline, its
// player's withdrawal, their leaving the server (found by the hourly
// check), or the tournament's cancel — or by a moderator (/stratego
// cancel). The tournament records that change before it calls the match
// off, but the channel reads the game's call-off first (posted in the
// game's thread, whose first post after it Discord holds), then the
// announcement with the standings, then the end of the event (a cancel
// is its end); none is posted twice. So it does when the
// call-off that follows the change is lost — the bot killed right after
// the round's close, or the database away for the call-off of a
// deadline, a withdrawal or a cancel —: the match is called off by the
// timers once the bot is back (or at once, the database back; a cancel's
// at its check, cancelCheckAfter later), and the announcement waits for
// it.
func TestTournamentCallOffsBeforeTheStandings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// act calls the game off, and returns what waits for the
		// deliveries it started (the timers' pass, in the background:
		// h.advance waits for them, the held call-off too).
		act          func(h *tourney, m *storage.Match) (wait func())
		announcement string
		// cancelled: the event ends as cancelled, its announcement
		// the last (no final standings follow it).
		cancelled bool
	}{
		{"the round's deadline", func(h *tourney, m *storage.Match) func() {
			tt, _ := h.stored()
			return h.advanceBehind(tt.RoundDeadline.Sub(h.clock.Now()) + time.Minute)
		}, "the deadline of round 1 passed", false},
		{"a withdrawal", func(h *tourney, m *storage.Match) func() {
			h.expect(h.run(h.members[m.Players[game.Blue].UserID], "withdraw"), "You withdrew")
			return func() {}
		}, "withdrew; their games still to play are forfeited.", false},
		{"a player who left the server", func(h *tourney, m *storage.Match) func() {
			h.guild.RemoveMember(h.members[m.Players[game.Blue].UserID])
			return h.advanceBehind(memberCheckEvery)
		}, "left the server and is withdrawn from the tournament.", false},
		{"a moderator's cancel", func(h *tourney, m *storage.Match) func() {
			reply := h.alice.SlashCommand(h.t, h.channel, "stratego cancel", discordtest.Opt("match", m.ID.String()),
				discordtest.Opt("reason", "a mix-up")).Reply(h.t)
			h.expect(reply, "is called off")
			return func() {}
		}, "**Cup**, round 1: ", false},
		{"the tournament cancelled", func(h *tourney, m *storage.Match) func() {
			h.expect(h.run(h.alice, "cancel"), "**Cup** is cancelled.")
			return func() {}
		}, "is cancelled by <@", true},
		{"killed between the round's close and its call-off", func(h *tourney, m *storage.Match) func() {
			tt, _ := h.stored()
			h.advance(tt.RoundDeadline.Sub(h.clock.Now()) - time.Minute) // the reminders are sent, on time
			resume := h.lateTimers(tt.RoundDeadline.Add(time.Minute))
			// The close as closeRound stores it, and then the process is gone.
			if _, err := h.db.UpdateTournament(context.Background(), tt.ID, 0, func(x *storage.Tournament) error {
				x.Changed = h.clock.Now()
				x.Log = append(x.Log, tournament.CloseRound(1))
				return nil
			}); err != nil {
				h.t.Fatal(err)
			}
			h.bot.leading.Store(false) // the pass waiting comes after the restart
			resume()
			h.shutdown()
			h.start()
			return h.advanceBehind(0)
		}, "the deadline of round 1 passed", false},
		{"the database away for the call-off at the deadline", func(h *tourney, m *storage.Match) func() {
			h.reads.failAbandon.Store(1)
			tt, _ := h.stored()
			return h.advanceBehind(tt.RoundDeadline.Sub(h.clock.Now()) + time.Minute)
		}, "the deadline of round 1 passed", false},
		{"the database away for a withdrawal's call-off", func(h *tourney, m *storage.Match) func() {
			h.reads.failAbandon.Store(1)
			h.expect(h.run(h.members[m.Players[game.Blue].UserID], "withdraw"), "You withdrew")
			return func() {}
		}, "withdrew; their games still to play are forfeited.", false},
		{"the database away for the cancel's call-off", func(h *tourney, m *storage.Match) func() {
			h.reads.failAbandon.Store(1)
			h.expect(h.run(h.alice, "cancel"), "**Cup** is cancelled.")
			wait := h.advanceBehind(cancelCheckAfter)
			return func() {
				wait()
				if tt, _ := h.stored(); tt.CallingOff {
					h.t.Error("the cancelled tournament still has games to call off once they are")
				}
				if _, ok, err := h.db.NextTournamentWake(context.Background()); ok || err != nil {
					h.t.Errorf("the cancelled tournament still has a timer once its games are off (%v)", err)
				}
			}
		}, "is cancelled by <@", true},
		{reviewerCase, func(h *tourney, m *storage.Match) func() {
			deadline := h.movePendingAtTheDeadline(m)
			// Every call-off of the deadline's pass fails (the close's, and
			// the pass's second try before it ends the event): the event
			// is over, and only the match's reminder, refused for the
			// round is over, is left to call it off.
			h.reads.failAbandon.Store(1 << 20)
			h.advance(deadline.Sub(h.clock.Now()) + time.Minute)
			h.reads.failAbandon.Store(0)
			if !h.match(m.ID).Phase.Active() {
				h.t.Fatalf("the match is %v after the deadline's pass, its call-off failing; want it on", h.match(m.ID).Phase)
			}
			return h.advanceBehind(30 * time.Minute)
		}, "the deadline of round 1 passed", false},
		{reviewerRetried, func(h *tourney, m *storage.Match) func() {
			deadline := h.movePendingAtTheDeadline(m)
			// The close's call-off fails; the pass tries again before it
			// ends the event, not waiting for the match's reminder.
			h.reads.failAbandon.Store(1)
			return h.advanceBehind(deadline.Sub(h.clock.Now()) + time.Minute)
		}, "the deadline of round 1 passed", false},
	}
	// The reviewer's case: a round of a week, a day a move, a move
	// pending at the round's deadline, the database away for its call-off.
	roundDays := map[string]int{reviewerCase: 7, reviewerRetried: 7}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			h.playInThreads(t)
			days := max(roundDays[tc.name], 1)
			m := h.bobMeetsCarol(discordtest.Opt("round_days", days), discordtest.Opt("move_time", "24h"))
			h.srv.WaitFor(t, "the match's thread", func() bool { return h.match(m.ID).ThreadID != "" })
			threads := h.channel.Threads()
			if len(threads) != 1 {
				t.Fatalf("%d threads, want the match's", len(threads))
			}
			thread := threads[0]
			bothSetUp(h, m)
			h.outboxEmpty()

			hold := h.srv.HoldNextIn(t, createMessageRoute, thread, 1)
			t.Cleanup(hold.Release)
			wait := tc.act(h, m)
			h.srv.WaitFor(t, "the match called off while its call-off is held", func() bool {
				return !h.match(m.ID).Phase.Active() && hold.Waiting() == 1
			})
			h.srv.WaitFor(t, "the tournament to record the change", func() bool {
				_, s := h.stored()
				return s.Status() == tournament.Finished || tc.cancelled && s.Status() == tournament.CancelledStatus
			})
			// Read the outbox first: a notice it no longer offers has been posted.
			due, err := h.db.DueNotices(context.Background(), h.clock.Now(), 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range due {
				if n.Tournament != 0 {
					t.Errorf("the outbox offers the tournament's %s while the game's call-off is held", n.Event)
				}
			}
			if n := h.channelCount(tc.announcement); n != 0 {
				t.Fatalf("%q was posted while the game's call-off was held", tc.announcement)
			}
			hold.Release()
			wait()
			said := []string{tc.announcement, "**Cup** is over"}
			if tc.cancelled {
				said = said[:1] // the cancel is the event's end
			}
			for _, want := range said {
				h.channelSays(want)
			}
			h.advance(time.Second)
			h.outboxEmpty()
			var first uint64
			for _, msg := range h.srv.ChannelMessages(h.channel) {
				if strings.Contains(msg.Content, tc.announcement) {
					first = id(t, msg.ID)
				}
			}
			for _, want := range said {
				if n := h.channelCount(want); n != 1 {
					t.Errorf("the channel told %q %d times, want once", want, n)
				}
			}
			calledOff := 0
			for _, msg := range h.srv.ChannelMessages(thread) {
				if strings.Contains(msg.Content, "called off") {
					calledOff++
					if id(t, msg.ID) > first {
						t.Errorf("the game's %q was posted after the tournament's announcement", msg.Content)
					}
				}
			}
			if calledOff != 1 {
				t.Errorf("the thread told the call-off %d times, want once", calledOff)
			}
		})
	}
}

const (
	reviewerCase    = "the database away at the deadline, a move pending past it"
	reviewerRetried = "the close's call-off lost, a move pending past the deadline"
)

// movePendingAtTheDeadline makes m's round of 7 days, a day a move, end
// while a move is pending: the last move was made 11h30 before the
// round's deadline, so that the reminder at half its time comes 30
// minutes after the deadline. It returns the round's deadline.
func (h *tourney) movePendingAtTheDeadline(m *storage.Match) time.Time {
	deadline := h.match(m.ID).Deadline.Add(-12*time.Hour - 30*time.Minute)
	tt, _ := h.stored()
	if _, err := h.db.UpdateTournament(context.Background(), tt.ID, 0, func(x *storage.Tournament) error {
		x.RoundDeadline = deadline
		return nil
	}); err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.db.UpdateMatch(context.Background(), m.ID, 0, func(x *storage.Match) error {
		x.RoundEnds = deadline
		return nil
	}); err != nil {
		h.t.Fatal(err)
	}
	return deadline
}

// advanceBehind moves the clock on by d and runs the timers' pass in the
// background, as the bot's own loops do: h.advance waits for the deliveries
// it starts, and one a test holds would hold the test. The returned
// function waits for it.
func (h *tourney) advanceBehind(d time.Duration) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.advance(d)
	}()
	return func() { <-done }
}
