package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestTournamentPassReadsNoRoundPlayed: the tournament's hourly pass,
// which calls off a match whose call-off was lost (callOffScored), reads
// no match of a round played, whose matches are all over, so that its
// work does not grow with the rounds played. A Swiss of four over three
// rounds: in each round one game is played out and one is left to the
// round's deadline, which scores it and calls it off; in rounds 2 and 3,
// an hourly pass reads no match of the rounds before.
func TestTournamentPassReadsNoRoundPlayed(t *testing.T) {
	t.Parallel()
	h := newTourney(t, "dave")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 3),
		discordtest.Opt("starts_in_hours", 1), discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "24h")), "Tournament #1")
	for _, m := range h.members {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.advance(time.Hour)
	var played []*storage.Match // the matches of the rounds before
	for round := 1; round <= 3; round++ {
		matches := h.roundMatches(round)
		if len(matches) != 2 {
			t.Fatalf("round %d has %d matches, want 2", round, len(matches))
		}
		if round > 1 {
			h.outboxEmpty()
			h.reads.reset()
			h.advance(memberCheckEvery)
			for _, m := range played {
				if n := h.reads.readsOf(m.ID); n != 0 {
					t.Errorf("round %d's hourly pass read match %d of an earlier round %d times, want none", round, m.ID, n)
				}
			}
		}
		h.play(matches[0], game.Blue)
		bothSetUp(h, matches[1])
		tt, _ := h.stored()
		h.advance(tt.RoundDeadline.Sub(h.clock.Now()) + time.Minute)
		h.srv.WaitFor(t, "the round's deadline to call its game off", func() bool { return !h.match(matches[1].ID).Phase.Active() })
		played = append(played, matches...)
	}
	if tt, _ := h.stored(); !tt.Done || tt.OffThrough != 2 {
		t.Errorf("the tournament is done %v with %d rounds known over, want done, and 2 (stored as round 3 was paired)", tt.Done, tt.OffThrough)
	}
}

// TestTournamentLostCallOffKeepsItsRound: a round whose deadline's
// call-off was lost (the database away for every call-off of the
// deadline's pass) is not taken for over as the next round is paired:
// the next hourly pass reads its match and calls it off (unless the
// match's own timer came first), and the round is known over only from
// the next pairing on.
func TestTournamentLostCallOffKeepsItsRound(t *testing.T) {
	t.Parallel()
	h := newTourney(t, "dave")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 3),
		discordtest.Opt("starts_in_hours", 1), discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "24h")), "Tournament #1")
	for _, m := range h.members {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.advance(time.Hour)
	first := h.roundMatches(1)
	h.play(first[0], game.Blue)
	bothSetUp(h, first[1])
	tt, _ := h.stored()
	h.reads.failAbandon.Store(1 << 20)
	h.advance(tt.RoundDeadline.Sub(h.clock.Now()) + time.Minute)
	second := h.roundMatches(2)
	// Checked while every call-off still fails: the match's own timer,
	// due, would call it off once they no longer do.
	if !h.match(first[1].ID).Phase.Active() {
		t.Fatal("the round's call-off was not lost")
	}
	if tt, _ := h.stored(); tt.OffThrough != 0 {
		t.Fatalf("round 2 paired with %d rounds known over, want none: round 1's match is on", tt.OffThrough)
	}
	h.reads.failAbandon.Store(0)
	h.reads.reset()
	h.advance(memberCheckEvery)
	if n := h.reads.readsOf(first[1].ID); n == 0 {
		t.Error("the hourly pass did not read the match whose call-off was lost")
	}
	if h.match(first[1].ID).Phase.Active() {
		t.Error("the match whose call-off was lost is still on after the hourly pass")
	}
	h.play(second[0], game.Blue)
	h.play(second[1], game.Blue)
	h.roundMatches(3)
	if tt, _ := h.stored(); tt.OffThrough != 2 {
		t.Errorf("round 3 paired with %d rounds known over, want 2", tt.OffThrough)
	}
}
