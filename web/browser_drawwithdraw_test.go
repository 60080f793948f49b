package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserWithdrawDrawOffer: a player who offered a draw takes the offer
// back on the page, after a confirmation, as /stratego draw action:decline
// does on Discord; until then the page offers only that (the offer stands),
// and the opponent, asked, sees no such button.
func TestBrowserWithdrawDrawOffer(t *testing.T) {
	f := newFixture(t)
	f.setPrefs("1001", Preferences{Language: "fr"})
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	type controls struct {
		Offer, Withdraw, Decline bool
		OfferOff                 bool
		Label                    string
	}
	shown := func() controls {
		t.Helper()
		c, err := chromedp.Run(ctx, chromedp.Evaluate[controls](`(() => {
			const e = id => document.getElementById(id);
			return {Offer: !e("draw").hidden, Withdraw: !e("withdrawDraw").hidden, Decline: !e("decline").hidden,
				OfferOff: e("draw").disabled, Label: e("withdrawDraw").textContent};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#draw`)),
	); err != nil {
		t.Fatal(err)
	}
	if c := shown(); c.Withdraw {
		t.Fatalf("with no offer standing, the page offers to withdraw one: %+v", c)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#draw`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
		chromedp.Click(chromedp.CSS(`#ask-choices button`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the offer made", `document.getElementById("draw").disabled`)
	want := pageText("fr", lang.For("fr").Sprintf(txtWithdrawDraw))
	if c := shown(); !c.Withdraw || c.Decline || c.Label != want || want == txtWithdrawDraw {
		t.Fatalf("after offering a draw: %+v, want Withdraw labelled %q", c, want)
	}

	// The opponent, asked, answers it; no Withdraw for them.
	blue := f.token(m.ID, game.BlueViewer)
	if err := chromedp.Do(ctx,
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(f.ts.URL+"/board#"+blue),
		chromedp.WaitVisible(chromedp.CSS(`#decline`)),
	); err != nil {
		t.Fatal(err)
	}
	if c := shown(); c.Withdraw || !c.Decline {
		t.Fatalf("the opponent asked to draw sees %+v", c)
	}

	// Red withdraws it, after a confirmation.
	if err := chromedp.Do(ctx,
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#withdrawDraw`)),
		chromedp.Click(chromedp.CSS(`#withdrawDraw`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
	); err != nil {
		t.Fatal(err)
	}
	question, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#ask-text`)))
	if err != nil {
		t.Fatal(err)
	}
	if want := pageText("fr", lang.For("fr").Sprintf(txtAskWithdrawDraw)); question != want || want == txtAskWithdrawDraw {
		t.Fatalf("withdrawing asks %q, want %q", question, want)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#ask-choices button`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the offer withdrawn", `document.getElementById("withdrawDraw").hidden && !document.getElementById("draw").disabled`)
	m, err = f.store.Match(bg, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if last := m.Log[len(m.Log)-1]; last.Kind != storage.ActDeclineDraw || last.Side != game.Red {
		t.Fatalf("the last action is %+v, want Red's withdrawal", last)
	}
}

// TestBrowserDrawOfferWords: a draw offer standing is told as the Discord
// board tells it: by the offerer's name to the opponent and to spectators,
// and as "You offered a draw." to the offerer, in the reader's language.
func TestBrowserDrawOfferWords(t *testing.T) {
	f := newFixture(t)
	f.setPrefs("1001", Preferences{Language: "fr"})
	f.setPrefs("1002", Preferences{Language: "fr"})
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	m, err := f.store.Act(bg, m.ID, 0, storage.Action{Kind: storage.ActOfferDraw, Side: game.Red, At: storagetest.T0})
	if err != nil {
		t.Fatal(err)
	}
	p := lang.For("fr")
	for _, tc := range []struct {
		viewer game.Viewer
		want   string
	}{
		{game.RedViewer, "Vous avez proposé la nulle."},
		{game.BlueViewer, pageText("fr", p.Sprintf(txtDrawOffered, "Ann"))},
		{game.PublicViewer, "Ann offers a draw."}, // the browser's language
	} {
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"),
			chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, tc.viewer)),
		); err != nil {
			t.Fatal(err)
		}
		browsertest.Wait(t, ctx, "the offer told", `document.querySelector("#time li") !== null`)
		got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#time li`)))
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%v's page says %q, want %q", tc.viewer, got, tc.want)
		}
	}
}
