package bot

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// TestVacationTwiceAcrossASecond: alice's /stratego vacation reads the
// time, 12:00:00.95, and waits on Discord for its deferral; meanwhile a
// second command of hers, which read 12:00:01.05, starts her vacation (a
// vacation begins at a whole second: 12:00:01). The first is told she is on
// vacation already, and takes no days: it found no vacation under way at
// its own time, and recorded a second one, five days charged twice.
func TestVacationTwiceAcrossASecond(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.outboxEmpty()
	now := h.clock.Now()
	h.clock.Advance(950*time.Millisecond - time.Duration(now.Nanosecond()))
	now = h.clock.Now()
	other := now.Add(100 * time.Millisecond) // the time the other command read

	hold := h.srv.HoldNext(t, callbackRoute, 1)
	answered := make(chan string, 1)
	go func() {
		answered <- h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t).Content
	}()
	h.srv.WaitFor(t, "the command to defer", func() bool { return hold.Waiting() == 1 })
	ctx := context.Background()
	if _, err := h.db.UpdatePlayer(ctx, h.alice.ID, func(s *storage.PlayerSettings) error { return s.StartVacation(other, 5) }); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Act(ctx, 1, 0, storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 5, At: other}); err != nil {
		t.Fatal(err)
	}
	hold.Release()
	got := <-answered
	until := other.Truncate(time.Second).Add(5 * 24 * time.Hour)
	if want := lang.For("en").Sprintf(txtVacationUnderway, unix(until)); got != want {
		t.Errorf("the command was answered %q; want %q", got, want)
	}
	s, err := h.db.Player(ctx, h.alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Vacations) != 1 || s.VacationDaysUsed(now) != 5 {
		t.Errorf("alice's vacations: %+v, %d days used; want the one of 5 days", s.Vacations, s.VacationDaysUsed(now))
	}
	n := 0
	for _, a := range h.match(1).Log {
		if a.Kind == storage.ActVacation {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the match's log holds %d vacations, want 1", n)
	}
	h.clock.Advance(time.Second)
	h.bot.deliverDue(ctx) // the other command's, made behind the bot's back
	h.outboxEmpty()
}

// TestOldDeclineKeepsOnesOwnProposal: alice presses Decline under bob's
// proposal of 3 days as he withdraws it and she proposes 5 days herself,
// after her press read the match and before it is recorded. Her press
// names the proposal of 3 days, which is gone: her own of 5, which bob was
// asked about, stands, and she is told so, in her language.
func TestOldDeclineKeepsOnesOwnProposal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t)
	h.outboxEmpty()
	ask := h.alice.WaitDM(t, contains("bob proposes to pause the match for 3 days"))
	var once sync.Once
	meanwhile := func(id storage.MatchID, a storage.Action) {
		if a.Side != game.Red {
			return
		}
		once.Do(func() {
			for _, a := range []storage.Action{{Kind: storage.ActDeclinePause, Side: game.Blue}, {Kind: storage.ActOfferPause, Side: game.Red, Days: 5}} {
				a.At = h.clock.Now()
				if _, err := h.db.Act(t.Context(), id, 0, a); err != nil {
					t.Errorf("%v: %v", a, err)
				}
			}
		})
	}
	h.reads.beforeAct.Store(&meanwhile)
	h.alice.SetLocale("de")
	got := h.alice.ClickButton(t, ask, button(t, ask, "Decline")).Reply(t).Content
	h.reads.beforeAct.Store(nil)
	de := lang.For("de")
	if want := de.Sprintf(txtPauseOwnOfferStands, de.Sprintf(txtDays, 5)); got != want {
		t.Errorf("alice's press was answered %q; want %q", got, want)
	}
	if by, days, ok := h.match(1).PauseOffer(); !ok || by != game.Red || days != 5 {
		t.Errorf("the proposal standing: %v %d %v; want alice's of 5 days", by, days, ok)
	}
	h.bot.deliverDue(t.Context()) // the actions made behind the bot's back
	h.outboxEmpty()
}

// TestWebGiftOncePerPage: bob's page gives alice more time for the gifts
// it showed: its double click, a second request 150 ms after the first was
// answered, gives once and is told, in bob's language, that the time was
// given already; so is a page that showed his gifts before another tab's.
// A page that does not say what it showed (one loaded before pages said
// it) gives for the gifts as they are.
func TestWebGiftOncePerPage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	base := webOn(t, h)
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	sergeant := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.sendSetups(sergeant, sergeant)
	h.waitMoves(1, 0)
	link := openBoardLink(t, h.bob.WaitDM(t, contains("Send me your secret set-up")))
	if _, err := h.db.UpdatePlayer(t.Context(), h.bob.ID, func(p *storage.PlayerSettings) error { p.Locale = "fr"; return nil }); err != nil {
		t.Fatal(err)
	}
	fr := lang.For("fr")
	already := func() string {
		m := h.match(1)
		return h.bot.givenAlreadyText(fr, m, game.Blue)
	}
	steps := []struct {
		name  string
		body  string
		code  int
		gifts int // bob's, after
	}{
		{"the first click", `{"given":0}`, 200, 1},
		{"the double click", `{"given":0}`, 409, 1},
		{"a page that says nothing", `{}`, 200, 2},
		{"a page behind that gift", `{"given":1}`, 409, 2},
		{"the page once it showed it", `{"given":2}`, 200, 3},
	}
	for _, st := range steps {
		before := h.match(1)
		code, body := apiStatus(t, base, link, "POST", "/api/givetime", st.body)
		if code != st.code {
			t.Fatalf("%s: answered %d %s, want %d", st.name, code, body, st.code)
		}
		m := h.match(1)
		if code != 200 {
			var refused struct{ Error string }
			if err := json.Unmarshal([]byte(body), &refused); err != nil || refused.Error != already() {
				t.Errorf("%s: refused with %q (%v), want %q", st.name, body, err, already())
			}
			if m.Version != before.Version {
				t.Errorf("%s: refused, it changed the match: version %d, was %d", st.name, m.Version, before.Version)
			}
		}
		if got := m.GiftsBy(game.Blue); got != st.gifts {
			t.Errorf("%s: bob gave %d times, want %d", st.name, got, st.gifts)
		}
		h.clock.Advance(150 * time.Millisecond)
	}
	h.bot.deliverDue(t.Context())
	h.outboxEmpty()
	if n := countDMs(h.alice, "bob gave you 1 day more"); n != 3 {
		t.Errorf("alice was told %d times of a gift, want 3", n)
	}
}
