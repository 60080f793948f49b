package bot

import (
	"context"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// txtInviteHow is a line of every set-up invite, whatever the side.
const txtInviteHow = "Send me your secret set-up"

// TestTournamentCancelledAsItsMatchStarts: two processes share the
// database. One starts round 1's match; the other cancels the tournament
// after the match was made and before it was linked to its board, so the
// cancel calls off none of it, and the first process's outbox runs right
// then, with the match's set-up invites due. Once the cancel is stored no
// invite goes out: the players are told only that the game is called off.
func TestTournamentCancelledAsItsMatchStarts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := tourneyOn(newHarness(t, func(c *Config) { c.Shared, c.Holder = true, "starter" }))
	h.srv.WaitFor(t, "the lease", h.bot.leading.Load)
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 1),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	h.expect(h.run(h.bob, "join"), "You joined")
	h.expect(h.run(h.carol, "join"), "You joined")
	h.outboxEmpty()

	other := New(Config{Shared: true, Holder: "canceller", Now: h.clock.Now}, nil, h.db, nil)
	made := make(chan storage.MatchID, 1)
	meanwhile := func(m *storage.Match) {
		made <- m.ID
		if err := other.cancelTournament(ctx, 1, h.alice.ID); err != nil {
			t.Errorf("the other process's cancel: %v", err)
		}
		h.bot.outboxPass.Unlock() // the outbox runs now, the invites due
		h.bot.deliverDue(ctx)
	}
	h.reads.afterCreateMatch.Store(&meanwhile)
	h.bot.outboxPass.Lock() // held until the match is made
	h.clock.Advance(time.Hour)
	h.bot.handleDue(ctx)
	var id storage.MatchID
	select {
	case id = <-made:
	default:
		h.reads.afterCreateMatch.Store(nil)
		h.bot.outboxPass.Unlock()
		t.Fatal("the start of the tournament made no match")
	}
	h.drain()

	if m := h.match(id); m.Phase != storage.PhaseAbandoned {
		t.Errorf("the match of the cancelled tournament is %v, want called off", m.Phase)
	}
	for _, p := range []*discordtest.Member{h.bob, h.carol} {
		p.WaitDM(t, contains("Cup was cancelled"))
		if n := countDMs(p, txtInviteHow); n != 0 {
			t.Errorf("%s got %d set-up invites of a match started after its tournament was cancelled", p.Name, n)
		}
	}
	h.channelSays("**Cup** is cancelled by")
}
