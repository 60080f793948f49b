package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserSetupConfirmedElsewhere: a player who drafted on the page and
// then confirmed another set-up on Discord (typed in the DM) sees, on the
// page still open, the set-up they confirmed, the one that will be played,
// not the page's abandoned draft, while they wait for the opponent.
func TestBrowserSetupConfirmedElsewhere(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	// On the page: the Flag on A1, nothing else yet.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
		chromedp.Click(chromedp.CSS(`#tray button[data-rank="13"]`)),
		chromedp.Click(chromedp.CSS(`.sq[data-sq="0"]`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the Flag on A1", `document.querySelector('.sq[data-sq="0"]').classList.contains("flag")`)

	// On Discord: another set-up, confirmed.
	confirmed := game.RandomSetup(m.Rules, 7)
	if confirmed[3][0] == game.Flag {
		t.Fatal("the seed puts the Flag on A1: pick another")
	}
	m, err = f.store.SetSetup(bg, m.ID, 0, game.Red, confirmed, storage.SetupConfirmed, storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m, nil)
	browsertest.Wait(t, ctx, "the set-up confirmed", `document.getElementById("tray").hidden`)
	for r, row := range confirmed {
		for c, rank := range row {
			sq := game.Square((3-r)*10 + c) // Red's rows from the front: row 0 is rank 4
			want := "empty"
			if rank != game.NoRank {
				want = rank.Label(game.NumberingModern)
				if rank == game.Bomb || rank == game.Flag {
					want = map[game.Rank]string{game.Bomb: "bomb", game.Flag: "flag"}[rank]
				}
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(b => !b.classList.contains("red") ? "empty" : b.classList.contains("bomb") ? "bomb" : b.classList.contains("flag") ? "flag" : b.textContent)(document.querySelector('.sq[data-sq="`+itoa(int(sq))+`"]'))`))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%s shows %q, the confirmed set-up has %q there", sq, got, want)
			}
		}
	}
}
