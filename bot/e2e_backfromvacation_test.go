package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestBackFromVacationSaysWhatWaits: Bob goes on vacation for three days on
// Alice's turn, so that his own turn begins stopped, its deadline a day
// after his return; two hours into it he ends the vacation early with
// `/stratego vacation end:true`. His deadline moves days earlier than his
// board said, so the answer gives it; and when the two of them had agreed
// to a pause that still runs, it does not say his clocks run again, but
// until when the match stays paused and when his move is due after it.
func TestBackFromVacationSaysWhatWaits(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	for _, tc := range []struct {
		name   string
		paused bool
		locale string
		want   func(due, resume time.Time) string
	}{
		{"running", false, "", func(due, _ time.Time) string {
			return "Welcome back: your vacation is over and your clocks run again.\nMatch #1: your move is due " + relMark(due) + " (" + fullMark(due) + ")."
		}},
		{"paused", true, "", func(due, resume time.Time) string {
			return "Welcome back: your vacation is over.\nMatch #1 is paused by agreement until " + fullMark(resume) +
				". Your move is then due " + relMark(due) + " (" + fullMark(due) + ")."
		}},
		{"paused in German", true, "de", func(due, resume time.Time) string {
			return "Willkommen zurück: Dein Urlaub ist vorbei.\nPartie #1 ist nach Absprache bis " + fullMark(resume) +
				" pausiert. Danach ist dein Zug " + relMark(due) + " fällig (" + fullMark(due) + ")."
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, w, _ := aliceToMove(t)
			h.bob.SetLocale(tc.locale)
			now := h.clock.Now
			h.advance(time.Hour)
			h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t)
			back := now().Add(3 * day)
			h.advance(time.Hour)
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			h.waitMoves(1, 1)
			w.turn(h.bob, nil, back.Sub(now())+day)

			var resume time.Time
			if tc.paused {
				h.advance(time.Hour)
				h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
				h.bot.deliverDue(t.Context())
				resume = now().Add(2 * day)
				h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t)
			}
			h.advance(time.Hour)
			due := now().Add(day)
			if tc.paused {
				due = resume.Add(day)
			}
			got := h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("end", true)).Reply(t).Content
			if m := h.match(1); !m.Deadline.Equal(due) {
				t.Fatalf("Bob's deadline after his return: %v, want %v", m.Deadline, due)
			}
			if want := tc.want(due, resume); got != want {
				t.Errorf("ending the vacation answered\n%q, want\n%q", got, want)
			}
		})
	}
}
