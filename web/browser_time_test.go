package web

import (
	"context"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Tokyo, on a machine without the zone files

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
)

// TestBrowserPauseAndGiveTime: on a phone 320 px wide, in Tokyo, a paused
// match says so near the clocks, until when in the reader's own time zone
// and how far from now, in a live region, for a player and a spectator
// alike; the player gives the opponent more time after a confirmation, and
// the page says so, and how often they may still.
func TestBrowserPauseAndGiveTime(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	// The match starts now: the page counts from the server's time.
	at := time.Now().Truncate(time.Second)
	m := f.inPlaySince(t, at, 3)
	m, err := f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActOfferPause, Side: game.Blue, Days: 3, At: at})
	if err != nil {
		t.Fatal(err)
	}
	if m, err = f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActAcceptPause, Side: game.Red, At: at}); err != nil {
		t.Fatal(err)
	}
	tokyo, err := time.LoadLocation("Asia/Tokyo") // from time/tzdata where the machine has none
	if err != nil {
		t.Fatal(err)
	}
	until := m.PausedUntil().In(tokyo)
	if until.IsZero() {
		t.Fatal("the match is not paused")
	}
	shown := until.Format("03:04")     // en: "Wed, Dec 9, 07:00 AM"
	utc := until.UTC().Format("03:04") // what a fixed zone would show
	timeText := `document.getElementById("time").textContent`
	inTokyo := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"})
		return err
	})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile), inTokyo); err != nil {
		t.Fatal(err)
	}
	for _, v := range []game.Viewer{game.PublicViewer, game.RedViewer} {
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"), // a new link is a new page, not a new fragment of this one
			chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, v)),
		); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, "the pause shown", timeText+`.includes("paused by agreement until")`)
		text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#time`)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, shown) || strings.Contains(text, utc) || !strings.Contains(text, "(in 3 days)") {
			t.Errorf("%v's page says %q: want the end at %s in Tokyo (not %s UTC), in 3 days", v, text, shown, utc)
		}
		type fitness struct {
			Live               string
			Scroll, Inner      int
			TimeRight, GiveTop float64
			Give               bool
		}
		fit, err := chromedp.Run(ctx, chromedp.Evaluate[fitness](`(() => {
			const g = document.getElementById("giveTime"), tl = document.getElementById("time");
			// The notices are said by a live region of their own (news), the list's times from now ticking.
			const said = document.getElementById("news");
			return {Live: said.textContent.includes("paused by agreement until") ? said.getAttribute("aria-live") : "", Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth,
				TimeRight: tl.getBoundingClientRect().right, Give: !g.hidden};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if fit.Live != "polite" || fit.Scroll > fit.Inner || fit.TimeRight > 320 {
			t.Errorf("%v at 320 px: %+v", v, fit)
		}
		if fit.Give != (v == game.RedViewer) {
			t.Errorf("%v: the Give time button shown: %v", v, fit.Give)
		}
	}

	// Red gives Blue more time: asked first, then told.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#giveTime`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
	); err != nil {
		t.Fatal(err)
	}
	ask, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#ask-text`)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Give Bob 1 day more? Gifts of time you have left in this match: 3."; ask != want {
		t.Errorf("the question: %q, want %q", ask, want)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#ask-choices button`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the gift told", `document.getElementById("done").textContent === "You gave Bob 1 day more. Gifts of time you have left in this match: 2."`)
	browsertest.Wait(t, ctx, "the gift shown", timeText+`.includes("Time given: Ann 1×, Bob 0× (1 day each)")`)
	if now, err := f.store.Match(bg, m.ID); err != nil || now.GiftsBy(game.Red) != 1 {
		t.Fatalf("Red's gifts stored: %v", err)
	}
	// A second gift is made for the gifts the page shows now, one: given,
	// not refused as the first again.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#giveTime`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
		chromedp.Click(chromedp.CSS(`#ask-choices button`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the second gift told", `document.getElementById("done").textContent === "You gave Bob 1 day more. Gifts of time you have left in this match: 1."`)
	if now, err := f.store.Match(bg, m.ID); err != nil || now.GiftsBy(game.Red) != 2 {
		t.Fatalf("Red's gifts stored after the second: %v", err)
	}
}

// TestBrowserVacationSaysYou: a player on vacation reads of it as "you" on
// their own page; the opponent and spectators read it by the player's name.
func TestBrowserVacationSaysYou(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	at := time.Now().Truncate(time.Second)
	m := f.inPlaySince(t, at, 5)
	m, err := f.store.Act(context.Background(), m.ID, m.Version, storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 4, At: at})
	if err != nil {
		t.Fatal(err)
	}
	if m.VacationUntil(game.Red).IsZero() {
		t.Fatal("Red is not on vacation")
	}
	for _, tc := range []struct {
		viewer    game.Viewer
		want, not string
	}{
		{game.RedViewer, "You are on vacation until", "Ann is on vacation"},
		{game.BlueViewer, "Ann is on vacation until", "You are on vacation"},
		{game.PublicViewer, "Ann is on vacation until", "You are on vacation"},
	} {
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"),
			chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, tc.viewer)),
		); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, "the vacation shown", `document.getElementById("time").textContent.includes("on vacation until")`)
		text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#time`)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, tc.want) || strings.Contains(text, tc.not) {
			t.Errorf("%v's page says %q, want %q", tc.viewer, text, tc.want)
		}
	}
}
