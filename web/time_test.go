package web

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/storage"
)

// TestStateTime: each viewer's state says what the Discord board says of
// the match's time besides the clocks, from the same storage facts: a pause
// by agreement and until when, a side on vacation and until when, gifts of
// time; a standing proposal to pause, the gifts left and whether they may
// propose a pause go to the players only (the channel is not told of them). None of it is part of the Basis:
// a gift or a vacation does not change the board a player acts on.
func TestStateTime(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	r := rand.New(rand.NewPCG(3, 4))
	g, err := game.NewGame(rules, gametest.Setup(rules, r), gametest.Setup(rules, r))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1_799_000_000, 0)
	ms := func(d time.Duration) int64 { return at.Add(d).UnixMilli() }
	day := 24 * time.Hour
	act := func(k storage.ActionKind, s game.Side, days int) storage.Action {
		return storage.Action{Kind: k, Side: s, Days: days, At: at}
	}
	gifts := func(red, blue int) *[2]int { return &[2]int{red, blue} }
	// player is what a player who has given no time is told besides.
	player := func(t TimeJSON) *TimeJSON {
		if t.GiftsLeft == 0 {
			t.GiftsLeft = storage.MaxGifts
		}
		t.CanGive = true
		// A player may propose a pause while none is agreed or proposed.
		t.CanPause = t.Offer == nil && t.Paused == 0
		return &t
	}
	tests := []struct {
		name     string
		log      []storage.Action
		over     bool
		computer bool
		want     [3]*TimeJSON // Red's, Blue's, the public's
	}{
		{"nothing to say", nil, false, false, [3]*TimeJSON{player(TimeJSON{}), player(TimeJSON{}), nil}},
		{
			"paused by agreement", []storage.Action{act(storage.ActOfferPause, game.Blue, 3), act(storage.ActAcceptPause, game.Red, 3)}, false, false,
			[3]*TimeJSON{player(TimeJSON{Paused: ms(3 * day)}), player(TimeJSON{Paused: ms(3 * day)}), {Paused: ms(3 * day)}},
		},
		{
			"Red on vacation", []storage.Action{act(storage.ActVacation, game.Red, 5)}, false, false,
			[3]*TimeJSON{player(TimeJSON{Away: [2]int64{ms(5 * day), 0}}), player(TimeJSON{Away: [2]int64{ms(5 * day), 0}}), {Away: [2]int64{ms(5 * day), 0}}},
		},
		{
			"Blue on vacation", []storage.Action{act(storage.ActVacation, game.Blue, 2)}, false, false,
			[3]*TimeJSON{player(TimeJSON{Away: [2]int64{0, ms(2 * day)}}), player(TimeJSON{Away: [2]int64{0, ms(2 * day)}}), {Away: [2]int64{0, ms(2 * day)}}},
		},
		{
			"a vacation ended", []storage.Action{act(storage.ActVacation, game.Blue, 2), act(storage.ActVacationEnd, game.Blue, 0)}, false, false,
			[3]*TimeJSON{player(TimeJSON{}), player(TimeJSON{}), nil},
		},
		{
			"a proposal to pause", []storage.Action{act(storage.ActOfferPause, game.Red, 4)}, false, false,
			[3]*TimeJSON{player(TimeJSON{Offer: &PauseOfferJSON{By: "red", Days: 4}}), player(TimeJSON{Offer: &PauseOfferJSON{By: "red", Days: 4}}), nil},
		},
		{
			"a proposal declined", []storage.Action{act(storage.ActOfferPause, game.Red, 4), act(storage.ActDeclinePause, game.Blue, 0)}, false, false,
			[3]*TimeJSON{player(TimeJSON{}), player(TimeJSON{}), nil},
		},
		{
			"gifts of time", []storage.Action{act(storage.ActGiveTime, game.Blue, 0), act(storage.ActGiveTime, game.Red, 0), act(storage.ActGiveTime, game.Blue, 0), act(storage.ActGiveTime, game.Blue, 0)}, false, false,
			[3]*TimeJSON{
				player(TimeJSON{Gifts: gifts(1, 3), GiftsLeft: 2}),
				{Gifts: gifts(1, 3), GiftsLeft: 0, CanGive: true, CanPause: true}, // none left: the page shows no button
				{Gifts: gifts(1, 3)},
			},
		},
		{
			"against the computer", nil, false, true,
			[3]*TimeJSON{{GiftsLeft: storage.MaxGifts}, {GiftsLeft: storage.MaxGifts}, nil},
		},
		{
			"over", []storage.Action{act(storage.ActGiveTime, game.Blue, 0), act(storage.ActVacation, game.Red, 5), act(storage.ActResign, game.Red, 0)}, true, false,
			[3]*TimeJSON{nil, nil, nil},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := playingMatch(g)
			m.Clock, m.MoveTime = storage.TimeControl{}, day
			plain := playingMatch(g)
			plain.Clock, plain.MoveTime = storage.TimeControl{}, day
			m.Log = append(m.Log, tc.log...)
			gm := g
			if tc.computer {
				m.Computer, plain.Computer = "easy", "easy"
			}
			if tc.over {
				gm = g.Clone()
				if err := gm.Resign(game.Red); err != nil {
					t.Fatal(err)
				}
				m.Phase, m.Result = storage.PhaseFinished, gm.Result()
				plain.Phase, plain.Result = m.Phase, m.Result
			}
			for v := game.Viewer(0); v < 3; v++ {
				st := BuildState(m, gm, v, stateNow)
				got, _ := json.Marshal(st.Time)
				want, _ := json.Marshal(tc.want[v])
				if string(got) != string(want) {
					t.Errorf("%v is told %s, want %s", v, got, want)
				}
				if basis := BuildState(plain, gm, v, stateNow).Basis; st.Basis != basis {
					t.Errorf("%v: the time changed the Basis", v)
				}
			}
		})
	}
}

// TestTournamentGameOffersNoPause: a tournament's game goes on to its
// round's deadline, so its players get no Propose a pause, whether the
// match names its tournament or only its round's deadline (older ones).
func TestTournamentGameOffersNoPause(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	r := rand.New(rand.NewPCG(3, 4))
	g, err := game.NewGame(rules, gametest.Setup(rules, r), gametest.Setup(rules, r))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		mark func(m *storage.Match)
		want bool
	}{
		{"a challenge's game", func(*storage.Match) {}, true},
		{"a tournament's game", func(m *storage.Match) { m.Tournament = 1 }, false},
		{"an older tournament game, its round's deadline known", func(m *storage.Match) { m.RoundEnds = time.Unix(1_799_000_000, 0) }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := playingMatch(g)
			m.Clock, m.MoveTime = storage.TimeControl{}, 24*time.Hour
			tc.mark(m)
			for _, v := range []game.Viewer{game.RedViewer, game.BlueViewer} {
				if st := BuildState(m, g, v, stateNow); st.Time == nil || st.Time.CanPause != tc.want {
					t.Errorf("%v: may propose a pause: %+v, want %v", v, st.Time, tc.want)
				}
			}
		})
	}
}

// TestNoPauseProposalsLeft: a player who has proposed a pause as often as a
// match allows gets no Propose a pause; the opponent still does.
func TestNoPauseProposalsLeft(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	r := rand.New(rand.NewPCG(3, 4))
	g, err := game.NewGame(rules, gametest.Setup(rules, r), gametest.Setup(rules, r))
	if err != nil {
		t.Fatal(err)
	}
	m := playingMatch(g)
	m.Clock, m.MoveTime = storage.TimeControl{}, 24*time.Hour
	for range storage.MaxPauseOffers {
		m.Log = append(m.Log, storage.Action{Kind: storage.ActOfferPause, Side: game.Red, Days: 1},
			storage.Action{Kind: storage.ActDeclinePause, Side: game.Blue})
	}
	red, blue := BuildState(m, g, game.RedViewer, stateNow).Time, BuildState(m, g, game.BlueViewer, stateNow).Time
	if red == nil || red.CanPause || blue == nil || !blue.CanPause {
		t.Errorf("Red may propose: %+v; Blue: %+v; want only Blue", red, blue)
	}
}
