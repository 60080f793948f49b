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

// Discord's limits on what one answer holds: 2,000 characters of content,
// 25 options of a select menu, 25 autocomplete choices. The local Discord
// refuses anything beyond them, as Discord does.

// TestLongHistoryComesAsAFile: a history too long for one message comes as
// a file, with every move in it.
func TestLongHistoryComesAsAFile(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("two_squares", 0), discordtest.Opt("more_squares", false))
	h.sendSetups(placed(t, nil), placed(t, nil))
	ctx := context.Background()
	shuffle := []string{"A4-A5", "J7-J6", "A5-A4", "J6-J7"}
	const plies = 240
	for k := range plies {
		mv, err := game.ParseMove(shuffle[k%len(shuffle)], game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := h.db.ApplyMove(ctx, 1, 0, game.Side(k%2), mv, T0.Add(time.Duration(k)*time.Minute)); err != nil {
			t.Fatalf("move %d: %v", k+1, err)
		}
	}
	history := h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t)
	if len(history.Files) != 1 || !strings.Contains(history.Content, fmt.Sprintf("%d moves", plies)) {
		t.Fatalf("history: %q with %d files", history.Content, len(history.Files))
	}
	lines := strings.Split(string(history.Files[0].Data), "\n")
	if len(lines) != plies+1 || lines[plies] != fmt.Sprintf("%d. Blue J6-J7", plies) {
		t.Fatalf("the file has %d lines, the last %q", len(lines), lines[len(lines)-1])
	}
}

// TestManyMatchesAndSavedSetups: 25 matches with long names, and 30 saved
// set-ups with long names, still fit in one answer each; the menu of saved
// set-ups and the autocomplete offer 25 of them.
func TestManyMatchesAndSavedSetups(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	long := strings.Repeat("Patient Strategist ", 5)
	h.fixtures(func() {
		for k := range 25 {
			m := &storage.Match{GuildID: h.guild.ID, ChannelID: h.channel.ID, Rules: game.DefaultRules(game.VariantClassic),
				MoveTime: 24 * time.Hour, Phase: storage.PhaseSetup, Created: T0}
			m.Players[game.Red] = storage.Player{UserID: h.alice.ID, Name: "alice"}
			m.Players[game.Blue] = storage.Player{UserID: fmt.Sprint(1000 + k), Name: fmt.Sprintf("%s%d", long, k)}
			if _, err := h.db.CreateMatch(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
	})
	games := h.alice.SlashCommand(t, h.channel, "stratego games").Reply(t)
	if !strings.HasPrefix(games.Content, "**#25** vs "+long+"24") {
		t.Fatalf("games: %q", games.Content)
	}

	_, err := h.db.UpdatePlayer(ctx, h.bob.ID, func(p *storage.PlayerSettings) error {
		for k := range 30 {
			err := p.SaveSetup(storage.SavedSetup{Name: fmt.Sprintf("%s%02d", long, k), Variant: game.VariantClassic,
				Army: game.VariantClassic.Army(), Setup: placed(t, nil), Saved: T0})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	settings := h.bob.SlashCommand(t, h.channel, "stratego settings").Reply(t)
	if !strings.Contains(settings.Content, "**Your settings**") || !strings.Contains(settings.Content, long+"00") {
		t.Fatalf("settings: %q", settings.Content)
	}
	choices := h.bob.Autocomplete(t, h.channel, "stratego settings", discordtest.Focused("delete_setup", ""))
	if len(choices) != 25 {
		t.Fatalf("%d saved set-ups offered to delete, want 25", len(choices))
	}
	h.challenge("Classic")
	invite := h.bob.WaitDM(t, contains("Send me your secret set-up"))
	if menus := invite.SelectMenus(); len(menus) != 1 || len(menus[0].Options) != 25 {
		t.Fatalf("the saved set-ups menu: %+v", menus)
	}
}
