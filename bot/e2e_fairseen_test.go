package bot

import (
	"context"
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
