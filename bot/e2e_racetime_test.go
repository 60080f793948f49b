package bot

import (
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// TestFairTimeTwiceAtOnce sends the commands of fair time twice or more,
// at once (a double press, a command sent again before its answer) or again
// once its first took effect: each takes effect once, the opponent is told
// once, and every other command is answered privately, in the member's
// language, with what happened.
func TestFairTimeTwiceAtOnce(t *testing.T) {
	t.Parallel()
	nl := lang.For("nl")
	tests := []struct {
		name    string
		command string
		args    []discordtest.Arg
		times   int
		atOnce  bool
		// first makes the command once, and delivers what it owes, before
		// the others.
		first bool
		kind  storage.ActionKind // the one action the commands add to the log
		told  string             // what bob's one DM says
		// done is the answer to the command that acts; refused, to every
		// other one.
		done, refused func(h *harness) string
	}{
		{name: "a pause proposed twice at once", command: "stratego pause", args: []discordtest.Arg{discordtest.Opt("days", 3)},
			times: 2, atOnce: true, kind: storage.ActOfferPause, told: "alice proposes to pause the match for 3 days",
			done:    func(*harness) string { return nl.Sprintf(txtPauseOffered, nl.Sprintf(txtDays, 3)) },
			refused: func(*harness) string { return nl.Sprintf(txtPauseOfferedAlready) }},
		{name: "a pause proposed again once the opponent was asked", command: "stratego pause", args: []discordtest.Arg{discordtest.Opt("days", 3)},
			times: 2, first: true, kind: storage.ActOfferPause, told: "alice proposes to pause the match for 3 days",
			done:    func(*harness) string { return nl.Sprintf(txtPauseOffered, nl.Sprintf(txtDays, 3)) },
			refused: func(*harness) string { return nl.Sprintf(txtPauseOfferedAlready) }},
		{name: "time given four times at once", command: "stratego give_time",
			times: 4, atOnce: true, kind: storage.ActGiveTime, told: "alice gave you 1 day more",
			done: func(h *harness) string {
				return nl.Sprintf(txtGaveTime, "bob", giftText(nl, h.match(1)), storage.MaxGifts-1)
			},
			refused: func(h *harness) string {
				return nl.Sprintf(txtGaveTimeAlready, "bob", giftText(nl, h.match(1)), storage.MaxGifts-1)
			}},
		{name: "a vacation started twice at once", command: "stratego vacation", args: []discordtest.Arg{discordtest.Opt("days", 5)},
			times: 2, atOnce: true, kind: storage.ActVacation, told: "alice is on vacation until",
			done: func(h *harness) string {
				return nl.Sprintf(txtVacationStarted, unix(h.clock.Now().Add(5*24*time.Hour)), 1, storage.DefaultVacationDays-5)
			},
			refused: func(h *harness) string {
				return nl.Sprintf(txtVacationUnderway, unix(h.clock.Now().Add(5*24*time.Hour)))
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			h.outboxEmpty()
			before := h.match(1)
			h.alice.SetLocale("nl")
			var answers []string
			n := tc.times
			if tc.first {
				answers = append(answers, h.alice.SlashCommand(t, h.channel, tc.command, tc.args...).Reply(t).Content)
				h.outboxEmpty()
				h.bob.WaitDM(t, contains(tc.told))
				n--
			}
			ins := make([]*discordtest.Interaction, n)
			if tc.atOnce {
				// Every command is in, and has read the match, before any
				// is answered and acts.
				hold := h.srv.HoldNext(t, callbackRoute, n)
				var wg sync.WaitGroup
				for k := range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						ins[k] = h.alice.SlashCommand(t, h.channel, tc.command, tc.args...)
					}()
				}
				wg.Wait()
				h.srv.WaitFor(t, "every command to be in", func() bool { return hold.Waiting() == n })
				hold.Release()
			}
			for k := range n {
				if !tc.atOnce {
					ins[k] = h.alice.SlashCommand(t, h.channel, tc.command, tc.args...)
				}
				answers = append(answers, ins[k].Reply(t).Content)
			}
			h.outboxEmpty()

			done, refused := 0, 0
			for k, got := range answers {
				switch got {
				case tc.done(h):
					done++
				case tc.refused(h):
					refused++
				default:
					t.Errorf("command %d was answered %q; want %q or %q", k, got, tc.done(h), tc.refused(h))
				}
			}
			if done != 1 || refused != tc.times-1 {
				t.Errorf("%d commands acted and %d were refused; want 1 and %d", done, refused, tc.times-1)
			}
			after := h.match(1)
			added := after.Log[len(before.Log):]
			if len(added) != 1 || added[0].Kind != tc.kind {
				t.Errorf("the commands added %v to the log; want one %v", added, storage.Action{Kind: tc.kind})
			}
			if got := countDMs(h.bob, tc.told); got != 1 {
				t.Errorf("bob was told %d times %q; want once", got, tc.told)
			}
		})
	}
}

// TestPauseAnsweredAsItChanges: bob presses Pause or Decline under alice's
// proposal of 3 days just as she withdraws it, or withdraws it and
// proposes 14 days instead, after his press read the match and before it
// is recorded. His press answers the proposal its buttons showed, which is
// gone: nothing is agreed or declined, and he is told, in his language,
// what she did and what stands now.
func TestPauseAnsweredAsItChanges(t *testing.T) {
	t.Parallel()
	fr := lang.For("fr")
	tests := []struct {
		name      string
		meanwhile []storage.Action // alice's, as bob presses
		want      string
		standing  int // the days of the proposal standing after; 0: none
	}{
		{"withdrawn", []storage.Action{{Kind: storage.ActDeclinePause}},
			fr.Sprintf(txtPauseWithdrawnBy, "alice"), 0},
		{"made again for other days", []storage.Action{{Kind: storage.ActDeclinePause}, {Kind: storage.ActOfferPause, Days: 14}},
			fr.Sprintf(txtPauseOfferChanged, "alice", fr.Sprintf(txtDays, 14)), 14},
	}
	for _, tc := range tests {
		for _, label := range []string{"Pause", "Decline"} {
			t.Run(tc.name+"/"+label, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t)
				h.dayMatch()
				h.waitMoves(1, 0)
				h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t)
				h.outboxEmpty()
				ask := h.bob.WaitDM(t, contains("alice proposes to pause the match for 3 days"))
				var once sync.Once
				meanwhile := func(id storage.MatchID, a storage.Action) {
					if a.Side != game.Blue {
						return
					}
					once.Do(func() {
						for _, a := range tc.meanwhile {
							a.Side, a.At = game.Red, h.clock.Now()
							if _, err := h.db.Act(t.Context(), id, 0, a); err != nil {
								t.Errorf("alice's %v: %v", a, err)
							}
						}
					})
				}
				h.reads.beforeAct.Store(&meanwhile)
				h.bob.SetLocale("fr")
				got := h.bob.ClickButton(t, ask, button(t, ask, label)).Reply(t).Content
				h.reads.beforeAct.Store(nil)
				if got != tc.want {
					t.Errorf("bob's press was answered %q; want %q", got, tc.want)
				}
				h.bot.deliverDue(t.Context()) // alice's actions, made behind the bot's back
				h.outboxEmpty()
				m := h.match(1)
				by, days, ok := m.PauseOffer()
				if !m.PausedUntil().IsZero() || ok != (tc.standing != 0) || (ok && (by != game.Red || days != tc.standing)) {
					t.Errorf("paused until %v, proposal standing %v %d %v; want alice's of %d days, unanswered", m.PausedUntil(), by, days, ok, tc.standing)
				}
				if n := countDMs(h.alice, "bob declined the pause"); n != 0 {
					t.Errorf("alice was told %d times that bob declined", n)
				}
			})
		}
	}
}

// TestGiftRacedByAnotherChange: alice's gift of time reads the match, and
// bob proposes a pause before it is recorded. The gift, made for the
// gifts it read (none), is given, once: another change does not refuse it.
func TestGiftRacedByAnotherChange(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.outboxEmpty()
	var once sync.Once
	meanwhile := func(id storage.MatchID, a storage.Action) {
		if a.Kind != storage.ActGiveTime {
			return
		}
		once.Do(func() {
			if _, err := h.db.Act(t.Context(), id, 0, storage.Action{Kind: storage.ActOfferPause, Side: game.Blue, Days: 2, At: h.clock.Now()}); err != nil {
				t.Errorf("bob's proposal: %v", err)
			}
		})
	}
	h.reads.beforeAct.Store(&meanwhile)
	got := h.alice.SlashCommand(t, h.channel, "stratego give_time").Reply(t).Content
	h.reads.beforeAct.Store(nil)
	m := h.match(1)
	if want := lang.For("en").Sprintf(txtGaveTime, "bob", giftText(lang.For("en"), m), storage.MaxGifts-1); got != want {
		t.Errorf("the gift was answered %q; want %q", got, want)
	}
	if n := m.GiftsBy(game.Red); n != 1 {
		t.Errorf("alice gave %d times, want once", n)
	}
	h.bot.deliverDue(t.Context()) // bob's proposal, made behind the bot's back
	h.outboxEmpty()
	if n := countDMs(h.bob, "alice gave you 1 day more"); n != 1 {
		t.Errorf("bob was told %d times of the gift, want once", n)
	}
}

// TestPauseDeclinedByAMove: bob moves, which declines alice's proposal by
// playing on, and then presses Pause under it (or the two at once, his
// move first). He is told his move declined it, in his language, not how
// to propose a pause.
func TestPauseDeclinedByAMove(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
	h.outboxEmpty()
	ask := h.bob.WaitDM(t, contains("alice proposes to pause the match for 2 days"))
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	editHeld(t, h, h.bob) // the press comes before the DM loses its buttons
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
	h.waitStored(1, 2)
	h.bob.SetLocale("de")
	de := lang.For("de")
	want := de.Sprintf(txtPauseDeclinedByMove)
	if got := h.bob.ClickButton(t, ask, button(t, ask, "Pause")).Reply(t).Content; got != want {
		t.Errorf("bob's Pause after his move was answered %q; want %q", got, want)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t).Content; got != want {
		t.Errorf("bob's accept after his move was answered %q; want %q", got, want)
	}
	if m := h.match(1); !m.PausedUntil().IsZero() || len(m.Log) != 3 {
		t.Errorf("paused until %v, log %v; want no pause, the proposal and two moves", m.PausedUntil(), m.Log)
	}
}
