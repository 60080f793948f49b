package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	cdpnetwork "github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserFirstLoadWeight: what a browser that never saw the page
// receives to show it, every request it makes counted as it decodes it
// (TestFirstLoadWeight sums what the page names; this is what it loads:
// the pictures its style draws, the requests its script makes, the first
// state of its event stream, the favicon the browser asks for by itself),
// is at most 150 KB: in a set-up with the most saved set-ups a player may
// keep, in play, and at the end of a long match, its board revealed.
func TestBrowserFirstLoadWeight(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()

	setup, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantClassic))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.UpdatePlayer(bg, setup.Players[game.Red].UserID, func(p *storage.PlayerSettings) error {
		for i := range storage.MaxSavedSetups {
			name := fmt.Sprintf("%02d %s", i, strings.Repeat("w", storage.MaxSetupName-3))
			if err := p.SaveSetup(storage.SavedSetup{Name: name, Variant: setup.Rules.Variant, Army: setup.Rules.Army, Setup: game.RandomSetup(setup.Rules, uint64(i)), Saved: storagetest.T0}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	playing := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantClassic), 1)
	playing = storagetest.Play(t, f.store, playing, 40, rand.New(rand.NewPCG(1, 1)))
	over := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantClassic), 2)
	over = storagetest.Play(t, f.store, over, 600, rand.New(rand.NewPCG(2, 2)))
	if over.Phase == storage.PhasePlaying {
		if over, err = f.store.Act(bg, over.ID, over.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: storagetest.T0}); err != nil {
			t.Fatal(err)
		}
	}
	if playing.Phase != storage.PhasePlaying || over.Moves() < 300 {
		t.Fatalf("the matches: %v after %d moves, %d moves", playing.Phase, playing.Moves(), over.Moves())
	}

	var mu sync.Mutex
	urls := map[cdpnetwork.RequestID]string{}
	open := map[cdpnetwork.RequestID]bool{}
	got := map[string]int{}
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *cdpnetwork.EventRequestWillBeSent:
			urls[e.RequestID], open[e.RequestID] = e.Request.URL, true
		case *cdpnetwork.EventDataReceived:
			got[urls[e.RequestID]] += int(e.DataLength)
		case *cdpnetwork.EventLoadingFinished:
			delete(open, e.RequestID)
		case *cdpnetwork.EventLoadingFailed:
			delete(open, e.RequestID)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, browsertest.NoCache()); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		m     *storage.Match
		shown string // the page is shown
	}{
		{"a set-up", setup, `document.getElementById("saved").options.length === 51`},
		{"a match in play", playing, `document.querySelectorAll("#history li").length === 40`},
		{"a long match over", over, `document.querySelectorAll(".sq.blue:not(.back)").length > 0 && document.querySelectorAll(".sq.back").length === 0`},
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		clear(urls)
		clear(open)
		clear(got)
		mu.Unlock()
		if err := chromedp.Do(ctx, chromedp.Navigate(f.ts.URL+"/board#"+f.token(tt.m.ID, game.RedViewer))); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, tt.name+" shown", tt.shown+` && document.readyState === "complete"`)
		// Every request made is answered, the event stream aside, which stays open.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			mu.Lock()
			left := 0
			for id := range open {
				if !strings.Contains(urls[id], "/api/events") {
					left++
				}
			}
			mu.Unlock()
			if left == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d requests never answered", tt.name, left)
			}
		}
		mu.Lock()
		total, lines := 0, []string{}
		for u, n := range got {
			total += n
			lines = append(lines, fmt.Sprintf("%7d %s", n, strings.TrimPrefix(u, f.ts.URL)))
		}
		mu.Unlock()
		sort.Strings(lines)
		t.Logf("%s: %d bytes\n%s", tt.name, total, strings.Join(lines, "\n"))
		if total > 150<<10 {
			t.Errorf("%s: the first load is %d bytes, over 150 KB", tt.name, total)
		}
		if !strings.Contains(strings.Join(lines, "\n"), "/api/events") {
			t.Errorf("%s: the event stream's bytes were not counted", tt.name)
		}
	}
}
