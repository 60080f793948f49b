package web

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
)

// TestBrowserClocksCountDown: the page counts down to the server's deadline
// on the server's clock (its "now", however far this browser's clock is
// off): a game clock for the side to move, and the time of one move when
// the match has no game clock.
func TestBrowserClocksCountDown(t *testing.T) {
	ctx := browser(t)
	rules := game.DefaultRules(game.VariantBarrage)
	r := rand.New(rand.NewPCG(1, 2))
	g, err := game.NewGame(rules, gametest.Setup(rules, r), gametest.Setup(rules, r))
	if err != nil {
		t.Fatal(err)
	}
	serverNow := time.Unix(1e9, 0) // years away from the browser's clock
	tests := []struct {
		name       string
		clock      storage.TimeControl
		left       [2]time.Duration
		start, low string // the text at first, and one the count reaches
		still      string // a text that must not change
	}{
		{"game clock", storage.TimeControl{Base: 10 * time.Minute}, [2]time.Duration{time.Minute, 2 * time.Minute}, "Red: 1:00", "Red: 0:5", "Blue: 2:00"},
		{"time per move", storage.TimeControl{}, [2]time.Duration{}, "Time left: 1:00", "Time left: 0:5", ""},
	}
	for _, tc := range tests {
		m := playingMatch(g)
		m.Clock, m.Left, m.MoveTime = tc.clock, tc.left, time.Minute
		m.Deadline = serverNow.Add(time.Minute)
		w := newWorld(t, m)
		if err := chromedp.Do(ctx,
			chromedp.Navigate(w.ts.URL+"/board#"+strconv.Itoa(int(game.RedViewer))),
			chromedp.WaitVisible(chromedp.CSS(`#clocks`)),
		); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// The clocks show once the first state is in: visible comes first.
		browsertest.Wait(t, ctx, tc.name+" clocks shown", `document.getElementById("clocks").textContent.trim() !== ""`)
		first, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#clocks`)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !strings.Contains(first, tc.start) && !strings.Contains(first, strings.Replace(tc.start, "1:00", "0:59", 1)) {
			t.Fatalf("%s: the clocks show %q at first, want %q", tc.name, first, tc.start)
		}
		browsertest.Wait(t, ctx, tc.name+" counting down", `document.getElementById("clocks").textContent.indexOf(`+jsString(tc.low)+`) >= 0`)
		later, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#clocks`)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(later, tc.still) {
			t.Fatalf("%s: %q changed: %q", tc.name, tc.still, later)
		}
	}
}

// jsString quotes s for a script.
func jsString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// TestBrowserClockInDays: a time left of two days or more is written in
// days and h:mm:ss ("3 days 5:00:30", not "77:00:30"); under two days, in
// hours.
func TestBrowserClockInDays(t *testing.T) {
	ctx := browser(t)
	rules := game.DefaultRules(game.VariantBarrage)
	r := rand.New(rand.NewPCG(1, 2))
	g, err := game.NewGame(rules, gametest.Setup(rules, r), gametest.Setup(rules, r))
	if err != nil {
		t.Fatal(err)
	}
	serverNow := time.Unix(1e9, 0)
	for _, tc := range []struct {
		left time.Duration
		want *regexp.Regexp
	}{
		{3*24*time.Hour + 5*time.Hour + 30*time.Second, regexp.MustCompile(`^Time left: 3 days 5:00:(30|29|28)\s*$`)},
		{47 * time.Hour, regexp.MustCompile(`^Time left: (47:00:00|46:59:5\d)\s*$`)},
	} {
		m := playingMatch(g)
		m.Clock, m.Left, m.MoveTime = storage.TimeControl{}, [2]time.Duration{}, 4*24*time.Hour
		m.Deadline = serverNow.Add(tc.left)
		w := newWorld(t, m)
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"),
			chromedp.Navigate(w.ts.URL+"/board#"+strconv.Itoa(int(game.RedViewer))),
		); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, "the clock", `document.getElementById("clocks").textContent.trim() !== ""`)
		got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#clocks`)))
		if err != nil {
			t.Fatal(err)
		}
		if !tc.want.MatchString(got) {
			t.Errorf("%v left: the clock says %q, want %v", tc.left, got, tc.want)
		}
	}
}

// TestBrowserClockStopped: while a pause by agreement, or the vacation of
// the side to move, stops its clock, the page's clock stands still at the
// time that side will have left when it runs again (the deadline holds the
// stop already), instead of counting down beside "paused"; the vacation
// of the side not to move stops nothing. In set-up either player's
// vacation stops the set-ups' one clock.
func TestBrowserClockStopped(t *testing.T) {
	ctx := browser(t)
	rules := game.DefaultRules(game.VariantBarrage)
	r := rand.New(rand.NewPCG(3, 4))
	g, err := game.NewGame(rules, gametest.Setup(rules, r), gametest.Setup(rules, r)) // Red to move
	if err != nil {
		t.Fatal(err)
	}
	serverNow := time.Unix(1e9, 0) // the world's clock
	tests := []struct {
		name    string
		setup   bool
		stop    storage.Action
		running bool
		want    string // the time left shown first
	}{
		{"paused by agreement", false, storage.Action{Kind: storage.ActAcceptPause, Side: game.Blue, Days: 2, At: serverNow}, false, "Time left: 1:00"},
		{"Red, to move, on vacation", false, storage.Action{Kind: storage.ActVacation, Side: game.Red, Days: 2, At: serverNow}, false, "Time left: 1:00"},
		{"Blue on vacation", false, storage.Action{Kind: storage.ActVacation, Side: game.Blue, Days: 2, At: serverNow}, true, "Time left: 2 days 0:01:00"},
		{"in set-up, Blue on vacation", true, storage.Action{Kind: storage.ActVacation, Side: game.Blue, Days: 2, At: serverNow}, false, "1:00"},
	}
	for _, tc := range tests {
		m := playingMatch(g)
		m.Clock, m.Left, m.MoveTime = storage.TimeControl{}, [2]time.Duration{}, 24*time.Hour
		if tc.setup {
			// Both set-ups to come, the invites arrived: the set-ups' clock runs.
			m.Phase, m.Log = storage.PhaseSetup, nil
			m.Setups = [2]storage.SideSetup{}
		}
		m.Log = append(m.Log, tc.stop)
		m.Deadline = tc.stop.Until().Add(time.Minute) // a minute after the stop ends
		w := newWorld(t, m)
		clocks := `document.getElementById("clocks").textContent`
		if err := chromedp.Do(ctx, chromedp.Navigate(w.ts.URL+"/board#"+strconv.Itoa(int(game.RedViewer)))); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		browsertest.Wait(t, ctx, tc.name+" clocks shown", clocks+`.trim() !== ""`)
		first, err := chromedp.Run(ctx, chromedp.Evaluate[string](clocks))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(first, tc.want) {
			t.Errorf("%s: the clock shows %q at first, want %q", tc.name, first, tc.want)
		}
		if tc.running {
			browsertest.Wait(t, ctx, tc.name+" counting down", clocks+` !== `+jsString(first))
			continue
		}
		time.Sleep(2100 * time.Millisecond) // a clock that ran would show two seconds less by now
		if later, err := chromedp.Run(ctx, chromedp.Evaluate[string](clocks)); err != nil || later != first {
			t.Errorf("%s: the clock showed %q, then %q (%v): it runs", tc.name, first, later, err)
		}
	}
}
