package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestPauseAction: POST /api/pause proposes a pause or answers the
// opponent's proposal through the Actor: the player the proposal asks
// accepts or declines it, the proposer may take it back; a request without
// the capability header, a spectator, and the proposer accepting their own
// are refused (403); a proposal changed since the page showed it, a fast
// game, a match paused already or with no proposal are refused with the
// Actor's reason (409), changing nothing.
func TestPauseAction(t *testing.T) {
	day := 24 * time.Hour
	const noLink = game.Viewer(99) // a request without the capability header
	fast := storage.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}
	offer := func(by game.Side, days int) storage.Action {
		return storage.Action{Kind: storage.ActOfferPause, Side: by, Days: days, At: storagetest.T0}
	}
	accept := func(by game.Side) storage.Action {
		return storage.Action{Kind: storage.ActAcceptPause, Side: by, At: storagetest.T0}
	}
	tests := []struct {
		name   string
		clock  storage.TimeControl
		before []storage.Action
		viewer game.Viewer
		body   string
		code   int
		reason string // in the refusal
		// What the match says after.
		paused time.Duration // from T0; 0: not paused
		offer  *PauseOfferJSON
	}{
		{"propose", storage.TimeControl{}, nil, game.RedViewer, `{"answer":"propose","days":3}`, 200, "", 0, &PauseOfferJSON{By: "red", Days: 3}},
		{"propose fourteen days", storage.TimeControl{}, nil, game.BlueViewer, `{"answer":"propose","days":14}`, 200, "", 0, &PauseOfferJSON{By: "blue", Days: 14}},
		{"accept", storage.TimeControl{}, []storage.Action{offer(game.Red, 3)}, game.BlueViewer, `{"answer":"accept","days":3}`, 200, "", 3 * day, nil},
		{"decline", storage.TimeControl{}, []storage.Action{offer(game.Red, 3)}, game.BlueViewer, `{"answer":"decline","days":3}`, 200, "", 0, nil},
		{"the proposer takes it back", storage.TimeControl{}, []storage.Action{offer(game.Red, 3)}, game.RedViewer, `{"answer":"decline","days":3}`, 200, "", 0, nil},
		{"a spectator", storage.TimeControl{}, []storage.Action{offer(game.Red, 3)}, game.PublicViewer, `{"answer":"accept","days":3}`, 403, "Only a player", 0, &PauseOfferJSON{By: "red", Days: 3}},
		{"no capability", storage.TimeControl{}, []storage.Action{offer(game.Red, 3)}, noLink, `{"answer":"accept","days":3}`, 403, "", 0, &PauseOfferJSON{By: "red", Days: 3}},
		{"the proposer accepts", storage.TimeControl{}, []storage.Action{offer(game.Red, 3)}, game.RedViewer, `{"answer":"accept","days":3}`, 403, "Your opponent accepts or declines", 0, &PauseOfferJSON{By: "red", Days: 3}},
		{"the proposal changed", storage.TimeControl{}, []storage.Action{offer(game.Red, 5)}, game.BlueViewer, `{"answer":"accept","days":3}`, 409, "withdrawn", 0, &PauseOfferJSON{By: "red", Days: 5}},
		{"no proposal", storage.TimeControl{}, nil, game.BlueViewer, `{"answer":"accept","days":3}`, 409, "no proposal to pause", 0, nil},
		{"paused already", storage.TimeControl{}, []storage.Action{offer(game.Red, 2), accept(game.Blue)}, game.BlueViewer, `{"answer":"propose","days":3}`, 409, "paused already", 2 * day, nil},
		{"a fast game", fast, nil, game.RedViewer, `{"answer":"propose","days":3}`, 409, "", 0, nil},
		{"no days", storage.TimeControl{}, nil, game.RedViewer, `{"answer":"propose"}`, 400, "", 0, nil},
		{"too many days", storage.TimeControl{}, nil, game.RedViewer, `{"answer":"propose","days":15}`, 400, "", 0, nil},
		{"no such answer", storage.TimeControl{}, []storage.Action{offer(game.Red, 3)}, game.BlueViewer, `{"answer":"resume","days":3}`, 400, "", 0, &PauseOfferJSON{By: "red", Days: 3}},
	}
	bg := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			nm := storagetest.NewMatch(game.VariantBarrage)
			nm.Clock, nm.Left = tc.clock, [2]time.Duration{tc.clock.Base, tc.clock.Base}
			m := storagetest.Started(t, f.store, nm, 1)
			for _, a := range tc.before {
				var err error
				if m, err = f.store.Act(bg, m.ID, 0, a); err != nil {
					t.Fatal(err)
				}
			}
			tok := ""
			if tc.viewer != noLink {
				tok = f.token(m.ID, tc.viewer)
			}
			code, resp, _ := f.do(t, "POST", "/api/pause", tok, tc.body)
			if code != tc.code || !strings.Contains(resp, tc.reason) {
				t.Fatalf("answered %d %s, want %d with %q", code, resp, tc.code, tc.reason)
			}
			now, err := f.store.Match(bg, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			if code != 200 && now.Version != m.Version {
				t.Errorf("the refused request changed the match")
			}
			var paused time.Duration
			if until := now.PausedUntil(); !until.IsZero() {
				paused = until.Sub(storagetest.T0)
			}
			if paused != tc.paused {
				t.Errorf("paused for %v, want %v", paused, tc.paused)
			}
			var got *PauseOfferJSON
			if by, days, ok := now.PauseOffer(); ok {
				got = &PauseOfferJSON{By: sideName(by), Days: days}
			}
			if (got == nil) != (tc.offer == nil) || (got != nil && *got != *tc.offer) {
				t.Errorf("the proposal standing: %+v, want %+v", got, tc.offer)
			}
		})
	}
}
