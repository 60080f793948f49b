package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestBrowserDragShowsTargets: as on lichess, a piece picked up with the
// mouse shows where it may go while it is held, the whole of a Scout's
// lines included, and dropped on one of those squares it moves there.
func TestBrowserDragShowsTargets(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	g, _ := m.Game()
	// The Red piece with the most moves: a Scout's, if it has a line.
	var from game.Square
	var to []game.Square
	byFrom := map[game.Square][]game.Square{}
	for _, mv := range g.LegalMoves() {
		byFrom[mv.From] = append(byFrom[mv.From], mv.To)
		if len(byFrom[mv.From]) > len(to) {
			from, to = mv.From, byFrom[mv.From]
		}
	}
	sq := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
	); err != nil {
		t.Fatal(err)
	}
	type held struct {
		Targets []int
		Sel     bool
	}
	var during held
	look := func() error {
		var err error
		during, err = chromedp.Run(ctx, chromedp.Evaluate[held](`({
			Targets: Array.from(document.querySelectorAll(".sq.target")).map(b => +b.dataset.sq),
			Sel: document.querySelector('`+sq(from)+`').classList.contains("sel"),
		})`))
		return err
	}
	dest := to[len(to)-1]
	if err := browsertest.DragAndLook(ctx, sq(from), sq(dest), look); err != nil {
		t.Fatal(err)
	}
	if len(during.Targets) != len(to) || !during.Sel {
		t.Errorf("while %s was held, the board marked %v (selected: %v); its moves go to %v", from, during.Targets, during.Sel, to)
	}
	browsertest.Wait(t, ctx, "the dragged move", `document.querySelectorAll("#history li").length === 1`)
	m, _ = f.store.Match(bg, m.ID)
	if last := m.Log[len(m.Log)-1].Move; last.From != from || last.To != dest {
		t.Fatalf("the move made is %v, want %s-%s", last, from, dest)
	}
}

// TestBrowserDragBackToTray: in the set-up, a piece dragged from the board
// back onto the tray leaves the board, as in the official app.
func TestBrowserDragBackToTray(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m, err := f.store.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
	); err != nil {
		t.Fatal(err)
	}
	if err := browsertest.Drag(ctx, `#tray button[data-rank="13"]`, `.sq[data-sq="4"]`); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the Flag on E1", `document.querySelector('.sq[data-sq="4"]').classList.contains("red")`)
	if err := browsertest.Drag(ctx, `.sq[data-sq="4"]`, `#tray button[data-rank="10"]`); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "E1 empty again", `!document.querySelector('.sq[data-sq="4"]').classList.contains("red")`)
	if got := label(t, ctx, 4); got != "E1: empty" {
		t.Fatalf("E1 says %q", got)
	}
	flag, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`#tray button[data-rank="13"]`), "aria-label"))
	if err != nil {
		t.Fatal(err)
	}
	if flag.Value != "Flag: 1 left" {
		t.Fatalf("the tray's Flag says %q", flag.Value)
	}
}

// TestBrowserDragGoesNowhere: as on lichess, a piece picked up and let go
// outside any square, or whose drag is cancelled (Escape), is put back: the
// board looks as before the drag, nothing selected and no square marked,
// and no move is made.
func TestBrowserDragGoesNowhere(t *testing.T) {
	for _, tc := range []struct {
		name string
		drag func(ctx context.Context, from, to string) error
		to   func(dest string) string
	}{
		{"dropped off the board", browsertest.Drag, func(string) string { return `#title` }},
		{"cancelled over a square it may go to", browsertest.DragAndCancel, func(dest string) string { return dest }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			ctx := browser(t)
			m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
			g, _ := m.Game()
			mv := g.LegalMoves()[0]
			sq := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
			if err := chromedp.Do(ctx,
				chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
				chromedp.WaitVisible(chromedp.CSS(`#resign`)),
			); err != nil {
				t.Fatal(err)
			}
			if err := tc.drag(ctx, sq(mv.From), tc.to(sq(mv.To))); err != nil {
				t.Fatal(err)
			}
			type marks struct{ Sel, Targets, Selected int }
			got, err := chromedp.Run(ctx, chromedp.Evaluate[marks](`({
				Sel: document.querySelectorAll(".sq.sel").length,
				Targets: document.querySelectorAll(".sq.target").length,
				Selected: document.querySelectorAll('.sq[aria-selected="true"]').length,
			})`))
			if err != nil {
				t.Fatal(err)
			}
			if got != (marks{}) {
				t.Errorf("after the drag the board shows %+v selected and marked squares; want none", got)
			}
			after, _ := f.store.Match(context.Background(), m.ID)
			if len(after.Log) != len(m.Log) {
				t.Fatalf("the drag made a move: %v", after.Log[len(m.Log):])
			}
		})
	}
}
