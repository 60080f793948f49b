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

// TestUnreadableMatchHoldsUpNoRematch: bob's rematch with alice is on when
// another match of his cannot be read. Rematch, pressed again under the
// finale, still points at it rather than challenging alice to a third
// match. Before, his matches could not be listed, and it challenged her.
func TestUnreadableMatchHoldsUpNoRematch(t *testing.T) {
	t.Parallel()
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag})
	h, _, _ := playClassic(t, red)
	var finale *discordtest.Message
	for _, m := range h.srv.ChannelMessages(h.channel) {
		if hasButton(m, "Rematch") {
			finale = m
		}
	}
	if finale == nil {
		t.Fatal("no Rematch button under the finale")
	}
	offer := h.bob.ClickButton(t, finale, button(t, finale, "Rematch")).Reply(t)
	if got := h.alice.ClickButton(t, offer, button(t, offer, "Accept")).Reply(t); !strings.Contains(got.Content, "Match #2") {
		t.Fatalf("accepting the rematch: %q", got.Content)
	}
	bad := h.addSetupMatch(h.bob, h.carol) // #3
	h.spoil("matches", uint64(bad))
	if got := h.bob.ClickButton(t, finale, button(t, finale, "Rematch")).Reply(t); !got.Ephemeral || !strings.Contains(got.Content, "Your rematch is under way already: match #2.") {
		t.Errorf("bob pressed Rematch again during the rematch, #3 unreadable: %q", got.Content)
	}
	if cs, err := h.db.PlayerChallenges(t.Context(), h.bob.ID); err != nil || len(cs) != 0 {
		t.Errorf("bob's challenges: %d (%v), want none", len(cs), err)
	}
}

// TestUnreadableMatchHoldsUpNoSave: alice saves the set-up of her latest
// match she confirmed one in when a later match of hers cannot be read;
// the answer names the match it came from. Before, her matches could not
// be listed, and the save failed.
func TestUnreadableMatchHoldsUpNoSave(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic() // #1: alice against bob
	h.waitMoves(1, 0)
	bad := h.addSetupMatch(h.alice, h.carol) // #2
	h.spoil("matches", uint64(bad))
	got := h.alice.SlashCommand(t, h.channel, "stratego settings", discordtest.Opt(optSave, "Mine")).Reply(t)
	if !strings.Contains(got.Content, `Saved your set-up of match #1 as "Mine".`) {
		t.Fatalf("saving a set-up, #2 unreadable: %q", got.Content)
	}
	p, err := h.db.Player(t.Context(), h.alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := p.SavedSetup("Mine"); !ok || s.Setup != h.match(1).Setups[game.Red].Setup {
		t.Errorf("the saved set-up %+v (%v), want #1's", s, ok)
	}
}

// TestUnreadableMatchCountsForPractice: a match of alice's that cannot be
// read may be a practice match: beside two practice matches, it fills her
// allowance of three. Before, her matches could not be listed, and the
// limit was not checked at all: a fourth beside three was started.
func TestUnreadableMatchCountsForPractice(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for k := 1; k < DefaultPracticeMatches; k++ {
		if got := h.alice.SlashCommand(t, h.channel, "stratego practice").Reply(t); got.Ephemeral {
			t.Fatalf("practice %d refused: %q", k, got.Content)
		}
	}
	bad := h.addSetupMatch(h.alice, h.carol)
	h.spoil("matches", uint64(bad))
	got := h.alice.SlashCommand(t, h.channel, "stratego practice").Reply(t)
	if !got.Ephemeral || !strings.Contains(got.Content, fmt.Sprintf("You are playing %d practice matches", DefaultPracticeMatches)) {
		t.Errorf("a practice match beside %d and an unreadable match: %q", DefaultPracticeMatches-1, got.Content)
	}
}

// TestUnreadableMatchHoldsUpNoMove: another match of alice's cannot be
// read, and it may be the one she means: a move that names no match, by
// the slash command or by DM, is refused with how to name one, and is
// played once it names match #1 (the option, a reply to its board). Before,
// every command and DM that named no match was answered "Something went
// wrong on my side. Please try again in a moment.", which trying again
// never mended.
func TestUnreadableMatchHoldsUpNoMove(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic() // #1: alice against bob
	h.waitMoves(1, 0)
	bad := h.addSetupMatch(h.alice, h.carol) // #2
	h.spoil("matches", uint64(bad))
	move := func(args ...discordtest.Arg) string {
		args = append(args, discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5"))
		return h.alice.SlashCommand(t, h.channel, "stratego move", args...).Reply(t).Content
	}
	if got := move(); !strings.Contains(got, "One of your matches cannot be read right now") || !strings.Contains(got, "`match` option") {
		t.Errorf("alice's move naming no match, #2 unreadable: %q", got)
	}
	if got := move(discordtest.Opt(optMatch, "1")); !strings.Contains(got, "You moved") {
		t.Fatalf("alice's move in #1, #2 unreadable: %q", got)
	}
	h.waitMoves(1, 1)
	h.bob.SendDM(t, "J7-J6")
	board := h.alice.WaitDM(t, contains("bob moved J7-J6"))
	h.waitMoves(1, 2)

	before := len(h.alice.DMs())
	h.alice.SendDM(t, "A5-A6")
	var answer string
	h.srv.WaitFor(t, "the bot's answer to alice's DM", func() bool {
		for _, m := range h.alice.DMs()[before:] {
			if m.FromBot() {
				answer = m.Content
			}
		}
		return answer != ""
	})
	if !strings.Contains(answer, "One of your matches cannot be read right now") || !strings.Contains(answer, "reply to the message") {
		t.Errorf("alice's DM move naming no match, #2 unreadable: %q", answer)
	}
	h.alice.Reply(t, board, "A5-A6")
	if m := h.waitStored(1, 3); m.Moves() != 3 {
		t.Errorf("match #1 has %d moves after alice's reply to its board, want 3", m.Moves())
	}
}
