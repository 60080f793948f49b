package storagetest

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// NewSeek returns a Classic seek of a day per move by user in guild "g1",
// channel "c1", made at created for an hour.
func NewSeek(user string, created time.Time) *storage.Seek {
	return &storage.Seek{
		GuildID: "g1", ChannelID: "c1", Player: storage.Player{UserID: user, Name: "P" + user},
		TimeClass: "24h", Rules: game.DefaultRules(game.VariantClassic), MoveTime: 24 * time.Hour,
		Rating: 1500, Created: created, Expires: created.Add(time.Hour),
	}
}

func testSeeks(t *testing.T, s storage.Store) {
	ctx := context.Background()
	place := func(k *storage.Seek) storage.SeekOutcome {
		t.Helper()
		return must(s.PlaceSeek(ctx, k, game.Red)).in(t)
	}
	users := func(q []*storage.Seek) []string {
		var out []string
		for _, k := range q {
			out = append(out, k.Player.UserID)
		}
		return out
	}
	first := NewSeek("1001", T0)
	first.RatingMin = 1550 // no 1500 will do
	first.TimeClass, first.MoveTime = "12h", 12*time.Hour
	if got := place(first); got.Match != nil || got.Seek == nil || got.Replaced != nil {
		t.Fatalf("the first seek: %+v", got)
	}
	// A second seek of the member replaces the first.
	ann := NewSeek("1001", T0.Add(time.Minute))
	ann.RatingMin = 1550
	if got := place(ann); got.Match != nil || got.Replaced == nil || got.Replaced.TimeClass != "12h" {
		t.Fatalf("the replacing seek: %+v", got)
	}
	q := must(s.Seeks(ctx, "g1", T0.Add(2*time.Minute))).in(t)
	if len(q) != 1 || !reflect.DeepEqual(q[0], ann) {
		t.Fatalf("queue %+v, want only %+v", q, ann)
	}
	// Outside ann's range, another time class, another variant, another server: they wait.
	bob := NewSeek("1002", T0.Add(2*time.Minute))
	cy := NewSeek("1003", T0.Add(3*time.Minute))
	cy.TimeClass, cy.Clock, cy.MoveTime = "10+5", storage.TimeControl{Base: 10 * time.Minute, Increment: 5 * time.Second}, 15*time.Minute
	dan := NewSeek("1004", T0.Add(4*time.Minute))
	dan.Rating = 1600
	dan.Rules = game.DefaultRules(game.VariantBarrage)
	elsewhere := NewSeek("1005", T0.Add(4*time.Minute))
	elsewhere.Rating, elsewhere.GuildID = 1600, "g2"
	for _, k := range []*storage.Seek{bob, cy, dan, elsewhere} {
		if got := place(k); got.Match != nil {
			t.Fatalf("seek of %s made a match with %s", k.Player.UserID, got.Partner.Player.UserID)
		}
	}
	if got := users(must(s.Seeks(ctx, "g1", T0.Add(5*time.Minute))).in(t)); !reflect.DeepEqual(got, []string{"1001", "1002", "1003", "1004"}) {
		t.Fatalf("queue of g1: %v", got)
	}
	// Eve (1600) suits ann, the oldest compatible seek, and ann suits eve.
	eve := NewSeek("1006", T0.Add(5*time.Minute))
	eve.Rating, eve.ChannelID = 1600, "c9"
	got := place(eve)
	m := got.Match
	if m == nil || got.Partner.Player.UserID != "1001" || got.Seek != nil {
		t.Fatalf("eve's seek: %+v", got)
	}
	if m.Players[game.Red].UserID != "1001" || m.Players[game.Blue].UserID != "1006" || m.ChannelID != "c9" || m.GuildID != "g1" ||
		m.MoveTime != 24*time.Hour || m.Phase != storage.PhaseSetup || m.ID == 0 {
		t.Fatalf("the match: %+v", m)
	}
	if stored := must(s.Match(ctx, m.ID)).in(t); stored.Version != m.Version || stored.Players != m.Players {
		t.Fatalf("stored match %+v, want %+v", stored, m)
	}
	if got := users(must(s.Seeks(ctx, "g1", T0.Add(6*time.Minute))).in(t)); !reflect.DeepEqual(got, []string{"1002", "1003", "1004"}) {
		t.Fatalf("queue after the match: %v", got)
	}
	// Leaving the queue.
	if left := must(s.DeleteSeek(ctx, "g1", "1002")).in(t); left.Player.UserID != "1002" {
		t.Fatalf("DeleteSeek returned %+v", left)
	}
	_, err := s.DeleteSeek(ctx, "g1", "1002")
	wantErr(t, "leave twice", err, storage.ErrNotFound)
	// Expired seeks are not listed, and match nothing.
	late := T0.Add(3 * time.Hour)
	if q := must(s.Seeks(ctx, "g1", late)).in(t); len(q) != 0 {
		t.Fatalf("expired seeks listed: %v", users(q))
	}
	fresh := NewSeek("1007", late)
	fresh.TimeClass, fresh.Clock, fresh.MoveTime = cy.TimeClass, cy.Clock, cy.MoveTime
	if got := place(fresh); got.Match != nil {
		t.Fatalf("a seek matched the expired seek of %s", got.Partner.Player.UserID)
	}
	if got := users(must(s.Seeks(ctx, "g1", late)).in(t)); !reflect.DeepEqual(got, []string{"1007"}) {
		t.Fatalf("queue after the expiry: %v", got)
	}
	// Refusals.
	bad := NewSeek("1008", late)
	bad.RatingMin, bad.RatingMax = 1600, 1400
	_, err = s.PlaceSeek(ctx, bad, game.Red)
	wantErr(t, "an empty rating range", err, storage.ErrInvalid)
	// A full queue refuses newcomers but lets a member in it change their seek.
	for k := 1; k < storage.MaxSeeks; k++ {
		x := NewSeek(fmt.Sprint(2000+k), late)
		x.RatingMin = 3000 // nobody suits them
		place(x)
	}
	_, err = s.PlaceSeek(ctx, NewSeek("1009", late), game.Red)
	wantErr(t, "a seek in a full queue", err, storage.ErrQueueFull)
	again := NewSeek("1007", late.Add(time.Minute))
	again.RatingMin = 3000
	if got := place(again); got.Replaced == nil {
		t.Fatalf("a member in a full queue could not change their seek: %+v", got)
	}
}

// testSeekRatings: a seek's rating is its member's rating now: a rated
// game the member finished while the seek waited counts, in the queue as
// listed and in whom the seek pairs with. Before, it kept the rating of
// when it was made: a seek up to 1550 was paired with a member who had
// climbed well above it, listed at the 1500 they had had.
func testSeekRatings(t *testing.T, s storage.Store) {
	ctx := context.Background()
	place := func(k *storage.Seek) storage.SeekOutcome {
		t.Helper()
		return must(s.PlaceSeek(ctx, k, game.Red)).in(t)
	}
	ann := NewSeek("1001", T0)
	ann.Expires = T0.Add(24 * time.Hour)
	place(ann)
	// Ann beats Bob while her seek waits.
	m := Started(t, s, NewMatch(game.VariantClassic), 1)
	must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: T0.Add(time.Hour)})).in(t)
	won := int(math.Round(must(s.Standing(ctx, "g1", game.VariantClassic, "1001")).in(t).Rating))
	if won <= 1550 {
		t.Fatalf("Ann's rating after her win: %d", won)
	}
	if q := must(s.Seeks(ctx, "g1", T0.Add(2*time.Hour))).in(t); len(q) != 1 || q[0].Rating != won {
		t.Fatalf("the queue after Ann's win: %+v, want her at %d", q, won)
	}
	cy := NewSeek("1003", T0.Add(2*time.Hour))
	cy.RatingMax = 1550
	if got := place(cy); got.Match != nil {
		t.Fatalf("a seek up to 1550 paired with Ann (%d)", won)
	}
	dan := NewSeek("1004", T0.Add(3*time.Hour))
	dan.RatingMin = won
	if got := place(dan); got.Match == nil || got.Partner.Player.UserID != "1001" || got.Partner.Rating != won {
		t.Fatalf("a seek from %d: %+v, want it paired with Ann", won, got)
	}
}

// testSeeksRaced: 16 members place compatible seeks at once. Every seek
// either waits or matches one waiting seek, so the queue never holds two
// compatible seeks: exactly 8 matches, nobody in two of them, and an empty
// queue.
func testSeeksRaced(t *testing.T, s storage.Store) {
	ctx := context.Background()
	const n = 16
	outcomes := make([]storage.SeekOutcome, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outcomes[k], errs[k] = s.PlaceSeek(ctx, NewSeek(fmt.Sprint(3000+k), T0), game.Side(k%2))
		}()
	}
	wg.Wait()
	seen := map[string]storage.MatchID{}
	matches := 0
	for k, o := range outcomes {
		if errs[k] != nil {
			t.Fatalf("seek %d: %v", k, errs[k])
		}
		if o.Match == nil {
			continue
		}
		matches++
		for _, p := range o.Match.Players {
			if id, ok := seen[p.UserID]; ok {
				t.Errorf("member %s is in matches %d and %d", p.UserID, id, o.Match.ID)
			}
			seen[p.UserID] = o.Match.ID
		}
	}
	if matches != n/2 {
		t.Errorf("%d matches, want %d", matches, n/2)
	}
	if q := must(s.Seeks(ctx, "g1", T0)).in(t); len(q) != 0 {
		t.Errorf("%d seeks still wait", len(q))
	}
}
