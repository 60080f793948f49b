package storagetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// testPauseRaced: presses of the same moment on a proposal to pause, as a
// double click or two processes sharing the store make them, take effect
// once. The same proposal made four times at once is made once, owes its
// opponent one question and counts once; four acceptances at once pause
// the match once. An answer naming the days of a proposal withdrawn and
// made again for other days, in between, answers nothing.
func testPauseRaced(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 16)
	Deliver(t, s, T0)
	at := T0.Add(time.Hour)
	act := func(kind storage.ActionKind, side game.Side, days int) (*storage.Match, error) {
		return s.Act(ctx, m.ID, 0, storage.Action{Kind: kind, Side: side, Days: days, At: at})
	}
	// all makes the same action n times at once and returns how many were
	// recorded, failing on an error other than refused.
	all := func(what string, n int, kind storage.ActionKind, side game.Side, days int, refused error) int {
		t.Helper()
		return recordedAtOnce(t, what, n, refused, func(int) error {
			_, err := act(kind, side, days)
			return err
		})
	}

	if n := all("the same proposal four times at once", 4, storage.ActOfferPause, game.Red, 3, storage.ErrPauseOffered); n != 1 {
		t.Errorf("%d of four proposals at once were made, want 1", n)
	}
	if got := dueEvents(t, s, at); got != "pause-offered>blue" {
		t.Errorf("the proposals owe %s, want pause-offered>blue", got)
	}
	Deliver(t, s, at)
	_, err := act(storage.ActOfferPause, game.Red, 3)
	wantErr(t, "the same proposal again", err, storage.ErrPauseOffered)
	if m = must(s.Match(ctx, m.ID)).in(t); m.PauseOffersBy(game.Red) != 1 {
		t.Errorf("Red proposed %d times, want 1", m.PauseOffersBy(game.Red))
	}

	// Withdrawn and made again for other days: an answer to the old one
	// is refused, the new one stands.
	must(act(storage.ActDeclinePause, game.Red, 3)).in(t)
	must(act(storage.ActOfferPause, game.Red, 14)).in(t)
	Deliver(t, s, at)
	for _, kind := range []storage.ActionKind{storage.ActAcceptPause, storage.ActDeclinePause} {
		_, err := act(kind, game.Blue, 3)
		wantErr(t, "an answer to the proposal of 3 days", err, storage.ErrPauseOfferChanged)
	}
	if by, days, ok := must(s.Match(ctx, m.ID)).in(t).PauseOffer(); !ok || by != game.Red || days != 14 {
		t.Fatalf("the proposal standing: %v %d %v, want Red's of 14 days", by, days, ok)
	}

	if n := all("four acceptances at once", 4, storage.ActAcceptPause, game.Blue, 14, storage.ErrNoPauseOffer); n != 1 {
		t.Errorf("%d of four acceptances at once were recorded, want 1", n)
	}
	m = must(s.Match(ctx, m.ID)).in(t)
	if want := at.Add(14 * 24 * time.Hour); !m.PausedUntil().Equal(want) {
		t.Errorf("paused until %v, want %v", m.PausedUntil(), want)
	}
	if got := dueEvents(t, s, at); got != "paused>red paused>blue paused>public" {
		t.Errorf("the acceptances owe %s", got)
	}
	CheckReplay(t, m)
}

// testGiftsRaced: gifts of time made at the version a request read, as
// the bot makes them, give once however many presses of one moment, on
// however many processes, read it: the others are refused as stale (the
// bot then finds the gift made and says so). Each gift owes the opponent
// one notice.
func testGiftsRaced(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 17)
	Deliver(t, s, T0)
	at := T0.Add(time.Hour)
	read := must(s.Match(ctx, m.ID)).in(t)
	given := recordedAtOnce(t, "a gift at once", 4, storage.ErrStale, func(int) error {
		_, err := s.Act(ctx, m.ID, read.Version, storage.Action{Kind: storage.ActGiveTime, Side: game.Blue, At: at})
		return err
	})
	if given != 1 {
		t.Errorf("%d of four gifts at once were given, want 1", given)
	}
	m = must(s.Match(ctx, m.ID)).in(t)
	if m.GiftsBy(game.Blue) != 1 || !m.Deadline.Equal(read.Deadline.Add(m.GiftTime())) {
		t.Errorf("Blue gave %d times, the deadline moved by %v; want once, by %v", m.GiftsBy(game.Blue), m.Deadline.Sub(read.Deadline), m.GiftTime())
	}
	if got := dueEvents(t, s, at); got != "time-given>red" {
		t.Errorf("the gifts owe %s, want time-given>red", got)
	}
}

// testPauseCrossed: a proposal to pause made while the opponent's stands
// never replaces it silently. For other days it is refused
// (ErrPauseOfferStands): the standing one is unchanged, nobody is told,
// and it does not count against the proposer. For the same days it
// accepts it, in the transaction that records it: the match pauses, and
// both players and the channel are told. Two proposals of the same days
// made at once are one proposal and its acceptance.
func testPauseCrossed(t *testing.T, s storage.Store) {
	ctx := context.Background()
	m := Started(t, s, NewMatch(game.VariantClassic), 18)
	Deliver(t, s, T0)
	at := T0.Add(time.Hour)
	act := func(m *storage.Match, side game.Side, days int) (*storage.Match, error) {
		return s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActOfferPause, Side: side, Days: days, At: at})
	}
	must(act(m, game.Red, 3)).in(t)
	Deliver(t, s, at)
	_, err := act(m, game.Blue, 5)
	wantErr(t, "Blue's proposal of 5 days while Red's of 3 stands", err, storage.ErrPauseOfferStands)
	m = must(s.Match(ctx, m.ID)).in(t)
	if by, days, ok := m.PauseOffer(); !ok || by != game.Red || days != 3 || m.PauseOffersBy(game.Blue) != 0 {
		t.Fatalf("the proposal standing: %v %d %v, Blue's proposals %d; want Red's of 3 days, none of Blue's", by, days, ok, m.PauseOffersBy(game.Blue))
	}
	if got := dueEvents(t, s, at); got != "" {
		t.Errorf("a refused proposal owes %s", got)
	}
	m = must(act(m, game.Blue, 3)).in(t)
	if last := m.Log[len(m.Log)-1]; last.Kind != storage.ActAcceptPause || last.Side != game.Blue || last.Days != 3 {
		t.Fatalf("Blue's proposal of Red's days was recorded as %v by %v for %d days, want Blue's acceptance of 3", last.Kind, last.Side, last.Days)
	}
	if want := at.Add(3 * 24 * time.Hour); !m.PausedUntil().Equal(want) || m.PauseOffersBy(game.Blue) != 0 {
		t.Errorf("paused until %v, want %v; Blue's proposals %d, want 0", m.PausedUntil(), want, m.PauseOffersBy(game.Blue))
	}
	if got := dueEvents(t, s, at); got != "paused>red paused>blue paused>public" {
		t.Errorf("the pause agreed owes %s", got)
	}
	CheckReplay(t, m)

	// Both propose the same days at once: one proposes, the other accepts.
	m = Started(t, s, NewMatch(game.VariantClassic), 19)
	Deliver(t, s, T0)
	recordedAtOnce(t, "a proposal of the same days made at once", 2, nil, func(side int) error {
		_, err := act(m, game.Side(side), 2)
		return err
	})
	m = must(s.Match(ctx, m.ID)).in(t)
	if want := at.Add(2 * 24 * time.Hour); !m.PausedUntil().Equal(want) || m.PauseOffersBy(game.Red)+m.PauseOffersBy(game.Blue) != 1 {
		t.Errorf("two proposals of 2 days at once: paused until %v, want %v, with %d proposals, want 1", m.PausedUntil(), want, m.PauseOffersBy(game.Red)+m.PauseOffersBy(game.Blue))
	}
	CheckReplay(t, m)
}

// recordedAtOnce calls act n times at once (the k-th with k), as a double
// click or processes sharing the store do, and returns how many calls were
// recorded, failing t on an error other than refused.
func recordedAtOnce(t *testing.T, what string, n int, refused error, act func(k int) error) int {
	t.Helper()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = act(k)
		}()
	}
	wg.Wait()
	recorded := 0
	for _, err := range errs {
		switch {
		case err == nil:
			recorded++
		case refused == nil || !errors.Is(err, refused):
			t.Errorf("%s: error %v, want %v", what, err, refused)
		}
	}
	return recorded
}
