package bot

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// TestTournamentResultNotLost: a game of a tournament ends while the
// database is briefly away, so that its result is not recorded when it
// ends. The game's real result still counts: at the latest when the
// round's deadline comes, not as a game unfinished at the deadline.
func TestTournamentResultNotLost(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	m := h.bobMeetsCarol(discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "1h"))
	h.reads.failTournament.Store(1) // the result's record fails
	h.play(m, game.Blue)
	h.advance(24 * time.Hour)
	h.channelSays("**Cup** is over")
	_, s := h.stored()
	for _, g := range s.Rounds()[0].Games {
		if !g.IsBye() && g.Result != tournament.RedWon {
			t.Errorf("the game Blue resigned is scored %s, want Red's win", g.Result)
		}
	}
}

// TestTournamentWithdrawWhileStarting: a player withdraws, a moderator
// takes one out, or the creator cancels the tournament while the matches of
// a round robin played all at once are being started (Discord is slow to
// open the first match's thread). No game that is no longer to be played
// is started after that: nobody is invited to set up a game already
// forfeited, or one of a cancelled tournament.
func TestTournamentWithdrawWhileStarting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// act takes the leaver out (or cancels it all) and says what the
		// answer must say.
		act func(h *tourney, leaver *discordtest.Member)
		all bool // every match is off, not only the leaver's
	}{
		{"withdraw", func(h *tourney, leaver *discordtest.Member) {
			h.expect(h.run(leaver, "withdraw"), "You withdrew from **Busy**")
		}, false},
		{"remove", func(h *tourney, leaver *discordtest.Member) {
			h.expect(h.run(h.alice, "remove", discordtest.Opt("player", leaver)), "out of **Busy**")
		}, false},
		{"cancel", func(h *tourney, leaver *discordtest.Member) {
			h.expect(h.run(h.alice, "cancel"), "**Busy** is cancelled.")
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			h.playInThreads(t)
			h.roundRobin("Busy", h.alice, h.bob, h.carol)
			hold := h.srv.HoldNextIn(t, "POST /channels/{channel_id}/threads", h.channel, 1)
			started := make(chan struct{})
			go func() {
				defer close(started)
				h.advance(time.Hour)
			}()
			h.srv.WaitFor(t, "the first match's thread on its way", func() bool { return hold.Waiting() > 0 })
			first, _ := h.stored()
			if len(first.Games) != 1 {
				t.Fatalf("%d matches started before the first thread, want 1", len(first.Games))
			}
			leaver := h.members[h.match(first.Games[0].Match).Players[game.Red].UserID]
			tc.act(h, leaver)
			hold.Release()
			<-started
			h.drain()
			tt, _ := h.stored()
			for _, g := range tt.Games {
				m := h.match(g.Match)
				if _, plays := m.SideOf(leaver.ID); m.Phase.Active() && (plays || tc.all) {
					t.Errorf("match #%s (round %d) is on", m.ID, g.Round)
				}
			}
			invites := 0
			for _, dm := range leaver.DMs() {
				if strings.Contains(dm.Content, "Send me your secret set-up") {
					invites++
				}
			}
			if invites > 1 {
				t.Errorf("%s, out as the first match was started, was invited to set up %d games, want 1 at most", leaver.Name, invites)
			}
		})
	}
}

// TestTournamentChannelDeleted: the channel of a tournament under way is
// deleted. Its organiser is told once, by DM, that it is gone and what
// still works, not asked to grant permissions in a channel that no longer
// exists, and not again after the bot restarts; the games go on by DM and
// the tournament to its end, which each player is told by DM.
func TestTournamentChannelDeleted(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	general := h.channel
	league := h.guild.AddChannel("league")
	h.channel = league
	h.roundRobin("League", h.alice, h.bob, h.carol)
	h.advance(time.Hour)
	matches := h.allMatches(3)
	h.drain()
	h.channel.Delete()
	h.channel = general // the players' commands
	for k, m := range matches {
		h.play(m, game.Blue)
		if k == 0 {
			// The organiser was told; a restart does not tell them again.
			h.drain()
			h.shutdown()
			h.start()
		}
	}
	h.waitEnded()
	gone, access := 0, 0
	for _, dm := range h.alice.DMs() {
		switch {
		case strings.Contains(dm.Content, "The channel of **League** was deleted"):
			gone++
		case strings.Contains(dm.Content, "I could not post an announcement of **League**"):
			access++
		}
	}
	if gone != 1 || access != 0 {
		t.Errorf("the organiser was told %d times that the channel was deleted and %d times to grant access there; want once, and never", gone, access)
	}
	h.toldByDM("League", "**League** is over", 1)
	h.toldByDM("League", "**League**, round", 0) // the results: each game's players have it from their game
	h.toldPlaces("League")
	// The tournament remembers that its channel is gone: only the first
	// announcement after it tried it, across the restart.
	if n := h.refusedAnnouncements(league, "League"); n != 1 {
		t.Errorf("the deleted channel was sent %d announcements, want 1", n)
	}
}

// TestTournamentChannelDeletedSwiss: the channel of a Swiss event is
// deleted after round 1 was announced. Round 2's pairing, which it can no
// longer be told, reaches each player by DM, once: their own game, or
// their bye, which no invitation tells them; and the end, once, with the
// final standings and their place, though Discord fails the end's DM to
// the player with a bye (who is sent nothing else then), or the bot stops
// while it is on its way (Discord makes it after it stopped). Nothing else
// of the channel's comes by DM.
func TestTournamentChannelDeletedSwiss(t *testing.T) {
	t.Parallel()
	const create = "POST /channels/{channel_id}/messages"
	tests := []struct {
		name  string
		fault func(h *tourney, bye *discordtest.Member) *discordtest.Hold // a hold to release once the bot stopped, or nil
	}{
		{"discord fails", func(h *tourney, bye *discordtest.Member) *discordtest.Hold {
			h.srv.FailNextIn(h.t, create, bye.DM(), 2, 500)
			return nil
		}},
		{"bot stops", func(h *tourney, bye *discordtest.Member) *discordtest.Hold {
			return h.srv.HoldNextIn(h.t, create, bye.DM(), 1)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testChannelDeletedSwiss(t, tc.fault)
		})
	}
}

func testChannelDeletedSwiss(t *testing.T, fault func(h *tourney, bye *discordtest.Member) *discordtest.Hold) {
	// Requests time out after 2 s, so that the bot stopping gives up the
	// one held at once (a loaded machine meets that otherwise).
	h := tourneyOn(newHarnessOn(t, []discordtest.Option{discordtest.WithClientTimeout(2 * time.Second)}))
	general := h.channel
	h.channel = h.guild.AddChannel("swiss")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 2),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.advance(time.Hour)
	h.channelSays("**Cup** — round 1 of 2.")
	first := h.roundMatches(1)
	h.drain()
	h.channel.Delete()
	h.channel = general // the players' commands
	h.play(first[0], game.Red)
	h.drain()
	h.advance(time.Second)
	second := h.roundMatches(2)
	h.drain()
	h.toldByDM("Cup", "**Cup** — round 2 of 2.", 1)
	h.toldByDM("Cup", "**Cup** — round 1 of 2.", 0) // the channel said it
	_, s := h.stored()
	for _, g := range s.Rounds()[1].Games {
		for _, id := range []string{g.Red, g.Blue} {
			if id == "" {
				continue
			}
			m := h.members[id]
			want := "<@" + g.Red + "> (Red) – <@" + g.Blue + "> (Blue)"
			if g.IsBye() {
				want = "<@" + g.Red + "> has a bye."
			}
			if !slices.ContainsFunc(m.DMs(), func(dm *discordtest.Message) bool {
				return strings.Contains(dm.Content, "**Cup** — round 2 of 2.") && strings.Contains(dm.Content, want)
			}) {
				t.Errorf("%s was not told by DM of their round 2: %q", m.Name, want)
			}
		}
	}
	var bye *discordtest.Member
	for _, g := range s.Rounds()[1].Games {
		if g.IsBye() {
			bye = h.members[g.Red]
		}
	}
	hold := fault(h, bye)
	h.play(second[0], game.Blue)
	if hold != nil {
		h.advance(time.Second)
		h.srv.WaitFor(t, "the end held on its way", func() bool { return hold.Waiting() > 0 })
		h.shutdown()
		hold.Release()
		h.start()
	}
	h.waitEnded()
	h.toldByDM("Cup", "**Cup** is over", 1)
	h.toldPlaces("Cup")
}

// toldByDM checks that each player of tournament 1 (named name) was sent
// by DM want, n times, with the note that the channel is out of reach.
func (h *tourney) toldByDM(name, want string, n int) {
	h.t.Helper()
	_, s := h.stored()
	for _, p := range s.Players() {
		m := h.members[p.ID]
		told := 0
		for _, dm := range m.DMs() {
			if strings.Contains(dm.Content, want) {
				told++
				if !strings.Contains(dm.Content, "I cannot post in the tournament's channel") {
					h.t.Errorf("%s was told %q without why it comes by DM", m.Name, dm.Content)
				}
			}
		}
		if told != n {
			h.t.Errorf("%s was told %q %d times by DM, want %d", m.Name, want, told, n)
		}
	}
}

// toldPlaces checks that the final standings each player of tournament 1
// got by DM hold the table and their place.
func (h *tourney) toldPlaces(name string) {
	h.t.Helper()
	_, s := h.stored()
	all := s.Standings()
	for _, st := range all {
		m := h.members[st.Player]
		place := "Your place: " + strconv.Itoa(st.Rank) + " of " + strconv.Itoa(len(all)) + "."
		if !slices.ContainsFunc(m.DMs(), func(dm *discordtest.Message) bool {
			return strings.Contains(dm.Content, "**"+name+"** is over") && strings.Contains(dm.Content, "```") && strings.Contains(dm.Content, place)
		}) {
			h.t.Errorf("%s's final standings by DM do not say %q", m.Name, place)
		}
	}
}

// TestTournamentCallOffRacesAChange: a player withdraws, and another change
// of their match (a set-up confirmed, a reminder) lands just as the bot
// calls it off. The match is still called off: the withdrawn player is not
// left playing, and losing on time, a game already forfeited.
func TestTournamentCallOffRacesAChange(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.roundRobin("Race", h.alice, h.bob, h.carol)
	h.advance(time.Hour)
	matches := h.allMatches(3)
	h.drain()
	leaver := h.members[matches[0].Players[game.Red].UserID]
	other := func() {
		if _, err := h.db.UpdateMatch(context.Background(), matches[0].ID, 0, func(*storage.Match) error { return nil }); err != nil {
			t.Error(err)
		}
	}
	h.reads.beforeAbandon.Store(&other)
	h.expect(h.run(leaver, "withdraw"), "You withdrew from **Race**")
	h.drain()
	for _, m := range matches {
		if got := h.match(m.ID); got.Phase.Active() {
			if _, plays := got.SideOf(leaver.ID); plays {
				t.Errorf("match #%s of %s, who withdrew, is still on", got.ID, leaver.Name)
			}
		}
	}
}

// TestTournamentLostCallOffHealed: a tournament is cancelled, or a player
// withdraws, while the database is away for the matches' call-off (as
// when the process stops right after the change). The matches no longer
// to be played are called off at their next reminder, not left on.
func TestTournamentLostCallOffHealed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		act  func(h *tourney, leaver *discordtest.Member)
		all  bool // every match is off, not only the leaver's
		off  int  // the matches it calls off
	}{
		{"withdraw", func(h *tourney, leaver *discordtest.Member) {
			h.expect(h.run(leaver, "withdraw"), "You withdrew from **Lost**")
		}, false, 2},
		{"cancel", func(h *tourney, leaver *discordtest.Member) {
			h.expect(h.run(h.alice, "cancel"), "**Lost** is cancelled.")
		}, true, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			h.roundRobin("Lost", h.alice, h.bob, h.carol)
			h.advance(time.Hour)
			matches := h.allMatches(3)
			h.drain()
			leaver := h.members[matches[0].Players[game.Red].UserID]
			h.reads.failAbandon.Store(int64(tc.off)) // every call-off it makes
			tc.act(h, leaver)
			on := func() (n int) {
				for _, m := range matches {
					got := h.match(m.ID)
					if _, plays := got.SideOf(leaver.ID); got.Phase.Active() && (plays || tc.all) {
						n++
					}
				}
				return n
			}
			if on() == 0 {
				t.Fatal("the call-off did not fail")
			}
			h.advance(12*time.Hour + time.Minute) // the set-up's reminder, half its day
			h.drain()
			if n := on(); n != 0 {
				t.Errorf("%d matches no longer to be played are still on after their reminder", n)
			}
		})
	}
}

// TestTournamentResultNotLostPromptly: a game's result is not recorded when
// it ends (the database is away); the tournament does not wait for its
// round's deadline, a week later, to count it: the hourly check of the
// players finds it, and the event goes on.
func TestTournamentResultNotLostPromptly(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	m := h.bobMeetsCarol()
	h.reads.failTournament.Store(1) // the result's record fails
	h.play(m, game.Blue)
	h.advance(time.Hour + time.Minute)
	h.advance(time.Minute)
	if _, s := h.stored(); s.Status() != tournament.Finished {
		t.Fatalf("an hour after its one game ended the tournament is %s, want finished", s.Status())
	}
	h.channelSays("**Cup**, round 1: ")
	h.channelSays("**Cup** is over")
}

// TestTournamentWithdrawKeepsTheBoardsResult: in a round robin a game ends
// while the database is briefly away, so that its result is not yet
// recorded; then its winner withdraws, is removed by a moderator, or
// leaves the server (found by the hourly check). The withdrawal forfeits
// only their game still to play: the one won on the board stays the
// winner's win, not the loser's win by forfeit.
func TestTournamentWithdrawKeepsTheBoardsResult(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		out  func(h *tourney, winner *discordtest.Member)
	}{
		{"withdraws", func(h *tourney, w *discordtest.Member) { h.expect(h.run(w, "withdraw"), "You withdrew") }},
		{"removed", func(h *tourney, w *discordtest.Member) {
			h.expect(h.run(h.alice, "remove", discordtest.Opt("player", w)), "You took")
		}},
		{"leaves the server", func(h *tourney, w *discordtest.Member) {
			h.guild.RemoveMember(w)
			h.advance(memberCheckEvery + time.Minute)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t, "dave")
			var players []*discordtest.Member
			for _, m := range h.members {
				if m != h.alice {
					players = append(players, m)
				}
			}
			h.roundRobin("Open", players...)
			h.advance(time.Hour)
			m := h.allMatches(3)[0]
			winner := m.Players[game.Red].UserID
			h.reads.failTournament.Store(1) // the result's record fails
			h.play(m, game.Blue)
			h.srv.WaitFor(t, "the result's record to fail", func() bool { return h.reads.failTournament.Load() <= 0 })
			tc.out(h, h.members[winner])
			h.srv.WaitFor(t, "the winner withdrawn", func() bool {
				_, s := h.stored()
				p, _ := s.Player(winner)
				return p.Withdrawn
			})
			_, s := h.stored()
			for _, r := range s.Rounds() {
				for _, g := range r.Games {
					switch {
					case g.Red == m.Players[game.Red].UserID && g.Blue == m.Players[game.Blue].UserID:
						if g.Result != tournament.RedWon {
							t.Errorf("the game Blue resigned is scored %s, want Red's win", g.Result)
						}
					case g.Has(winner) && !g.IsBye():
						if g.Red == winner && g.Result != tournament.RedForfeited || g.Blue == winner && g.Result != tournament.BlueForfeited {
							t.Errorf("the winner's game still to play is scored %s, want their forfeit", g.Result)
						}
					}
				}
			}
		})
	}
}

// TestTournamentCancelKeepsTheBoardsResult: a game of a round robin ends
// while the database is briefly away, so that its result is not yet
// recorded; then the creator cancels the tournament. The standings "as
// they were" count the game as it ended.
func TestTournamentCancelKeepsTheBoardsResult(t *testing.T) {
	t.Parallel()
	h := newTourney(t, "dave")
	var players []*discordtest.Member
	for _, m := range h.members {
		if m != h.alice {
			players = append(players, m)
		}
	}
	h.roundRobin("Open", players...)
	h.advance(time.Hour)
	m := h.allMatches(3)[0]
	h.reads.failTournament.Store(1) // the result's record fails
	h.play(m, game.Blue)
	h.srv.WaitFor(t, "the result's record to fail", func() bool { return h.reads.failTournament.Load() <= 0 })
	h.expect(h.run(h.alice, "cancel"), "is cancelled")
	_, s := h.stored()
	for _, g := range s.Rounds()[0].Games {
		if g.Red == m.Players[game.Red].UserID && g.Blue == m.Players[game.Blue].UserID && g.Result != tournament.RedWon {
			t.Errorf("the game Blue resigned is scored %s, want Red's win", g.Result)
		}
	}
	for _, st := range s.Standings() {
		if st.Player == m.Players[game.Red].UserID && st.Won != 1 {
			t.Errorf("the winner's standing %+v, want one win", st)
		}
	}
}

// TestTournamentCancelWhenItsLastGameEnded: the last game of a tournament
// has ended, and the timers have not yet marked it over, when the creator
// cancels it: it is over, and the answer says so.
func TestTournamentCancelWhenItsLastGameEnded(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	m := h.bobMeetsCarol()
	bothSetUp(h, m)
	h.bot.timerPass.Lock() // the pass that would mark it over comes late
	resume := sync.OnceFunc(h.bot.timerPass.Unlock)
	t.Cleanup(resume)
	blue := h.members[m.Players[game.Blue].UserID]
	ask := blue.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", m.ID.String())).Reply(t)
	blue.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.srv.WaitFor(t, "the result recorded", func() bool { _, s := h.stored(); return s.Status() == tournament.Finished })
	h.expect(h.run(h.alice, "cancel"), "**Cup** is over.")
	resume()
	h.advance(time.Second)
	h.channelSays("**Cup** is over")
}

// TestTournamentJoinOver: joining a cancelled tournament (before it began,
// or under way) says it is over, not that it has begun; one under way says
// joining is closed.
func TestTournamentJoinOver(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		started bool // cancelled after its start
		cancel  bool
		want    string
	}{
		{"cancelled before its start", false, true, "**Late** is over."},
		{"cancelled under way", true, true, "**Late** is over."},
		{"under way", true, false, "**Late** has already begun: joining is closed."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t, "dave")
			var dave *discordtest.Member
			for _, m := range h.members {
				if m.Name == "dave" {
					dave = m
				}
			}
			h.roundRobin("Late", h.bob, h.carol)
			if tc.started {
				h.advance(time.Hour)
				h.allMatches(1)
			}
			if tc.cancel {
				h.expect(h.run(h.alice, "cancel"), "**Late** is cancelled.")
			}
			h.expect(h.run(dave, "join"), tc.want)
		})
	}
}

// TestTournamentNamedWhileDatabaseAway: a member names a tournament while
// the database fails to read it. They are told something went wrong on the
// bot's side (the answer explain gives, and logs), not that the server has
// no such tournament, from the one read that failed.
func TestTournamentNamedWhileDatabaseAway(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.roundRobin("Race", h.alice, h.bob)
	h.reads.failNoticeTournament.Store(1)
	got := h.run(h.bob, "standings", discordtest.Opt("tournament", 1))
	if strings.Contains(got.Content, "no tournament #1") || !strings.Contains(got.Content, "Something went wrong on my side") {
		t.Errorf("with the database away bob is told %q", got.Content)
	}
	if h.reads.failedTournament.Load() != 1 {
		t.Errorf("%d reads of the tournament failed; want the one", h.reads.failedTournament.Load())
	}
}
