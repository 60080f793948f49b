package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestLateInviteWhileAVacationStops: Discord holds Bob's set-up invite of a
// match of a day a move; meanwhile Alice, whose invite arrived, goes on
// vacation for three days, which stops the set-up clock. When Bob's
// invite arrives, minutes late, the set-up time does not start then: it
// starts when her vacation ends. Each is told so, as a player whose board
// arrives while their clock is stopped is, not that it started when the
// invite arrived; and each note gives the deadline that holds.
func TestLateInviteWhileAVacationStops(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h := newHarness(t)
	hold := h.srv.HoldNextIn(t, createMessageRoute, h.bob.DM(), 1)
	defer hold.Release()
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	h.srv.WaitFor(t, "Bob's invite to be held", func() bool { return hold.Waiting() == 1 })
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t).Content; !strings.Contains(got, "correspondence matches (1)") {
		t.Fatalf("the vacation answered %q", got)
	}
	back := h.clock.Now().Add(3 * day)
	h.clock.Advance(2 * time.Minute)
	hold.Release()
	h.bob.WaitDM(t, contains("Send me your secret set-up"))
	h.bot.deliverDue(t.Context())
	arrived := h.clock.Now()
	m := h.match(1)
	if m.Phase != storage.PhaseSetup || m.ClockPending || !m.Deadline.Equal(back.Add(day)) {
		t.Fatalf("Bob's invite arrived: %s, clock pending %v, set-ups due %v after her return, want a day", m.Phase, m.ClockPending, m.Deadline.Sub(back))
	}
	h.outboxEmpty()
	for _, c := range []struct {
		who  *discordtest.Member
		want string
	}{
		{h.bob, "Your set-up invite arrived late, at <t:" + unix(arrived) + ":t>, while a vacation stopped the set-up clock: the set-up time starts when it runs again. Your set-up is due " + relMark(m.Deadline) + " (" + fullMark(m.Deadline) + ")."},
		{h.alice, "Your opponent's set-up invite arrived late, at <t:" + unix(arrived) + ":t>, while a vacation stopped the set-up clock: the set-up time starts when it runs again. Your set-up is due " + relMark(m.Deadline) + " (" + fullMark(m.Deadline) + ")."},
	} {
		if n := countDMs(c.who, c.want); n != 1 {
			t.Errorf("%s was told %d times %q; the notes: %q", c.who.Name, n, c.want, lateNotes(c.who))
		}
	}
}

// lateNotes are the notes p was sent that a board or an invite came late.
func lateNotes(p *discordtest.Member) []string {
	var out []string
	for _, msg := range p.DMs() {
		if strings.Contains(msg.Content, "arrived late") {
			out = append(out, msg.Content)
		}
	}
	return out
}
