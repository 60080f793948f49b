package web

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserLateStateKeepsTheClock: a state read long after the server
// sent it (a phone's tab frozen in the background with it in its buffer,
// read as the phone wakes) does not set the page's clock back by as long:
// the page took the server's time from each state as it read it, and the
// time left of a move showed ten minutes more than the server would give
// after a state ten minutes late.
func TestBrowserLateStateKeepsTheClock(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	var late time.Duration // how long before the page reads it the server sends a state
	f.srv.opts.Now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return time.Now().Add(-late)
	}
	ctx := browser(t)
	bg := context.Background()
	at := time.Now().Truncate(time.Second)
	m := f.inPlaySince(t, at, 3)
	storagetest.Deliver(t, f.store, at) // the invites are out: Red's clock runs, a day
	m, err := f.store.Match(bg, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer))); err != nil {
		t.Fatal(err)
	}
	clocks := `document.getElementById("clocks").textContent`
	browsertest.Wait(t, ctx, "a day to move", clocks+`.startsWith("Time left: 23:5")`)
	mu.Lock()
	late = 10 * time.Minute
	mu.Unlock()
	if m, err = f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Blue, At: at}); err != nil {
		t.Fatal(err)
	}
	changed(t, f, m)
	browsertest.Wait(t, ctx, "Blue's offer", `!document.getElementById("decline").hidden`)
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](clocks)); err != nil || !strings.HasPrefix(got, "Time left: 23:5") {
		t.Errorf("after a state read ten minutes late, the clock says %q (%v), want still under a day", got, err)
	}
}
