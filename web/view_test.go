package web

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/storage"
)

// playingMatch wraps a game in the match facts a page is sent beside it.
func playingMatch(g *game.Game) *storage.Match {
	m := &storage.Match{
		ID: 9, Version: uint64(g.Ply() + 3), Rules: g.Rules(), Phase: storage.PhasePlaying,
		Players:  [2]storage.Player{{UserID: "1", Name: "Ann"}, {UserID: "2", Name: "Bob"}},
		Clock:    storage.TimeControl{Base: 10 * time.Minute},
		Left:     [2]time.Duration{time.Minute, 2 * time.Minute},
		Deadline: time.Unix(1_800_000_000, 0),
	}
	for s := range m.Setups {
		m.Setups[s] = storage.SideSetup{Status: storage.SetupConfirmed, Setup: g.Setup(game.Side(s))}
	}
	if g.Result().Over() {
		m.Phase, m.Result, m.Deadline = storage.PhaseFinished, g.Result(), time.Time{}
	}
	return m
}

// TestStateLeaksNothing is the leak comparison through whole matches: at
// every position, shuffling one side's hidden pieces leaves every byte the
// opponent's and the public's pages receive unchanged.
func TestStateLeaksNothing(t *testing.T) {
	variants := []struct {
		rules game.Rules
		seeds uint64
		every int
	}{
		{game.DefaultRules(game.VariantBarrage), 3, 1},
		{game.DefaultRules(game.VariantClassic), 1, 40},
		{game.DefaultRules(game.VariantInfiltrator), 1, 40},
	}
	if testing.Short() {
		variants = variants[:1]
	}
	for _, vt := range variants {
		for seed := uint64(1); seed <= vt.seeds; seed++ {
			r := rand.New(rand.NewPCG(seed, 7))
			changed, positions := 0, 0
			gametest.Game(t, vt.rules, seed*31, 3000, func(g *game.Game) bool {
				if g.Ply()%vt.every != 0 && !g.Result().Over() {
					return true
				}
				positions++
				m := playingMatch(g)
				for _, hidden := range []game.Side{game.Red, game.Blue} {
					sh := gametest.ShuffleHidden(t, g, hidden, r.Uint64())
					ms := playingMatch(sh)
					if sh.Setup(hidden) != g.Setup(hidden) {
						changed++
					}
					for _, viewer := range []game.Viewer{game.ViewerOf(hidden.Opponent()), game.PublicViewer} {
						a, b := BuildState(m, g, viewer).Encode(), BuildState(ms, sh, viewer).Encode()
						if !bytes.Equal(a, b) {
							t.Fatalf("%v seed %d ply %d: shuffling %v's hidden pieces changed the %v page:\n%s\n%s", vt.rules.Variant, seed, g.Ply(), hidden, viewer, a, b)
						}
					}
					if own := game.ViewerOf(hidden); bytes.Equal(BuildState(m, g, own).Encode(), BuildState(ms, sh, own).Encode()) && sh.Setup(hidden) != g.Setup(hidden) && !g.Result().Over() {
						t.Fatalf("%v seed %d ply %d: the owner's page does not show their own pieces", vt.rules.Variant, seed, g.Ply())
					}
				}
				return true
			})
			if changed < positions/2 {
				t.Fatalf("%v seed %d: only %d of %d shuffles changed anything: the test proves little", vt.rules.Variant, seed, changed, 2*positions)
			}
		}
	}
}

// TestSetupStateLeaksNothing: during set-up, the opponent's draft or
// confirmed set-up changes nothing the other side or the public receive.
func TestSetupStateLeaksNothing(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	r := rand.New(rand.NewPCG(1, 2))
	for _, status := range []storage.SetupStatus{storage.SetupDraft, storage.SetupConfirmed} {
		m := &storage.Match{ID: 3, Version: 2, Rules: rules, Phase: storage.PhaseSetup, Deadline: time.Unix(1_800_000_000, 0)}
		m.Setups[game.Red] = storage.SideSetup{Status: storage.SetupDraft, Setup: gametest.Setup(rules, r)}
		m.Setups[game.Blue] = storage.SideSetup{Status: status, Setup: gametest.Setup(rules, r)}
		other := m.Clone()
		other.Setups[game.Blue].Setup = gametest.Setup(rules, r)
		for _, v := range []game.Viewer{game.RedViewer, game.PublicViewer} {
			if a, b := BuildState(m, nil, v).Encode(), BuildState(other, nil, v).Encode(); !bytes.Equal(a, b) {
				t.Fatalf("Blue's set-up shows on the %v page:\n%s\n%s", v, a, b)
			}
		}
		if bytes.Equal(BuildState(m, nil, game.BlueViewer).Encode(), BuildState(other, nil, game.BlueViewer).Encode()) {
			t.Fatal("Blue's page does not show Blue's set-up")
		}
	}
}
