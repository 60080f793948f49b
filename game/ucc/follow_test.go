package ucc

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// TestFollowMatchesTheGame plays random games and follows each from both
// sides through the text of the reports: the views Follow keeps must equal
// the game's own views after every move.
func TestFollowMatchesTheGame(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	for seed := uint64(1); seed <= 8; seed++ {
		red, blue := game.RandomSetup(rules, 2*seed), game.RandomSetup(rules, 2*seed+1)
		g, err := game.NewGame(rules, red, blue)
		if err != nil {
			t.Fatal(err)
		}
		var views [2]game.View
		for side, s := range [2]game.Setup{red, blue} {
			if views[side], err = NewView(rules, game.Side(side), s); err != nil {
				t.Fatal(err)
			}
		}
		// check compares the views, their histories only when whole is set
		// (they grow with the game).
		check := func(whole bool) {
			t.Helper()
			for side := range views {
				want := g.View(game.ViewerOf(game.Side(side)))
				got := views[side]
				got.Result = want.Result // the protocol tells the end by QUIT
				if !whole {
					got.History, want.History = nil, nil
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("seed %d, ply %d: %s's view differs from the game's:\n got %+v\nwant %+v", seed, g.Ply(), game.Side(side), got, want)
				}
			}
		}
		check(true)
		rng := rand.New(rand.NewPCG(seed, 0))
		battles := 0
		for !g.Result().Over() && g.Ply() < 500 {
			legal := g.LegalMoves()
			rec, err := g.Apply(legal[rng.IntN(len(legal))])
			if err != nil {
				t.Fatal(err)
			}
			rep, err := ReportOf(rec)
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := ParseReport(rep.String())
			if err != nil {
				t.Fatal(err)
			}
			for side := range views {
				if err := Follow(&views[side], parsed); err != nil {
					t.Fatalf("seed %d, ply %d: %v", seed, g.Ply(), err)
				}
			}
			if rec.IsAttack() {
				battles++
			}
			check(false)
		}
		check(true)
		if battles == 0 {
			t.Errorf("seed %d: no battle in %d plies", seed, g.Ply())
		}
	}
}

func TestFollowRefuses(t *testing.T) {
	red, err := ParseSetup(game.Red, manualRows)
	if err != nil {
		t.Fatal(err)
	}
	rules := game.DefaultRules(game.VariantClassic)
	// Blue to move after RED's A4-A5, with RED's Scout on A5.
	start := func() game.View {
		v, err := NewView(rules, game.Red, red)
		if err != nil {
			t.Fatal(err)
		}
		if err := Follow(&v, Report{Move: game.Move{From: sq(t, "A4"), To: sq(t, "A5")}}); err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		report  string
		wantErr string
	}{
		{"0 3 DOWN OK", "has no piece of Blue"},              // Red's piece, Blue to move
		{"0 4 DOWN OK", "has no piece of Blue"},              // Red's piece on A5
		{"4 4 DOWN OK", "has no piece of Blue"},              // an empty square
		{"2 6 UP OK", "is a lake"},                           // C7 up into the lake
		{"0 7 UP OK", "moves onto its own piece"},            // A8 onto A7
		{"0 6 UP 2 OK", "holds a piece"},                     // A7 to A5, the Scout
		{"0 6 UP 2 KILLS 9 9", "does not give KILLS"},        // Scout against Scout
		{"0 6 UP 2 KILLS 1 8", "is a Scout, not a Miner"},    // the Scout is known
		{"1 6 UP KILLS 1 9", "a battle on the empty square"}, // B7 to B6
		{"0 6 UP 2 KILLS B 9", "cannot be a Bomb"},
		{"0 6 UP 2 VICTORY_FLAG", "the manager sends QUIT"},
	}
	for _, tc := range tests {
		v := start()
		before := v
		before.History = append([]game.MoveRecord(nil), v.History...)
		r, err := ParseReport(tc.report)
		if err != nil {
			t.Fatal(err)
		}
		if err := Follow(&v, r); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("Follow(%q) error %v, want one with %q", tc.report, err, tc.wantErr)
		}
		if !reflect.DeepEqual(v, before) {
			t.Errorf("Follow(%q) changed the view while refusing", tc.report)
		}
	}
	// Red's own ranks are checked too.
	v := start()
	if err := Follow(&v, Report{Move: game.Move{From: sq(t, "A7"), To: sq(t, "A6")}}); err != nil {
		t.Fatal(err)
	}
	if err := Follow(&v, Report{Move: game.Move{From: sq(t, "B2"), To: sq(t, "B3")}}); err == nil || !strings.Contains(err.Error(), "cannot move") {
		t.Errorf("a Bomb moving: %v", err)
	}
	if err := Follow(&v, Report{Move: game.Move{From: sq(t, "J3"), To: sq(t, "J5")}}); err == nil || !strings.Contains(err.Error(), "only a Scout") {
		t.Errorf("a Miner moving two squares: %v", err)
	}
	if _, err := NewView(game.DefaultRules(game.VariantBarrage), game.Red, red); err == nil || !strings.Contains(err.Error(), "plays Classic") {
		t.Errorf("NewView in Barrage: %v", err)
	}
}
