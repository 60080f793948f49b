package bot

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestNothingAfterTheDeadline: Alice's day to move has run out, but the
// timers have not yet recorded her loss (their pass comes late: the bot was
// busy, or just back from a restart, and her command came first). What she
// does then must not save her: a move, a vacation that would stop her
// clock, or accepting Bob's proposal to pause is refused with a clear
// answer, and she loses on time, at her deadline.
func TestNothingAfterTheDeadline(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		act  func(h *harness) string // what Alice does late; her answer
	}{
		{"a move", func(h *harness) string {
			return h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t).Content
		}},
		{"a vacation", func(h *harness) string {
			return h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t).Content
		}},
		{"a pause", func(h *harness) string {
			return h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t).Content
		}},
		{"a move on the web board", func(h *harness) string {
			link := openBoardLink(t, lastDM(h.alice))
			base, _, _ := strings.Cut(link, "/board#")
			status, body := apiStatus(t, base, link, "POST", "/api/move", fmt.Sprintf(`{"basis":%q,"from":30,"to":40}`, basisOf(t, base, link)))
			if status == http.StatusOK {
				t.Errorf("the web board took the late move: %d %s", status, body)
			}
			return body
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if strings.Contains(tc.name, "web") {
				webOn(t, h)
			}
			h.dayMatch()
			due := h.waitMoves(1, 0).Deadline
			if tc.name == "a pause" {
				h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t)
			}
			h.outboxEmpty()
			h.clock.Advance(due.Sub(h.clock.Now()) + time.Minute) // no timers' pass yet
			got := tc.act(h)
			t.Logf("Alice's late %s answered %q", tc.name, got)
			if tc.name != "a vacation" && !strings.Contains(got, "ran out") {
				t.Errorf("Alice's late %s answered %q, want that her time ran out", tc.name, got)
			}
			if tc.name == "a vacation" && !strings.Contains(got, "no days were taken") {
				t.Errorf("Alice's late vacation answered %q, want that it took no days", got)
			}
			m := h.match(1)
			if m.Moves() != 0 || !m.PausedUntil().IsZero() || !m.VacationUntil(game.Red).IsZero() {
				t.Errorf("Alice's late %s counted: %d moves, paused until %v, on vacation until %v", tc.name, m.Moves(), m.PausedUntil(), m.VacationUntil(game.Red))
			}
			h.advance(0)
			h.srv.WaitFor(t, "the loss on time", func() bool { return !h.match(1).Phase.Active() })
			if m := h.match(1); m.Result != (game.Result{Outcome: game.BlueWon, Method: game.TimeForfeit}) || !m.Ended.Before(due.Add(2*time.Minute)) {
				t.Errorf("the match ended %v at %v, want Blue on time at once", m.Result, m.Ended.Sub(due))
			}
			h.alice.WaitDM(t, contains("You lost: you ran out of time."))
		})
	}
}

// TestNothingAfterTheSetupDeadline: Alice's time to send her set-up has
// run out, Bob's being in, but the timers have not yet called the match
// off (their pass comes late). What either does then must not save the
// match: her set-up confirmed is refused with a clear answer (it would
// start a game the rules end, and undo a tournament's forfeit), and a
// vacation of Bob's, which would move the passed deadline on by days,
// takes none; the match is called off at its deadline.
func TestNothingAfterTheSetupDeadline(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		act    func(h *harness, alices *discordtest.Message) string // the late action; its answer
		answer string
	}{
		{"Alice's set-up", func(h *harness, alices *discordtest.Message) string {
			return h.alice.ClickButton(t, alices, actButton(t, alices, actConfirm)).Reply(t).Content
		}, "The time for the set-ups of this match ran out: the match ends now"},
		{"Bob's vacation", func(h *harness, _ *discordtest.Message) string {
			return h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t).Content
		}, "no days were taken"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.challengeIn(h.channel)
			preview := map[*discordtest.Member]*discordtest.Message{}
			for _, p := range []*discordtest.Member{h.alice, h.bob} {
				invite := p.WaitDM(t, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "#1") && hasAction(m, actRandom) })
				preview[p] = p.ClickButton(t, invite, actButton(t, invite, actRandom)).Reply(t)
			}
			h.bob.ClickButton(t, preview[h.bob], actButton(t, preview[h.bob], actConfirm)).Reply(t)
			h.outboxEmpty()
			m := h.match(1)
			if m.Phase != storage.PhaseSetup || !m.ClockRunning() || m.Setups[game.Blue].Status != storage.SetupConfirmed {
				t.Fatalf("before the deadline: %s, clock running %v, Bob's set-up %v", m.Phase, m.ClockRunning(), m.Setups[game.Blue].Status)
			}
			due := m.Deadline
			h.clock.Advance(due.Sub(h.clock.Now()) + time.Minute) // no timers' pass yet
			if got := tc.act(h, preview[h.alice]); !strings.Contains(got, tc.answer) {
				t.Errorf("%s, late, answered %q, want %q", tc.name, got, tc.answer)
			}
			h.advance(0)
			h.srv.WaitFor(t, "the call-off", func() bool { return !h.match(1).Phase.Active() })
			m = h.match(1)
			if m.Setups[game.Red].Status == storage.SetupConfirmed || len(m.Log) != 0 {
				t.Errorf("%s, late, counted: Alice's set-up %v, log %v", tc.name, m.Setups[game.Red].Status, m.Log)
			}
			if m.Phase != storage.PhaseAbandoned || m.CalledOff != storage.CallOffLateSetup || !m.Ended.Before(due.Add(2*time.Minute)) {
				t.Errorf("the match ended %s (%v) at %v, want called off for the late set-up at once", m.Phase, m.CalledOff, m.Ended.Sub(due))
			}
			if days := h.bot.settingsOf(t.Context(), h.bob.ID).VacationDaysUsed(h.clock.Now()); days != 0 {
				t.Errorf("Bob used %d days of vacation, want none", days)
			}
		})
	}
}
