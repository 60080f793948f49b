package web

import (
	"bytes"
	"context"
	"image/png"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// colour is a pixel's red, green and blue.
type colour [3]int

// far says whether two colours tell apart at a glance.
func (c colour) far(d colour) bool {
	n := 0
	for i := range c {
		n += max(c[i]-d[i], d[i]-c[i])
	}
	return n > 60
}

// pixel is the colour of the open page's element of selector at (fx, fy),
// fractions of its width and height.
func pixel(t *testing.T, ctx context.Context, selector string, fx, fy float64) colour {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(selector)))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	r, g, bl, _ := img.At(b.Min.X+int(fx*float64(b.Dx()-1)), b.Min.Y+int(fy*float64(b.Dy()-1))).RGBA()
	return colour{int(r >> 8), int(g >> 8), int(bl >> 8)}
}

// TestBrowserBoardMarks: the selected piece, the squares it may move to and
// the last move each look their own way on the board: the selection tints
// its square and lights its piece up (not only a frame, which a target's
// looked like), an empty target has a dot, and the last move's empty square
// is yellow, as in the pictures.
func TestBrowserBoardMarks(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	for range 2 {
		g, _ := m.Game()
		var err error
		if m, _, err = f.store.ApplyMove(bg, m.ID, m.Version, g.ToMove(), g.LegalMoves()[0], storagetest.T0); err != nil {
			t.Fatal(err)
		}
	}
	g, _ := m.Game()
	last := m.Log[len(m.Log)-1].Move
	// A Red piece that may step onto an empty square other than the last
	// move's, and another Red piece to compare it with.
	var mv game.Move
	found := false
	for _, c := range g.LegalMoves() {
		if _, _, taken := g.PieceAt(c.To); !taken && c.To != last.From && c.From != last.To {
			mv, found = c, true
			break
		}
	}
	if !found {
		t.Fatal("no move of Red's to an empty square")
	}
	other := game.Square(0)
	for s := range game.NumSquares {
		if side, _, ok := g.PieceAt(game.Square(s)); ok && side == game.Red && game.Square(s) != mv.From && game.Square(s) != last.To {
			other = game.Square(s)
			break
		}
	}
	plain := game.Square(0)
	for _, s := range []game.Square{44, 45, 54, 55, 40, 49, 50, 59} { // the middle's land squares
		if _, _, ok := g.PieceAt(s); !ok && s != last.From && s != mv.To {
			plain = s
			break
		}
	}
	sel := func(s game.Square) string { return `.sq[data-sq="` + itoa(int(s)) + `"]` }
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		chromedp.Click(chromedp.CSS(sel(mv.From))),
		chromedp.WaitVisible(chromedp.CSS(sel(mv.To)+`.target`)),
	); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		what       string
		a          string
		ax, ay     float64
		b          string
		bx, by     float64
		shouldDiff bool
	}{
		{"the selected piece's face, and another piece's", sel(mv.From), 0.2, 0.5, sel(other), 0.2, 0.5, true},
		{"an empty target's centre, and its side", sel(mv.To), 0.5, 0.5, sel(mv.To), 0.2, 0.2, true},
		{"an empty target's side, and an empty square's", sel(mv.To), 0.2, 0.2, sel(plain), 0.2, 0.2, false},
		{"the last move's empty square, and an empty square", sel(last.From), 0.3, 0.3, sel(plain), 0.3, 0.3, true},
		{"the selected piece's face, and the last move's square", sel(mv.From), 0.2, 0.5, sel(last.From), 0.2, 0.5, true},
	} {
		a, b := pixel(t, ctx, tt.a, tt.ax, tt.ay), pixel(t, ctx, tt.b, tt.bx, tt.by)
		if a.far(b) != tt.shouldDiff {
			t.Errorf("%s: %v and %v, want them told apart: %v", tt.what, a, b, tt.shouldDiff)
		}
	}
}

// TestBrowserLayout: on a phone and on a wide screen, in a match of over a
// hundred moves, nothing is wider than the screen, the controls are big
// enough to tap, the replay's buttons and its move number stay on one line,
// the list of moves shows the newest, and the coordinates sit outside the
// squares (on a square, "4" and "B" read as one label, "4B"). A wide screen
// holds the board and the controls side by side, the whole board in view.
// A question's answers stand on one line.
func TestBrowserLayout(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantClassic), 2)
	m = storagetest.Play(t, f.store, m, 120, rand.New(rand.NewPCG(2, 2)))
	if m.Phase != storage.PhasePlaying || m.Moves() < 100 {
		t.Fatalf("the match is %v after %d moves", m.Phase, m.Moves())
	}
	type fit struct {
		Scroll, Inner, InnerHeight int
		Outside                    []string // controls out of the screen
		Small                      []string // controls too small to tap
		Replay                     [2]float64
		Ply                        struct{ Height, Line float64 }
		Newest                     struct{ Top, Bottom, ListTop, ListBottom float64 }
		Coords                     []string // coordinates on a square, or off the screen
		Board                      struct{ Right, Bottom float64 }
		Beside                     float64 // the controls' left edge
	}
	for _, tt := range []struct {
		name          string
		viewport      chromedp.Action[chromedp.Void]
		width, height int
		wide          bool
	}{
		{"phone", chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile), 320, 640, false},
		{"desktop", chromedp.EmulateViewport(1280, 800), 1280, 800, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := chromedp.Do(ctx,
				tt.viewport,
				chromedp.Navigate("about:blank"),
				chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
				chromedp.WaitVisible(chromedp.CSS(`#history li`)),
			); err != nil {
				t.Fatal(err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[fit](`(() => {
				const shown = Array.from(document.querySelectorAll("#actions > *, #replay button")).filter(e => e.offsetParent !== null);
				const name = e => e.id || e.textContent;
				const coords = [];
				document.querySelectorAll(".sq[data-row], .sq[data-file]").forEach(b => {
					const r = b.getBoundingClientRect();
					if (b.dataset.row) {
						const cs = getComputedStyle(b, "::before"), right = r.right - 1 - parseFloat(cs.right), left = right - parseFloat(cs.width);
						if (right > r.left + 0.5 || left < 0) { coords.push("row " + b.dataset.row + " at " + left + ".." + right + " on a square at " + r.left); }
					}
					if (b.dataset.file) {
						const cs = getComputedStyle(b, "::after"), top = r.top + 1 + parseFloat(cs.top);
						if (top < r.bottom - 0.5) { coords.push("file " + b.dataset.file + " at " + top + " on a square ending at " + r.bottom); }
					}
				});
				const board = document.getElementById("board").getBoundingClientRect();
				return {
					Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth, InnerHeight: window.innerHeight,
					Outside: shown.filter(e => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; }).map(name),
					Small: shown.filter(e => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height) < 40; }).map(name),
					Replay: [document.getElementById("first").getBoundingClientRect().top, document.getElementById("last").getBoundingClientRect().top],
					Ply: {Height: document.getElementById("ply").getBoundingClientRect().height, Line: parseFloat(getComputedStyle(document.getElementById("ply")).fontSize)},
					Newest: (() => {
						const li = document.querySelector("#history li:last-child").getBoundingClientRect(), list = document.getElementById("history").getBoundingClientRect();
						return {Top: li.top, Bottom: li.bottom, ListTop: list.top, ListBottom: list.bottom};
					})(),
					Coords: coords,
					Board: {Right: board.right, Bottom: board.bottom},
					Beside: document.getElementById("actions").getBoundingClientRect().left,
				};
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if got.Inner != tt.width || got.Scroll > got.Inner || len(got.Outside) > 0 {
				t.Errorf("wider than the screen: %d px of %d, controls outside: %q", got.Scroll, got.Inner, got.Outside)
			}
			if len(got.Small) > 0 {
				t.Errorf("controls under 40 px: %q", got.Small)
			}
			if got.Replay[0] != got.Replay[1] {
				t.Errorf("the replay's first and last buttons are on different lines: %v", got.Replay)
			}
			if got.Ply.Height > 2*got.Ply.Line {
				t.Errorf("the move number takes %.0f px, more than one line of %.0f px", got.Ply.Height, got.Ply.Line)
			}
			if n := got.Newest; n.Top < n.ListTop || n.Bottom > n.ListBottom+1 {
				t.Errorf("the newest move (%.0f..%.0f px) is outside the list's view (%.0f..%.0f px)", n.Top, n.Bottom, n.ListTop, n.ListBottom)
			}
			if len(got.Coords) > 0 {
				t.Errorf("coordinates on the squares or off the screen: %q", got.Coords)
			}
			if got.Board.Right > float64(tt.width) {
				t.Errorf("the board ends at %.0f px, on a screen of %d", got.Board.Right, tt.width)
			}
			if tt.wide && (got.Beside < got.Board.Right || got.Board.Bottom > float64(tt.height)) {
				t.Errorf("on a wide screen the controls start at %.0f px, the board ends at %.0f px and its bottom at %.0f px of %d", got.Beside, got.Board.Right, got.Board.Bottom, tt.height)
			}
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#resign`)), chromedp.WaitVisible(chromedp.CSS(`#ask[open]`))); err != nil {
				t.Fatal(err)
			}
			tops, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[document.querySelector("#ask-choices button").getBoundingClientRect().top, document.getElementById("ask-no").getBoundingClientRect().top]`))
			if err != nil {
				t.Fatal(err)
			}
			if tops[0] != tops[1] {
				t.Errorf("Yes and Cancel on different lines: %v", tops)
			}
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#ask-no`)), chromedp.WaitNotVisible(chromedp.CSS(`#ask`))); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestBrowserOffersKeepTheBoard: on a phone, in each language, a draw offer
// and a proposal to pause that arrive while the player looks at the board
// do not move it (their words come below it, by their buttons); the buttons
// that answer them say which they answer, each in its own words, and fit
// the screen; French binds its space before a colon to it.
func TestBrowserOffersKeepTheBoard(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	at := time.Now().Truncate(time.Second)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	boardTop := `document.getElementById("board").getBoundingClientRect().top + window.scrollY`
	looseSpace := regexp.MustCompile(` [:;?!]`)
	for _, code := range []string{"en", "nl", "de", "fr"} {
		f.setPrefs("1001", Preferences{Language: code})
		m := f.inPlaySince(t, at, 7)
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"),
			chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
			chromedp.WaitVisible(chromedp.CSS(`#resign`)),
		); err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		before, err := chromedp.Run(ctx, chromedp.Evaluate[float64](boardTop))
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []storage.Action{{Kind: storage.ActOfferDraw, Side: game.Blue, At: at}, {Kind: storage.ActOfferPause, Side: game.Blue, Days: 3, At: at}} {
			if m, err = f.store.Act(bg, m.ID, m.Version, a); err != nil {
				t.Fatal(err)
			}
			g, _ := m.Game()
			f.srv.MatchChanged(m, g)
		}
		browsertest.Wait(t, ctx, code+": the offers", `!document.getElementById("decline").hidden && !document.getElementById("declinePause").hidden`)
		after, err := chromedp.Run(ctx, chromedp.Evaluate[float64](boardTop))
		if err != nil {
			t.Fatal(err)
		}
		if after != before {
			t.Errorf("%s: the offers moved the board from %.0f px to %.0f px", code, before, after)
		}
		type button struct {
			Text          string
			Right         float64
			Scroll, Width int
		}
		buttons, err := chromedp.Run(ctx, chromedp.Evaluate[[]button](`Array.from(document.querySelectorAll("#actions button")).filter(b => !b.hidden).map(b => ({Text: b.textContent, Right: b.getBoundingClientRect().right, Scroll: b.scrollWidth, Width: b.clientWidth}))`))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, b := range buttons {
			if seen[b.Text] {
				t.Errorf("%s: two buttons say %q", code, b.Text)
			}
			seen[b.Text] = true
			if b.Right > 320 || b.Scroll > b.Width {
				t.Errorf("%s: the button %q does not fit: %+v", code, b.Text, b)
			}
		}
		if len(buttons) < 5 {
			t.Errorf("%s: %d buttons shown: %+v", code, len(buttons), buttons)
		}
		if code == "fr" {
			text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("main").textContent`))
			if err != nil {
				t.Fatal(err)
			}
			if loose := looseSpace.FindAllString(text, -1); len(loose) > 0 || !regexp.MustCompile("\u00a0:").MatchString(text) {
				t.Errorf("fr: a breakable space before a mark (%q) in %q", loose, text)
			}
		}
	}
}

// TestBrowserPieceMarks: a square shows what its cell says, as the pictures
// draw it, and nothing more: a piece that moved has the white dot and one
// that never moved has none, a Bomb and a Flag show their symbols and no
// letter, a hidden enemy piece shows its side's emblem and neither a rank
// nor a symbol, a piece whose rank is public has the white inner frame, and
// the last move's squares have their frames, and the squares a Scout ran
// over its trail, which their labels name too.
func TestBrowserPieceMarks(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantClassic), 2)
	m = storagetest.Play(t, f.store, m, 120, rand.New(rand.NewPCG(2, 2)))
	g, _ := m.Game()
	view := g.View(game.RedViewer)
	last := view.History[len(view.History)-1]
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#history li`)),
	); err != nil {
		t.Fatal(err)
	}
	type look struct {
		Class, Text, Images, Label string
	}
	lookAt := func(s game.Square) look {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[look](`(() => {
			const b = document.querySelector('.sq[data-sq="`+itoa(int(s))+`"]');
			return {Class: b.className, Text: b.textContent, Images: getComputedStyle(b).backgroundImage, Label: b.getAttribute("aria-label")};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	ordinary := func(r game.Rank) bool { return r != game.NoRank && r != game.Bomb && r != game.Flag }
	label := func(r game.Rank) string { return r.Label(game.NumberingModern) }
	notKnown := func(c game.Cell) bool { return !c.Revealed && !c.KnownScout }
	for _, tt := range []struct {
		what   string
		pick   func(c game.Cell) bool
		text   func(c game.Cell) string
		images []string // the pictures its square shows
		not    []string // and those it does not
	}{
		{"an own piece that moved",
			func(c game.Cell) bool { return c.Side == game.Red && c.Moved && notKnown(c) && ordinary(c.Rank) },
			func(c game.Cell) string { return label(c.Rank) },
			[]string{"tile-red.svg", "moved.svg"}, []string{"known-red.svg", "back-red.svg", "bomb.svg", "flag.svg"}},
		{"an own piece that never moved",
			func(c game.Cell) bool { return c.Side == game.Red && !c.Moved && notKnown(c) && ordinary(c.Rank) },
			func(c game.Cell) string { return label(c.Rank) },
			[]string{"tile-red.svg"}, []string{"moved.svg", "known-red.svg", "back-red.svg", "bomb.svg", "flag.svg"}},
		{"an own Bomb",
			func(c game.Cell) bool { return c.Side == game.Red && c.Rank == game.Bomb && notKnown(c) },
			func(game.Cell) string { return "" },
			[]string{"tile-red.svg", "bomb.svg"}, []string{"flag.svg", "moved.svg", "back-red.svg"}},
		{"an own Flag",
			func(c game.Cell) bool { return c.Side == game.Red && c.Rank == game.Flag },
			func(game.Cell) string { return "" },
			[]string{"tile-red.svg", "flag.svg"}, []string{"bomb.svg", "moved.svg", "back-red.svg"}},
		{"a hidden enemy piece that never moved",
			func(c game.Cell) bool {
				return c.Side == game.Blue && c.Rank == game.NoRank && !c.Moved && !c.KnownScout
			},
			func(game.Cell) string { return "" },
			[]string{"tile-blue.svg", "back-blue.svg"}, []string{"moved.svg", "known-blue.svg", "bomb.svg", "flag.svg"}},
		{"a hidden enemy piece that moved",
			func(c game.Cell) bool {
				return c.Side == game.Blue && c.Rank == game.NoRank && c.Moved && !c.KnownScout
			},
			func(game.Cell) string { return "" },
			[]string{"tile-blue.svg", "back-blue.svg", "moved.svg"}, []string{"known-blue.svg", "bomb.svg", "flag.svg"}},
		{"an enemy piece whose rank a battle showed",
			func(c game.Cell) bool { return c.Side == game.Blue && c.Revealed && ordinary(c.Rank) },
			func(c game.Cell) string { return label(c.Rank) },
			[]string{"tile-blue.svg", "known-blue.svg"}, []string{"back-blue.svg", "moved.svg", "bomb.svg", "flag.svg"}},
	} {
		t.Run(tt.what, func(t *testing.T) {
			s, c, found := game.Square(0), game.Cell{}, false
			for i, cell := range view.Board {
				// Not on the last move's squares, whose frames cover the piece's marks' corners.
				if sq := game.Square(i); cell.Occupied && tt.pick(cell) && sq != last.Move.From && sq != last.Move.To {
					s, c, found = sq, cell, true
					break
				}
			}
			if !found {
				t.Fatal("no such piece in the match")
			}
			got := lookAt(s)
			if want := tt.text(c); got.Text != want {
				t.Errorf("%v shows %q, want %q", s, got.Text, want)
			}
			for _, img := range tt.images {
				if !strings.Contains(got.Images, img) {
					t.Errorf("%v (%s) lacks %s: %s", s, got.Class, img, got.Images)
				}
			}
			for _, img := range tt.not {
				if strings.Contains(got.Images, img) {
					t.Errorf("%v (%s) shows %s: %s", s, got.Class, img, got.Images)
				}
			}
		})
	}
	// The last move's squares: the one it left, and the one it went to
	// (a battle's, when it was one).
	to := "last-to.svg"
	if last.IsAttack() {
		to = "battle.svg"
	}
	for s, img := range map[game.Square]string{last.Move.From: "last-from.svg", last.Move.To: to} {
		if got := lookAt(s); !strings.Contains(got.Images, img) {
			t.Errorf("the last move's %v (%s) lacks %s: %s", s, got.Class, img, got.Images)
		}
	}
	// A Scout's run, opened from the list of moves: the squares it ran over
	// carry its trail, and no other square does.
	run := -1
	for i, r := range view.History {
		from, to := r.Move.From, r.Move.To
		across := from.Row() == to.Row() && max(from.Col()-to.Col(), to.Col()-from.Col()) >= 2
		along := from.Col() == to.Col() && max(from.Row()-to.Row(), to.Row()-from.Row()) >= 2
		if !r.Move.IsInfiltration() && (across || along) {
			run = i
		}
	}
	if run < 0 {
		t.Fatal("no Scout ran in the match")
	}
	mv := view.History[run].Move
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#history li:nth-child(`+itoa(run+1)+`) button`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the run's position", `document.querySelector('.sq[data-sq="`+itoa(int(mv.From))+`"]').classList.contains("from")`)
	img, step := "trail-h.svg", 1
	if mv.From.Col() == mv.To.Col() {
		img, step = "trail-v.svg", 10
	}
	if mv.To < mv.From {
		step = -step
	}
	crossed := map[game.Square]bool{}
	for s := int(mv.From) + step; s != int(mv.To); s += step {
		crossed[game.Square(s)] = true
	}
	for s := range game.Square(game.NumSquares) {
		got := lookAt(s)
		if has := strings.Contains(got.Images, "trail-"); has != crossed[s] || crossed[s] && !strings.Contains(got.Images, img) {
			t.Errorf("after the run %v-%v, %v (%s) shows %s", mv.From, mv.To, s, got.Class, got.Images)
		}
		// A screen reader hears the trail too.
		if says := strings.HasSuffix(got.Label, ", crossed by the last move"); says != crossed[s] {
			t.Errorf("after the run %v-%v, %v says %q", mv.From, mv.To, s, got.Label)
		}
	}
}
