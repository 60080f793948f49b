package bot

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/tournament"
)

// tourney is a tournament test: a harness with more members, by user id.
type tourney struct {
	*harness
	members map[string]*discordtest.Member
}

func newTourney(t *testing.T, extra ...string) *tourney {
	return tourneyOn(newHarness(t), extra...)
}

// tourneyOn makes a tournament test of h, with more members.
func tourneyOn(h *harness, extra ...string) *tourney {
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

// bobMeetsCarol has alice create tournament #1, a Swiss "Cup" of one
// round that starts in an hour, with the terms in args; bob and carol
// join, the hour passes, and it returns their match.
func (h *tourney) bobMeetsCarol(args ...discordtest.Arg) *storage.Match {
	h.t.Helper()
	h.bobAndCarolJoin(args...)
	h.advance(time.Hour)
	return h.roundMatches(1)[0]
}

// bobAndCarolJoin has alice create tournament #1, a Swiss "Cup" of one
// round that starts in an hour, with the terms in args, and bob and carol
// join it.
func (h *tourney) bobAndCarolJoin(args ...discordtest.Arg) {
	h.t.Helper()
	args = append([]discordtest.Arg{discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 1),
		discordtest.Opt("starts_in_hours", 1)}, args...)
	h.expect(h.run(h.alice, "create", args...), "Tournament #1")
	h.expect(h.run(h.bob, "join"), "You joined")
	h.expect(h.run(h.carol, "join"), "You joined")
}

// roundRobin has alice create tournament #1, a round robin named name that
// starts in an hour, and players join it.
func (h *tourney) roundRobin(name string, players ...*discordtest.Member) {
	h.t.Helper()
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", name), discordtest.Opt("format", "round-robin"),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	for _, m := range players {
		h.expect(h.run(m, "join"), "You joined")
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

// allMatches waits for n matches of the tournament to be started and
// returns them, in round and board order.
func (h *tourney) allMatches(n int) []*storage.Match {
	h.t.Helper()
	var out []*storage.Match
	h.srv.WaitFor(h.t, "every match started", func() bool {
		t, _ := h.stored()
		if len(t.Games) < n || t.Starting {
			return false
		}
		games := slices.Clone(t.Games)
		slices.SortFunc(games, func(a, b storage.TournamentGame) int { return cmp.Or(a.Round-b.Round, a.Board-b.Board) })
		out = nil
		for _, g := range games {
			out = append(out, h.match(g.Match))
		}
		return true
	})
	return out
}

// setUp has the players of m on the given sides send random set-ups from
// their invitations.
func (h *tourney) setUp(m *storage.Match, sides ...game.Side) {
	t := h.t
	t.Helper()
	title := "**Match #" + m.ID.String() + "**"
	for _, side := range sides {
		p := h.members[m.Players[side].UserID]
		invite := p.WaitDM(t, func(msg *discordtest.Message) bool {
			return strings.Contains(msg.Content, title) && hasButton(msg, "Random")
		})
		preview := p.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
		p.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	}
}

// play has both players of m send random set-ups from their invitations,
// and then loser resign.
func (h *tourney) play(m *storage.Match, loser game.Side) {
	t := h.t
	t.Helper()
	h.setUp(m, game.Red, game.Blue)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })
	l := h.members[m.Players[loser].UserID]
	ask := l.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", m.ID.String())).Reply(t)
	l.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.srv.WaitFor(t, "the match to end", func() bool { return h.match(m.ID).Phase == storage.PhaseFinished })
}

// TestTournamentRoundRobin: a moderator creates a round robin; four members
// join; at the start every round is paired and all six matches started at
// once, the announcement listing every pairing with the one deadline; the
// games end in an order other than the rounds', each resignation recorded
// and posted with the standings; when the last ends the final standings
// are posted. The games are rated.
func TestTournamentRoundRobin(t *testing.T) {
	h := newTourney(t, "dave")
	h.expect(h.run(h.bob, "create", discordtest.Opt("name", "Club"), discordtest.Opt("format", "round-robin")), "Only members with the Manage Server")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Club"), discordtest.Opt("format", "round-robin"), discordtest.Opt("rounds", 3)), "leave out the `rounds` option")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Club"), discordtest.Opt("format", "round-robin"), discordtest.Opt("max_players", 21)),
		"A round robin takes at most 20 players, since each plays all their games at once.")
	h.expect(h.run(h.bob, "join"), "no tournament under way")
	created := h.run(h.alice, "create", discordtest.Opt("name", "Winter league"), discordtest.Opt("format", "round-robin"),
		discordtest.Opt("starts_in_hours", 2))
	h.expect(created, "Tournament #1: Winter league")
	if created.Ephemeral {
		t.Fatalf("the tournament's announcement is private")
	}
	for _, m := range h.members {
		h.expect(h.run(m, "join"), "Every game starts")
	}
	h.expect(h.run(h.bob, "join"), "You are already in **Winter league**. Every game starts")
	h.expect(h.run(h.bob, "standings"), "players: 4")

	h.advance(2 * time.Hour)
	deadline := h.clock.Now().Add(3 * 7 * 24 * time.Hour) // three rounds of the default seven days
	h.channelSays("**Winter league** — all 3 rounds start now, every game at once. Deadline for every game <t:" + strconv.FormatInt(deadline.Unix(), 10) + ":f>.")
	for _, r := range []string{"**Round 1**", "**Round 2**", "**Round 3**"} {
		h.channelSays(r)
	}
	matches := h.allMatches(6)
	if len(matches) != 6 {
		t.Fatalf("the start started %d matches, want all 6", len(matches))
	}
	if tt, _ := h.stored(); !tt.RoundDeadline.Equal(deadline) {
		t.Fatalf("the deadline %v, want %v", tt.RoundDeadline, deadline)
	}
	// Every player has a set-up invitation for each of their three games.
	for _, m := range h.members {
		n := 0
		for _, dm := range m.DMs() {
			if strings.Contains(dm.Content, "Send me your secret set-up") {
				n++
			}
		}
		if n != 3 {
			t.Errorf("%s has %d set-up invitations, want 3", m.Name, n)
		}
	}
	for k, i := range []int{5, 2, 3, 0, 4, 1} { // round 3 first, round 1 last
		h.play(matches[i], game.Blue) // Red wins every game
		round := (i / 2) + 1
		h.srv.WaitFor(t, "the result with the standings", func() bool {
			n := 0
			for _, msg := range h.srv.ChannelMessages(h.channel) {
				if strings.HasPrefix(msg.Content, "**Winter league**, round ") && strings.Contains(msg.Content, "```") {
					n++
				}
			}
			return n == k+1
		})
		h.channelSays("**Winter league**, round " + strconv.Itoa(round) + ": ")
		if _, s := h.stored(); k < 5 && s.Status() != tournament.Running {
			t.Fatalf("after %d games: %s", k+1, s.Status())
		}
	}
	h.advance(time.Second)
	h.channelSays("**Winter league** is over")
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

// TestTournamentSwiss: a Swiss event of nine over three rounds. Round 1 has
// a bye; one of its games only Red sets up, a forfeit of Blue's at the
// round's deadline; another is set up but never played and is scored at the
// round's deadline as the rules say (both lose, unrated). In round 2 a player
// withdraws while their game is on: it is forfeited and called off. Before
// round 3 a player leaves the server and is withdrawn; the bot restarts in
// the middle of round 3, which ends after the restart, and so does the
// tournament.
func TestTournamentSwiss(t *testing.T) {
	h := newTourney(t, "dave", "erin", "frank", "grace", "heidi", "ivan")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Swiss cup"), discordtest.Opt("format", "swiss")), "needs a number of rounds")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Swiss cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 3),
		discordtest.Opt("starts_in_hours", 1), discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "24h")), "Tournament #1: Swiss cup")
	for _, m := range h.members {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.advance(time.Hour)
	h.channelSays("has a bye.")

	// Round 1: two games played, one set up by Red alone (a forfeit of
	// Blue's), one set up and left.
	matches := h.roundMatches(1)
	if len(matches) != 4 {
		t.Fatalf("round 1 of nine players: %d matches, want 4 and a bye", len(matches))
	}
	for _, m := range matches[:2] {
		h.play(m, game.Blue)
	}
	absent := matches[2]
	h.setUp(absent, game.Red)
	idle := matches[3]
	h.advance(time.Minute) // its first move's deadline then falls after the round's
	h.setUp(idle, game.Red, game.Blue)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(idle.ID).Phase == storage.PhasePlaying })
	h.advance(24*time.Hour - time.Minute)
	h.channelSays("the deadline of round 1 passed")
	if m := h.match(idle.ID); m.Phase != storage.PhaseAbandoned || m.CalledOff != storage.CallOffTournament {
		t.Fatalf("the unfinished game is %s (%s) after the round's deadline, want called off by the tournament", m.Phase, m.CalledOff)
	}
	h.members[idle.Players[game.Red].UserID].WaitDM(t, contains("The match is called off (Swiss cup: the round's deadline passed). It is not rated; `/stratego tournament standings` shows how the tournament counts it."))
	_, s := h.stored()
	if r := s.Rounds()[0]; r.Games[3].Result != tournament.Adjudicated {
		t.Fatalf("the unfinished game scored %s, want adjudicated", r.Games[3].Result)
	}
	if r := s.Rounds()[0]; r.Games[2].Result != tournament.BlueForfeited {
		t.Fatalf("the game only Red set up scored %s, want Blue's forfeit", r.Games[2].Result)
	}
	for _, side := range []game.Side{game.Red, game.Blue} {
		st, _ := h.db.Standing(context.Background(), h.guild.ID, game.VariantClassic, idle.Players[side].UserID)
		if st.Wins+st.Losses+st.Draws != 0 {
			t.Errorf("the adjudicated game was rated: %+v", st)
		}
	}

	// Round 2: a withdrawal during the round.
	matches = h.roundMatches(2)
	if len(matches) != 4 {
		t.Fatalf("round 2: %d matches, want 4", len(matches))
	}
	quitter := h.members[matches[0].Players[game.Red].UserID]
	h.expect(h.run(quitter, "leave"), "`/stratego tournament withdraw` takes you out")
	h.expect(h.run(quitter, "withdraw"), "You withdrew")
	h.channelSays(quitter.Name + " withdrew; their games still to play are forfeited.")
	if m := h.match(matches[0].ID); m.Phase != storage.PhaseAbandoned {
		t.Fatalf("the withdrawn player's game is %s, want called off", m.Phase)
	}
	last := matches[len(matches)-1]
	for _, m := range matches[1 : len(matches)-1] {
		h.play(m, game.Red)
	}

	// Before round 3 a member leaves the server: one whose round 2 is
	// over, before the last game ends, so that the round is paired after.
	_, s = h.stored()
	var leaver *discordtest.Member
	for _, m := range h.members {
		if p, _ := s.Player(m.ID); !p.Withdrawn && m != h.alice && m.ID != last.Players[game.Red].UserID && m.ID != last.Players[game.Blue].UserID {
			leaver = m
			break
		}
	}
	h.guild.RemoveMember(leaver)
	h.play(last, game.Red)
	_, s = h.stored()
	if r := s.Rounds()[1]; r.Games[0].Result != tournament.RedForfeited {
		t.Fatalf("the withdrawn player's game scored %s, want a forfeit", r.Games[0].Result)
	}
	h.advance(time.Second)
	h.channelSays(leaver.Name + " left the server and is withdrawn")
	matches = h.roundMatches(3)
	if len(matches) != 3 {
		t.Fatalf("round 3 of seven players: %d matches, want 3 and a bye", len(matches))
	}
	h.play(matches[0], game.Blue)
	h.shutdown()
	h.start()
	for _, m := range matches[1:] {
		h.play(m, game.Blue)
	}
	h.advance(time.Second)
	h.channelSays("**Swiss cup** is over")
	tt, s := h.stored()
	if !tt.Done || s.Status() != tournament.Finished {
		t.Fatalf("after three rounds: done %v, status %s", tt.Done, s.Status())
	}
	for _, st := range s.Standings() {
		if st.Player == quitter.ID && !st.Withdrawn {
			t.Errorf("the player who withdrew is not marked so")
		}
	}
}

// TestTournamentTooFewPlayers: a tournament that fewer than two members
// joined by its start is cancelled, and the channel is told; one that a
// creator cancels says so too. Limits stop a member creating more.
func TestTournamentTooFewPlayers(t *testing.T) {
	h := newTourney(t)
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Lonely"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 2),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	h.expect(h.run(h.bob, "join"), "You joined")
	h.advance(time.Hour)
	h.channelSays("**Lonely** is cancelled: fewer than two players joined by its start.")
	if tt, _ := h.stored(); !tt.Done {
		t.Fatalf("the tournament without players is not done")
	}
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "One"), discordtest.Opt("format", "round-robin")), "Tournament #2")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Two"), discordtest.Opt("format", "round-robin")), "Tournament #3")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Three"), discordtest.Opt("format", "round-robin")), "You already run 2 tournaments")
	h.expect(h.run(h.bob, "cancel", discordtest.Opt("tournament", 2)), "Only the member who created")
	h.expect(h.run(h.alice, "cancel", discordtest.Opt("tournament", 2)), "is cancelled")
	h.channelSays("**One** is cancelled by <@" + h.alice.ID + ">.")
	h.expect(h.run(h.bob, "join"), "You joined **Two**")
	h.expect(h.run(h.bob, "leave"), "You left **Two**")
	h.expect(h.run(h.bob, "leave"), "You are not in **Two**")
	h.expect(h.run(h.bob, "list"), "#3 **Two**")
}

// TestTournamentNotBeforeItsStart: a tournament woken before its start,
// as a timer written by an older rule could, pairs nobody until then.
func TestTournamentNotBeforeItsStart(t *testing.T) {
	h := newTourney(t)
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Patient"), discordtest.Opt("format", "round-robin"),
		discordtest.Opt("starts_in_hours", 2)), "Tournament #1")
	h.expect(h.run(h.bob, "join"), "You joined")
	h.expect(h.run(h.carol, "join"), "You joined")
	tt, _ := h.stored()
	h.bot.advanceTournament(context.Background(), tt)
	if _, s := h.stored(); len(s.Rounds()) != 0 {
		t.Fatalf("woken two hours before its start, the tournament paired %d rounds", len(s.Rounds()))
	}
	h.advance(2 * time.Hour)
	h.roundMatches(1)
}

// TestTournamentCrashWhileStarting: a process paired every round of a
// round robin, made the match of board 1 and stopped before it linked it
// or started the others. Before the restart nothing else happens, a player
// of that match withdraws (another process records it), or the organiser
// cancels the tournament. After the restart the next pass links that match
// and starts the others, once each, and the round goes on; or, when its
// board is no longer to be played, calls the stray off at once and tells
// its players once: nobody is left with a second game for one board, nor
// a game of a tournament that is over.
func TestTournamentCrashWhileStarting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// meanwhile changes the stored tournament before the restart; red
		// is Red's player of the match made before the crash.
		meanwhile func(x *storage.Tournament, red string)
		// alike adds, before the crash, a challenge's match of the same
		// pair on the same terms in the channel: neither adopted nor
		// called off.
		alike   bool
		adopted bool // the stray plays its board
		on      int  // tournament matches on after the restart
		why     string
		// away is how long the bot stays down after the crash: the
		// deadline moves on by it, and the stray is still known as made
		// since the pairing.
		away time.Duration
	}{
		{"restart", nil, false, true, 6, "", 0},
		{"restart, a challenge alike", nil, true, true, 6, "", 0},
		{"restart after five hours away", nil, false, true, 6, "", 5 * time.Hour},
		{"withdrawn", withdrawRed, false, false, 3, "Crash cup: this game was already scored", 0},
		{"withdrawn, a challenge alike", withdrawRed, true, false, 3, "Crash cup: this game was already scored", 0},
		{"cancelled", func(x *storage.Tournament, _ string) {
			x.Log = append(x.Log, tournament.Cancel())
			x.Done = true
			x.RoundDeadline = time.Time{}
		}, false, false, 0, "Crash cup was cancelled", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t, "dave")
			h.roundRobin("Crash cup")
			for _, m := range h.members {
				h.expect(h.run(m, "join"), "You joined")
			}
			h.shutdown()
			h.clock.Advance(time.Hour) // its start, when the process stops
			crashed := h.clock.Now()
			orphan, alike := h.crashWhileStarting(tc.meanwhile, tc.alike)
			h.clock.Advance(tc.away)
			h.start()
			if after, s := h.stored(); !after.RoundDeadline.IsZero() {
				if moved := after.RoundDeadline.Sub(allAtOnceDeadline(crashed, after.RoundTime, len(s.Rounds()))); moved != tc.away {
					t.Errorf("the deadline moved %v while the bot was down %v", moved, tc.away)
				}
			}
			h.advance(time.Second)
			h.srv.WaitFor(t, "the round's matches started", func() bool {
				tt, _ := h.stored()
				return !tt.Starting
			})
			h.drain()
			tt, _ := h.stored()
			all, err := h.db.ChannelMatches(context.Background(), h.channel.ID, true, 0)
			if err != nil {
				t.Fatal(err)
			}
			on := map[[2]string]int{} // active matches by their players, in colour order
			for _, m := range all {
				if m.Phase.Active() && (alike == nil || m.ID != alike.ID) {
					on[[2]string{m.Players[game.Red].UserID, m.Players[game.Blue].UserID}]++
				}
			}
			n := 0
			for pair, k := range on {
				if k > 1 {
					t.Errorf("%v play %d matches of one board", pair, k)
				}
				n += k
			}
			if n != tc.on {
				t.Errorf("after the restart %d matches on, want %d", n, tc.on)
			}
			if alike != nil {
				if slices.ContainsFunc(tt.Games, func(g storage.TournamentGame) bool { return g.Match == alike.ID }) || !h.match(alike.ID).Phase.Active() {
					t.Errorf("the challenge's match #%s of the same pair was taken for the tournament's (phase %s)", alike.ID, h.match(alike.ID).Phase)
				}
			}
			linked := slices.ContainsFunc(tt.Games, func(g storage.TournamentGame) bool { return g.Match == orphan.ID })
			if linked != tc.adopted || h.match(orphan.ID).Phase.Active() != tc.adopted {
				t.Fatalf("the match made before the crash: linked %v, on %v; want %v", linked, h.match(orphan.ID).Phase.Active(), tc.adopted)
			}
			if tc.adopted {
				if tt.Games[0].Match != orphan.ID {
					t.Fatalf("board 1 plays match %d, want the one made before the crash, %d", tt.Games[0].Match, orphan.ID)
				}
				matches := h.allMatches(6)
				for _, m := range matches[:2] {
					h.play(m, game.Red)
				}
				return
			}
			// Each of its players is told once that it is off, and why.
			title := "**Match #" + orphan.ID.String() + "**"
			for side := range 2 {
				p := h.members[orphan.Players[side].UserID]
				told := 0
				for _, dm := range p.DMs() {
					if strings.Contains(dm.Content, title) && strings.Contains(dm.Content, "The match is called off ("+tc.why) {
						told++
					}
				}
				if told != 1 {
					t.Errorf("%s was told %d times that match #%s is off, want once", p.Name, told, orphan.ID)
				}
			}
		})
	}
}

// withdrawRed has red withdraw from x.
func withdrawRed(x *storage.Tournament, red string) {
	x.Log = append(x.Log, tournament.Withdraw(red, tournament.WithdrewByChoice))
}

// crashWhileStarting writes what a process that stopped while starting
// tournament 1 left behind: every round paired, Starting, and the match of
// round 1's board 1 made but not linked; with alike, first a challenge's
// match between the same players on the same terms in the channel.
// meanwhile, when not nil, changes the tournament after that, before the
// restart. It returns the match, and the challenge's (nil without alike).
func (h *tourney) crashWhileStarting(meanwhile func(x *storage.Tournament, red string), alike bool) (orphan, challenge *storage.Match) {
	t := h.t
	t.Helper()
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: h.dbPath, NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Alive(ctx, h.clock.Now()); err != nil { // it ran the timers until then
		t.Fatal(err)
	}
	tt, err := db.UpdateTournament(ctx, 1, 0, func(x *storage.Tournament) error {
		s, err := x.State()
		if err != nil {
			return err
		}
		e, err := s.PairAll()
		if err != nil {
			return err
		}
		x.Log = append(x.Log, e...)
		x.RoundDeadline = allAtOnceDeadline(h.clock.Now(), x.RoundTime, len(e))
		x.Starting = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := tt.State()
	if err != nil {
		t.Fatal(err)
	}
	g := s.Rounds()[0].Games[0]
	made := func(id storage.TournamentID) *storage.Match {
		m := &storage.Match{GuildID: tt.GuildID, ChannelID: tt.ChannelID, Rules: tt.Game, MoveTime: tt.MoveTime,
			Phase: storage.PhaseSetup, Created: h.clock.Now(), Tournament: id}
		m.Players[game.Red] = storage.Player{UserID: g.Red, Name: tt.Names[g.Red]}
		m.Players[game.Blue] = storage.Player{UserID: g.Blue, Name: tt.Names[g.Blue]}
		m, err := db.CreateMatch(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if alike {
		challenge = made(0)
	}
	orphan = made(tt.ID)
	if meanwhile != nil {
		if _, err := db.UpdateTournament(ctx, 1, 0, func(x *storage.Tournament) error {
			meanwhile(x, g.Red)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	return orphan, challenge
}

// TestTournamentSwissRoundsCapped: a Swiss event cannot have more rounds
// than a round robin of its players. At create, a player limit too small
// for the rounds is refused; at the start, two players for three rounds
// play one, as round 1's announcement and the list say, and the event
// then ends as finished, not as cut short.
func TestTournamentSwissRoundsCapped(t *testing.T) {
	h := newTourney(t)
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Tiny"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 5),
		discordtest.Opt("max_players", 4)), "With at most 4 players no round after round 3 can be paired")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Duo"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 3),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	h.expect(h.run(h.alice, "join"), "You joined")
	h.expect(h.run(h.bob, "join"), "You joined")
	h.advance(time.Hour)
	h.channelSays("**Duo** — round 1 of 1.")
	h.channelSays("Players: 2. No round after round 1 can be paired without two players meeting twice: **Duo** ends there, not after round 3.")
	h.expect(h.run(h.bob, "list"), "#1 **Duo** — Swiss, rounds: 1; round 1 of 1")
	matches := h.roundMatches(1)
	if len(matches) != 1 {
		t.Fatalf("round 1 of two players: %d matches", len(matches))
	}
	h.play(matches[0], game.Blue)
	h.advance(time.Second)
	h.channelSays("**Duo** is over")
	for _, m := range h.srv.ChannelMessages(h.channel) {
		if strings.Contains(m.Content, "No further round can be paired") {
			t.Fatalf("a finished event said it was cut short: %q", m.Content)
		}
	}
	if tt, s := h.stored(); !tt.Done || len(s.Rounds()) != 1 || s.Status() != tournament.Finished {
		t.Fatalf("done %v after %d rounds, %s", tt.Done, len(s.Rounds()), s.Status())
	}
	h.expect(h.run(h.bob, "standings"), "over")
}

// TestTournamentPairedOnce: two passes that read the tournament before
// either paired it (two processes, one of whose lease lapsed) pair one
// round, start its matches once, and end nothing.
func TestTournamentPairedOnce(t *testing.T) {
	h := newTourney(t, "dave")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Race cup"), discordtest.Opt("format", "round-robin")), "Tournament #1")
	for _, m := range h.members {
		h.expect(h.run(m, "join"), "You joined")
	}
	read, _ := h.stored()
	h.clock.Advance(read.StartAt.Sub(h.bot.now())) // its start: both passes pair
	done := make(chan struct{})
	for range 2 {
		go func() {
			h.bot.advanceTournament(context.Background(), read)
			done <- struct{}{}
		}()
	}
	<-done
	<-done
	// The timer loop may be mending the same round (it was due at once
	// while Starting): a pass of our own waits for its pass to end.
	h.bot.handleDue(context.Background())
	tt, s := h.stored()
	if tt.Done || len(s.Rounds()) != 3 || len(tt.Games) != 6 || tt.Starting {
		t.Fatalf("after two passes: done %v, %d rounds, %d matches, starting %v; want every round, of six matches", tt.Done, len(s.Rounds()), len(tt.Games), tt.Starting)
	}
	if all, _ := h.db.ChannelMatches(context.Background(), h.channel.ID, true, 0); len(all) != 6 {
		t.Fatalf("%d matches started, want 6", len(all))
	}
}

// TestTournamentThreads: on a server that plays each match in a thread, a
// tournament's matches get threads of the tournament's channel, where their
// public boards go; the tournament's announcements stay in the channel.
func TestTournamentThreads(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.playInThreads(t)
	h.roundRobin("Threads cup", h.bob, h.carol)
	h.advance(time.Hour)
	h.channelSays("rounds start now")
	matches := h.roundMatches(1)
	if len(matches) != 1 {
		t.Fatalf("round 1 started %d matches, want 1", len(matches))
	}
	h.srv.WaitFor(t, "the match's thread", func() bool { return h.match(matches[0].ID).ThreadID != "" })
	m := h.match(matches[0].ID)
	threads := h.channel.Threads()
	if len(threads) != 1 || threads[0].ID != m.ThreadID {
		t.Fatalf("the channel's threads %v, want the match's %s", threads, m.ThreadID)
	}
	h.play(m, game.Blue)
	h.srv.WaitFor(t, "the result in the thread", func() bool {
		for _, msg := range h.srv.ChannelMessages(threads[0]) {
			if strings.Contains(msg.Content, "resigned") {
				return true
			}
		}
		return false
	})
	h.channelSays("**Threads cup**")
}

// TestTournamentOrganiserRole: a moderator names an organiser role, whose
// members may then create tournaments; the starter role, which is for
// starting matches, neither grants it nor stops an organiser without it.
// Taking the organiser role back leaves it to the moderators again.
func TestTournamentOrganiserRole(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	players := h.guild.AddRole("players", 0)
	organisers := h.guild.AddRole("organisers", 0)
	h.guild.GiveRole(h.carol, players)
	h.guild.GiveRole(h.bob, organisers)
	server := func(args ...discordtest.Arg) string {
		t.Helper()
		return h.alice.SlashCommand(t, h.channel, "stratego server", args...).Reply(t).Content
	}
	create := func(m *discordtest.Member, name string) string {
		t.Helper()
		return h.run(m, "create", discordtest.Opt("name", name), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 3)).Content
	}
	if got := server(discordtest.Opt(optStarterRole, players.ID)); !strings.Contains(got, "who may create tournaments: moderators") {
		t.Errorf("the settings after a starter role: %q", got)
	}
	if got := create(h.carol, "Carol's cup"); !strings.Contains(got, "Only members with the Manage Server permission, or the organiser role") {
		t.Errorf("a member with the starter role alone created a tournament: %q", got)
	}
	if got := server(discordtest.Opt(optOrganiserRole, organisers.ID)); !strings.Contains(got, "members with <@&"+organisers.ID+"> may create tournaments") ||
		!strings.Contains(got, "who may create tournaments: members with <@&"+organisers.ID+"> (and moderators)") {
		t.Errorf("naming the organiser role answered %q", got)
	}
	if got := create(h.bob, "Bob's cup"); !strings.Contains(got, "Tournament #1: Bob's cup") {
		t.Errorf("an organiser without the starter role could not create a tournament: %q", got)
	}
	if got := server(discordtest.Opt(optOrganiserRole, organisers.ID), discordtest.Opt(optModsOrganise, true)); !strings.Contains(got, "Choose either `organiser_role` or `moderators_organise`") {
		t.Errorf("both options at once answered %q", got)
	}
	if got := server(discordtest.Opt(optModsOrganise, true)); !strings.Contains(got, "only moderators create tournaments") {
		t.Errorf("taking the organiser role back answered %q", got)
	}
	if got := create(h.bob, "Bob's second cup"); !strings.Contains(got, "Only members with the Manage Server permission") {
		t.Errorf("an organiser created a tournament after the role was taken back: %q", got)
	}
}
