package bot

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestWebHearsNoDraftWhileAVacationHoldsTheSetup: how often Bob drafts his
// set-up, and when, is his secret, on the web board too. Bob's set-up
// invite is held, so the set-up clock waits for it, and Alice goes on
// vacation, which holds the set-up deadline until she is back: her page
// shows the deadline the invites show, her vacation's end and the set-up
// time after it. Bob then types a set-up in his DM three times, an hour
// apart, or never; his invite arrives at last, which starts the set-up
// clock, and Alice confirms her set-up. Everything her page received until
// then is the same in both runs: each draft built her page's state anew, an hour later each time,
// and a deadline that moved with the time in what a stream compares sent
// it to her at the moment Bob drafted.
func TestWebHearsNoDraftWhileAVacationHoldsTheSetup(t *testing.T) {
	t.Parallel()
	const dmRoute = "POST /channels/{channel_id}/messages"
	var heard [2][]string
	t.Run("both", func(t *testing.T) {
		for k, drafts := range []int{0, 3} {
			t.Run([]string{"no draft", "three drafts"}[k], func(t *testing.T) {
				t.Parallel()
				h := newHarness(t)
				url := webOn(t, h)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				hold := h.srv.HoldNextIn(t, dmRoute, h.bob.DM(), 1)
				defer hold.Release()
				h.challenge("Classic", discordtest.Opt("move_time", "24h"))
				h.srv.WaitFor(t, "Bob's invite to be held", func() bool { return hold.Waiting() == 1 })
				invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
				h.srv.WaitFor(t, "Alice's invite to be recorded as arrived", func() bool { return !h.match(1).InvitePending[game.Red] })
				h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
				h.srv.WaitFor(t, "Alice's vacation to hold the set-up", func() bool { return !h.match(1).VacationUntil(game.Red).IsZero() })
				if m := h.match(1); !m.ClockPending || !m.DeadlineToShow(h.clock.Now()).After(h.clock.Now().Add(2*24*time.Hour)) {
					t.Fatalf("the set-up waits for the invites: %v, and is due %v from now, want after the vacation's two days", m.ClockPending, m.DeadlineToShow(h.clock.Now()).Sub(h.clock.Now()))
				}
				events := webEvents(t, ctx, url, openBoardLink(t, invite))
				record := func(e string) {
					heard[k] = append(heard[k], nowRE.ReplaceAllString(e, `"now":_`))
				}
				record(nextEvent(t, events, "the page's first state", func(string) bool { return true }))
				blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
				for i := range 3 {
					h.clock.Advance(time.Hour)
					if i >= drafts {
						continue
					}
					version := h.match(1).Version
					h.bob.SendDM(t, game.FormatSetup(blue, game.NumberingModern))
					h.srv.WaitFor(t, "Bob's draft to be stored", func() bool {
						m := h.match(1)
						return m.Version > version && m.Setups[game.Blue].Status == storage.SetupDraft
					})
				}
				hold.Release()
				h.bob.WaitDM(t, contains("Send me your secret set-up"))
				h.bot.deliverDue(t.Context())
				h.srv.WaitFor(t, "the set-up clock to start", func() bool { return !h.match(1).ClockPending })
				// Then Alice confirms her set-up, which her page hears: what
				// it heard before that is all it heard of the rest.
				h.alice.SendDM(t, game.FormatSetup(placed(t, nil), game.NumberingModern))
				preview := h.alice.WaitDM(t, contains("Your set-up for match"))
				h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
				for {
					e := nextEvent(t, events, "Alice's confirmation", func(string) bool { return true })
					record(e)
					if strings.Contains(e, `"ready":[true,false]`) {
						break
					}
				}
			})
		}
	})
	if t.Failed() {
		return
	}
	if !slices.Equal(heard[0], heard[1]) {
		t.Errorf("Alice's page heard Bob's drafts:\n%s", firstDiff(heard[0], heard[1]))
	}
}

// nowRE matches the server's time in a web board's state.
var nowRE = regexp.MustCompile(`"now":\d+`)
