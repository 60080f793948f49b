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

func testRatings(t *testing.T, s storage.Store) {
	ctx := context.Background()
	resign := func(m *storage.Match, side game.Side) {
		t.Helper()
		must(s.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActResign, Side: side, At: T0.Add(time.Hour)})).in(t)
	}
	// Ann beats Bob twice in g1 Classic; a casual game, a game elsewhere, and
	// a Barrage game do not count in that table.
	resign(Started(t, s, NewMatch(game.VariantClassic), 1), game.Blue)
	resign(Started(t, s, NewMatch(game.VariantClassic), 2), game.Blue)
	casual := NewMatch(game.VariantClassic)
	casual.Casual = true
	resign(Started(t, s, casual, 3), game.Red)
	noGuild := NewMatch(game.VariantClassic)
	noGuild.GuildID = ""
	resign(Started(t, s, noGuild, 4), game.Red)
	resign(Started(t, s, NewMatch(game.VariantBarrage), 5), game.Red)
	draw := Started(t, s, NewMatch(game.VariantClassic), 6)
	draw = must(s.Act(ctx, draw.ID, 0, storage.Action{Kind: storage.ActOfferDraw, Side: game.Red, At: T0})).in(t)
	must(s.Act(ctx, draw.ID, 0, storage.Action{Kind: storage.ActAcceptDraw, Side: game.Blue, At: T0})).in(t)

	ann := must(s.Standing(ctx, "g1", game.VariantClassic, "1001")).in(t)
	bob := must(s.Standing(ctx, "g1", game.VariantClassic, "1002")).in(t)
	if ann.Wins != 2 || ann.Losses != 0 || ann.Draws != 1 || bob.Wins != 0 || bob.Losses != 2 || bob.Draws != 1 {
		t.Fatalf("records: Ann %+v, Bob %+v", ann, bob)
	}
	if !(ann.Rating > 1500 && bob.Rating < 1500 && ann.RD < 350 && bob.RD < 350) || ann.Name != "Ann" {
		t.Errorf("ratings: Ann %.1f±%.1f, Bob %.1f±%.1f", ann.Rating, ann.RD, bob.Rating, bob.RD)
	}
	table := must(s.Standings(ctx, "g1", game.VariantClassic, 0)).in(t)
	if len(table) != 2 || table[0].UserID != "1001" || table[1].UserID != "1002" {
		t.Errorf("table %+v", table)
	}
	if top := must(s.Standings(ctx, "g1", game.VariantClassic, 1)).in(t); len(top) != 1 {
		t.Errorf("limit 1 gave %d", len(top))
	}
	barrage := must(s.Standing(ctx, "g1", game.VariantBarrage, "1002")).in(t)
	if barrage.Wins != 1 || barrage.Played() != 1 {
		t.Errorf("Barrage standing %+v", barrage)
	}
	if nobody := must(s.Standing(ctx, "g1", game.VariantClassic, "42")).in(t); nobody.Rating != 1500 || nobody.RD != 350 || nobody.Played() != 0 {
		t.Errorf("a new player's standing %+v", nobody)
	}
	if other := must(s.Standings(ctx, "g2", game.VariantClassic, 0)).in(t); len(other) != 0 {
		t.Errorf("another server's table %+v", other)
	}
}

// testRatingOnce ends matches by two events at the same moment (both players
// resign; a resignation against a time-out): one wins, and the standings count
// each match once.
func testRatingOnce(t *testing.T, s storage.Store) {
	ctx := context.Background()
	const matches = 6
	for i := range matches {
		m := Started(t, s, NewMatch(game.VariantClassic), uint64(i))
		events := []storage.Action{
			{Kind: storage.ActResign, Side: game.Red, At: T0.Add(time.Hour)},
			{Kind: storage.ActResign, Side: game.Blue, At: T0.Add(time.Hour)},
			{Kind: storage.ActTimeOut, At: m.Deadline},
		}
		var wg sync.WaitGroup
		errs := make([]error, len(events))
		for j, a := range events {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[j] = s.Act(ctx, m.ID, 0, a)
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if !errors.Is(err, storage.ErrGameOver) {
				t.Fatalf("match %d: %v", m.ID, err)
			}
		}
		if ok != 1 {
			t.Fatalf("match %d: %d ending events succeeded, want 1", m.ID, ok)
		}
		CheckReplay(t, must(s.Match(ctx, m.ID)).in(t))
	}
	ann := must(s.Standing(ctx, "g1", game.VariantClassic, "1001")).in(t)
	bob := must(s.Standing(ctx, "g1", game.VariantClassic, "1002")).in(t)
	if ann.Played() != matches || bob.Played() != matches || ann.Wins != bob.Losses || ann.Losses != bob.Wins {
		t.Fatalf("counted Ann %+v, Bob %+v; want %d games each", ann, bob, matches)
	}
}

// testRatingsOfMatchesEndingAtOnce ends many matches of the same players at
// the same moment, players who have no standing yet among them: every game
// is counted, none lost to another being counted at once.
func testRatingsOfMatchesEndingAtOnce(t *testing.T, s storage.Store) {
	ctx := context.Background()
	const matches = 16
	ms := make([]*storage.Match, matches)
	for i := range ms {
		m := NewMatch(game.VariantClassic)
		if i%2 == 1 { // half with the colours swapped
			m.Players[game.Red], m.Players[game.Blue] = m.Players[game.Blue], m.Players[game.Red]
		}
		if i%4 == 3 { // and some against a third player
			m.Players[game.Blue] = storage.Player{UserID: "1003", Name: "Cy"}
		}
		ms[i] = Started(t, s, m, uint64(i))
	}
	var wg sync.WaitGroup
	errs := make([]error, matches)
	for i, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: T0.Add(time.Hour)})
		}()
	}
	wg.Wait()
	played := map[string]int{}
	won := map[string]int{}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("match %d: %v", ms[i].ID, err)
		}
		played[ms[i].Players[game.Red].UserID]++
		played[ms[i].Players[game.Blue].UserID]++
		won[ms[i].Players[game.Red].UserID]++
	}
	for user, n := range played {
		st := must(s.Standing(ctx, "g1", game.VariantClassic, user)).in(t)
		if st.Played() != n || st.Wins != won[user] || st.Losses != n-won[user] {
			t.Errorf("%s: %d won, %d lost, %d drawn; want %d games, %d won", user, st.Wins, st.Losses, st.Draws, n, won[user])
		}
	}
}
