package bot

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestTournamentGamesNamed: a tournament game's set-up invitation, its
// first board (each player's and the channel's) and `/stratego games` name
// the tournament and the round ("Cup, round 2 of 2"), or, in a round robin
// whose rounds are all played at once, the game among all ("League, game 3
// of 6"): a player with several games knows which is which by DM, without
// the channel. They say nothing of results.
func TestTournamentGamesNamed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		create []discordtest.Arg
		rounds int // rounds to play, one after another; 0: all at once
		label  func(round, k, games int) string
	}{
		{"swiss", []discordtest.Arg{discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 2)}, 2,
			func(round, _, _ int) string { return "Cup, round " + strconv.Itoa(round) + " of 2" }},
		{"round robin at once", []discordtest.Arg{discordtest.Opt("name", "League"), discordtest.Opt("format", "round-robin")}, 0,
			func(_, k, games int) string {
				return "League, game " + strconv.Itoa(k+1) + " of " + strconv.Itoa(games)
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t, "dave")
			h.expect(h.run(h.alice, "create", append(tc.create, discordtest.Opt("starts_in_hours", 1))...), "Tournament #1")
			for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol, h.members[h.dave().ID]} {
				h.expect(h.run(m, "join"), "You joined")
			}
			h.advance(time.Hour)
			if tc.rounds == 0 {
				matches := h.allMatches(6)
				for k, m := range matches {
					h.named(m, tc.label(0, k, len(matches)))
				}
				return
			}
			for round := 1; round <= tc.rounds; round++ {
				matches := h.roundMatches(round)
				for k, m := range matches {
					h.named(m, tc.label(round, k, len(matches)))
				}
				for _, m := range matches {
					// Set up by named: Blue resigns.
					l := h.members[m.Players[game.Blue].UserID]
					ask := l.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", m.ID.String())).Reply(t)
					l.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
					h.srv.WaitFor(t, "the match to end", func() bool { return h.match(m.ID).Phase == storage.PhaseFinished })
				}
				h.advance(time.Second)
			}
		})
	}
}

// dave is the fourth member newTourney added.
func (h *tourney) dave() *discordtest.Member {
	for _, m := range h.members {
		if m.Name == "dave" {
			return m
		}
	}
	h.t.Fatal("no dave")
	return nil
}

// named checks that m's set-up invitations, its first boards and each
// player's `/stratego games` carry label, under the match's title, and
// nothing of a result. It leaves m begun.
func (h *tourney) named(m *storage.Match, label string) {
	t := h.t
	t.Helper()
	title := "**Match #" + m.ID.String() + "**"
	for side := game.Red; side <= game.Blue; side++ {
		p := h.members[m.Players[side].UserID]
		invite := p.WaitDM(t, func(msg *discordtest.Message) bool {
			return strings.HasPrefix(msg.Content, title) && hasButton(msg, "Random")
		})
		if first, rest, _ := strings.Cut(invite.Content, "\n"); !strings.HasPrefix(first, title) || !strings.HasPrefix(rest, label+"\n") {
			t.Errorf("%s's invitation to match %d does not say %q under its first line:\n%s", p.Name, m.ID, label, invite.Content)
		}
		games := p.SlashCommand(t, h.channel, "stratego games").Reply(t).Content
		if !strings.Contains(games, "**#"+m.ID.String()+"** vs") || !strings.Contains(games, " · "+label+" · ") {
			t.Errorf("%s's games do not name match %d %q:\n%s", p.Name, m.ID, label, games)
		}
	}
	h.setUp(m, game.Red, game.Blue)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })
	h.bot.deliverDue(t.Context())
	boards := []*discordtest.Message{}
	for side := game.Red; side <= game.Blue; side++ {
		p := h.members[m.Players[side].UserID]
		boards = append(boards, p.WaitDM(t, func(msg *discordtest.Message) bool {
			return strings.HasPrefix(msg.Content, title) && len(msg.Files) > 0
		}))
	}
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if strings.HasPrefix(msg.Content, title) && len(msg.Files) > 0 {
			boards = append(boards, msg)
		}
	}
	if len(boards) != 3 {
		t.Fatalf("match %d's first boards: %d, want each player's and the channel's", m.ID, len(boards))
	}
	for _, b := range boards {
		if _, rest, _ := strings.Cut(b.Content, "\n"); !strings.HasPrefix(rest, label+"\n") {
			t.Errorf("a first board of match %d does not say %q under its title:\n%s", m.ID, label, b.Content)
		}
		for _, result := range []string{"won", "draw", "forfeit", "standings"} {
			if strings.Contains(strings.ToLower(b.Content), result) {
				t.Errorf("a first board of match %d says %q:\n%s", m.ID, result, b.Content)
			}
		}
	}
}
