package storagetest

import (
	"context"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// testOwnWithdrawalNamesDays: a proposer's withdrawal that names the days
// of the proposal it takes back (as an old page's does) takes back only a
// proposal of those days: one withdrawn and made again for other days,
// which the opponent was asked about, stands. One naming no days (the
// command's) takes back whatever stands.
func testOwnWithdrawalNamesDays(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 18)
	Deliver(t, s, T0)
	at := T0.Add(time.Hour)
	act := func(kind storage.ActionKind, days int) (*storage.Match, error) {
		return s.Act(ctx, m.ID, 0, storage.Action{Kind: kind, Side: game.Red, Days: days, At: at})
	}
	must(act(storage.ActOfferPause, 3)).in(t)
	must(act(storage.ActDeclinePause, 3)).in(t)
	must(act(storage.ActOfferPause, 5)).in(t)
	Deliver(t, s, at)
	before := must(s.Match(ctx, m.ID)).in(t)
	_, err := act(storage.ActDeclinePause, 3)
	wantErr(t, "a withdrawal of the proposal of 3 days", err, storage.ErrPauseOfferChanged)
	m = must(s.Match(ctx, m.ID)).in(t)
	if by, days, ok := m.PauseOffer(); !ok || by != game.Red || days != 5 || m.Version != before.Version {
		t.Errorf("after it: proposal %v %d %v, version %d (was %d); want Red's of 5 days, unchanged", by, days, ok, m.Version, before.Version)
	}
	must(act(storage.ActDeclinePause, 5)).in(t)
	if _, _, ok := must(s.Match(ctx, m.ID)).in(t).PauseOffer(); ok {
		t.Error("the proposal of 5 days stands after its withdrawal naming it")
	}
	must(act(storage.ActOfferPause, 2)).in(t)
	m = must(act(storage.ActDeclinePause, 0)).in(t)
	if _, _, ok := m.PauseOffer(); ok {
		t.Error("a proposal stands after a withdrawal naming no days")
	}
	CheckReplay(t, m)
}

// testGiftsNumbered: a gift of time asked for as the one after the gifts
// its request saw (Action.Gift, as a page's press or a command asks) is
// given once, however far apart its presses come, and at once on however
// many processes: the others are refused (ErrGiftGiven) and change
// nothing. A gift after ones never given is refused as invalid; one that
// names none is given while gifts are left. The number is not kept.
func testGiftsNumbered(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 19)
	Deliver(t, s, T0)
	at := T0.Add(time.Hour)
	read := must(s.Match(ctx, m.ID)).in(t)
	give := func(gift int) (*storage.Match, error) {
		return s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActGiveTime, Side: game.Blue, Gift: gift, At: at})
	}
	given := recordedAtOnce(t, "the first gift asked four times at once", 4, storage.ErrGiftGiven, func(int) error {
		_, err := give(1)
		return err
	})
	if given != 1 {
		t.Errorf("%d of four first gifts at once were given, want 1", given)
	}
	if got := dueEvents(t, s, at); got != "time-given>red" {
		t.Errorf("the gifts owe %s, want time-given>red", got)
	}
	Deliver(t, s, at)
	before := must(s.Match(ctx, m.ID)).in(t)
	tests := []struct {
		name  string
		gift  int
		err   error // nil: given
		total int   // Blue's gifts after
	}{
		{"the first again, later", 1, storage.ErrGiftGiven, 1},
		{"the third before the second", 3, storage.ErrInvalid, 1},
		{"the second", 2, nil, 2},
		{"the second again", 2, storage.ErrGiftGiven, 2},
		{"one naming none", 0, nil, 3},
		{"the fourth", 4, storage.ErrNoGiftsLeft, 3},
		{"the third again, with none left", 3, storage.ErrGiftGiven, 3},
	}
	for _, tc := range tests {
		changed, err := give(tc.gift)
		if tc.err != nil {
			wantErr(t, tc.name, err, tc.err)
			if now := must(s.Match(ctx, m.ID)).in(t); now.Version != before.Version {
				t.Errorf("%s: refused, it changed the match: version %d, was %d", tc.name, now.Version, before.Version)
			}
		} else if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		} else {
			before = changed
		}
		if got := must(s.Match(ctx, m.ID)).in(t).GiftsBy(game.Blue); got != tc.total {
			t.Errorf("%s: Blue gave %d times, want %d", tc.name, got, tc.total)
		}
	}
	m = must(s.Match(ctx, m.ID)).in(t)
	for _, a := range m.Log {
		if a.Gift != 0 {
			t.Errorf("the log keeps a gift's number: %+v", a)
		}
	}
	if got, want := m.Deadline.Sub(read.Deadline), 3*m.GiftTime(); got != want {
		t.Errorf("the gifts moved Red's deadline by %v, want %v", got, want)
	}
	CheckReplay(t, m)
}
