package bot

import (
	"context"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestChallengeTheBotOnAClock: a challenge to the bot itself with a game
// clock is answered that the computer plays without one, and starts
// nothing: it started a practice match on a move time, the clock asked
// for dropped without a word.
func TestChallengeTheBotOnAClock(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.srv.Bot()), discordtest.Opt("clock", "5+3")).Reply(t)
	if want := "The computer plays without a game clock: challenge me without `clock`, or use `/stratego practice`."; !got.Ephemeral || got.Content != want {
		t.Errorf("a challenge to the bot on a clock: %q, want %q", got.Content, want)
	}
	if ms, err := h.db.PlayerMatches(context.Background(), h.alice.ID, true, 0); err != nil || len(ms) != 0 {
		t.Errorf("alice plays %d matches (%v), want none", len(ms), err)
	}
	// Without the clock it is a practice match, as before.
	if got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.srv.Bot())).Reply(t); got.Ephemeral {
		t.Errorf("a challenge to the bot: %q", got.Content)
	}
}
