package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestCalledOffInSetupLooksOver: a match called off in its set-up, named
// in /stratego history, board or record, is said to be called off, and
// why, with no word of a set-up to confirm: the history and the board told
// the player "The match has not started yet: both players must confirm a
// set-up first (`/stratego setup`)" of a match no set-up could start any
// more. The record of a match called off, in its set-up or in play, says
// it has none, rather than that it is ready once the match is over, which
// it already is.
func TestCalledOffInSetupLooksOver(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	h.fixtures(func() {
		m := &storage.Match{GuildID: h.guild.ID, ChannelID: h.channel.ID, Rules: game.DefaultRules(game.VariantClassic), MoveTime: 24 * time.Hour, Phase: storage.PhaseSetup, Created: T0}
		m.Players[game.Red] = storage.Player{UserID: h.alice.ID, Name: "alice"}
		m.Players[game.Blue] = storage.Player{UserID: h.bob.ID, Name: "bob"}
		m, err := h.db.CreateMatch(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.db.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
			x.ModeratorNote = "carol: test"
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.db.Abandon(ctx, m.ID, 0, T0, storage.CallOffModerator); err != nil {
			t.Fatal(err)
		}
	})
	const title = "**Match #1** · alice (Red) vs bob (Blue)\n"
	const why = "The match is called off: a moderator decided so (carol: test). No result is recorded."
	for _, tc := range []struct {
		command string
		want    string
	}{
		{"stratego history", title + "No move was made.\n" + why},
		{"stratego board", title + why},
		{"stratego record", title + why + "\n" + txtRecordCalledOff},
	} {
		got := h.alice.SlashCommand(t, h.channel, tc.command, discordtest.Opt(optMatch, "1")).Reply(t)
		if got.Content != tc.want || len(got.Files) != 0 {
			t.Errorf("%s of the match called off in its set-up:\n%q with %d files, want\n%q", tc.command, got.Content, len(got.Files), tc.want)
		}
		if strings.Contains(got.Content, "not started") {
			t.Errorf("%s tells alice the match has not started: %q", tc.command, got.Content)
		}
	}
}
