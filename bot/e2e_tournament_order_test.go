package bot

import (
	"context"
	"strconv"
	"strings"
	"testing"

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
	if _, err := h.db.UpdateServer(context.Background(), h.guild.ID, func(s *storage.ServerSettings) error {
		s.Board = storage.BoardThread
		return nil
	}); err != nil {
		t.Fatal(err)
	}
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
	loser.ClickButton(t, ask, button(t, ask, "Resign")).Reply(t)
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
	h.channelSays("**Cup** is over. Final standings:")
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
