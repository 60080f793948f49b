package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestTournamentBotAwayAcrossTheRoundDeadline: the bot is down from four
// hours before the deadline of a Swiss round until six hours after it,
// while a game of the round is on. On its return the round is not closed:
// nobody could play meanwhile, so its deadline moves on by the ten hours,
// in the match too, and the channel is told once, with the new deadline.
// Red's move is played; the round closes at its new deadline.
func TestTournamentBotAwayAcrossTheRoundDeadline(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	m := h.bobMeetsCarol(discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "24h"))
	bothSetUp(h, m)
	tt, _ := h.stored()
	deadline := tt.RoundDeadline
	h.advance(deadline.Add(-4 * time.Hour).Sub(h.clock.Now()))
	h.outboxEmpty()
	down := h.clock.Now()
	h.shutdown()
	h.clock.Advance(10 * time.Hour)
	back := h.clock.Now()
	h.start()
	h.bot.handleDue(t.Context())
	h.bot.deliverDue(t.Context())
	h.outboxEmpty()
	moved := deadline.Add(10 * time.Hour)
	tt, s := h.stored()
	if !tt.RoundDeadline.Equal(moved) || s.Rounds()[0].Complete() {
		t.Fatalf("after ten hours away: the round's deadline moved %v (complete: %v), want 10h, still on", tt.RoundDeadline.Sub(deadline), s.Rounds()[0].Complete())
	}
	if x := h.match(m.ID); x.Phase != storage.PhasePlaying || !x.RoundEnds.Equal(moved) {
		t.Fatalf("the match after ten hours away: %v, its round ends %v after the old deadline; want in play, 10h", x.Phase, x.RoundEnds.Sub(deadline))
	}
	told := "**Cup**: I was away from " + fullMark(down) + " to " + fullMark(back) + ", and nobody could play. The deadline of round 1 moves to " + fullMark(moved) + "."
	h.channelSays(told)
	if n := h.channelCount(told); n != 1 {
		t.Errorf("the channel was told %d times, want once", n)
	}
	g, err := h.match(m.ID).Game()
	if err != nil {
		t.Fatal(err)
	}
	mv := g.LegalMoves()[0]
	red := h.members[m.Players[game.Red].UserID]
	red.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", mv.From.String()), discordtest.Opt("to", mv.To.String()),
		discordtest.Opt("match", m.ID.String())).Reply(t)
	if x := h.waitStored(m.ID, 1); x.Moves() != 1 || x.Phase != storage.PhasePlaying {
		t.Fatalf("Red's move after the bot came back: %d moves, %v", x.Moves(), x.Phase)
	}
	h.advance(moved.Sub(h.clock.Now()) - time.Second)
	if _, s := h.stored(); s.Rounds()[0].Complete() {
		t.Fatal("the round closed before its new deadline")
	}
	h.advance(time.Second)
	h.channelSays("the deadline of round 1 passed")
}

// TestTournamentBotAwayBeforeItsStart: a tournament starts two hours after
// its creation, and members may join for the first hour. The bot is down
// from half an hour after the creation until half an hour after the start.
// On its return nobody could join meanwhile: the join deadline and the
// start move on by the two hours, and a member joins then; the round is
// paired at the new start. Down from after the join deadline, the start
// does not move: nobody raced against it, and the round is paired as the
// bot is back.
func TestTournamentBotAwayBeforeItsStart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		join  int           // join_hours
		down  time.Duration // the bot stops this long after the creation
		moved time.Duration
	}{
		{name: "joining open", join: 1, down: 30 * time.Minute, moved: 2 * time.Hour},
		{name: "joining closed", join: 1, down: 70 * time.Minute},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 1),
				discordtest.Opt("starts_in_hours", 2), discordtest.Opt("join_hours", tc.join)), "Tournament #1")
			h.expect(h.run(h.bob, "join"), "You joined")
			h.expect(h.run(h.carol, "join"), "You joined")
			before, _ := h.stored()
			h.advance(tc.down)
			h.outboxEmpty()
			h.shutdown()
			h.clock.Advance(150*time.Minute - tc.down) // until half an hour after the start
			h.start()
			h.bot.handleDue(t.Context())
			tt, s := h.stored()
			if got := tt.StartAt.Sub(before.StartAt); got != tc.moved {
				t.Fatalf("the start moved %v, want %v", got, tc.moved)
			}
			if got := tt.JoinBy.Sub(before.JoinBy); got != tc.moved {
				t.Errorf("the join deadline moved %v, want %v", got, tc.moved)
			}
			if tc.moved == 0 {
				if len(s.Rounds()) != 1 {
					t.Errorf("the start passed while the bot was away: %d rounds paired, want round 1", len(s.Rounds()))
				}
				return
			}
			if len(s.Rounds()) != 0 {
				t.Fatalf("paired before the moved start: %d rounds", len(s.Rounds()))
			}
			h.expect(h.run(h.alice, "join"), "You joined")
			h.advance(tt.StartAt.Sub(h.clock.Now()))
			if _, s := h.stored(); len(s.Rounds()) != 1 || len(s.Players()) != 3 {
				t.Errorf("at the moved start: %d rounds, %d players; want round 1 of 3", len(s.Rounds()), len(s.Players()))
			}
		})
	}
}

// TestTournamentBotAwayRoundRobin: in a round robin played all at once,
// the bot down for three hours moves the one deadline of every game on by
// them, and the channel is told so.
func TestTournamentBotAwayRoundRobin(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.roundRobin("Club", h.bob, h.carol)
	h.advance(time.Hour)
	h.allMatches(1)
	h.outboxEmpty()
	tt, _ := h.stored()
	deadline := tt.RoundDeadline
	down := h.clock.Now()
	h.shutdown()
	h.clock.Advance(3 * time.Hour)
	back := h.clock.Now()
	h.start()
	h.bot.deliverDue(t.Context())
	moved := deadline.Add(3 * time.Hour)
	if tt, _ := h.stored(); !tt.RoundDeadline.Equal(moved) {
		t.Fatalf("the deadline moved %v, want 3h", tt.RoundDeadline.Sub(deadline))
	}
	h.channelSays("**Club**: I was away from " + fullMark(down) + " to " + fullMark(back) + ", and nobody could play. The deadline for every game moves to " + fullMark(moved) + ".")
}
