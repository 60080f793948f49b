package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// memberRoute is the request with which the bot asks whether a user is
// still a member of a server.
const memberRoute = "GET /guilds/{guild_id}/members/{user_id}"

// leaverTourney starts a tournament of alice, bob, carol and dave in
// format, with moveTime, and returns it, dave, and the matches it started.
func leaverTourney(t *testing.T, format, moveTime string) (*tourney, *discordtest.Member, []*storage.Match) {
	h := newTourney(t, "dave")
	var dave *discordtest.Member
	for _, m := range h.members {
		if m.Name == "dave" {
			dave = m
		}
	}
	args := []discordtest.Arg{discordtest.Opt("name", "League"), discordtest.Opt("format", format),
		discordtest.Opt("starts_in_hours", 1), discordtest.Opt("move_time", moveTime)}
	if format == "swiss" {
		args = append(args, discordtest.Opt("rounds", 3))
	}
	h.expect(h.run(h.alice, "create", args...), "Tournament #1: League")
	for _, m := range h.members {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.advance(time.Hour)
	if format == "swiss" {
		return h, dave, h.roundMatches(1)
	}
	return h, dave, h.allMatches(6)
}

// lookups counts the bot's questions to Discord about user's membership.
func (h *tourney) lookups(user string) int {
	n := 0
	for _, r := range h.srv.Requests(memberRoute) {
		if strings.HasSuffix(r.Path, "/members/"+user) {
			n++
		}
	}
	return n
}

// leftSaid counts the channel's announcements that leaver left the server.
func (h *tourney) leftSaid(leaver *discordtest.Member) int {
	return h.channelCount("**League**: " + leaver.Name + " left the server and is withdrawn from the tournament.")
}

// stillIn checks that leaver is still in the tournament and every match
// on, and that the channel was told nothing of them.
func (h *tourney) stillIn(leaver *discordtest.Member, matches []*storage.Match) {
	h.t.Helper()
	if _, s := h.stored(); s.Status() != tournament.Running {
		h.t.Fatalf("the tournament is %s", s.Status())
	} else if p, _ := s.Player(leaver.ID); p.Withdrawn {
		h.t.Fatalf("%s is withdrawn", leaver.Name)
	}
	for _, m := range matches {
		if got := h.match(m.ID); !got.Phase.Active() {
			h.t.Fatalf("match #%d is %s, want on", m.ID, got.Phase)
		}
	}
	if n := h.leftSaid(leaver); n != 0 {
		h.t.Fatalf("the channel was told %d times that %s left", n, leaver.Name)
	}
}

// withdrawnOnce checks that leaver is withdrawn once, their games still on
// forfeited and called off, the others' games on, and the channel told
// once.
func (h *tourney) withdrawnOnce(leaver *discordtest.Member, matches []*storage.Match) {
	h.t.Helper()
	h.channelSays("**League**: " + leaver.Name + " left the server and is withdrawn from the tournament.")
	tt, s := h.stored()
	withdrawals := 0
	for _, e := range tt.Log {
		if e.Kind == tournament.Withdrew && e.Player == leaver.ID {
			withdrawals++
			if e.Reason != tournament.LeftServer {
				h.t.Errorf("withdrawn as %s, want left the server", e.Reason)
			}
		}
	}
	if withdrawals != 1 {
		h.t.Fatalf("%d withdrawals of %s in the log, want 1", withdrawals, leaver.Name)
	}
	for _, m := range matches {
		if _, plays := m.SideOf(leaver.ID); !plays {
			if got := h.match(m.ID); !got.Phase.Active() {
				h.t.Errorf("the others' match #%d is %s, want on", m.ID, got.Phase)
			}
			continue
		}
		h.srv.WaitFor(h.t, "the leaver's match called off", func() bool { return !h.match(m.ID).Phase.Active() })
		if got := h.match(m.ID); got.Phase != storage.PhaseAbandoned || got.CalledOff != storage.CallOffTournament {
			h.t.Errorf("the leaver's match #%d is %s (%s), want called off by the tournament", m.ID, got.Phase, got.CalledOff)
		}
	}
	for _, r := range s.Rounds() {
		for _, g := range r.Games {
			if g.IsBye() || !g.Has(leaver.ID) {
				continue
			}
			want := tournament.BlueForfeited
			if g.Red == leaver.ID {
				want = tournament.RedForfeited
			}
			if g.Result != want {
				h.t.Errorf("round %d: %s, want the leaver's forfeit", r.Number, g)
			}
		}
	}
	if n := h.leftSaid(leaver); n != 1 {
		h.t.Errorf("the channel was told %d times that %s left, want once", n, leaver.Name)
	}
}

// TestTournamentLeaverWithdrawnPromptly: a member leaves the server while
// all their games of a tournament are on. The bot has no event of it, so
// it asks Discord: every player still in, at most once an hour per
// tournament, and a player a game's reminder waits for. The leaver is
// withdrawn within the hour (or at the reminder): their games are
// forfeited and called off, the others go on, the channel is told once. A
// 5xx or a 429 on the question withdraws no one: the next hour asks again,
// and a restart in between asks no sooner. A restart after the withdrawal
// withdraws no one twice. The others' games end the event (a round robin),
// or the round, whose next is paired without the leaver (Swiss).
func TestTournamentLeaverWithdrawnPromptly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		format   string
		moveTime string
		fault    func(h *tourney) // on the first questions of the check
		out      time.Duration    // from the leaving to the withdrawal
	}{
		{"round robin: the hourly check", "round-robin", "24h", nil, memberCheckEvery},
		{"round robin: a reminder", "round-robin", "1h", nil, 30 * time.Minute},
		{"swiss: the hourly check mid-round", "swiss", "24h", nil, memberCheckEvery},
		{"round robin: 500", "round-robin", "24h", func(h *tourney) { h.srv.FailNext(h.t, memberRoute, 4, 500) }, 2 * memberCheckEvery},
		{"round robin: 503", "round-robin", "24h", func(h *tourney) { h.srv.FailNext(h.t, memberRoute, 4, 503) }, 2 * memberCheckEvery},
		{"round robin: 429", "round-robin", "24h", func(h *tourney) { h.srv.RateLimitNext(h.t, memberRoute, 4, 10*time.Millisecond) }, 2 * memberCheckEvery},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, dave, matches := leaverTourney(t, tc.format, tc.moveTime)
			asked := h.lookups(dave.ID)
			h.guild.RemoveMember(dave)
			if tc.fault != nil {
				tc.fault(h)
				h.advance(memberCheckEvery)
				h.stillIn(dave, matches)
				if n := h.lookups(dave.ID) - asked; n != 1 {
					t.Fatalf("dave was asked about %d times in the hourly check, want once", n)
				}
				// A restart asks no sooner than the hour.
				h.shutdown()
				h.start()
				asked = len(h.srv.Requests(memberRoute))
				h.advance(memberCheckEvery / 2)
				if n := len(h.srv.Requests(memberRoute)) - asked; n != 0 {
					t.Fatalf("%d questions within the hour after a restart, want none", n)
				}
				h.stillIn(dave, matches)
				h.advance(tc.out - memberCheckEvery - memberCheckEvery/2 - time.Second)
				h.stillIn(dave, matches)
				h.advance(time.Second)
			} else {
				h.advance(tc.out - time.Second)
				h.stillIn(dave, matches)
				h.advance(time.Second)
			}
			h.withdrawnOnce(dave, matches)

			// A restart, and the next check (not with a move time of an
			// hour, whose set-ups would be late by then): nothing more.
			h.shutdown()
			h.start()
			if tc.moveTime != "1h" {
				alice := h.lookups(h.alice.ID)
				h.advance(memberCheckEvery)
				if n := h.lookups(h.alice.ID) - alice; n != 1 {
					t.Errorf("alice was asked about %d times in the next hour, want once", n)
				}
			}
			h.withdrawnOnce(dave, matches)

			var others []*storage.Match
			for _, m := range matches {
				if _, plays := m.SideOf(dave.ID); !plays {
					others = append(others, m)
				}
			}
			for _, m := range others {
				h.play(m, game.Blue)
			}
			h.advance(time.Second)
			if tc.format == "swiss" {
				h.channelSays("**League** — round 2 of")
				for _, m := range h.roundMatches(2) {
					if _, plays := m.SideOf(dave.ID); plays {
						t.Errorf("round 2 pairs the leaver: match #%d", m.ID)
					}
				}
				return
			}
			h.channelSays("**League** is over")
		})
	}
}

// TestTournamentLeaverWithdrewMeanwhile: the pass that pairs the next
// round asks whether the players it read are still members
// (withdrawLeavers); one who withdrew in the meantime, and then left the
// server, is not withdrawn a second time, and nothing is logged as failed.
func TestTournamentLeaverWithdrewMeanwhile(t *testing.T) {
	t.Parallel()
	var logs logLines
	h := tourneyOn(newHarness(t, logs.capture), "dave")
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 3),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	for _, m := range h.members {
		h.expect(h.run(m, "join"), "You joined")
	}
	h.advance(time.Hour)
	h.roundMatches(1)
	read, state := h.stored() // as the pass read it
	h.expect(h.run(h.bob, "withdraw"), "You withdrew")
	h.guild.RemoveMember(h.bob)
	h.bot.withdrawLeavers(context.Background(), read, state)
	tt, _ := h.stored()
	withdrawals := 0
	for _, e := range tt.Log {
		if e.Kind == tournament.Withdrew && e.Player == h.bob.ID {
			withdrawals++
		}
	}
	if withdrawals != 1 {
		t.Errorf("bob withdrew %d times, want once", withdrawals)
	}
	if strings.Contains(logs.String(), "withdrawing a player who left failed") {
		t.Errorf("a player who withdrew meanwhile was logged as a failed withdrawal:\n%s", logs.String())
	}
}
