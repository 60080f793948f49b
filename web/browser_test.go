package web

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// inPlaySince makes a Barrage match created at at, both set-ups drawn by
// the Random generator from seed and confirmed then, and returns it in play.
func (f *fixture) inPlaySince(t *testing.T, at time.Time, seed uint64) *storage.Match {
	t.Helper()
	bg := context.Background()
	nm := storagetest.NewMatch(game.VariantBarrage)
	nm.Created = at
	m, err := f.store.CreateMatch(bg, nm)
	if err != nil {
		t.Fatal(err)
	}
	for side := game.Red; side <= game.Blue; side++ {
		if m, err = f.store.SetSetup(bg, m.ID, m.Version, side, game.RandomSetup(m.Rules, seed+uint64(side)), storage.SetupConfirmed, at); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// blueReady makes a Barrage match in which Blue's set-up is confirmed and
// Red's is still to come.
func (f *fixture) blueReady(t *testing.T) *storage.Match {
	t.Helper()
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantBarrage))
	if err != nil {
		t.Fatal(err)
	}
	if m, err = f.store.SetSetup(bg, m.ID, 0, game.Blue, game.RandomSetup(m.Rules, 5), storage.SetupConfirmed, storagetest.T0); err != nil {
		t.Fatal(err)
	}
	return m
}

// browser starts a headless Chromium for a test (see browsertest.Start).
func browser(t *testing.T) context.Context {
	t.Helper()
	return browsertest.Start(t, time.Minute)
}

func TestBrowserRefusesBadLinks(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	old := f.token(m.ID, game.BlueViewer)
	f.links.revoke("1002")
	for name, tok := range map[string]string{
		"forged":  testSigner(t, 1).Sign(Capability{Match: m.ID, Viewer: game.RedViewer, Expires: f.now.Add(time.Hour)}),
		"expired": f.signer.Sign(Capability{Match: m.ID, Viewer: game.RedViewer, Expires: f.now.Add(-time.Second)}),
		"revoked": old,
	} {
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"), // a page of its own: a new fragment alone would reload the old one under the next steps
			chromedp.Navigate(f.ts.URL+"/board#"+tok),
			chromedp.WaitVisible(chromedp.CSS(`body[data-refused="1"]`)),
		); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#status")))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(status, "not valid") {
			t.Fatalf("%s: status %q", name, status)
		}
	}
}

// TestBrowserSetupAndMove: Red sets up in the browser (Random, confirm), Blue
// on "Discord" (straight through the store), then Red moves by clicks, and
// Blue's move made elsewhere appears on Red's open page.
func TestBrowserSetupAndMove(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := f.blueReady(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#random`)),
		chromedp.Click(chromedp.CSS(`#random`)),
		chromedp.WaitVisible(chromedp.CSS(`.sq.red`)),
		chromedp.Poll[chromedp.Void](`+document.body.dataset.checked >= 1`),
	); err != nil {
		t.Fatal(err)
	}
	refusal, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#refusal`)))
	if err != nil {
		t.Fatal(err)
	}
	if refusal != "" {
		t.Fatalf("a random set-up was refused: %q", refusal)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#confirm`)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
	); err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#status`)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(status, "Your move") {
		t.Fatalf("status after both set-ups: %q", status)
	}
	// Blue's pieces show no rank on Red's page.
	blueText, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll(".sq.blue")).map(b => b.textContent + b.getAttribute("aria-label")).join("|")`))
	if err != nil {
		t.Fatal(err)
	}
	for _, rank := range []string{"Marshal", "Flag", "Bomb", "Scout", "Spy"} {
		if strings.Contains(blueText, rank) {
			t.Fatalf("Blue's %s shows on Red's page: %s", rank, blueText)
		}
	}
	m, _ = f.store.Match(bg, m.ID)
	g, _ := m.Game()
	mv := g.LegalMoves()[0]
	sel := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(sel(mv.From))),
		chromedp.WaitVisible(chromedp.CSS(sel(mv.To)+`.target`)),
		chromedp.Click(chromedp.CSS(sel(mv.To))),
		chromedp.WaitVisible(chromedp.CSS(`#history li`)),
	); err != nil {
		t.Fatal(err)
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#history li").length`))
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d moves in the history", n)
	}
	// Blue moves "on Discord": the store, then the bot tells the server. Red
	// presses on a piece before Blue's move arrives and lets go after it: the
	// live update redraws the board between the press and the release, and
	// the click still selects the piece.
	m, _ = f.store.Match(bg, m.ID)
	g, _ = m.Game()
	m2, g2, err := f.store.ApplyMove(bg, m.ID, m.Version, game.Blue, g.LegalMoves()[0], storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	next := g2.LegalMoves()[0]
	x, y := centre(t, ctx, sel(next.From))
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1))); err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m2, g2)
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`#history li:nth-child(2)`)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.WaitVisible(chromedp.CSS(sel(next.To)+`.target`)),
	); err != nil {
		t.Fatal(err)
	}
}

// centre is the centre of the element of selector in the viewport.
func centre(t *testing.T, ctx context.Context, selector string) (x, y float64) {
	t.Helper()
	r, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ X, Y float64 }](`(r => ({X: r.x + r.width/2, Y: r.y + r.height/2}))(document.querySelector(`+strconv.Quote(selector)+`).getBoundingClientRect())`))
	if err != nil {
		t.Fatal(err)
	}
	return r.X, r.Y
}

func itoa(i int) string {
	return strconv.Itoa(i)
}

// label reads a square's accessible label on the open page.
func label(t *testing.T, ctx context.Context, sq game.Square) string {
	t.Helper()
	a, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`.sq[data-sq="`+itoa(int(sq))+`"]`), "aria-label"))
	if err != nil {
		t.Fatal(err)
	}
	return a.Value
}

// frenchSpace is a space French writes before a mark of punctuation (or
// after «), which the page binds to its neighbour (a no-break space) so that
// no line starts with the mark.
var frenchSpace = regexp.MustCompile(` ([:;?!»])|(«) `)

// pageText is a text as the page shows it in the language of code.
func pageText(code, s string) string {
	if code != "fr" {
		return s
	}
	return frenchSpace.ReplaceAllString(s, "$2\u00a0$1")
}

// TestBrowserLanguages: the page speaks the player's language and numbers
// the pieces their way; the opponent's pieces are labelled unknown.
func TestBrowserLanguages(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	g, _ := m.Game()
	var marshal game.Square
	for s := range game.NumSquares {
		if side, rank, ok := g.PieceAt(game.Square(s)); ok && side == game.Red && rank == game.Marshal {
			marshal = game.Square(s)
		}
	}
	for _, tt := range []struct {
		code string
		n    game.Numbering
	}{{"en", game.NumberingModern}, {"nl", game.NumberingClassic}, {"de", game.NumberingModern}, {"fr", game.NumberingClassic}} {
		f.setPrefs("1001", Preferences{Language: tt.code, Numbering: tt.n})
		p := lang.For(tt.code)
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"), // a page of its own: a new fragment alone would reload the old one under the next steps
			chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
			chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		); err != nil {
			t.Fatalf("%s: %v", tt.code, err)
		}
		status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#status`)))
		if err != nil {
			t.Fatalf("%s: %v", tt.code, err)
		}
		resign, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#resign`)))
		if err != nil {
			t.Fatalf("%s: %v", tt.code, err)
		}
		htmlLang, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
		if err != nil {
			t.Fatalf("%s: %v", tt.code, err)
		}
		text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.sq[data-sq="`+itoa(int(marshal))+`"]`)))
		if err != nil {
			t.Fatalf("%s: %v", tt.code, err)
		}
		if status != pageText(tt.code, p.Sprintf(txtYourMove)) || resign != pageText(tt.code, p.Sprintf(txtResign)) || htmlLang != tt.code {
			t.Errorf("%s: status %q, resign %q, lang %q", tt.code, status, resign, htmlLang)
		}
		want := pageText(tt.code, p.Sprintf(txtSquareOwn, marshal.String(), render.PieceName(p, game.Marshal, tt.n)))
		if got := label(t, ctx, marshal); got != want || text != game.Marshal.Label(tt.n) {
			t.Errorf("%s: the Marshal's square says %q (%q), want %q (%q)", tt.code, got, text, want, game.Marshal.Label(tt.n))
		}
		for s := range game.NumSquares {
			if side, _, ok := g.PieceAt(game.Square(s)); ok && side == game.Blue {
				if got, want := label(t, ctx, game.Square(s)), pageText(tt.code, p.Sprintf(txtSquareHidden, game.Square(s).String(), render.SideName(p, game.Blue))); got != want {
					t.Errorf("%s: a Blue piece's square says %q, want %q", tt.code, got, want)
				}
				break
			}
		}
	}
	// A spectator picks the numbering on the page; a player's is their setting.
	if hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("numbering").hidden`)); err != nil || !hidden {
		t.Errorf("a player's page offers the numbering (%v)", err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.PublicViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#numbering`)),
	); err != nil {
		t.Fatal(err)
	}
	before, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#numbering`)))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#numbering`)),
		chromedp.Poll[chromedp.Void](`document.getElementById("numbering").textContent.indexOf("classic") >= 0`),
	); err != nil {
		t.Fatal(err)
	}
	after, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#numbering`)))
	if err != nil {
		t.Fatal(err)
	}
	if before != "Numbering: modern (Marshal 10)" || after != "Numbering: classic (Marshal 1)" {
		t.Errorf("the spectator's numbering button says %q, then %q", before, after)
	}
}

// TestBrowserKeyboard: a whole set-up typed on the keyboard, confirmed, and
// a move made with Enter, an arrow key and Enter; then resigning asks first.
// The keys' help below the board says what the keys do at each stage.
func TestBrowserKeyboard(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := f.blueReady(t)
	// Barrage's eight pieces on Red's second row, typed: 10 is "0".
	keys := []string{"0", "9", "2", "2", "3", "s", "b", "f"}
	actions := []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(f.ts.URL + "/board#" + f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#confirm`)),
		chromedp.Focus(chromedp.CSS(`.sq[data-sq="10"]`)),
	}
	for i, k := range keys {
		if i > 0 {
			actions = append(actions, chromedp.KeyEvent(kb.ArrowRight))
		}
		actions = append(actions, chromedp.KeyEvent(k))
	}
	actions = append(actions, chromedp.Poll[chromedp.Void](`+document.body.dataset.checked === 8`))
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
	keysHelp := func(stage, want string) {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#keys`)))
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s, the keys' help says %q, want %q", stage, got, want)
		}
	}
	keysHelp("in the set-up", "Arrow keys move around the board. On a square, type a piece's label to put it there (0 for 10, B for a Bomb, F for the Flag) or Delete to clear it; Enter on two squares swaps them; Escape lets go of a piece picked up.")
	refusal, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#refusal`)))
	if err != nil {
		t.Fatal(err)
	}
	want := []game.Rank{game.Marshal, game.General, game.Scout, game.Scout, game.Miner, game.Spy, game.Bomb, game.Flag}
	for i, r := range want {
		sq := game.Square(10 + i)
		if got := label(t, ctx, sq); got != sq.String()+": your "+render.PieceName(lang.For("en"), r, game.NumberingModern) {
			t.Fatalf("after typing, %s says %q", sq, got)
		}
	}
	if refusal != "" {
		t.Fatalf("the typed set-up was refused: %q", refusal)
	}
	// Delete clears the square that has the focus, however it got it, and
	// the focus stays there through the redraws, the check's answer's too.
	if err := chromedp.Do(ctx,
		chromedp.Focus(chromedp.CSS(`.sq[data-sq="13"]`)),
		chromedp.KeyEvent(kb.Delete),
		chromedp.Poll[chromedp.Void](`+document.body.dataset.checked === 9`),
	); err != nil {
		t.Fatal(err)
	}
	if got := label(t, ctx, 13); got != "D2: empty" {
		t.Fatalf("after Delete on D2 it says %q", got)
	}
	if focus, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.dataset.sq`)); err != nil || focus != "13" {
		t.Fatalf("after Delete on D2 the focus is on square %q (%v)", focus, err)
	}
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent("2"),
		chromedp.Poll[chromedp.Void](`+document.body.dataset.checked === 10`),
	); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Focus(chromedp.CSS(`#confirm`)),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
	); err != nil {
		t.Fatal(err)
	}
	keysHelp("in play", "Arrow keys move around the board; Enter selects a piece, and Enter on a marked square moves it there; Escape lets it go.")
	// The Scout on C2 moves up the file: Enter, ArrowUp, Enter.
	from, to := game.Square(12), game.Square(22)
	if err := chromedp.Do(ctx,
		chromedp.Focus(chromedp.CSS(`.sq[data-sq="12"]`)),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`.sq[data-sq="22"].target`)),
	); err != nil {
		t.Fatal(err)
	}
	// The Scout's whole line is offered, up to the enemy.
	targets, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".sq.target").length`))
	if err != nil {
		t.Fatal(err)
	}
	m, _ = f.store.Match(bg, m.ID)
	g, _ := m.Game()
	legal := 0
	for _, mv := range g.LegalMoves() {
		if mv.From == from {
			legal++
		}
	}
	if targets != legal || legal < 2 {
		t.Fatalf("%d targets highlighted; the engine has %d moves for the Scout", targets, legal)
	}
	if got := label(t, ctx, to); !strings.HasSuffix(got, ", can move here") {
		t.Fatalf("a target says %q", got)
	}
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent(kb.ArrowUp),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`#history li`)),
	); err != nil {
		t.Fatal(err)
	}
	m, _ = f.store.Match(bg, m.ID)
	if m.Moves() != 1 || m.Log[len(m.Log)-1].Move != (game.Move{From: from, To: to}) {
		t.Fatalf("the log is %v", m.Log)
	}
	// Resigning asks first: Escape keeps the match on, Yes resigns.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#resign`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
		chromedp.KeyEvent(kb.Escape),
		chromedp.Sleep(100*time.Millisecond),
	); err != nil {
		t.Fatal(err)
	}
	open, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("ask").open`))
	if err != nil {
		t.Fatal(err)
	}
	if m2, _ := f.store.Match(bg, m.ID); open || m2.Phase != storage.PhasePlaying {
		t.Fatalf("after Escape: dialog open %v, phase %v", open, m2.Phase)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#resign`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
		chromedp.Focus(chromedp.CSS(`#ask-choices button`)), // Yes (Resign? opens on Cancel)
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`#download`)),
	); err != nil {
		t.Fatal(err)
	}
	if m2, _ := f.store.Match(bg, m.ID); m2.Phase != storage.PhaseFinished {
		t.Fatalf("after Yes: phase %v", m2.Phase)
	}
	keysHelp("after the match", "Arrow keys move around the board; each square says what stands on it. Elsewhere on the page, ← and → step through the moves (in their list, ↑ and ↓ too), Home and End go to the start and to now.")
}

// TestBrowserPhone: at 320×640 the board and the tray fit without
// horizontal scrolling, squares are big enough to tap, and tap-tap places
// a piece.
func TestBrowserPhone(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m, err := f.store.CreateMatch(context.Background(), storagetest.NewMatch(game.VariantClassic))
	if err != nil {
		t.Fatal(err)
	}
	type fitness struct {
		ScrollWidth, InnerWidth int
		Smallest                float64
		Right                   float64
		Squares                 int
	}
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
	); err != nil {
		t.Fatal(err)
	}
	fit, err := chromedp.Run(ctx, chromedp.Evaluate[fitness](`(() => {
			const sq = Array.from(document.querySelectorAll(".sq, #tray button")).map(b => b.getBoundingClientRect());
			return {
				ScrollWidth: document.documentElement.scrollWidth, InnerWidth: window.innerWidth,
				Smallest: Math.min(...sq.map(r => Math.min(r.width, r.height))),
				Right: Math.max(...sq.map(r => r.right)),
				Squares: document.querySelectorAll(".sq").length,
			};
		})()`))
	if err != nil {
		t.Fatal(err)
	}
	if fit.InnerWidth != 320 || fit.ScrollWidth > fit.InnerWidth || fit.Right > 320 || fit.Squares != 100 {
		t.Fatalf("at 320 px: %+v", fit)
	}
	if fit.Smallest < 24 {
		t.Fatalf("a square or tray piece is %.1f px: too small to tap", fit.Smallest)
	}
	// The tray's twelve kinds of piece take two lines, not three.
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`new Set(Array.from(document.querySelectorAll("#tray button")).map(b => Math.round(b.getBoundingClientRect().top))).size`))
	if err != nil || rows != 2 {
		t.Fatalf("the tray takes %d lines (%v)", rows, err)
	}
	// The squares Red sets up on, and only those, stand out from the others.
	type zone struct {
		Squares         []int
		Inside, Outside string
	}
	z, err := chromedp.Run(ctx, chromedp.Evaluate[zone](`({
			Squares: Array.from(document.querySelectorAll(".sq.zone")).map(b => +b.dataset.sq),
			Inside: getComputedStyle(document.querySelector('.sq[data-sq="25"]')).backgroundColor,
			Outside: getComputedStyle(document.querySelector('.sq[data-sq="65"]')).backgroundColor,
		})`))
	if err != nil {
		t.Fatal(err)
	}
	if len(z.Squares) != 40 || slices.Max(z.Squares) != 39 || z.Inside == z.Outside {
		t.Fatalf("the set-up zone: squares %v, coloured %s (outside %s)", z.Squares, z.Inside, z.Outside)
	}
	// Tap the Flag in the tray, then a square. The tray's buttons stay the
	// same through the redraws, so that a tap under way when one comes lands.
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`window.flag = document.querySelector('#tray button[data-rank="13"]')`),
		chromedp.Click(chromedp.CSS(`#tray button[data-rank="13"]`)),
		chromedp.Click(chromedp.CSS(`.sq[data-sq="4"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.sq[data-sq="4"].red`)),
	); err != nil {
		t.Fatal(err)
	}
	if same, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('#tray button[data-rank="13"]') === window.flag`)); err != nil || !same {
		t.Fatalf("the tray's Flag was made anew (%v)", err)
	}
	if got := label(t, ctx, 4); got != "E1: your Flag" {
		t.Fatalf("the tapped square says %q", got)
	}
	// What the check finds missing is a hint in another colour than a
	// refusal's: nothing is wrong with a set-up under way.
	browsertest.Wait(t, ctx, "the check's answer", `document.getElementById("hint").textContent.indexOf("Missing") >= 0`)
	hint, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.getElementById("hint")).color`))
	if err != nil {
		t.Fatal(err)
	}
	if hint == "rgb(170, 0, 0)" {
		t.Fatalf("the check's hint is in the refusals' red")
	}
}

// TestBrowserDrawAndReplay: a draw offered elsewhere arrives on the page and
// is declined there after a confirmation; after the end, the replay board
// steps through frames with both armies shown, and the record is offered.
func TestBrowserDrawAndReplay(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 3)
	g, _ := m.Game()
	m, _, err := f.store.ApplyMove(bg, m.ID, m.Version, game.Red, g.LegalMoves()[0], storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	if m, err = f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActOfferDraw, Side: game.Blue, At: storagetest.T0}); err != nil {
		t.Fatal(err)
	}
	g, _ = m.Game()
	f.srv.MatchChanged(m, g)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#decline`)),
		chromedp.Click(chromedp.CSS(`#decline`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
		chromedp.Click(chromedp.CSS(`#ask-choices button`)),
		chromedp.WaitNotVisible(chromedp.CSS(`#decline`)),
	); err != nil {
		t.Fatal(err)
	}
	m, _ = f.store.Match(bg, m.ID)
	if last := m.Log[len(m.Log)-1]; last.Kind != storage.ActDeclineDraw || last.Side != game.Red {
		t.Fatalf("the last action is %v", last)
	}
	// Red's page, before the end: the replay's first frame hides Blue.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#first`)),
		chromedp.WaitVisible(chromedp.CSS(`#note:not(:empty)`)),
	); err != nil {
		t.Fatal(err)
	}
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Array.from(document.querySelectorAll(".sq.blue")).filter(b => b.textContent === "" && b.matches(".back")).length`))
	if err != nil {
		t.Fatal(err)
	}
	if hidden != 8 {
		t.Fatalf("%d of Blue's pieces hidden in Red's first frame, want 8", hidden)
	}
	if m, err = f.store.Act(bg, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: storagetest.T0}); err != nil {
		t.Fatal(err)
	}
	g, _ = m.Game()
	f.srv.MatchChanged(m, g)
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`#download`)),
		chromedp.Poll[chromedp.Void](`document.getElementById("ply").textContent === "Move 1 of 1"`),
		chromedp.Click(chromedp.CSS(`#first`)),
		chromedp.Poll[chromedp.Void](`document.getElementById("ply").textContent === "Move 0 of 1"`),
	); err != nil {
		t.Fatal(err)
	}
	ply, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#ply`)))
	if err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Array.from(document.querySelectorAll(".sq.blue")).filter(b => (b.textContent !== "" || b.matches(".bomb, .flag")) && !b.matches(".back")).length`))
	if err != nil {
		t.Fatal(err)
	}
	if shown != 8 || ply != "Move 0 of 1" {
		t.Fatalf("after the end, the first frame shows %d of Blue's pieces (%q)", shown, ply)
	}
	// A past position's board looks unlike the present's.
	past, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.getElementById("board")).borderTopColor`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#last`)),
		chromedp.Poll[chromedp.Void](`!document.getElementById("board").classList.contains("past")`),
	); err != nil {
		t.Fatal(err)
	}
	present, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.getElementById("board")).borderTopColor`))
	if err != nil {
		t.Fatal(err)
	}
	if past == present {
		t.Fatalf("the board of a past move and the present's both have a %s border", past)
	}
}

// TestBrowserMouseAndSavedSetups: with the mouse, a piece drags from the tray
// onto the board and from square to square; a set-up kept for later is
// offered in the player's next match and, chosen there, is the one confirmed.
func TestBrowserMouseAndSavedSetups(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantClassic))
	if err != nil {
		t.Fatal(err)
	}
	sq := func(s int) string { return `.sq[data-sq="` + itoa(s) + `"]` }
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#tray button`)),
	); err != nil {
		t.Fatal(err)
	}
	confirmX, confirmY := centre(t, ctx, `#confirm`)
	if err := browsertest.Drag(ctx, `#tray button[data-rank="13"]`, sq(4)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the dragged Flag", `document.querySelector('.sq[data-sq="4"]').classList.contains("red")`)
	if got := label(t, ctx, 4); got != "E1: your Flag" {
		t.Fatalf("after the drag E1 says %q", got)
	}
	if err := browsertest.Drag(ctx, sq(4), sq(15)); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the Flag on F2", `document.querySelector('.sq[data-sq="15"]').classList.contains("red")`)
	if got, was := label(t, ctx, 15), label(t, ctx, 4); got != "F2: your Flag" || was != "E1: empty" {
		t.Fatalf("after the swap F2 says %q and E1 %q", got, was)
	}

	// Random, then keep it for later under a name: Keep is enabled once the
	// check has accepted the random set-up.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#random`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the random set-up accepted", `document.querySelectorAll(".sq.red").length === 40 && !document.getElementById("keepSetup").disabled`)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#keepSetup`)),
		chromedp.WaitVisible(chromedp.CSS(`#ask-input`)),
		chromedp.SendKeys(`#ask-input`, "Wall"),
		chromedp.Click(chromedp.CSS(`#ask-choices button`)),
		chromedp.Poll[chromedp.Void](`document.getElementById("done").textContent.indexOf("Wall") >= 0`),
	); err != nil {
		t.Fatal(err)
	}
	kept, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#done`)))
	if err != nil {
		t.Fatal(err)
	}
	if kept != "Kept as “Wall”." {
		t.Fatalf("after keeping: %q", kept)
	}
	// The check's answers, the message and the menu of saved set-ups, which
	// come while the player may be reaching for Confirm, leave it in place.
	browsertest.Wait(t, ctx, "the saved set-ups menu", `!document.getElementById("saved").hidden`)
	if x, y := centre(t, ctx, `#confirm`); x != confirmX || y != confirmY {
		t.Fatalf("Confirm moved from (%v, %v) to (%v, %v)", confirmX, confirmY, x, y)
	}
	p, err := f.store.Player(bg, "1001")
	if err != nil {
		t.Fatal(err)
	}
	wall, ok := p.SavedSetup("Wall")
	if !ok || wall.Setup.Validate(m.Rules) != nil {
		t.Fatalf("saved set-ups: %+v", p.Setups)
	}

	// The next match: an empty board, then the saved set-up from the menu.
	next, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantClassic))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`localStorage.clear()`),
		chromedp.Navigate("about:blank"), // a page of its own: a new fragment alone would reload the old one under the next steps
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(next.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#saved`)),
	); err != nil {
		t.Fatal(err)
	}
	options, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#saved option")).map(o => o.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(options) != 2 || options[1] != "Wall" {
		t.Fatalf("the saved set-ups menu offers %q", options)
	}
	browsertest.Wait(t, ctx, "an empty board", `document.querySelectorAll(".sq.red").length === 0`)
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`(m => { m.value = "0"; m.dispatchEvent(new Event("change")); })(document.getElementById("saved"))`),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll(".sq.red").length === 40`),
		chromedp.Click(chromedp.CSS(`#confirm`)),
	); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the set-up confirmed", `document.getElementById("tray").hidden`)
	got, err := f.store.Match(bg, next.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Setups[game.Red].Status != storage.SetupConfirmed || got.Setups[game.Red].Setup != wall.Setup {
		t.Fatalf("confirmed %v:\n%v\nwant the saved\n%v", got.Setups[game.Red].Status, got.Setups[game.Red].Setup, wall.Setup)
	}
}
