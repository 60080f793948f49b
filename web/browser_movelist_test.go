package web

import (
	"math/rand/v2"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserMoveListIsNamed: the list of the match's moves has a name in
// the reader's language, so that a screen reader that reaches it says what
// it lists, not "list, 1 item".
func TestBrowserMoveListIsNamed(t *testing.T) {
	f := newFixture(t)
	f.setPrefs("1001", Preferences{Language: "de"})
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	storagetest.Play(t, f.store, m, 2, rand.New(rand.NewPCG(1, 1)))
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#history li`)),
	); err != nil {
		t.Fatal(err)
	}
	role, name, err := browsertest.Accessible(ctx, `#history`)
	if err != nil {
		t.Fatal(err)
	}
	if want := lang.For("de").Sprintf(txtMoveList); role != "list" || name != want || want == txtMoveList {
		t.Errorf("the moves are a %q named %q, want a list named %q", role, name, want)
	}
}
