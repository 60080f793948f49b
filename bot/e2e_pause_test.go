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

// TestPauseByAgreement: Alice proposes a pause of three days in a game of a
// day a move and Bob accepts with the DM's button. Both and the channel are
// told until when; her clock stops, across a restart of the bot, and she
// loses on time only a day after her turn began plus the three days. Both
// are told when the pause ends, and the history keeps it.
func TestPauseByAgreement(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	due := h.waitMoves(1, 0).Deadline
	day := 24 * time.Hour

	if got := h.alice.SlashCommand(t, h.channel, "stratego pause").Reply(t).Content; !strings.Contains(got, "how many days") {
		t.Errorf("a proposal without days answered %q", got)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t).Content; got != "You proposed to pause the match for 3 days. Your opponent accepts or declines." {
		t.Errorf("the proposal answered %q", got)
	}
	h.bot.deliverDue(t.Context())
	ask := h.bob.WaitDM(t, contains("alice proposes to pause the match for 3 days"))
	agreed := h.clock.Now()
	accepted := h.bob.ClickButton(t, ask, button(t, ask, "Pause")).Reply(t).Content
	until := agreed.Add(3 * day)
	untilMark := "<t:" + strconv.FormatInt(until.Unix(), 10) + ":f>"
	if !strings.Contains(accepted, "You agreed to pause the match.") || !strings.Contains(accepted, untilMark) {
		t.Errorf("Bob's acceptance answered %q, want the pause until %s", accepted, untilMark)
	}
	h.bot.deliverDue(t.Context())
	m := h.match(1)
	if !m.PausedUntil().Equal(until) || !m.Deadline.Equal(due.Add(3*day)) {
		t.Fatalf("paused until %v, Alice's deadline %v; want %v and %v", m.PausedUntil(), m.Deadline, until, due.Add(3*day))
	}
	dueMark := "<t:" + strconv.FormatInt(m.Deadline.Unix(), 10) + ":R>"
	h.alice.WaitDM(t, contains("paused by agreement until "+untilMark))
	if dm := lastDM(h.alice).Content; !strings.Contains(dm, "Your move is then due "+dueMark) {
		t.Errorf("Alice is not told her deadline after the pause: %q", dm)
	}
	h.bob.WaitDM(t, contains("paused by agreement until "+untilMark))
	h.channelSays("paused by agreement until " + untilMark)
	if got := h.bob.SlashCommand(t, h.channel, "stratego games").Reply(t).Content; !strings.Contains(got, "(deadline "+dueMark+") · Paused until "+untilMark) {
		t.Errorf("Bob's list of games does not show the pause: %q", got)
	}

	// The pause outlives the process, and no time-out comes while it lasts,
	// though her day is long gone.
	h.shutdown()
	h.start()
	h.advance(3*day - time.Second)
	if m := h.match(1); m.Phase != storage.PhasePlaying || m.PausedUntil().IsZero() {
		t.Fatalf("a second before the pause ends: phase %v, paused until %v", m.Phase, m.PausedUntil())
	}
	h.advance(time.Second)
	h.alice.WaitDM(t, contains("The pause is over: your move is due "+dueMark))
	h.bob.WaitDM(t, contains("The pause is over: the match goes on."))
	h.channelSays("The pause is over")

	history := h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t).Content
	if !strings.Contains(history, "alice and bob paused the match for 3 days.") || !strings.Contains(history, "The pause ended.") {
		t.Errorf("the history does not keep the pause:\n%s", history)
	}
	left := m.Deadline.Sub(h.clock.Now())
	h.advance(left - time.Second)
	if m := h.match(1); m.Phase != storage.PhasePlaying {
		t.Fatalf("Alice lost a second before her moved deadline: %+v", m.Result)
	}
	h.advance(time.Second)
	h.srv.WaitFor(t, "Alice's time to run out", func() bool { return h.match(1).Phase == storage.PhaseFinished })
}

// TestPauseRefused: a game on the clock does not pause, a declined proposal
// is told to its maker, and there is nothing to accept afterwards.
func TestPauseRefused(t *testing.T) {
	t.Parallel()
	fast := newHarness(t)
	fast.challenge("Classic", discordtest.Opt("clock", "5+3"))
	fast.sendSetups(placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}), placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}))
	fast.waitMoves(1, 0)
	if got := fast.alice.SlashCommand(t, fast.channel, "stratego pause", discordtest.Opt("days", 1)).Reply(t).Content; !strings.Contains(got, "Only matches of a day or more a move can pause") {
		t.Errorf("pausing a game on the clock answered %q", got)
	}

	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("move_time", "48h"))
	h.sendSetups(placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}), placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}))
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 14)).Reply(t)
	h.bot.deliverDue(t.Context())
	ask := h.bob.WaitDM(t, contains("proposes to pause the match for 14 days"))
	if got := h.bob.ClickButton(t, ask, button(t, ask, "Decline")).Reply(t).Content; got != "You declined the pause." {
		t.Errorf("declining answered %q", got)
	}
	h.bot.deliverDue(t.Context())
	h.alice.WaitDM(t, contains("bob declined the pause; the game goes on."))
	if got := h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t).Content; got != "You declined that proposal already: the game goes on." {
		t.Errorf("accepting after the decline answered %q", got)
	}
	if m := h.match(1); !m.PausedUntil().IsZero() {
		t.Errorf("a declined proposal paused the match until %v", m.PausedUntil())
	}
}

// TestStopAfterTheReminder: Alice has had her half-time reminder when her
// clock stops for two days, by a pause or by a vacation. When it runs
// again she is not reminded at half time a second time: her next reminder
// comes an hour before her deadline, which moved on by the two days.
func TestStopAfterTheReminder(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	tests := []struct {
		name string
		stop func(h *harness)
	}{
		{"a pause", func(h *harness) {
			h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
			h.bot.deliverDue(t.Context())
			ask := h.alice.WaitDM(t, contains("bob proposes to pause the match for 2 days"))
			h.alice.ClickButton(t, ask, button(t, ask, "Pause")).Reply(t)
		}},
		{"a vacation", func(h *harness) {
			h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			due := h.waitMoves(1, 0).Deadline
			reminders := func() int { return countDMs(h.alice, "Reminder: your move is due") }
			h.advance(12 * time.Hour)
			h.alice.WaitDM(t, contains("Reminder: your move is due"))
			h.advance(time.Hour)
			tc.stop(h)
			due = due.Add(2 * day)
			if m := h.match(1); !m.Deadline.Equal(due) {
				t.Fatalf("the stop moved the deadline %v, want 2 days", m.Deadline.Sub(due.Add(-2*day)))
			}
			h.advance(2 * day) // the stop ends
			h.outboxEmpty()
			if n := reminders(); n != 1 {
				t.Errorf("%d reminders once the clock runs again, want the one before the stop", n)
			}
			h.advance(due.Add(-time.Hour).Sub(h.clock.Now()) - time.Second)
			if n := reminders(); n != 1 {
				t.Errorf("%d reminders a second before the hour before the deadline, want 1", n)
			}
			h.advance(time.Second)
			h.alice.WaitDM(t, contains("Reminder: your move is due <t:"+unix(due)+":R>"))
			h.srv.WaitFor(t, "the reminder an hour before", func() bool { return reminders() == 2 })
		})
	}
}

// TestOfferOutlivesAGift: Alice offers a draw, or proposes a pause, and
// gives Bob a day of time, while Discord holds Bob's DMs for two hours. Her
// offer still stands when his DMs go through, so he is asked, with the
// buttons, and can accept it: the gift after it does not make it moot. The
// pause he is asked to agree to now ends its days after now, not after the
// proposal.
func TestOfferOutlivesAGift(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, command string
		args          []discordtest.Arg
		ask, accept   string
		accepted      func(m *storage.Match) bool
	}{
		{"a draw", "stratego draw", nil, "alice offers a draw.", "Accept draw",
			func(m *storage.Match) bool { return m.Result.Outcome == game.Drawn }},
		{"a pause", "stratego pause", []discordtest.Arg{discordtest.Opt("days", 3)}, "alice proposes to pause the match for 3 days", "Pause",
			func(m *storage.Match) bool { return !m.PausedUntil().IsZero() }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			h.outboxEmpty()
			hold := h.srv.HoldNextIn(t, "POST /channels/{channel_id}/messages", h.bob.DM(), 1)
			defer hold.Release()
			h.alice.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
			h.srv.WaitFor(t, "Bob's DMs to be held", func() bool { return hold.Waiting() == 1 })
			h.alice.SlashCommand(t, h.channel, tc.command, tc.args...).Reply(t)
			h.alice.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
			h.clock.Advance(2 * time.Hour)
			hold.Release()
			h.outboxEmpty()
			ask := h.bob.WaitDM(t, contains(tc.ask))
			if until := fullMark(h.clock.Now().Add(3 * 24 * time.Hour)); tc.name == "a pause" && !strings.Contains(ask.Content, "both clocks stop until "+until) {
				t.Errorf("the proposal asked two hours late does not say the pause would end %s: %q", until, ask.Content)
			}
			h.bob.ClickButton(t, ask, button(t, ask, tc.accept)).Reply(t)
			if m := h.match(1); !tc.accepted(m) {
				t.Errorf("Bob accepted %s, and the match is %s with %+v", tc.name, m.Phase, m.Result)
			}
		})
	}
}

// TestOldDeclineKeepsOwnProposal: Bob declines Alice's proposal with a
// command, then proposes a pause himself. The Decline button of Alice's
// old proposal, pressed later, answers no proposal: it does not take back
// Bob's own, which still asks Alice.
func TestOldDeclineKeepsOwnProposal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t)
	h.bot.deliverDue(t.Context())
	ask := h.bob.WaitDM(t, contains("alice proposes to pause the match for 3 days"))
	editHeld(t, h, h.bob) // the presses come before the DM loses its buttons
	h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "decline")).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 5)).Reply(t)
	h.alice.WaitDM(t, contains("bob proposes to pause the match for 5 days"))
	for _, label := range []string{"Decline", "Pause"} {
		got := h.bob.ClickButton(t, ask, button(t, ask, label)).Reply(t).Content
		if want := "There is no proposal to pause to answer"; !strings.Contains(got, want) {
			t.Errorf("Bob's press of %s under Alice's old proposal answered %q, want %q", label, got, want)
		}
		if by, days, ok := h.match(1).PauseOffer(); !ok || by != game.Blue || days != 5 {
			t.Fatalf("after Bob pressed %s under Alice's old proposal: the proposal standing is %v's of %d days (%v), want Bob's of 5", label, by, days, ok)
		}
	}
}

// TestProposalOutlivesTheProposersMove: Alice proposes a pause on her turn
// and then moves, as a correspondence player sends a proposal with a move.
// Her move does not take it back: Bob, whose turn it is, accepts it with
// the button of its DM. Had he moved instead, he would have declined it.
func TestProposalOutlivesTheProposersMove(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t)
	h.bot.deliverDue(t.Context())
	ask := h.bob.WaitDM(t, contains("alice proposes to pause the match for 3 days"))
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	if got := h.bob.ClickButton(t, ask, button(t, ask, "Pause")).Reply(t).Content; !strings.Contains(got, "You agreed to pause the match.") {
		t.Fatalf("Bob's acceptance after Alice's move answered %q", got)
	}
	if m := h.match(1); m.PausedUntil().IsZero() {
		t.Fatal("the match is not paused")
	}

	// A proposal Bob leaves unanswered lapses with his move.
	h.advance(3*24*time.Hour + time.Hour) // the pause is over; Bob's day runs
	h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
	h.waitMoves(1, 2)
	if _, _, ok := h.match(1).PauseOffer(); ok {
		t.Error("Alice's proposal stands after Bob moved without answering it")
	}
}

// TestCrossedProposals: Bob proposes a pause while Alice's proposal to him
// stands. It never replaces hers silently, as it did: for other days he is
// told, in his language, that hers stands and to answer it first, and hers
// still asks him; for the same days his proposal accepts hers, and both
// players and the channel are told the match is paused.
func TestCrossedProposals(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t)
	h.bot.deliverDue(t.Context())
	ask := h.bob.WaitDM(t, contains("alice proposes to pause the match for 3 days"))
	for _, c := range []struct{ locale, want string }{
		{"en", "alice has proposed to pause the match for 3 days: accept or decline that proposal first (the buttons of its message, or `/stratego pause action:accept` or `action:decline`). Proposing the same days accepts it."},
		{"nl", "alice heeft voorgesteld de partij 3 dagen te pauzeren: neem dat voorstel eerst aan of weiger het"},
		{"de", "alice hat vorgeschlagen, die Partie 3 Tage zu pausieren: Nimm diesen Vorschlag zuerst an oder lehne ihn ab"},
		{"fr", "alice a proposé une pause de 3 jours : acceptez ou refusez d'abord cette proposition"},
	} {
		h.bob.SetLocale(c.locale)
		if got := h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 5)).Reply(t).Content; !strings.HasPrefix(got, c.want) {
			t.Errorf("Bob's proposal of 5 days in %s answered %q, want it to begin %q", c.locale, got, c.want)
		}
	}
	h.bob.SetLocale("en")
	m := h.match(1)
	if by, days, ok := m.PauseOffer(); !ok || by != game.Red || days != 3 || m.PauseOffersBy(game.Blue) != 0 {
		t.Fatalf("after Bob's proposals of 5 days: the proposal standing is %v's of %d days (%v), Bob made %d; want Alice's of 3, none of Bob's", by, days, ok, m.PauseOffersBy(game.Blue))
	}
	h.bot.deliverDue(t.Context())
	h.outboxEmpty() // Alice is asked nothing: her proposal is as it was

	agreed := h.clock.Now()
	untilMark := "<t:" + strconv.FormatInt(agreed.Add(3*24*time.Hour).Unix(), 10) + ":f>"
	editHeld(t, h, h.bob) // the press below comes before the DM loses its buttons
	got := h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t).Content
	if want := "alice had proposed the same pause: you agreed to it. The match is paused by agreement until " + untilMark; !strings.HasPrefix(got, want) {
		t.Errorf("Bob's proposal of 3 days answered %q, want it to begin %q", got, want)
	}
	h.alice.WaitDM(t, contains("paused by agreement until "+untilMark))
	h.bob.WaitDM(t, contains("paused by agreement until "+untilMark))
	h.channelSays("paused by agreement until " + untilMark)
	if got := h.bob.ClickButton(t, ask, button(t, ask, "Pause")).Reply(t).Content; !strings.Contains(got, "paused by agreement until "+untilMark) {
		t.Errorf("Pause pressed under Alice's proposal, agreed to already, answered %q", got)
	}
	if history := h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t).Content; !strings.Contains(history, "alice and bob paused the match for 3 days.") {
		t.Errorf("the history does not keep the pause:\n%s", history)
	}
}
