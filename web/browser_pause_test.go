package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
)

// TestBrowserPauseOnTheBoard: on a phone 320 px wide, the player a proposal
// to pause asks answers it on the page, after a confirmation, and the page
// then says until when the match is paused; the page no longer sends them
// to Discord. In a match with no proposal, a player proposes a pause of the
// days they pick (3 unless they pick), after a confirmation, and the page
// says it was proposed; the proposer then withdraws it on the page, after a
// confirmation, and the page shows it gone. A spectator sees no control;
// the proposer only Withdraw.
func TestBrowserPauseOnTheBoard(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	// The matches start now: a pause agreed on the page ends days from now.
	at := time.Now().Truncate(time.Second)
	f.srv.opts.Actor.(*fakeActor).at = at
	asked := f.inPlaySince(t, at, 3)
	asked, err := f.store.Act(bg, asked.ID, asked.Version, storage.Action{Kind: storage.ActOfferPause, Side: game.Red, Days: 3, At: at})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	open := func(m *storage.Match, v game.Viewer) {
		t.Helper()
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"), // a new link is a new page, not a new fragment of this one
			chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, v)),
		); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, "the board", `document.getElementById("status").textContent !== ""`)
	}
	type controls struct {
		Pause, Decline, Propose, Days, Withdraw bool
		Scroll, Inner                           int
		PauseRight, DeclineRight, WithdrawRight float64
	}
	shown := func() controls {
		t.Helper()
		c, err := chromedp.Run(ctx, chromedp.Evaluate[controls](`(() => {
			const v = id => !document.getElementById(id).hidden, r = id => document.getElementById(id).getBoundingClientRect().right;
			return {Pause: v("pause"), Decline: v("declinePause"), Propose: v("proposePause"), Days: v("pauseDays"), Withdraw: v("withdrawPause"),
				Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth, PauseRight: r("pause"), DeclineRight: r("declinePause"), WithdrawRight: r("withdrawPause")};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	timeText := `document.getElementById("time").textContent`

	// No control for a spectator; the proposer only withdraws.
	open(asked, game.PublicViewer)
	if c := shown(); c.Pause || c.Decline || c.Propose || c.Days || c.Withdraw {
		t.Errorf("a spectator sees pause controls: %+v", c)
	}
	open(asked, game.RedViewer)
	if c := shown(); c.Pause || c.Decline || c.Propose || c.Days || !c.Withdraw {
		t.Errorf("the proposer's pause controls: %+v", c)
	}

	// Blue, asked, accepts on the page.
	open(asked, game.BlueViewer)
	browsertest.Wait(t, ctx, "the proposal shown", timeText+`.includes("Ann proposes to pause the match for 3 days")`)
	if text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#time`))); err != nil || strings.Contains(text, "Discord") {
		t.Errorf("the proposal says %q (%v): answered here, not in Discord", text, err)
	}
	if c := shown(); !c.Pause || !c.Decline || c.Propose || c.Scroll > c.Inner || c.PauseRight > 320 || c.DeclineRight > 320 {
		t.Errorf("Blue's controls at 320 px: %+v", c)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#pause`)), chromedp.WaitVisible(chromedp.CSS(`#ask[open]`))); err != nil {
		t.Fatal(err)
	}
	if ask, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#ask-text`))); err != nil || ask != "Pause the match for 3 days?" {
		t.Errorf("the question: %q (%v)", ask, err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#ask-choices button`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the pause shown", timeText+`.includes("paused by agreement until") && document.getElementById("pause").hidden`)
	now, err := f.store.Match(bg, asked.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := now.PausedUntil().Sub(at); got != 3*24*time.Hour {
		t.Errorf("paused for %v after Blue's answer, want 3 days", got)
	}
	if c := shown(); c.Pause || c.Decline || c.Propose || c.Withdraw {
		t.Errorf("controls once paused: %+v", c)
	}

	// In a match with no proposal, Red proposes 5 days.
	free := f.inPlaySince(t, at, 5)
	open(free, game.RedViewer)
	browsertest.Wait(t, ctx, "the Propose control", `!document.getElementById("proposePause").hidden`)
	if v, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(`#pauseDays`))); err != nil || v != "3" {
		t.Errorf("the days picked at first: %q (%v), want 3", v, err)
	}
	if c := shown(); c.Pause || c.Decline || !c.Days || c.Withdraw || c.Scroll > c.Inner {
		t.Errorf("Red's controls with no proposal at 320 px: %+v", c)
	}
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#pauseDays`), "5"),
		chromedp.Click(chromedp.CSS(`#proposePause`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
	); err != nil {
		t.Fatal(err)
	}
	if ask, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#ask-text`))); err != nil || ask != "Propose to pause the match for 5 days?" {
		t.Errorf("the question: %q (%v)", ask, err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#ask-choices button`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the proposal told", timeText+`.includes("You proposed to pause the match for 5 days.") && document.getElementById("proposePause").hidden`)
	now, err = f.store.Match(bg, free.ID)
	if err != nil {
		t.Fatal(err)
	}
	if by, days, ok := now.PauseOffer(); !ok || by != game.Red || days != 5 {
		t.Errorf("the proposal stored: %v %d %v, want Red's of 5 days", by, days, ok)
	}

	// Red, the proposer, withdraws it on the page: the proposal is gone,
	// stored and shown, and Red may propose again.
	if c := shown(); !c.Withdraw || c.Pause || c.Decline || c.Propose || c.Scroll > c.Inner || c.WithdrawRight > 320 {
		t.Errorf("Red's controls after proposing, at 320 px: %+v", c)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#withdrawPause`)), chromedp.WaitVisible(chromedp.CSS(`#ask[open]`))); err != nil {
		t.Fatal(err)
	}
	if ask, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#ask-text`))); err != nil || ask != "Withdraw your proposal to pause?" {
		t.Errorf("the question: %q (%v)", ask, err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#ask-choices button`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the proposal gone", `!`+timeText+`.includes("You proposed to pause") && document.getElementById("withdrawPause").hidden && !document.getElementById("proposePause").hidden`)
	now, err = f.store.Match(bg, free.ID)
	if err != nil {
		t.Fatal(err)
	}
	if by, days, ok := now.PauseOffer(); ok {
		t.Errorf("a proposal stored after Red withdrew it: %v's of %d days", by, days)
	}
	if !now.PausedUntil().IsZero() {
		t.Errorf("paused until %v after Red withdrew the proposal", now.PausedUntil())
	}
}
