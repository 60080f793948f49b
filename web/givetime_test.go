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

// TestGiveTimeAction: POST /api/givetime gives the player's opponent more
// time through the Actor: a move's time (a day at most) to the turn under
// way, 15 seconds on a game clock; three times a match, the fourth refused;
// a spectator cannot, and a player's link gives only from their own side.
func TestGiveTimeAction(t *testing.T) {
	tests := []struct {
		name  string
		clock storage.TimeControl
		giver game.Viewer
		add   time.Duration // to Red's deadline: Red is to move
	}{
		{"a day a move", storage.TimeControl{}, game.BlueViewer, 24 * time.Hour},
		{"a fast clock", storage.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}, game.BlueViewer, 15 * time.Second},
		{"to the side not to move", storage.TimeControl{}, game.RedViewer, 0},
	}
	bg := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			nm := storagetest.NewMatch(game.VariantBarrage)
			nm.Clock, nm.Left = tc.clock, [2]time.Duration{tc.clock.Base, tc.clock.Base}
			m := storagetest.Started(t, f.store, nm, 1)
			giver, _ := tc.giver.IsPlayer()
			if code, resp, _ := f.do(t, "POST", "/api/givetime", f.token(m.ID, game.PublicViewer), `{}`); code != 403 {
				t.Fatalf("a spectator gave time: %d %s", code, resp)
			}
			for n := 1; n <= storage.MaxGifts; n++ {
				if code, resp, _ := f.do(t, "POST", "/api/givetime", f.token(m.ID, tc.giver), `{}`); code != 200 {
					t.Fatalf("gift %d: %d %s", n, code, resp)
				}
			}
			now, err := f.store.Match(bg, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := now.GiftsBy(giver); got != storage.MaxGifts {
				t.Errorf("%s's gifts stored: %d, want %d", giver, got, storage.MaxGifts)
			}
			if got := now.GiftsBy(giver.Opponent()); got != 0 {
				t.Errorf("%s's link gave time from %s: %d", giver, giver.Opponent(), got)
			}
			if got := now.Deadline.Sub(m.Deadline); got != storage.MaxGifts*tc.add {
				t.Errorf("Red's deadline moved %v, want %v", got, storage.MaxGifts*tc.add)
			}
			code, resp, _ := f.do(t, "POST", "/api/givetime", f.token(m.ID, tc.giver), `{}`)
			if code != 409 || !strings.Contains(resp, "no more gifts of time") {
				t.Errorf("a fourth gift: %d %s", code, resp)
			}
			if after, _ := f.store.Match(bg, m.ID); after.Version != now.Version {
				t.Errorf("the refused gift changed the match")
			}
		})
	}
}

// TestGiveTimeForTheGiftsShown: a page's gift names the player's gifts it
// showed, and is given once for them: its second request is refused, as is
// a page's behind a gift made since. A request that names none (a page
// loaded before pages named them) gives for the gifts as they are; one
// that names a count no page shows is a bad request, and a spectator's
// link still gives nothing, whatever it names.
func TestGiveTimeForTheGiftsShown(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	steps := []struct {
		name   string
		viewer game.Viewer
		body   string
		code   int
		gifts  int // Blue's, after
	}{
		{"a spectator", game.PublicViewer, `{"given":0}`, 403, 0},
		{"a count below none", game.BlueViewer, `{"given":-1}`, 400, 0},
		{"a count above the most", game.BlueViewer, `{"given":4}`, 400, 0},
		{"a count not a number", game.BlueViewer, `{"given":"0"}`, 400, 0},
		{"the first", game.BlueViewer, `{"given":0}`, 200, 1},
		{"the first again", game.BlueViewer, `{"given":0}`, 409, 1},
		{"naming none", game.BlueViewer, `{}`, 200, 2},
		{"a page behind it", game.BlueViewer, `{"given":1}`, 409, 2},
		{"the third", game.BlueViewer, `{"given":2}`, 200, 3},
	}
	for _, st := range steps {
		code, resp, _ := f.do(t, "POST", "/api/givetime", f.token(m.ID, st.viewer), st.body)
		if code != st.code {
			t.Errorf("%s: %d %s, want %d", st.name, code, resp, st.code)
		}
		if code == 409 && !strings.Contains(resp, "given already") {
			t.Errorf("%s: refused with %s", st.name, resp)
		}
		now, err := f.store.Match(context.Background(), m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := now.GiftsBy(game.Blue); got != st.gifts {
			t.Errorf("%s: Blue gave %d times, want %d", st.name, got, st.gifts)
		}
	}
}
