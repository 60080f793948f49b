package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// unreadableRecord is what a newer strategobot sharing the database
// writes, as this one sees it: a record it cannot read.
const unreadableRecord = `{"v":99}`

// addSetupMatch stores a match between red and blue in h.channel, in
// set-up, and returns its id.
func (h *harness) addSetupMatch(red, blue *discordtest.Member) storage.MatchID {
	h.t.Helper()
	var id storage.MatchID
	h.fixtures(func() {
		m := &storage.Match{GuildID: h.guild.ID, ChannelID: h.channel.ID, Rules: game.DefaultRules(game.VariantClassic),
			MoveTime: 24 * time.Hour, Phase: storage.PhaseSetup, Created: h.clock.Now()}
		m.Players[game.Red] = storage.Player{UserID: red.ID, Name: red.Name}
		m.Players[game.Blue] = storage.Player{UserID: blue.ID, Name: blue.Name}
		m, err := h.db.CreateMatch(context.Background(), m)
		if err != nil {
			h.t.Fatal(err)
		}
		id = m.ID
	})
	return id
}

// spoil makes the record of bucket's id one this bot cannot read, over a
// restart: bbolt's file is the bot's own while it runs.
func (h *harness) spoil(bucket string, id uint64) {
	h.t.Helper()
	h.shutdown()
	h.putRecord(bucket, id, unreadableRecord)
	h.start()
}

// hasChoice reports whether choices offer match id.
func hasChoice(choices []*discordgo.ApplicationCommandOptionChoice, id storage.MatchID) bool {
	for _, c := range choices {
		if fmt.Sprint(c.Value) == id.String() {
			return true
		}
	}
	return false
}

// TestUnreadableChallengeHidesNoOther: of alice's two challenges in the
// channel, one cannot be read (damaged, or written by a newer
// strategobot). Her challenge to carol still stands in the way of another
// between them; the one that cannot be read counts against her allowance,
// as it may be one she made; and when the bot is removed from the server,
// her challenge to carol is withdrawn. The bad one is logged by its id.
// Before, the list of the channel's (and the member's) challenges failed
// as a whole: the removal withdrew none there, and the limits were not
// checked at all.
func TestUnreadableChallengeHidesNoOther(t *testing.T) {
	t.Parallel()
	var logs logLines
	h := newHarness(t, logs.capture)
	for _, opp := range []*discordtest.Member{h.carol, h.bob} { // #1, #2
		if got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", opp)).Reply(t); got.Ephemeral {
			t.Fatalf("alice's challenge to %s refused: %q", opp.Name, got.Content)
		}
	}
	h.spoil("challenges", 2)
	if got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.carol)).Reply(t); !got.Ephemeral ||
		!strings.Contains(got.Content, "There is already a challenge between you and <@"+h.carol.ID+"> (#1)") {
		t.Errorf("alice challenging carol again, #2 unreadable: %q", got.Content)
	}
	for k := 2; k < DefaultOpenChallenges; k++ { // #1 and #2 count: the allowance is full
		opp := h.guild.AddMember(fmt.Sprintf("member%d", k))
		if got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", opp)).Reply(t); got.Ephemeral {
			t.Fatalf("challenge %d refused: %q", k+1, got.Content)
		}
	}
	extra := h.guild.AddMember("one too many")
	if got := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", extra)).Reply(t); !got.Ephemeral ||
		!strings.Contains(got.Content, fmt.Sprintf("You have %d challenges waiting for an answer", DefaultOpenChallenges)) {
		t.Errorf("the challenge over the limit, one unreadable: %q", got.Content)
	}
	if !strings.Contains(logs.String(), "challenges that cannot be read are passed over") || !strings.Contains(logs.String(), "challenges=[2]") {
		t.Errorf("the unreadable challenge is not logged by its id:\n%s", logs.String())
	}

	h.guild.KickBot()
	h.srv.WaitFor(t, "alice's challenge to carol withdrawn", func() bool {
		_, err := h.db.Challenge(context.Background(), 1)
		return errors.Is(err, storage.ErrNotFound)
	})
}

// TestUnreadableMatchOffersTheOthers: of alice's two matches in the
// channel, one cannot be read. /stratego watch still offers the other to
// carol, and the match option of alice's commands offers it to her.
// Before, the channel's list and hers failed as a whole, and nothing was
// offered.
func TestUnreadableMatchOffersTheOthers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic() // #1: alice against bob
	h.waitMoves(1, 0)
	bad := h.addSetupMatch(h.alice, h.carol) // #2
	h.spoil("matches", uint64(bad))
	if choices := h.carol.Autocomplete(t, h.channel, "stratego watch", discordtest.Focused(optMatch, "")); !hasChoice(choices, 1) {
		t.Errorf("carol watching, #2 unreadable, is offered %+v; want #1", choices)
	}
	if choices := h.alice.Autocomplete(t, h.channel, "stratego board", discordtest.Focused(optMatch, "")); !hasChoice(choices, 1) {
		t.Errorf("alice's board, #2 unreadable, is offered %+v; want #1", choices)
	}
}
