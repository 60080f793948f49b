package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestListsFit: a member with 40 matches against opponents whose names are
// markdown (twice as long once escaped), 50 saved set-ups of 100 characters
// of markdown, a server of 30 tournaments with names of 80 characters of
// markdown and a queue of 25 such seekers: /stratego games, settings,
// tournament list and seeks answer, in every language, with content
// Discord takes (the local Discord refuses more than 2,000 characters), of
// whole lines with their markup closed, and a last line that says how many
// were left out and how to see them; the lines shown and the number left
// out add up to the whole list.
func TestListsFit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	const matches, setups, tournaments, seeks = 40, storage.MaxSavedSetups, 30, 25
	opponent := func(k int) string { return fmt.Sprintf("%02d%s", k, strings.Repeat("_*", 15)) } // 32 characters
	setup := func(k int) string { return fmt.Sprintf("%02d%s", k, strings.Repeat("*_", 49)) }    // 100
	tourney := func(k int) string { return fmt.Sprintf("%02d%s", k, strings.Repeat("`*", 39)) }  // 80
	h.fixtures(func() {
		for k := range matches {
			m := &storage.Match{GuildID: h.guild.ID, ChannelID: h.channel.ID, Rules: game.DefaultRules(game.VariantClassic),
				MoveTime: 24 * time.Hour, Phase: storage.PhaseSetup, Created: T0}
			m.Players[game.Red] = storage.Player{UserID: h.alice.ID, Name: "alice"}
			m.Players[game.Blue] = storage.Player{UserID: strconv.Itoa(1000 + k), Name: opponent(k)}
			if _, err := h.db.CreateMatch(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		for k := range tournaments {
			tt := storagetest.NewTournament(h.guild.ID)
			tt.ChannelID, tt.Name, tt.StartAt, tt.JoinBy = h.channel.ID, tourney(k), T0.Add(30*24*time.Hour), T0.Add(30*24*time.Hour)
			if _, err := h.db.CreateTournament(ctx, tt, storage.TournamentLimits{}); err != nil {
				t.Fatal(err)
			}
		}
		for k := range seeks {
			// Each waits for a rating its seekers have not: none pairs.
			s := &storage.Seek{GuildID: h.guild.ID, ChannelID: h.channel.ID, Player: storage.Player{UserID: strconv.Itoa(2000 + k), Name: opponent(k)},
				TimeClass: "72h", Rules: game.DefaultRules(game.VariantBarrage), MoveTime: 72 * time.Hour, Rating: 1500, RatingMin: 1600, RatingMax: 1800,
				Created: T0, Expires: T0.Add(7 * 24 * time.Hour)}
			if out, err := h.db.PlaceSeek(ctx, s, game.Red); err != nil || out.Match != nil {
				t.Fatalf("seek %d: %v, %+v", k, err, out)
			}
		}
	})
	if _, err := h.db.UpdatePlayer(ctx, h.alice.ID, func(p *storage.PlayerSettings) error {
		for k := range setups {
			if err := p.SaveSetup(storage.SavedSetup{Name: setup(k), Variant: game.VariantClassic, Army: game.VariantClassic.Army(), Setup: placed(t, nil), Saved: T0}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	lists := []struct {
		command string
		total   int
		more    string // the key of the last line
		// line reports whether a line of the list is one of its items, whole.
		line func(p lang.Printer, line string) bool
	}{
		{"stratego games", matches, txtGamesMore, func(p lang.Printer, line string) bool {
			return strings.HasPrefix(line, "**#") && strings.Contains(line, mdEscape(opponent(0)[2:])) && strings.HasSuffix(line, "<#"+h.channel.ID+">")
		}},
		{"stratego settings", setups, txtSetupsMore, func(p lang.Printer, line string) bool {
			return strings.HasPrefix(line, "• ") && strings.Contains(line, mdEscape(setup(0)[2:])) && (strings.HasSuffix(line, render.VariantName(p, game.VariantClassic)) ||
				strings.HasSuffix(line, p.Sprintf("(first choice)")))
		}},
		{"stratego tournament list", tournaments, txtTournamentsMore, func(p lang.Printer, line string) bool {
			return strings.HasPrefix(line, "#") && strings.Contains(line, mdEscape(tourney(0)[2:])) && strings.HasSuffix(line, ":f>")
		}},
		{"stratego seeks", seeks, txtSeeksMore, func(p lang.Printer, line string) bool {
			return strings.HasPrefix(line, "- ") && strings.Contains(line, mdEscape(opponent(0)[2:])) && strings.Contains(line, ":R>")
		}},
	}
	for _, l := range lang.Languages() {
		h.alice.SetLocale(l.Code)
		p := lang.For(l.Code)
		for _, list := range lists {
			got := h.alice.SlashCommand(t, h.channel, list.command).Reply(t).Content
			lines := strings.Split(got, "\n")
			shown := 0
			for _, line := range lines[:len(lines)-1] {
				if list.line(p, line) {
					shown++
				}
			}
			if want := p.Sprintf(list.more, list.total-shown); lines[len(lines)-1] != want || shown == 0 {
				t.Errorf("%s, %s: %d of %d shown, then %q, want %q:\n%s", list.command, l.Code, shown, list.total, lines[len(lines)-1], want, got)
			}
			if why := openMarkup(got); why != "" {
				t.Errorf("%s, %s: %s:\n%s", list.command, l.Code, why, got)
			}
		}
	}
}

// openMarkup says what markup of content is left open: a code block, or,
// outside code blocks, a line's bold or inline code. Escaped characters
// mark nothing.
func openMarkup(content string) string {
	code := false
	for k, line := range strings.Split(content, "\n") {
		if strings.HasPrefix(line, "```") {
			code = !code
			continue
		}
		if code {
			continue
		}
		bold, ticks := 0, 0
		rs := []rune(line)
		for j := 0; j < len(rs); j++ {
			switch {
			case rs[j] == '\\':
				j++
			case rs[j] == '*' && j+1 < len(rs) && rs[j+1] == '*':
				bold++
				j++
			case rs[j] == '`':
				ticks++
			}
		}
		if bold%2 != 0 || ticks%2 != 0 {
			return fmt.Sprintf("line %d leaves bold or code open", k+1)
		}
	}
	if code {
		return "a code block left open"
	}
	return ""
}
