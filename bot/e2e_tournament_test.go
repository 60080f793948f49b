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
	"github.com/strategobot/strategobot/tournament"
)

// tourney is a tournament test: a harness with more members, by user id.
type tourney struct {
	*harness
	members map[string]*discordtest.Member
}

func newTourney(t *testing.T, extra ...string) *tourney {
	h := newHarness(t)
	tt := &tourney{harness: h, members: map[string]*discordtest.Member{}}
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
		tt.members[m.ID] = m
	}
	for _, name := range extra {
		m := h.guild.AddMember(name)
		tt.members[m.ID] = m
	}
	mods := h.guild.AddRole("mods", discordgo.PermissionManageGuild)
	h.guild.GiveRole(h.alice, mods)
	return tt
}

// run sends a /stratego tournament subcommand and returns the answer.
func (h *tourney) run(m *discordtest.Member, sub string, args ...discordtest.Arg) *discordtest.Message {
	h.t.Helper()
	return m.SlashCommand(h.t, h.channel, "stratego tournament "+sub, args...).Reply(h.t)
}

func (h *tourney) expect(msg *discordtest.Message, want string) {
	h.t.Helper()
	if !strings.Contains(msg.Content, want) {
		h.t.Fatalf("answer %q, want it to say %q", msg.Content, want)
	}
}

// stored reads tournament 1.
func (h *tourney) stored() (*storage.Tournament, *tournament.Tournament) {
	h.t.Helper()
	t, err := h.db.Tournament(context.Background(), 1)
	if err != nil {
		h.t.Fatal(err)
	}
	s, err := t.State()
	if err != nil {
		h.t.Fatal(err)
	}
	return t, s
}

// roundMatches waits for the matches of the latest round to be started and
// returns them.
func (h *tourney) roundMatches(round int) []*storage.Match {
	h.t.Helper()
	var out []*storage.Match
	h.srv.WaitFor(h.t, "the round's matches", func() bool {
		t, s := h.stored()
		if len(s.Rounds()) < round {
			return false
		}
		out = nil
		want := 0
		for _, g := range s.Rounds()[round-1].Games {
			if !g.IsBye() && !g.Result.Done() {
				want++
			}
		}
		for _, g := range t.Games {
			if g.Round == round {
				out = append(out, h.match(g.Match))
			}
		}
		return len(out) >= want
	})
	return out
}

// play has both players of m send random set-ups from their invitations,
// and then loser resign.
func (h *tourney) play(m *storage.Match, loser game.Side) {
	t := h.t
	t.Helper()
	title := "**Match #" + m.ID.String() + "**"
	for side := game.Red; side <= game.Blue; side++ {
		p := h.members[m.Players[side].UserID]
		invite := p.WaitDM(t, func(msg *discordtest.Message) bool {
			return strings.Contains(msg.Content, title) && hasButton(msg, "Random")
		})
		preview := p.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
		p.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	}
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })
	l := h.members[m.Players[loser].UserID]
	ask := l.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", m.ID.String())).Reply(t)
	l.ClickButton(t, ask, button(t, ask, "Resign")).Reply(t)
	h.srv.WaitFor(t, "the match to end", func() bool { return h.match(m.ID).Phase == storage.PhaseFinished })
}

// TestTournamentRoundRobin: a moderator creates a round robin; four members
// join; at the start every round is paired and its matches started; each
// resignation is recorded and the standings posted; a round starts when
// the last game of the previous one ends; at the end the final standings
// are posted. The games are rated.
func TestTournamentRoundRobin(t *testing.T) {
	h := newTourney(t, "dave")
	h.expect(h.run(h.bob, "create", discordtest.Opt("name", "Club"), discordtest.Opt("format", "round-robin")), "Only members with the Manage Server")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Club"), discordtest.Opt("format", "round-robin"), discordtest.Opt("rounds", 3)), "leave out the `rounds` option")
	h.expect(h.run(h.bob, "join"), "no tournament under way")
	created := h.run(h.alice, "create", discordtest.Opt("name", "Winter league"), discordtest.Opt("format", "round-robin"),
		discordtest.Opt("starts_in_hours", 2))
	h.expect(created, "Tournament #1: Winter league")
	if created.Ephemeral {
		t.Fatalf("the tournament's announcement is private")
	}
	for _, m := range h.members {
		h.expect(h.run(m, "join"), "You joined **Winter league**")
	}
	h.expect(h.run(h.bob, "join"), "already in")
	h.expect(h.run(h.bob, "standings"), "4 players")

	h.advance(2 * time.Hour)
	h.channelSays("round 1 of 3")
	for round := 1; round <= 3; round++ {
		matches := h.roundMatches(round)
		if len(matches) != 2 {
			t.Fatalf("round %d started %d matches, want 2", round, len(matches))
		}
		for _, m := range matches {
			h.play(m, game.Blue) // Red wins every game
		}
		h.advance(time.Second)
	}
	h.channelSays("**Winter league** is over. Final standings:")
	tt, s := h.stored()
	if !tt.Done || s.Status() != tournament.Finished {
		t.Fatalf("after three rounds: done %v, status %s", tt.Done, s.Status())
	}
	total := tournament.Points(0)
	for _, st := range s.Standings() {
		total += st.Points
		if st.Played != 3 {
			t.Errorf("%s played %d games, want 3", st.Player, st.Played)
		}
	}
	if total != 12 {
		t.Errorf("points in all %s, want 6: six games won", total)
	}
	// Rated like any game: every player has three rated games.
	for id := range h.members {
		st, err := h.db.Standing(context.Background(), h.guild.ID, game.VariantClassic, id)
		if err != nil || st.Wins+st.Losses+st.Draws != 3 {
			t.Errorf("%s's standing %+v, %v; want three rated games", id, st, err)
		}
	}
	// The standings answer any time, with a picture and its alt text.
	answer := h.run(h.carol, "standings")
	h.expect(answer, "W-D-L")
	if imgs, err := answer.Images(); err != nil || len(imgs) != 1 {
		t.Errorf("standings pictures: %d, %v", len(imgs), err)
	}
	h.expect(h.run(h.carol, "join", discordtest.Opt("tournament", 1)), "already begun")
}
