package bot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
)

// TestVacationHealsAfterACrash: the bot stops (a crash) where a vacation
// costs days for nothing, or holds what it no longer should, and is
// started again on the same file. Alice's vacation is then ended, by the
// timers at start or in their hourly look, at the last time it stopped a
// clock, or taken back when it stopped none; one that still stops a clock
// goes on, and stops the clocks it had not reached yet: she was told
// nothing, and asking again she is told she is on vacation. One her move
// in a match it held ended is over everywhere, from that move (one that
// ended that match too), and so is one ended in her settings only, or
// there and in some of her matches, whose end then reaches every match
// that holds it, however long the bot was down; one she ends, or Bob acts
// in one of her matches, as the timers stop the clocks it missed ends or
// goes on everywhere, and no match's log is out of order. Otherwise
// the matches are left as they are: Bob is told nothing of her vacation,
// nor is she, and her allowance shows the days back.
func TestVacationHealsAfterACrash(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	tests := []struct {
		name    string
		matches int
		// asked: Alice asked for a vacation of five days before the crash.
		asked bool
		// crash writes what the bot had stored when it stopped, at now,
		// two days into the vacation.
		crash func(t *testing.T, db storage.Store, now time.Time)
		// wait after the restart: the timers' look at start leaves alone a
		// vacation that may still be stopping its clocks.
		wait     time.Duration
		onAfter  bool
		wantUsed int
		answer   string // to `/stratego vacation` after
		// bobTold and aliceTold: DMs about her vacation Bob and she get
		// after the restart: the one a clock stopped before the crash
		// owes him, and those of the clocks it stops or ends then.
		bobTold, aliceTold int
		// held: her vacation holds her clock in each of her matches still
		// on after it (else in none).
		held bool
		// down: how long the bot stays down after the crash.
		down time.Duration
		// meanwhile, when set, runs before each Act of the restarted bot:
		// what a member does as the timers heal the vacation.
		meanwhile func(h *harness) func(id storage.MatchID, a storage.Action)
	}{
		{name: "her only match ended before her vacation did", matches: 1, asked: true,
			crash: resignFor(game.Blue), onAfter: false, wantUsed: 2, answer: "You have 28 days of vacation left this year"},
		{name: "one of her two matches ended", matches: 2, asked: true,
			crash: resignFor(game.Blue), onAfter: true, wantUsed: 5, answer: "You are on vacation already", held: true},
		{name: "recorded, no clock stopped yet", matches: 1,
			crash: startVacation(false), wait: vacationCheck, onAfter: false, wantUsed: 0, answer: "You have 30 days of vacation left this year"},
		{name: "recorded, a clock stopped", matches: 1,
			crash: startVacation(true), wait: vacationCheck, onAfter: true, wantUsed: 5, answer: "You are on vacation already", bobTold: 1, held: true},
		{name: "recorded, one of two clocks stopped", matches: 2,
			crash: startVacation(true), wait: vacationCheck, onAfter: true, wantUsed: 5, answer: "You are on vacation already", bobTold: 2, held: true},
		{name: "her move in one of two matches ended it", matches: 2, asked: true,
			crash: moveFor(game.Red), onAfter: false, wantUsed: 2, answer: "You have 28 days of vacation left this year", bobTold: 1, aliceTold: 1},
		{name: "her move in one of two matches ended it, and that match", matches: 2, asked: true,
			crash: both(moveFor(game.Red), resignFor(game.Blue)), onAfter: false, wantUsed: 2, answer: "You have 28 days of vacation left this year", bobTold: 1, aliceTold: 1},
		{name: "she ended it, in her settings and one of two matches", matches: 2, asked: true,
			crash: endVacation(1), onAfter: false, wantUsed: 2, answer: "You have 28 days of vacation left this year", bobTold: 2, aliceTold: 2},
		{name: "she ended it, in her settings only", matches: 2, asked: true,
			crash: endVacation(0), onAfter: false, wantUsed: 2, answer: "You have 28 days of vacation left this year", bobTold: 2, aliceTold: 2},
		{name: "she ended it in her settings, and the bot stayed down for hours", matches: 2, asked: true, down: 5 * time.Hour,
			crash: endVacation(0), onAfter: false, wantUsed: 2, answer: "You have 28 days of vacation left this year", bobTold: 2, aliceTold: 2},
		{name: "recorded, one of two clocks stopped, and she ends it as the timers stop the other", matches: 2,
			crash: startVacation(true), wait: vacationCheck, meanwhile: endsMeanwhile, onAfter: false, wantUsed: 1, answer: "You have 29 days of vacation left this year", bobTold: 4, aliceTold: 2},
		{name: "recorded, one of three clocks stopped, and Bob acts in one as the timers stop the others", matches: 3,
			crash: startVacation(true), wait: vacationCheck, meanwhile: bobActsMeanwhile, onAfter: true, wantUsed: 5, answer: "You are on vacation already", bobTold: 3, held: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatchesInPlay(tc.matches)
			if tc.asked {
				h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t)
				h.advance(2 * day)
			}
			h.outboxEmpty()
			told := [2]int{countDMs(h.alice, "vacation"), countDMs(h.bob, "vacation")}

			h.shutdown()
			db, err := bolt.Open(bolt.Options{Path: h.dbPath, NoSync: true, Reminders: Reminders})
			if err != nil {
				t.Fatal(err)
			}
			tc.crash(t, db, h.clock.Now())
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			h.clock.Advance(tc.down)
			if tc.meanwhile != nil {
				h.beforeAct = tc.meanwhile(h)
			}
			h.start()
			if tc.wait > 0 {
				h.advance(0)
				if _, on := h.bot.settingsOf(t.Context(), h.alice.ID).OnVacation(h.clock.Now()); !on {
					t.Errorf("a vacation just recorded was ended at once: its clocks may still be stopping")
				}
			}
			h.advance(tc.wait)
			h.outboxEmpty()

			settings := h.bot.settingsOf(t.Context(), h.alice.ID)
			if _, on := settings.OnVacation(h.clock.Now()); on != tc.onAfter || settings.VacationDaysUsed(h.clock.Now()) != tc.wantUsed {
				t.Errorf("after the restart: on vacation %v, %d days used; want %v, %d", on, settings.VacationDaysUsed(h.clock.Now()), tc.onAfter, tc.wantUsed)
			}
			if got := h.alice.SlashCommand(t, h.channel, "stratego vacation").Reply(t).Content; !strings.Contains(got, tc.answer) {
				t.Errorf("/stratego vacation answered %q, want %q in it", got, tc.answer)
			}
			told[0] += tc.aliceTold
			told[1] += tc.bobTold
			active, err := h.db.PlayerMatches(t.Context(), h.alice.ID, true, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range active {
				if held := !m.VacationUntil(game.Red).IsZero(); held != tc.held {
					t.Errorf("match #%s: her vacation holds her clock %v, want %v", m.ID, held, tc.held)
				}
			}
			for id := storage.MatchID(1); id <= storage.MatchID(tc.matches); id++ {
				m, err := h.db.Match(t.Context(), id)
				if err != nil {
					t.Fatal(err)
				}
				for k := 1; k < len(m.Log); k++ {
					if m.Log[k].At.Before(m.Log[k-1].At) {
						t.Errorf("match #%s: its log's action %d (%s at %v) is dated before the one before it (%s at %v)", id, k, m.Log[k], m.Log[k].At, m.Log[k-1], m.Log[k-1].At)
					}
				}
			}
			if now := [2]int{countDMs(h.alice, "vacation"), countDMs(h.bob, "vacation")}; now != told {
				for _, p := range []*discordtest.Member{h.alice, h.bob} {
					for _, msg := range p.DMs() {
						t.Logf("%s: %q", p.Name, msg.Content)
					}
				}
				t.Errorf("DMs about a vacation (alice, bob): %v before the crash, %v after", told, now)
			}
		})
	}
}

// resignFor is a crash after side resigned match #1, stored, before the bot
// ended the vacations it held.
func resignFor(side game.Side) func(t *testing.T, db storage.Store, now time.Time) {
	return func(t *testing.T, db storage.Store, now time.Time) {
		t.Helper()
		if _, err := db.Act(context.Background(), 1, 0, storage.Action{Kind: storage.ActResign, Side: side, At: now}); err != nil {
			t.Fatal(err)
		}
	}
}

// both is a crash after first and then second.
func both(first, second func(t *testing.T, db storage.Store, now time.Time)) func(t *testing.T, db storage.Store, now time.Time) {
	return func(t *testing.T, db storage.Store, now time.Time) {
		t.Helper()
		first(t, db, now)
		second(t, db, now)
	}
}

// endVacation is a crash after Alice ended her vacation (`/stratego
// vacation end:true`, or a move of hers) in her settings and in her first
// n matches, before the bot ended it in the others.
func endVacation(n int) func(t *testing.T, db storage.Store, now time.Time) {
	return func(t *testing.T, db storage.Store, now time.Time) {
		t.Helper()
		ctx := context.Background()
		m, err := db.Match(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.UpdatePlayer(ctx, m.Players[game.Red].UserID, func(s *storage.PlayerSettings) error {
			if !s.EndVacation(now) {
				t.Error("she was not on vacation")
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for id := storage.MatchID(1); id <= storage.MatchID(n); id++ {
			if _, err := db.Act(ctx, id, 0, storage.Action{Kind: storage.ActVacationEnd, Side: game.Red, At: now}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// endsMeanwhile: as the timers stop Alice's first clock her vacation had
// missed, she ends her vacation (`/stratego vacation end:true`): in her
// settings and in the matches that hold it then, not yet that one.
func endsMeanwhile(h *harness) func(id storage.MatchID, a storage.Action) {
	var once sync.Once
	return func(id storage.MatchID, a storage.Action) {
		if a.Kind != storage.ActVacation {
			return
		}
		once.Do(func() {
			if ended, _ := h.bot.endVacation(context.Background(), h.alice.ID, h.clock.Now()); !ended {
				h.t.Error("her vacation was not under way")
			}
		})
	}
}

// bobActsMeanwhile: as the timers stop Alice's first clock her vacation
// had missed, a minute into their pass, Bob offers her a pause in the
// other match it missed.
func bobActsMeanwhile(h *harness) func(id storage.MatchID, a storage.Action) {
	var once sync.Once
	return func(id storage.MatchID, a storage.Action) {
		if a.Kind != storage.ActVacation || id == 1 {
			return
		}
		once.Do(func() {
			other := storage.MatchID(5 - id) // of #2 and #3
			h.clock.Advance(time.Minute)
			if _, err := h.db.Act(context.Background(), other, 0, storage.Action{Kind: storage.ActOfferPause, Side: game.Blue, Days: 3, At: h.clock.Now()}); err != nil {
				h.t.Errorf("Bob's offer of a pause in match #%d: %v", other, err)
			}
		})
	}
}

// moveFor is a crash after side moved in match #1, stored, before the bot
// ended the mover's vacation in their other matches.
func moveFor(side game.Side) func(t *testing.T, db storage.Store, now time.Time) {
	return func(t *testing.T, db storage.Store, now time.Time) {
		t.Helper()
		m, err := db.Match(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		g, err := m.Game()
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.ApplyMove(context.Background(), 1, 0, side, g.LegalMoves()[0], now); err != nil {
			t.Fatal(err)
		}
	}
}

// startVacation is a crash after Alice's vacation of five days was recorded
// in her settings, before it stopped her clock in any match, or (stopped)
// after it stopped the one of match #1.
func startVacation(stopped bool) func(t *testing.T, db storage.Store, now time.Time) {
	return func(t *testing.T, db storage.Store, now time.Time) {
		t.Helper()
		ctx := context.Background()
		m, err := db.Match(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		user := m.Players[game.Red].UserID
		if _, err := db.UpdatePlayer(ctx, user, func(s *storage.PlayerSettings) error { return s.StartVacation(now, 5) }); err != nil {
			t.Fatal(err)
		}
		if !stopped {
			return
		}
		if _, err := db.Act(ctx, 1, 0, storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 5, At: now}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestVacationOutlivesAMatchEndingAsItStarts: Alice asks for a vacation of
// five days with two matches in play. While the bot stops her clocks, the
// match it stopped first ends (Bob resigns it) before it reaches the other.
// Her vacation then stops the other match's clock for five days, so it is
// not over with the first match's end: it goes on, charged in full, or
// the match would wait for her while her allowance has the days back. With
// her second match over meanwhile too, it stopped a clock for no time, and
// costs nothing.
func TestVacationOutlivesAMatchEndingAsItStarts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		secondOver bool // Bob resigned the second match meanwhile too: no clock stops there
		onAfter    bool
		wantUsed   int
	}{
		{name: "the other match stops", onAfter: true, wantUsed: 5},
		{name: "the other match is over too", secondOver: true, onAfter: false, wantUsed: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatchesInPlay(2)
			var first storage.MatchID
			hook := func(id storage.MatchID, a storage.Action) {
				if a.Kind != storage.ActVacation {
					return
				}
				if first == 0 {
					first = id
					return
				}
				// The second clock to stop: the first match ends meanwhile.
				h.reads.beforeAct.Store(nil)
				ended, err := h.db.Act(t.Context(), first, 0, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: h.clock.Now()})
				if err != nil {
					t.Errorf("resigning match #%d: %v", first, err)
					return
				}
				h.bot.vacationsOverWith(t.Context(), ended)
				if tc.secondOver {
					if _, err := h.db.Act(t.Context(), id, 0, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: h.clock.Now()}); err != nil {
						t.Errorf("resigning match #%d: %v", id, err)
					}
				}
			}
			h.reads.beforeAct.Store(&hook)
			h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t)
			if first == 0 {
				t.Fatal("no clock stopped")
			}
			h.advance(vacationCheck + time.Minute) // the hourly look, too, leaves it right
			h.outboxEmpty()
			settings := h.bot.settingsOf(t.Context(), h.alice.ID)
			now := h.clock.Now()
			if _, on := settings.OnVacation(now); on != tc.onAfter || settings.VacationDaysUsed(now) != tc.wantUsed {
				t.Errorf("on vacation %v, %d days used; want %v, %d", on, settings.VacationDaysUsed(now), tc.onAfter, tc.wantUsed)
			}
		})
	}
}
