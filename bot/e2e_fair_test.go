package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestChallengeLimits: one open challenge between two members, at most
// DefaultOpenChallenges made by one member at once, and a burst of the same
// challenge (60 commands at once) makes one challenge and one ping.
func TestChallengeLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()

	// A burst: 30 commands dispatched before the first is answered.
	var burst []*discordtest.Interaction
	for range 30 {
		burst = append(burst, h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob)))
	}
	made := 0
	for _, in := range burst {
		reply := in.Reply(t)
		switch {
		case !reply.Ephemeral && strings.Contains(reply.Content, "challenges you"):
			made++
		case !strings.Contains(reply.Content, "There is already a challenge between you and <@"+h.bob.ID+">"):
			t.Errorf("a refused challenge answered %q", reply.Content)
		}
	}
	if made != 1 {
		t.Fatalf("the burst made %d challenges, want 1", made)
	}
	// Bob cannot challenge back while it is open.
	if got := h.bob.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.alice)).Reply(t); !strings.Contains(got.Content, "already a challenge between you") {
		t.Errorf("bob challenging back: %q", got.Content)
	}
	// Four more opponents fill alice's allowance; the next is refused.
	for k := 1; k < DefaultOpenChallenges; k++ {
		opp := h.guild.AddMember(fmt.Sprintf("member%d", k))
		if got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", opp)).Reply(t); got.Ephemeral {
			t.Fatalf("challenge %d refused: %q", k+1, got.Content)
		}
	}
	extra := h.guild.AddMember("one too many")
	got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", extra)).Reply(t)
	if !got.Ephemeral || !strings.Contains(got.Content, fmt.Sprintf("You have %d challenges waiting for an answer", DefaultOpenChallenges)) {
		t.Errorf("the challenge over the limit answered %q", got.Content)
	}
	if open, err := h.db.PlayerChallenges(ctx, h.alice.ID); err != nil || len(open) != DefaultOpenChallenges {
		t.Errorf("alice has %d open challenges (%v), want %d", len(open), err, DefaultOpenChallenges)
	}
	// Others are not held back by alice's limit.
	if got := h.carol.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", extra)).Reply(t); got.Ephemeral {
		t.Errorf("carol's challenge refused: %q", got.Content)
	}
}

// TestPracticeLimit: a member plays at most DefaultPracticeMatches practice
// matches at once.
func TestPracticeLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for k := 0; k < DefaultPracticeMatches; k++ {
		if got := h.alice.SlashCommand(t, h.channel, "stratego practice").Reply(t); got.Ephemeral {
			t.Fatalf("practice %d refused: %q", k+1, got.Content)
		}
	}
	got := h.alice.SlashCommand(t, h.channel, "stratego practice").Reply(t)
	if !got.Ephemeral || !strings.Contains(got.Content, fmt.Sprintf("You are playing %d practice matches", DefaultPracticeMatches)) {
		t.Errorf("the practice match over the limit answered %q", got.Content)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego practice").Reply(t); got.Ephemeral {
		t.Errorf("bob's practice refused: %q", got.Content)
	}
}
