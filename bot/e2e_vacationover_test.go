package bot

import (
	"fmt"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestVacationOverOnTime: Bob's vacation of two days runs out on time. When
// he took it on his own turn, his board had given his deadline before the
// vacation moved it two days on: at its end he is told by DM, as at a
// pause's end, when his move is now due, in his language. When he took it
// on Alice's turn, his board came during it with the deadline counted from
// his return, and nothing more is said to him. Alice is told once that he
// is back.
func TestVacationOverOnTime(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	for _, tc := range []struct {
		name    string
		hisTurn bool
		locale  string
		want    string // the DM to bob, the deadline its argument; "" for none
	}{
		{"taken on his turn", true, "", "Your vacation is over: your move is due %[1]s (%[2]s)."},
		{"taken on his turn, in Dutch", true, "nl", "Je vakantie is voorbij: je zet moet %[1]s binnen zijn (%[2]s)."},
		{"taken on her turn", false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			w := weeks{t, h}
			h.dayMatch()
			h.waitMoves(1, 0)
			h.bob.SetLocale(tc.locale)
			now := h.clock.Now
			var due time.Time
			if tc.hisTurn {
				h.advance(time.Hour)
				h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
				h.waitMoves(1, 1)
				due = w.turn(h.bob, nil, day)
				h.advance(3 * time.Hour)
				h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
				due = due.Add(2 * day)
			} else {
				h.advance(time.Hour)
				h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
				back := now().Add(2 * day)
				h.advance(time.Hour)
				h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
				h.waitMoves(1, 1)
				due = w.turn(h.bob, nil, back.Sub(now())+day)
			}
			back := h.match(1).VacationUntil(1)
			h.outboxEmpty()
			over := "vacation is over"
			if tc.locale == "nl" {
				over = "vakantie is voorbij"
			}
			w.until(back, "the end of bob's vacation", func() bool { return countDMs(h.alice, "bob is back from vacation.") == 0 })
			h.alice.WaitDM(t, contains("bob is back from vacation."))
			h.outboxEmpty()
			if m := h.match(1); !m.Deadline.Equal(due) {
				t.Fatalf("bob's deadline %v after his vacation, want %v", m.Deadline, due)
			}
			if tc.want != "" {
				h.bob.WaitDM(t, contains(fmt.Sprintf(tc.want, relMark(due), fullMark(due))))
			}
			n := 0
			if tc.want != "" {
				n = 1
			}
			if got := countDMs(h.bob, over); got != n {
				t.Errorf("bob got %d DMs with %q, want %d", got, over, n)
			}
			if got := countDMs(h.alice, "is back from vacation"); got != 1 {
				t.Errorf("alice was told %d times that bob is back", got)
			}
		})
	}
}

// TestVacationOverInSetup: Bob goes on vacation for two days before he has
// sent his set-up, which moves its deadline, that his invite gave, on by
// the two days. When the vacation runs out he is told by DM when his
// set-up is now due.
func TestVacationOverInSetup(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h := newHarness(t)
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	h.bob.WaitDM(t, contains("Send me your secret set-up"))
	h.outboxEmpty()
	h.advance(time.Hour)
	due := h.match(1).Deadline
	h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
	back := h.match(1).VacationUntil(1)
	if m := h.match(1); !m.Deadline.Equal(due.Add(2 * day)) {
		t.Fatalf("the set-up deadline %v after bob left, want %v", m.Deadline, due.Add(2*day))
	}
	due = due.Add(2 * day)
	h.outboxEmpty()
	w := weeks{t, h}
	w.until(back, "the end of bob's vacation", func() bool { return countDMs(h.bob, "vacation is over") == 0 })
	h.bob.WaitDM(t, contains("Your vacation is over: your set-up is due "+relMark(due)+" ("+fullMark(due)+")."))
	h.outboxEmpty()
	if got := countDMs(h.bob, "vacation is over"); got != 1 {
		t.Errorf("bob was told %d times that his vacation is over", got)
	}
}
