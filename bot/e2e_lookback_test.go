package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestLookBackOffersEndedMatches: the match option of the commands that
// look back at a match offers the member's ended matches, each with how it
// ended for them: /stratego record its finished ones alone (the only ones it
// gives), /stratego history and board their matches under way, then those
// that ended with a game to show, finished or called off in play, newest
// first. Before, all three offered the matches under way alone: /stratego
// record offered only matches it refused, and a finished match could be
// named only by its number, typed.
func TestLookBackOffersEndedMatches(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	rules := game.DefaultRules(game.VariantClassic)
	create := func() *storage.Match {
		m := &storage.Match{GuildID: h.guild.ID, ChannelID: h.channel.ID, Rules: rules, MoveTime: 24 * time.Hour, Phase: storage.PhaseSetup, Created: T0}
		m.Players[game.Red] = storage.Player{UserID: h.alice.ID, Name: "alice"}
		m.Players[game.Blue] = storage.Player{UserID: h.bob.ID, Name: "bob"}
		m, err := h.db.CreateMatch(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	start := func() *storage.Match {
		m := create()
		for side := range 2 {
			var err error
			if m, err = h.db.SetSetup(ctx, m.ID, 0, game.Side(side), game.RandomSetup(rules, uint64(side+1)), storage.SetupConfirmed, T0); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	h.fixtures(func() {
		if _, err := h.db.Act(ctx, start().ID, 0, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: T0}); err != nil { // #1: alice won
			t.Fatal(err)
		}
		if _, err := h.db.Abandon(ctx, start().ID, 0, T0, storage.CallOffModerator); err != nil { // #2: called off in play
			t.Fatal(err)
		}
		if _, err := h.db.Abandon(ctx, create().ID, 0, T0, storage.CallOffModerator); err != nil { // #3: called off in set-up, no game
			t.Fatal(err)
		}
		start() // #4: under way, alice to move
	})
	names := func(choices []*discordgo.ApplicationCommandOptionChoice) []string {
		var out []string
		for _, c := range choices {
			out = append(out, c.Name)
		}
		return out
	}
	for _, tc := range []struct {
		who     *discordtest.Member
		command string
		want    []string
	}{
		{h.alice, "stratego record", []string{"#1 vs bob (Classic) — you won"}},
		{h.bob, "stratego record", []string{"#1 vs alice (Classic) — you lost"}},
		{h.alice, "stratego history", []string{"#4 vs bob (Classic) — your move", "#2 vs bob (Classic) — called off", "#1 vs bob (Classic) — you won"}},
		{h.bob, "stratego board", []string{"#4 vs alice (Classic) — their move", "#2 vs alice (Classic) — called off", "#1 vs alice (Classic) — you lost"}},
	} {
		got := names(tc.who.Autocomplete(t, h.channel, tc.command, discordtest.Focused(optMatch, "")))
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s's %s offers %q, want %q", tc.who.Name, tc.command, got, tc.want)
		}
	}
	// Typed, as ever, the choices are those whose label holds it.
	if got := names(h.alice.Autocomplete(t, h.channel, "stratego history", discordtest.Focused(optMatch, "won"))); len(got) != 1 || !strings.HasPrefix(got[0], "#1 ") {
		t.Errorf("alice's history, typed \"won\": %q", got)
	}
	// The choice names the match it offers.
	record := h.alice.SlashCommand(t, h.channel, "stratego record", discordtest.Opt(optMatch, "#1 vs bob (Classic) — you won")).Reply(t)
	if len(record.Files) != 1 || !strings.Contains(record.Content, "Match #1") {
		t.Errorf("alice's record of the match offered: %q with %d files", record.Content, len(record.Files))
	}
}
