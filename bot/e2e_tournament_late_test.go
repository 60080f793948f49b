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

// txtRoundOverWant is what a player who acts in a game after its round's
// deadline is told.
const txtRoundOverWant = "The deadline of this game's tournament round has passed"

// TestTournamentNothingAfterTheRoundDeadline: the deadline of a round has
// passed, but the timers have not yet closed it (their pass comes late: the
// bot was busy, or just back from a restart, or another process leads on a
// shared database). A game of the round that ends in that window, however
// it ends — a move, a resignation, a draw agreed, a set-up confirmed, a
// loss on time whose time ran out at or after the round's deadline — is
// scored as the round's deadline scores a game still on, exactly as if the
// timers had been on time: the late action is refused with a clear answer,
// the match is called off unrated, and the channel and the players are
// told once. A loss on time whose time ran out before the round's
// deadline still counts as one, however late the timers record it.
func TestTournamentNothingAfterTheRoundDeadline(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		moveTime string
		// before is what happens before the deadline, after what a player
		// does after it (nil: nothing, the timers' pass comes late);
		// after returns the answer.
		before  func(h *tourney, m *storage.Match)
		after   func(h *tourney, m *storage.Match) string
		restart bool // the bot restarts between the late action and the pass
		want    tournament.Result
		rated   bool
	}{
		{name: "a resignation", moveTime: "24h", before: bothSetUp, after: func(h *tourney, m *storage.Match) string {
			l := h.members[m.Players[game.Blue].UserID]
			ask := l.SlashCommand(h.t, h.channel, "stratego resign", discordtest.Opt("match", m.ID.String())).Reply(h.t)
			return l.ClickButton(h.t, ask, button(h.t, ask, "Resign")).Updated(h.t).Content
		}, want: tournament.Adjudicated},
		{name: "a resignation, restarted", moveTime: "24h", before: bothSetUp, after: func(h *tourney, m *storage.Match) string {
			l := h.members[m.Players[game.Blue].UserID]
			ask := l.SlashCommand(h.t, h.channel, "stratego resign", discordtest.Opt("match", m.ID.String())).Reply(h.t)
			return l.ClickButton(h.t, ask, button(h.t, ask, "Resign")).Updated(h.t).Content
		}, restart: true, want: tournament.Adjudicated},
		{name: "a move", moveTime: "24h", before: bothSetUp, after: func(h *tourney, m *storage.Match) string {
			g, err := h.match(m.ID).Game()
			if err != nil {
				h.t.Fatal(err)
			}
			mv := g.LegalMoves()[0]
			red := h.members[m.Players[game.Red].UserID]
			return red.SlashCommand(h.t, h.channel, "stratego move", discordtest.Opt("from", mv.From.String()), discordtest.Opt("to", mv.To.String()),
				discordtest.Opt("match", m.ID.String())).Reply(h.t).Content
		}, want: tournament.Adjudicated},
		{name: "a draw agreed", moveTime: "24h", before: func(h *tourney, m *storage.Match) {
			bothSetUp(h, m)
			red := h.members[m.Players[game.Red].UserID]
			red.SlashCommand(h.t, h.channel, "stratego draw", discordtest.Opt("action", "offer"), discordtest.Opt("match", m.ID.String())).Reply(h.t)
		}, after: func(h *tourney, m *storage.Match) string {
			blue := h.members[m.Players[game.Blue].UserID]
			return blue.SlashCommand(h.t, h.channel, "stratego draw", discordtest.Opt("action", "accept"), discordtest.Opt("match", m.ID.String())).Reply(h.t).Content
		}, want: tournament.Adjudicated},
		{name: "a set-up confirmed", moveTime: "24h", before: func(h *tourney, m *storage.Match) {
			h.setUp(m, game.Red)
		}, after: func(h *tourney, m *storage.Match) string {
			blue := h.members[m.Players[game.Blue].UserID]
			invite := blue.WaitDM(h.t, func(msg *discordtest.Message) bool {
				return strings.Contains(msg.Content, "**Match #"+m.ID.String()+"**") && hasButton(msg, "Random")
			})
			return blue.ClickButton(h.t, invite, button(h.t, invite, "Random")).Reply(h.t).Content
		}, want: tournament.BlueForfeited},
		{name: "a loss on time at the deadline", moveTime: "24h", before: func(h *tourney, m *storage.Match) {
			h.advance(time.Minute) // Red's first move is then due after the round's deadline
			bothSetUp(h, m)
		}, want: tournament.Adjudicated},
		{name: "a loss on time before the deadline", moveTime: "1h", before: bothSetUp, want: tournament.BlueWon, rated: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			m := h.bobMeetsCarol(discordtest.Opt("round_days", 1), discordtest.Opt("move_time", tc.moveTime))
			tt, _ := h.stored()
			deadline := tt.RoundDeadline
			tc.before(h, m)
			h.outboxEmpty()
			resume := h.lateTimers(deadline.Add(time.Minute))
			if tc.after != nil {
				got := tc.after(h, m)
				t.Logf("the late %s answered %q", tc.name, got)
				if !strings.Contains(got, txtRoundOverWant) {
					t.Errorf("the late %s answered %q, want %q", tc.name, got, txtRoundOverWant)
				}
				if x := h.match(m.ID); x.Phase == storage.PhaseFinished || (tc.name == "a set-up confirmed" && x.Setups[game.Blue].Status != storage.SetupNone) {
					t.Errorf("the late %s counted: the match is %s, Blue's set-up %v", tc.name, x.Phase, x.Setups[game.Blue].Status)
				}
			}
			if tc.restart {
				h.bot.leading.Store(false) // the pass waiting comes after the restart
				resume()
				h.shutdown()
				h.start()
			} else {
				resume()
			}
			h.advance(0)
			h.channelSays("**Cup** is over")
			_, s := h.stored()
			if got := s.Rounds()[0].Games[0].Result; got != tc.want {
				t.Errorf("the game is scored %s, want %s", got, tc.want)
			}
			x := h.match(m.ID)
			switch {
			case tc.want == tournament.BlueWon:
				if x.Result != (game.Result{Outcome: game.BlueWon, Method: game.TimeForfeit}) {
					t.Errorf("the match ended %v, want Blue on time", x.Result)
				}
			case x.Phase != storage.PhaseAbandoned || x.CalledOff != storage.CallOffTournament:
				t.Errorf("the match is %s (%s), want called off by the tournament", x.Phase, x.CalledOff)
			}
			for _, side := range []game.Side{game.Red, game.Blue} {
				st, _ := h.db.Standing(context.Background(), h.guild.ID, game.VariantClassic, m.Players[side].UserID)
				if rated := st.Wins+st.Losses+st.Draws != 0; rated != tc.rated {
					t.Errorf("%s's game rated %v, want %v", side, rated, tc.rated)
				}
			}
			h.advance(time.Second)
			h.outboxEmpty()
			closed := 0
			if tc.want != tournament.BlueWon {
				closed = 1
			}
			if n := h.channelCount("the deadline of round 1 passed"); n != closed {
				t.Errorf("the channel told the round's deadline %d times, want %d", n, closed)
			}
			if n := h.channelCount("Final standings:"); n != 1 {
				t.Errorf("the channel told the end %d times, want once", n)
			}
			if closed == 1 {
				for _, side := range []game.Side{game.Red, game.Blue} {
					p := h.members[m.Players[side].UserID]
					n := 0
					for _, dm := range p.DMs() {
						if strings.Contains(dm.Content, "The match is called off (Cup: the round's deadline passed)") {
							n++
						}
					}
					if n != 1 {
						t.Errorf("%s was told of the call-off %d times, want once", p.Name, n)
					}
				}
			}
		})
	}
}

// lateTimers moves the clock to at, past a round's deadline, with the
// timers' pass held back, as a busy or restarting bot's would be: a pass
// that was due or is nudged meanwhile waits until resume. The bot is up
// meanwhile: it records that it is alive, as it does every 30 s, so that
// a restart gives nobody the time back.
func (h *tourney) lateTimers(at time.Time) (resume func()) {
	b := h.bot
	b.timerPass.Lock()
	h.clock.Advance(at.Sub(h.clock.Now()))
	b.recordAlive(context.Background())
	return b.timerPass.Unlock
}

// bothSetUp has both players of m set up, and waits for the game to begin.
func bothSetUp(h *tourney, m *storage.Match) {
	h.setUp(m, game.Red, game.Blue)
	h.srv.WaitFor(h.t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })
	h.bot.deliverDue(context.Background())
}

// TestTournamentRoundDeadlineOfOlderMatches: a match of the round under way
// made by a version that did not keep its round's deadline in the match is
// given it at the tournament's next hourly check, and from then on nothing
// after the deadline counts in it either.
func TestTournamentRoundDeadlineOfOlderMatches(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	m := h.bobMeetsCarol(discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "24h"))
	tt, _ := h.stored()
	deadline := tt.RoundDeadline
	if got := h.match(m.ID).RoundEnds; !got.Equal(deadline) {
		t.Fatalf("the match keeps the round's deadline %v, want %v", got, deadline)
	}
	bothSetUp(h, m)
	if _, err := h.db.UpdateMatch(context.Background(), m.ID, 0, func(x *storage.Match) error {
		x.RoundEnds = time.Time{} // as an older version made it
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h.advance(time.Hour)
	h.srv.WaitFor(t, "the match to be told its round's deadline", func() bool { return h.match(m.ID).RoundEnds.Equal(deadline) })
	h.outboxEmpty()
	resume := h.lateTimers(deadline.Add(time.Minute))
	l := h.members[m.Players[game.Blue].UserID]
	ask := l.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", m.ID.String())).Reply(t)
	if got := l.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t).Content; !strings.Contains(got, txtRoundOverWant) {
		t.Errorf("the late resignation answered %q, want %q", got, txtRoundOverWant)
	}
	resume()
	h.advance(0)
	h.channelSays("**Cup** is over")
	if _, s := h.stored(); s.Rounds()[0].Games[0].Result != tournament.Adjudicated {
		t.Errorf("the game is scored %s, want adjudicated", s.Rounds()[0].Games[0].Result)
	}
}

// TestTournamentWithdrawAfterTheRoundDeadline: the deadline of a Swiss
// round has passed, but the timers have not yet closed it (their pass
// comes late), when a player of a game still on withdraws, or a moderator
// removes them. The deadline scored that game, as it would have on time: it
// is unfinished, as the rules say, not a win by forfeit for the opponent.
// The withdrawal takes the player out of the rounds to come; the deadline
// is told once.
func TestTournamentWithdrawAfterTheRoundDeadline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		out  func(h *tourney, p *discordtest.Member) *discordtest.Message
		want string
	}{
		{"withdraws", func(h *tourney, p *discordtest.Member) *discordtest.Message { return h.run(p, "withdraw") }, "You withdrew"},
		{"removed", func(h *tourney, p *discordtest.Member) *discordtest.Message {
			return h.run(h.alice, "remove", discordtest.Opt("player", p))
		}, "You took"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t, "dave", "erin")
			h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 2),
				discordtest.Opt("starts_in_hours", 1), discordtest.Opt("round_days", 1), discordtest.Opt("move_time", "24h")), "Tournament #1")
			for _, m := range h.members {
				if m != h.alice {
					h.expect(h.run(m, "join"), "You joined")
				}
			}
			h.advance(time.Hour)
			m := h.roundMatches(1)[0]
			bothSetUp(h, m)
			h.outboxEmpty()
			tt, _ := h.stored()
			resume := h.lateTimers(tt.RoundDeadline.Add(time.Minute))
			blue := m.Players[game.Blue].UserID
			h.expect(tc.out(h, h.members[blue]), tc.want)
			resume()
			h.advance(0)
			h.srv.WaitFor(t, "round 2 paired", func() bool { _, s := h.stored(); return len(s.Rounds()) == 2 })
			_, s := h.stored()
			for _, g := range s.Rounds()[0].Games {
				if g.Red == m.Players[game.Red].UserID && g.Blue == blue && g.Result != tournament.Adjudicated {
					t.Errorf("the game on at the deadline is scored %s, want unfinished", g.Result)
				}
			}
			for _, g := range s.Rounds()[1].Games {
				if g.Has(blue) {
					t.Errorf("the withdrawn player is paired in round 2: %s", g)
				}
			}
			h.advance(time.Second)
			h.outboxEmpty()
			if n := h.channelCount("the deadline of round 1 passed"); n != 1 {
				t.Errorf("the channel told the round's deadline %d times, want once", n)
			}
		})
	}
}
