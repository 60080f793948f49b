package web

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserQuestionIsNamed: a screen reader that enters a question's
// dialog (Resign?) is told the question, its name, before the button that
// has the focus: a dialog with no name was "dialog, Yes, button", and a
// player who had pressed Resign by mistake heard nothing of what Yes
// would do.
func TestBrowserQuestionIsNamed(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		chromedp.Click(chromedp.CSS(`#resign`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
	); err != nil {
		t.Fatal(err)
	}
	role, name, err := browsertest.Accessible(ctx, `#ask`)
	if err != nil {
		t.Fatal(err)
	}
	if role != "dialog" || name != txtAskResign {
		t.Errorf("the question is a %q named %q, want a dialog named %q", role, name, txtAskResign)
	}
}
