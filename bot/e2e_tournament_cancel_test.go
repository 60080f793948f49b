package bot

import (
	"context"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
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
	h.bobAndCarolJoin()
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

// TestTournamentReadsOfAStart: the outbox tells a round's start with as
// few reads of the tournament as it needs. Its pairing announcement reads
// it once. Each set-up invite and first board (which name the tournament
// game) reads it once on a shared database, where another process may
// have cancelled the tournament meanwhile (the notice is then moot), and
// not at all alone on it, where the bot made every change itself and keeps
// the tournament as it left it.
func TestTournamentReadsOfAStart(t *testing.T) {
	t.Parallel()
	t.Run("alone on its database", func(t *testing.T) { t.Parallel(); tournamentReadsOfAStart(t, false) })
	t.Run("sharing its database", func(t *testing.T) { t.Parallel(); tournamentReadsOfAStart(t, true) })
}

func tournamentReadsOfAStart(t *testing.T, shared bool) {
	ctx := context.Background()
	h := tourneyOn(newHarness(t, func(c *Config) { c.Shared, c.Holder = shared, "the only process" }))
	h.srv.WaitFor(t, "the lease", h.bot.leading.Load)
	h.bobAndCarolJoin()
	h.outboxEmpty()
	for _, p := range []*discordtest.Member{h.bob, h.carol} {
		// Their DM channels open: no invite waits for one, to be composed
		// again once it is open.
		if _, err := h.bot.dmChannel(ctx, p.ID); err != nil {
			t.Fatal(err)
		}
	}
	perStart := int64(0) // the reads of each invite and first board
	if shared {
		perStart = 1
	}

	// The round is paired and its match started with the outbox held: then
	// the outbox tells it.
	h.bot.outboxPass.Lock()
	h.clock.Advance(time.Hour)
	h.bot.handleDue(ctx)
	h.reads.reset()
	h.bot.outboxPass.Unlock()
	h.bot.deliverDue(ctx)
	h.outboxEmpty()
	h.channelSays("**Cup** — round 1 of 1.")
	for _, p := range []*discordtest.Member{h.bob, h.carol} {
		if n := countDMs(p, txtInviteHow); n != 1 {
			t.Fatalf("%s got %d set-up invites, want 1", p.Name, n)
		}
	}
	if n, want := h.reads.tournaments.Load(), 1+2*perStart; n != want {
		t.Errorf("the pairing announcement and the two invites read the tournament %d times, want %d", n, want)
	}

	// Both set up with the outbox held: then it sends the first boards,
	// the players' and the channel's.
	m := h.roundMatches(1)[0]
	h.bot.outboxPass.Lock()
	h.setUp(m, game.Red, game.Blue)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })
	h.reads.reset()
	h.bot.outboxPass.Unlock()
	h.bot.deliverDue(ctx)
	h.outboxEmpty()
	h.bob.WaitDM(t, contains("the match begins"))
	h.carol.WaitDM(t, contains("the match begins"))
	if n, want := h.reads.tournaments.Load(), 3*perStart; n != want {
		t.Errorf("the three first boards read the tournament %d times, want %d", n, want)
	}
}
