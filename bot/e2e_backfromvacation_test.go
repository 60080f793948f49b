package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestBackFromVacationSaysWhatWaits: Bob goes on vacation for three days on
// Alice's turn, so that his own turn begins stopped, its deadline a day
// after his return; soon into it he ends the vacation early with
// `/stratego vacation end:true`. His deadline moves days earlier than his
// board said, so the answer gives it, and so does a DM of the match; and
// when the two of them had agreed to a pause that still runs, the answer
// does not say his clocks run again, but until when the match stays paused
// and when his move is due after it. Without a pause, his half-time
// reminder comes twelve hours after his return.
func TestBackFromVacationSaysWhatWaits(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	for _, tc := range []struct {
		name   string
		paused bool
		locale string
		want   func(due, resume time.Time) string
		dm     func(due time.Time) string
	}{
		{"running", false, "", func(due, _ time.Time) string {
			return "Welcome back: your vacation is over and your clocks run again.\nMatch #1: your move is due " + relMark(due) + " (" + fullMark(due) + ")."
		}, yourVacationIsOver},
		{"paused", true, "", func(due, resume time.Time) string {
			return "Welcome back: your vacation is over.\nMatch #1 is paused by agreement until " + fullMark(resume) +
				". Your move is then due " + relMark(due) + " (" + fullMark(due) + ")."
		}, yourVacationIsOver},
		{"paused in German", true, "de", func(due, resume time.Time) string {
			return "Willkommen zurück: Dein Urlaub ist vorbei.\nPartie #1 ist nach Absprache bis zum " + fullMark(resume) +
				" pausiert. Danach ist dein Zug " + relMark(due) + " fällig (" + fullMark(due) + ")."
		}, func(due time.Time) string {
			return "Dein Urlaub ist vorbei: Dein Zug ist " + relMark(due) + " fällig (" + fullMark(due) + ")."
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
			// The DMs of the match keep it too.
			h.bot.deliverDue(t.Context())
			h.bob.WaitDM(t, contains(tc.dm(due)))
			h.alice.WaitDM(t, contains("bob is back from vacation."))
			if tc.paused {
				return
			}
			// His half-time reminder comes twelve hours after his return,
			// not after his board: the vacation held his whole turn.
			w.reminded(h.bob, h.alice, due, 12*time.Hour)
		})
	}
}

func yourVacationIsOver(due time.Time) string {
	return "Your vacation is over: your move is due " + relMark(due) + " (" + fullMark(due) + ")."
}

// TestBackByAMoveElsewhere: Alice, to move in two matches, goes on vacation
// for three days an hour into her turns, which moves both deadlines on by
// the three days; an hour later she moves in match #1, which ends her
// vacation everywhere. Her deadline in match #2 comes back to what is left
// of its day, three days earlier than she was told, so she is told it by DM
// in that match, and Bob that she is back; in match #1, where she moved,
// nobody is told more than her move.
func TestBackByAMoveElsewhere(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h := newHarness(t)
	h.dayMatchesInPlay(2)
	h.outboxEmpty()
	now := h.clock.Now
	due := now().Add(day)
	h.advance(time.Hour)
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t)
	h.outboxEmpty()
	if m := h.match(2); !m.Deadline.Equal(due.Add(3 * day)) {
		t.Fatalf("the vacation moved her deadline in match #2 to %v, want %v", m.Deadline, due.Add(3*day))
	}
	h.advance(time.Hour)
	g, err := h.match(1).Game()
	if err != nil {
		t.Fatal(err)
	}
	mv := g.LegalMoves()[0]
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("match", "1"), discordtest.Opt("from", mv.From.String()), discordtest.Opt("to", mv.To.String())).Reply(t)
	h.waitMoves(1, 1)
	h.outboxEmpty()
	if m := h.match(2); !m.Deadline.Equal(due.Add(time.Hour)) {
		t.Fatalf("her deadline in match #2 after her return: %v, want %v", m.Deadline, due.Add(time.Hour))
	}
	told := h.alice.WaitDM(t, contains(yourVacationIsOver(due.Add(time.Hour))))
	if !strings.HasPrefix(told.Content, "**Match #2**") {
		t.Errorf("alice is told of her deadline in another match than #2: %q", told.Content)
	}
	h.bob.WaitDM(t, contains("**Match #2** · alice (Red) vs bob (Blue)\nalice is back from vacation."))
	for _, c := range []struct {
		p    *discordtest.Member
		text string
		n    int
	}{{h.alice, "Your vacation is over", 1}, {h.bob, "is back from vacation", 1}} {
		if got := countDMs(c.p, c.text); got != c.n {
			t.Errorf("%s got %d DMs with %q, want %d", c.p.Name, got, c.text, c.n)
		}
	}
}

// TestVacationBegunAsSheMoves: Alice's vacation begins in both her matches
// (another request of hers, recorded first) while her move in match #1 is
// on its way, its command having read the match before. The move ends the
// vacation as any move made during one does: in her settings, and in
// match #2, whose deadline comes back to what is left of its day. It was
// left on there, and in her settings, until the timers' next look at
// vacations (vacationCheck: up to an hour and a quarter later).
func TestVacationBegunAsSheMoves(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h := newHarness(t)
	h.dayMatchesInPlay(2)
	h.outboxEmpty()
	due := h.clock.Now().Add(day)
	h.advance(time.Hour)
	g, err := h.match(1).Game()
	if err != nil {
		t.Fatal(err)
	}
	mv := g.LegalMoves()[0]
	began := h.clock.Now()
	begin := func() {
		if _, err := h.db.UpdatePlayer(t.Context(), h.alice.ID, func(p *storage.PlayerSettings) error { return p.StartVacation(began, 3) }); err != nil {
			t.Error(err)
		}
		for id := storage.MatchID(1); id <= 2; id++ {
			if _, err := h.db.Act(t.Context(), id, 0, storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 3, At: began}); err != nil {
				t.Error(err)
			}
		}
	}
	h.reads.beforeMove.Store(&begin)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("match", "1"), discordtest.Opt("from", mv.From.String()), discordtest.Opt("to", mv.To.String())).Reply(t)
	h.waitMoves(1, 1)
	h.outboxEmpty()
	if back := h.match(2).VacationUntil(game.Red); !back.IsZero() {
		t.Errorf("her vacation holds match #2 until %v after her move in #1", back.Sub(began))
	}
	if m := h.match(2); !m.Deadline.Equal(due) {
		t.Errorf("her deadline in match #2 after her move in #1: %v, want %v", m.Deadline.Sub(began), due.Sub(began))
	}
	if _, on := h.bot.settingsOf(t.Context(), h.alice.ID).OnVacation(h.clock.Now()); on {
		t.Error("her settings say she is on vacation after her move")
	}
}
