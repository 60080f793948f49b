package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
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

// TestLimitsHeldAcrossProcesses: what another process on the same database
// (a member's commands in two servers reach two shards) stores between
// this process's check of a member's limits and its write counts all the
// same: the store refuses the write, and the member reads the words of
// the check. Each process checked, then wrote: two challenges between the
// same members were stored, and challenges and practice matches over the
// limits.
func TestLimitsHeldAcrossProcesses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	// meanwhile stores, as another process, a challenge of challenger to
	// opponent just before the bot's next write of a challenge.
	meanwhile := func(challenger, opponent *discordtest.Member) {
		f := func() {
			now := h.clock.Now()
			c := &storage.Challenge{GuildID: h.guild.ID, ChannelID: h.channel.ID,
				Challenger: storage.Player{UserID: challenger.ID, Name: challenger.Name},
				Opponent:   storage.Player{UserID: opponent.ID, Name: opponent.Name},
				Rules:      game.DefaultRules(game.VariantClassic), MoveTime: 24 * time.Hour, Created: now, Expires: now.Add(time.Hour)}
			if _, err := h.db.CreateChallenge(ctx, c, storage.MemberLimits{}); err != nil {
				t.Error(err)
			}
		}
		h.reads.beforeCreateChallenge.Store(&f)
	}
	challenges := func(who *discordtest.Member, want int) {
		t.Helper()
		if open, err := h.db.PlayerChallenges(ctx, who.ID); err != nil || len(open) != want {
			t.Errorf("%s has %d challenges (%v), want %d", who.Name, len(open), err, want)
		}
	}

	// Bob challenges alice elsewhere as alice challenges him here.
	meanwhile(h.bob, h.alice)
	got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob)).Reply(t)
	if want := "There is already a challenge between you and <@" + h.bob.ID + "> (#1): answer or cancel it first."; !got.Ephemeral || got.Content != want {
		t.Errorf("alice's challenge crossing bob's: %q, want %q", got.Content, want)
	}
	challenges(h.alice, 1)

	// Alice's allowance fills elsewhere as she makes her last challenge here.
	var opps []*discordtest.Member
	for k := range DefaultOpenChallenges + 1 {
		opps = append(opps, h.guild.AddMember(fmt.Sprintf("member%d", k)))
	}
	for _, opp := range opps[:DefaultOpenChallenges-1] {
		if got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", opp)).Reply(t); got.Ephemeral {
			t.Fatalf("a challenge within the limit refused: %q", got.Content)
		}
	}
	meanwhile(h.alice, opps[DefaultOpenChallenges-1])
	got = h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", opps[DefaultOpenChallenges])).Reply(t)
	if !got.Ephemeral || !strings.Contains(got.Content, fmt.Sprintf("You have %d challenges waiting for an answer, the most one member may have. Withdraw one with its **Cancel** button", DefaultOpenChallenges)) {
		t.Errorf("the challenge over the limit: %q", got.Content)
	}
	challenges(h.alice, DefaultOpenChallenges+1) // bob's too

	// Carol's practice matches fill elsewhere as she starts one here.
	for k := range DefaultPracticeMatches - 1 {
		if got := h.carol.SlashCommand(t, h.channel, "stratego practice").Reply(t); got.Ephemeral {
			t.Fatalf("practice %d refused: %q", k+1, got.Content)
		}
	}
	f := func() {
		m := &storage.Match{GuildID: h.guild.ID, ChannelID: h.channel.ID, Rules: game.DefaultRules(game.VariantClassic),
			MoveTime: 24 * time.Hour, Casual: true, Computer: "normal", Phase: storage.PhaseSetup, Created: h.clock.Now()}
		m.Players[game.Red] = storage.Player{UserID: h.carol.ID, Name: h.carol.Name}
		m.Players[game.Blue] = storage.Player{UserID: h.bot.botUserID(), Name: "the computer"}
		if _, err := h.db.CreateMatch(ctx, m); err != nil {
			t.Error(err)
		}
	}
	h.reads.beforeCreatePractice.Store(&f)
	got = h.carol.SlashCommand(t, h.channel, "stratego practice").Reply(t)
	if !got.Ephemeral || !strings.Contains(got.Content, fmt.Sprintf("You are playing %d practice matches against the computer, the most at once.", DefaultPracticeMatches)) {
		t.Errorf("the practice match over the limit: %q", got.Content)
	}
	if ms, err := h.db.PlayerMatches(ctx, h.carol.ID, true, 0); err != nil || len(ms) != DefaultPracticeMatches {
		t.Errorf("carol plays %d matches (%v), want %d", len(ms), err, DefaultPracticeMatches)
	}
}
