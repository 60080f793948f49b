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
