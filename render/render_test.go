package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

func sq(t testing.TB, name string) game.Square {
	t.Helper()
	s, err := game.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWhatIsDrawnWhere checks pixels of decoded pictures: highlights of the
// last move, the board turned for Blue, lakes, the status bar.
func TestWhatIsDrawnWhere(t *testing.T) {
	r := renderer(t)
	l := r.board
	// corner is a pixel inside a square but outside its piece: the square's
	// background, or the frame of a square of the last move.
	corner := func(s game.Square, bottom game.Side) image.Point {
		return l.squareAt(s, bottom).Add(image.Pt(1, 1))
	}
	// inside is a pixel just inside the thin frame of the from square, and
	// inside the thick one of the to square, still outside a piece's corner.
	inside := func(s game.Square, bottom game.Side, frame int) image.Point {
		return l.squareAt(s, bottom).Add(image.Pt(frame, frame))
	}
	// body is a pixel of a piece's body, above and left of its label and
	// inside the outline of a known piece.
	body := func(s game.Square, bottom game.Side) image.Point {
		return l.squareAt(s, bottom).Add(image.Pt(10, 12))
	}
	// screen is a pixel of a square by its place on the picture: column and
	// row counted from the top-left square.
	screen := func(col, row, dx, dy int) image.Point {
		return l.board.Add(image.Pt(col*tileSize+dx, row*tileSize+dy))
	}
	type check struct {
		what string
		at   image.Point
		want color.RGBA
	}
	tests := []struct {
		name   string
		plies  int
		viewer game.Viewer
		checks func(t *testing.T) []check
	}{
		{"battle highlighted", 2, game.RedViewer, func(t *testing.T) []check {
			return []check{
				{"the frame of the from square of A7xA6", corner(sq(t, "A7"), game.Red), colMoveMark},
				{"inside it", inside(sq(t, "A7"), game.Red, squareMark[bgFrom].width), colMoveHL},
				{"centre of the empty from square", l.squareAt(sq(t, "A7"), game.Red).Add(image.Pt(tileSize/2, tileSize/2)), colMoveHL},
				{"the frame of the battle square A6", corner(sq(t, "A6"), game.Red), colBattleMark},
				{"its frame is thick", inside(sq(t, "A6"), game.Red, squareMark[bgBattle].width-1), colBattleMark},
				{"the land to its right is not framed", l.squareAt(sq(t, "B6"), game.Red).Add(image.Pt(0, tileSize/2)), colLand},
				{"a square off the move", corner(sq(t, "B6"), game.Red), colLand},
				{"the winner, Blue's Captain, on A6", body(sq(t, "A6"), game.Red), sideFill[game.Blue]},
			}
		}},
		{"plain move highlighted, Blue's view", 3, game.BlueViewer, func(t *testing.T) []check {
			return []check{
				{"the frame of the from square of F4-F6", corner(sq(t, "F4"), game.Blue), colMoveMark},
				{"inside it", inside(sq(t, "F4"), game.Blue, squareMark[bgFrom].width), colMoveHL},
				{"the thick frame of the to square F6", inside(sq(t, "F6"), game.Blue, squareMark[bgTo].width-1), colMoveMark},
				{"the highlight in the corner of the to square, by Red's rounded Scout", inside(sq(t, "F6"), game.Blue, squareMark[bgTo].width), colMoveHL},
				{"the previous move's square", corner(sq(t, "A6"), game.Blue), colLand},
			}
		}},
		{"Red's view: Red at the bottom", 0, game.RedViewer, func(t *testing.T) []check {
			return []check{
				{"top-left square is A10, Blue's", screen(0, 0, 10, 12), sideFill[game.Blue]},
				{"bottom-left square is A1, Red's", screen(0, 9, 10, 12), sideFill[game.Red]},
				{"a lake in the middle", screen(2, 4, 24, 40), colLake},
				{"the status bar", image.Pt(2, 2), colPanel},
			}
		}},
		{"Blue's view: turned, Red's back row at the top", 0, game.BlueViewer, func(t *testing.T) []check {
			return []check{
				{"top-left square is J1, Red's", screen(0, 0, 10, 12), sideFill[game.Red]},
				{"top-right square is A1, Red's", screen(9, 0, 10, 12), sideFill[game.Red]},
				{"bottom-left square is J10, Blue's", screen(0, 9, 10, 12), sideFill[game.Blue]},
				{"J1 is where the layout says", body(sq(t, "J1"), game.Blue), sideFill[game.Red]},
				{"a lake in the middle", screen(6, 4, 24, 40), colLake},
			}
		}},
		{"public view: Red at the bottom", 0, game.PublicViewer, func(t *testing.T) []check {
			return []check{
				{"bottom-left square is A1, Red's", screen(0, 9, 10, 12), sideFill[game.Red]},
				{"top-left square is A10, Blue's", screen(0, 0, 10, 12), sideFill[game.Blue]},
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img := decodePNG(t, boardPNG(t, r, goldenGame(t, tc.plies).View(tc.viewer), Options{}))
			for _, c := range tc.checks(t) {
				if got := rgbaAt(img, c.at.X, c.at.Y); got != c.want {
					t.Errorf("%s: pixel %v is %v, want %v", c.what, c.at, got, c.want)
				}
			}
		})
	}
}

// tileAt returns the pixels of square s of a board picture.
func tileAt(img *image.Paletted, l *layout, s game.Square, bottom game.Side) []uint8 {
	p := l.squareAt(s, bottom)
	out := make([]uint8, 0, tileSize*tileSize)
	for y := range tileSize {
		off := img.PixOffset(p.X, p.Y+y)
		out = append(out, img.Pix[off:off+tileSize]...)
	}
	return out
}

// TestHiddenPiecesLookAlike checks the leak property directly on the pixels:
// every hidden piece of a side that has not moved has the same picture, be it
// the Flag or the Marshal, and moved hidden pieces look alike too.
func TestHiddenPiecesLookAlike(t *testing.T) {
	r := renderer(t)
	g := goldenGame(t, len(goldenMoves))
	for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
		v := g.View(viewer)
		img := decodePNG(t, boardPNG(t, r, v, Options{}))
		bottom := game.Red
		if s, ok := viewer.IsPlayer(); ok {
			bottom = s
		}
		// The first picture of each kind of hidden piece, by side and moved.
		seen := map[[2]int][]uint8{}
		for s := range game.Square(game.NumSquares) {
			c := v.Board[s]
			if !c.Occupied || c.Rank != game.NoRank || c.KnownScout {
				continue
			}
			moved := 0
			if c.Moved {
				moved = 1
			}
			k := [2]int{int(c.Side), moved}
			tile := tileAt(img, &r.board, s, bottom)
			if first, ok := seen[k]; !ok {
				seen[k] = tile
			} else if !bytes.Equal(first, tile) {
				t.Errorf("%s's view: the hidden %s piece on %s (moved %v) looks unlike the others", viewer, c.Side, s, c.Moved)
			}
		}
		if len(seen) == 0 {
			t.Errorf("%s's view has no hidden piece", viewer)
		}
	}
}

// TestKnownPieces checks that what a viewer knows is drawn: a Scout known by
// its run, a revealed rank, and a player's own pieces.
func TestKnownPieces(t *testing.T) {
	r := renderer(t)
	tl := r.tiles
	modern := numberingIndex(game.NumberingModern)
	tests := []struct {
		name   string
		plies  int
		viewer game.Viewer
		square string
		want   []uint8
	}{
		{"Red's Scout that ran is known to Blue", 3, game.BlueViewer, "F6", tl.face[bgTo][game.Red][markKnown][modern][game.Scout]},
		{"and to the public", 3, game.PublicViewer, "F6", tl.face[bgTo][game.Red][markKnown][modern][game.Scout]},
		{"Blue's Captain revealed in battle", 2, game.RedViewer, "A6", tl.face[bgBattle][game.Blue][markKnown][modern][game.Captain]},
		{"Blue's Bomb revealed by the Scout", 6, game.PublicViewer, "F7", tl.face[bgNormal][game.Blue][markKnown][modern][game.Bomb]},
		{"Red's own unmoved Marshal", 0, game.RedViewer, "B3", tl.face[bgNormal][game.Red][markNone][modern][game.Marshal]},
		{"Red's own General after it moved", 7, game.RedViewer, "B5", tl.face[bgTo][game.Red][markMoved][modern][game.General]},
		{"Red's General is a moved back to Blue", 7, game.BlueViewer, "B5", tl.back[bgTo][game.Red][1]},
		{"an empty square", 0, game.PublicViewer, "E5", tl.empty[bgNormal]},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := goldenGame(t, tc.plies).View(tc.viewer)
			img := decodePNG(t, boardPNG(t, r, v, Options{}))
			bottom := game.Red
			if s, ok := tc.viewer.IsPlayer(); ok {
				bottom = s
			}
			if got := tileAt(img, &r.board, sq(t, tc.square), bottom); !bytes.Equal(got, tc.want) {
				t.Errorf("%s in %s's view is not the expected tile", tc.square, tc.viewer)
			}
		})
	}
}

// TestRevealShowsEverything checks that the final reveal draws every piece's rank.
func TestRevealShowsEverything(t *testing.T) {
	r := renderer(t)
	g := goldenGame(t, 4)
	if err := g.Resign(game.Blue); err != nil {
		t.Fatal(err)
	}
	v, _ := g.Reveal()
	var b bytes.Buffer
	if err := r.Reveal(&b, v, Options{}); err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b.Bytes())
	for s := range game.Square(game.NumSquares) {
		side, rank, ok := g.PieceAt(s)
		if !ok {
			continue
		}
		tile := tileAt(img, &r.board, s, game.Red)
		found := false
		for bg := range numBgs {
			for mark := range numMarks {
				if bytes.Equal(tile, r.tiles.face[bg][side][mark][0][rank]) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s (%s %s) is not drawn as its rank", s, side, rank)
		}
	}
	if got := rgbaAt(img, 2, 2); got != colBanner {
		t.Errorf("status bar %v, want the result banner %v", got, colBanner)
	}
}

// TestSetupPreview checks that each piece of the set-up is on its square, the
// owner's army at the bottom.
func TestSetupPreview(t *testing.T) {
	r := renderer(t)
	red, blue := goldenSetups(t)
	for _, tc := range []struct {
		side  game.Side
		setup game.Setup
	}{{game.Red, red}, {game.Blue, blue}} {
		t.Run(tc.side.String(), func(t *testing.T) {
			var b bytes.Buffer
			if err := r.SetupPreview(&b, tc.setup, tc.side, game.DefaultRules(game.VariantClassic), Options{}); err != nil {
				t.Fatal(err)
			}
			img := decodePNG(t, b.Bytes())
			for row := range game.SetupRows {
				for col := range 10 {
					s := game.SetupSquare(tc.side, row, col)
					want := r.tiles.face[bgNormal][tc.side][markNone][0][tc.setup[row][col]]
					if !bytes.Equal(tileAt(img, &r.board, s, tc.side), want) {
						t.Errorf("%s should show %s", s, tc.setup[row][col])
					}
				}
			}
			// The owner's back row is at the bottom of the picture.
			back := game.SetupSquare(tc.side, game.SetupRows-1, 0)
			if p := r.board.squareAt(back, tc.side); p.Y != r.board.board.Y+9*tileSize {
				t.Errorf("the back row is at y %d, want the bottom row", p.Y)
			}
		})
	}
}

// TestMoveLine checks the words of the last-move line.
func TestMoveLine(t *testing.T) {
	text := func(lines [2][]item) string {
		var b strings.Builder
		for i, it := range slices.Concat(lines[0], []item{{text: " | "}}, lines[1]) {
			if i == len(lines[0]) && len(lines[1]) == 0 {
				break
			}
			if it.mini {
				fmt.Fprintf(&b, "[%s %s]", it.side, it.rank.Label(game.NumberingModern))
				continue
			}
			b.WriteString(it.text)
		}
		return b.String()
	}
	m := func(from, to string) game.Move {
		return game.Move{From: sq(t, from), To: sq(t, to)}
	}
	tests := []struct {
		name string
		rec  game.MoveRecord
		want string
	}{
		{"plain", game.MoveRecord{Side: game.Red, Move: m("B4", "B5")}, "Move 7: Red B4-B5"},
		{"attacker wins", game.MoveRecord{Side: game.Blue, Move: m("A7", "A6"), Outcome: game.AttackerWon, Attacker: game.Captain, Defender: game.Scout},
			"Move 7: Blue A7xA6 | [Blue 6] Captain beats [Red 2] Scout"},
		{"defender wins", game.MoveRecord{Side: game.Red, Move: m("F6", "F7"), Outcome: game.DefenderWon, Attacker: game.Scout, Defender: game.Bomb},
			"Move 7: Red F6xF7 | [Red 2] Scout loses to [Blue B] Bomb"},
		{"both removed", game.MoveRecord{Side: game.Red, Move: m("F6", "F7"), Outcome: game.BothRemoved, Attacker: game.Major, Defender: game.Major},
			"Move 7: Red F6xF7 | [Red 7] Major and [Blue 7] Major fall"},
		{"flag", game.MoveRecord{Side: game.Red, Move: m("F6", "F7"), Outcome: game.AttackerWon, Attacker: game.Miner, Defender: game.Flag},
			"Move 7: Red F6xF7 | [Red 3] Miner captures [Blue F] Flag"},
		{"infiltration right", game.MoveRecord{Side: game.Red, Move: game.Move{From: sq(t, "E8"), To: sq(t, "E10"), Guess: game.Flag}, Outcome: game.GuessedRight, Attacker: game.Infiltrator, Defender: game.Flag},
			"Move 7: Red E8~E10=F | [Red I] Infiltrator names [Blue F] Flag"},
		{"infiltration wrong", game.MoveRecord{Side: game.Red, Move: game.Move{From: sq(t, "E8"), To: sq(t, "E10"), Guess: game.Marshal}, Outcome: game.GuessedWrong, Attacker: game.Infiltrator},
			"Move 7: Red E8~E10=10 | [Red I] Infiltrator misses: not a Marshal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := text(moveItems(tc.rec, 7, Options{})); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestNames checks that any name from Discord is drawn without a crash,
// cleaned of what the fonts cannot draw, and shortened to fit.
func TestNames(t *testing.T) {
	r := renderer(t)
	long := strings.Repeat("Strategist ", 40)
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Ada", "Ada"},
		{"empty gives the side", "", "Red"},
		{"spaces only", "  \t ", "Red"},
		{"accents and Cyrillic", "Zoë Гриша", "Zoë Гриша"},
		{"emoji are left out", "🐉 Ada 🔥", "Ada"},
		{"a family emoji with joiners", "Ada 👨‍👩‍👧", "Ada"},
		{"emoji only", "🐉🔥", "Red"},
		{"Chinese, which the fonts lack", "张伟", "Red"},
		{"control characters", "A\x00d\x1ba\u200b", "Ada"},
		{"invalid UTF-8", "A\xffd\xfea", "Ada"},
		{"right-to-left mark", "\u200fAda", "Ada"},
		{"runs of spaces", "Ada   of\n\nLakes", "Ada of Lakes"},
		{"narrow, and longer than any Discord name", strings.Repeat("i", maxNameRunes+6), strings.Repeat("i", maxNameRunes) + "…"},
		{"fancy letters", "𝓐𝓭𝓪 𝔊𝔯𝔞𝔠𝔢", "Ada Grace"},
		{"full-width letters", "Ａｄａ", "Ada"},
		{"accents written apart", "Zoe\u0308", "Zoë"},
		{"accents the fonts lack keep their letter", "Nguyễn Thị", "Nguyen Thi"},
		{"nothing drawable before the cut", strings.Repeat("🐉", maxNameRunes) + "Ada", "Red"},
		{"Hebrew leaves only its hyphen", "דוד בן-גוריון", "Red"},
		{"emoji leave only a dot and brackets", "(🐉.🔥)", "Red"},
		{"a name of punctuation is kept", "-_-", "-_-"},
		{"a digit left is a name", "山田 7", "7"},
		{"brackets emptied by what the fonts lack go", "Zhang Wei (张伟)", "Zhang Wei"},
		{"square brackets too, at the start", "[龍] Ada [🐉 ]", "Ada"},
		{"brackets with something left stay", "Ada (the 🐉)", "Ada (the)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.bold.cleanName(tc.in, "Red"); got != tc.want {
				t.Errorf("cleanName(%q) = %q, want %q", tc.in, got, tc.want)
			}
			var b bytes.Buffer
			g := goldenGame(t, 1)
			if err := r.Board(&b, g.View(game.PublicViewer), Options{Names: [2]string{tc.in, tc.in}}); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("long names are shortened", func(t *testing.T) {
		got := r.bold.fit(r.bold.cleanName(long, "Red"), 200)
		if !strings.HasSuffix(got, "…") || r.bold.width(got) > 200 {
			t.Errorf("fit gave %q, %d px wide", got, r.bold.width(got))
		}
		if !utf8.ValidString(got) {
			t.Errorf("fit gave invalid UTF-8 %q", got)
		}
		var b bytes.Buffer
		if err := r.Board(&b, goldenGame(t, 0).View(game.RedViewer), Options{Names: [2]string{long, strings.Repeat("🐉", 10000)}}); err != nil {
			t.Fatal(err)
		}
	})
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestErrors checks that input no game produces is refused with an error, not a panic.
func TestErrors(t *testing.T) {
	r := renderer(t)
	ongoing := goldenGame(t, 2)
	view := func(f func(v *game.View)) game.View {
		v := ongoing.View(game.RedViewer)
		f(&v)
		return v
	}
	tests := []struct {
		name string
		run  func() error
		want error
	}{
		{"unknown viewer", func() error {
			return r.Board(io.Discard, view(func(v *game.View) { v.Viewer = 7 }), Options{})
		}, ErrInvalidInput},
		{"rank out of range", func() error {
			return r.Board(io.Discard, view(func(v *game.View) { v.Board[0].Rank = 99 }), Options{})
		}, ErrInvalidInput},
		{"side out of range", func() error {
			return r.Board(io.Discard, view(func(v *game.View) { v.Board[0].Side = 2 }), Options{})
		}, ErrInvalidInput},
		{"last move off the board", func() error {
			return r.Board(io.Discard, view(func(v *game.View) { v.History[len(v.History)-1].Move.To = game.NoSquare }), Options{})
		}, ErrInvalidInput},
		{"unknown numbering", func() error {
			return r.Board(io.Discard, ongoing.View(game.RedViewer), Options{Numbering: 5})
		}, ErrInvalidInput},
		{"a key in an unknown numbering", func() error {
			return r.Key(io.Discard, Options{Numbering: 9})
		}, ErrInvalidInput},
		{"reveal of a game still on", func() error {
			return r.Reveal(io.Discard, ongoing.View(game.PublicViewer), Options{})
		}, ErrGameNotOver},
		{"reveal of a player's view", func() error {
			g := goldenGame(t, 2)
			_ = g.Resign(game.Red)
			return r.Reveal(io.Discard, g.View(game.RedViewer), Options{})
		}, ErrInvalidInput},
		{"replay of a game still on", func() error {
			return r.Replay(io.Discard, ongoing, ReplayOptions{})
		}, ErrGameNotOver},
		{"replay of no game", func() error {
			return r.Replay(io.Discard, nil, ReplayOptions{})
		}, ErrInvalidInput},
		{"set-up of a third side", func() error {
			red, _ := goldenSetups(t)
			return r.SetupPreview(io.Discard, red, 2, game.DefaultRules(game.VariantClassic), Options{})
		}, ErrInvalidInput},
		{"set-up with an unknown rank", func() error {
			var s game.Setup
			s[0][0] = 200
			return r.SetupPreview(io.Discard, s, game.Red, game.DefaultRules(game.VariantClassic), Options{})
		}, ErrInvalidInput},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.run(); !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
	t.Run("a failing writer", func(t *testing.T) {
		err := r.Board(failingWriter{}, ongoing.View(game.RedViewer), Options{})
		if err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("got %v, want the writer's error", err)
		}
	})
}

// TestConcurrentRendering renders from many goroutines at once (run it with
// -race) and checks every picture equals the one rendered alone.
func TestConcurrentRendering(t *testing.T) {
	r := renderer(t)
	games := []*game.Game{goldenGame(t, 0), goldenGame(t, 3), goldenGame(t, 6)}
	viewers := []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer}
	want := map[[2]int][]byte{}
	for gi, g := range games {
		for vi, v := range viewers {
			want[[2]int{gi, vi}] = boardPNG(t, r, g.View(v), Options{})
		}
	}
	rounds, workers := 4, 8
	if raceEnabled {
		rounds, workers = 1, 4
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*len(want))
	for w := range workers {
		wg.Go(func() {
			for i := range rounds * len(want) {
				k := [2]int{(w + i) % len(games), (w + i/len(games)) % len(viewers)}
				var b bytes.Buffer
				if err := r.Board(&b, games[k[0]].View(viewers[k[1]]), Options{}); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(b.Bytes(), want[k]) {
					errs <- fmt.Errorf("game %d, %s: the picture differs from the one rendered alone", k[0], viewers[k[1]])
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestReplay checks the GIF: one global palette, a frame per move, and that
// painting the delta frames one over the other gives each position exactly.
func TestReplay(t *testing.T) {
	r := renderer(t)
	plies := 80
	if raceEnabled {
		plies = 30
	}
	g := gametest.Game(t, game.DefaultRules(game.VariantBarrage), 3, plies, nil)
	if !g.Result().Over() {
		if err := g.Resign(game.Blue); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := r.Replay(&b, g, ReplayOptions{Options: Options{Names: [2]string{"Ada", "Grace"}}}); err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatalf("decoding: %v", err)
	}
	shown := 0 // frames shown for a move's time, not a status line's lead
	for _, d := range anim.Delay {
		if d != statusLead {
			shown++
		}
	}
	if want := g.Ply() + 1; shown != want {
		t.Errorf("%d frames, want %d (the start and one per move)", shown, want)
	}
	total := 0
	for _, d := range anim.Delay {
		total += d
	}
	if want := replayStartDelay + 50*(g.Ply()-1) + replayEndDelay; anim.Delay[0] != replayStartDelay || total != want {
		t.Errorf("delays start %d, total %d; want %d and %d", anim.Delay[0], total, replayStartDelay, want)
	}
	// Replay the game and compare each position with the frames painted so
	// far. The decoded frames use the global palette, which is the theme's
	// plus the transparent colour, so indices compare directly.
	re, err := game.NewGame(g.Rules(), g.Setup(game.Red), g.Setup(game.Blue))
	if err != nil {
		t.Fatal(err)
	}
	l := r.replay
	canvas := make([]uint8, l.w*l.h)
	want := image.NewPaletted(image.Rect(0, 0, l.w, l.h), r.pal)
	transparent := uint8(len(r.pal))
	rs := replayScene{names: [2]string{"Ada", "Grace"}, total: g.Ply(), variant: words{}.variant(g.Rules().Variant)}
	pos := 0 // the position the next shown frame must equal
	for i, frame := range anim.Image {
		for y := frame.Rect.Min.Y; y < frame.Rect.Max.Y; y++ {
			row := frame.Pix[frame.PixOffset(frame.Rect.Min.X, y):][:frame.Rect.Dx()]
			for dx, idx := range row {
				if idx != transparent {
					canvas[y*l.w+frame.Rect.Min.X+dx] = idx
				}
			}
		}
		if anim.Delay[i] == statusLead {
			continue // the status line, shown just before its board
		}
		if pos > 0 {
			if _, err := re.Apply(g.Moves()[pos-1].Move); err != nil {
				t.Fatal(err)
			}
		}
		if i == len(anim.Image)-1 {
			rs.result, rs.over = g.Result(), true
		}
		r.drawReplayFrame(want, re, &rs)
		if !bytes.Equal(canvas, want.Pix) {
			t.Fatalf("frame %d: the painted frames differ from the position after move %d", i, pos)
		}
		pos++
	}
}

// TestPNGEncoder checks that the encoder's PNGs decode to the very pixels
// and palette drawn, for pictures of any size, and that a picture's bytes are
// the same whether its bands were compressed or kept from before.
func TestPNGEncoder(t *testing.T) {
	r := renderer(t)
	board := image.NewPaletted(image.Rect(0, 0, r.board.w, r.board.h), r.pal)
	v := goldenGame(t, 5).View(game.BlueViewer)
	if _, err := r.drawBoard(board, &v, Options{}); err != nil {
		t.Fatal(err)
	}
	// The next move's picture: most bands are the same as board's.
	next := image.NewPaletted(board.Rect, r.pal)
	g := goldenGame(t, 6)
	v = g.View(game.BlueViewer)
	if _, err := r.drawBoard(next, &v, Options{}); err != nil {
		t.Fatal(err)
	}
	// Taller than the bands: the rows past the last cut are one band.
	tall := image.NewPaletted(image.Rect(0, 0, r.board.w, 2*r.board.h+7), r.pal)
	copy(tall.Pix, board.Pix)
	copy(tall.Pix[len(board.Pix):], next.Pix)
	small := image.NewPaletted(image.Rect(0, 0, 3, 1), r.pal)
	small.Pix = []uint8{0, 1, uint8(len(r.pal) - 1)}
	// Not at the origin: bands are counted from the picture's top.
	sub := board.SubImage(image.Rect(10, 50, 300, 400)).(*image.Paletted)
	warm, err := newPNGEncoder(r.pal, r.board.bands(), bandCacheBytes)
	if err != nil {
		t.Fatal(err)
	}
	for _, img := range []*image.Paletted{board, next, tall, small, sub} {
		cold, err := newPNGEncoder(r.pal, r.board.bands(), bandCacheBytes)
		if err != nil {
			t.Fatal(err)
		}
		var b, again bytes.Buffer
		if err := cold.encode(&b, img, nil, nil); err != nil {
			t.Fatal(err)
		}
		if err := warm.encode(&again, img, nil, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), again.Bytes()) {
			t.Errorf("a %v picture: %d bytes from a fresh encoder, %d bytes from one that kept bands", img.Rect.Size(), b.Len(), again.Len())
		}
		got := decodePNG(t, b.Bytes())
		want := image.NewPaletted(image.Rect(0, 0, img.Rect.Dx(), img.Rect.Dy()), img.Palette)
		for y := range img.Rect.Dy() {
			copy(want.Pix[y*want.Stride:], img.Pix[img.PixOffset(img.Rect.Min.X, img.Rect.Min.Y+y):][:img.Rect.Dx()])
		}
		if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("a %v picture decodes to other pixels", img.Rect.Size())
		}
		for i, c := range img.Palette {
			if rgbaAt(image.NewUniform(got.Palette[i]), 0, 0) != rgbaAt(image.NewUniform(c), 0, 0) {
				t.Fatalf("palette entry %d is %v, want %v", i, got.Palette[i], c)
			}
		}
	}
}

// shuttleGame is a game of n moves in which each side's Sergeant steps back
// and forth (no repetition rules), resigned by Blue at the end: a game as long
// as one wants, for the replay's bounds.
func shuttleGame(t testing.TB, n int) *game.Game {
	t.Helper()
	rules := game.DefaultRules(game.VariantCustom)
	rules.Army = game.Army{game.Sergeant: 1, game.Flag: 1}
	rules.TwoSquares, rules.MoreSquares = 0, false
	var setup game.Setup
	setup[0][0], setup[1][0] = game.Sergeant, game.Flag // front row first: A4 Sergeant, A3 Flag for Red
	g, err := game.NewGame(rules, setup, setup)
	if err != nil {
		t.Fatal(err)
	}
	steps := [2][2]game.Move{}
	for side, squares := range [2][3]string{{"A4", "B4", "A4"}, {"J7", "I7", "J7"}} {
		for k := range 2 {
			from, _ := game.ParseSquare(squares[k])
			to, _ := game.ParseSquare(squares[k+1])
			steps[side][k] = game.Move{From: from, To: to}
		}
	}
	for i := range n {
		side := g.ToMove()
		if _, err := g.Apply(steps[side][(i/2)%2]); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
	}
	if err := g.Resign(game.Blue); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestReplayOfALongGameIsSampled: past MaxReplayFrames moves the replay shows
// every k-th position and the end, each frame exactly that position, with the
// sampling said on every frame.
func TestReplayOfALongGameIsSampled(t *testing.T) {
	r := renderer(t)
	moves := 4*MaxReplayFrames + 3
	g := shuttleGame(t, moves)
	var b bytes.Buffer
	if err := r.Replay(&b, g, ReplayOptions{}); err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	stride := replayStride(moves)
	if stride != 5 {
		t.Fatalf("stride %d for %d moves, want 5", stride, moves)
	}
	// The frames shown: the start, every 5th position before the last, the end.
	var plies []int
	for p := stride; p < moves; p += stride {
		plies = append(plies, p)
	}
	plies = append([]int{0}, append(plies, moves)...)
	if len(plies) > MaxReplayFrames+2 {
		t.Fatalf("%d frames planned, more than the cap", len(plies))
	}
	re, err := game.NewGame(g.Rules(), g.Setup(game.Red), g.Setup(game.Blue))
	if err != nil {
		t.Fatal(err)
	}
	l := r.replay
	canvas := make([]uint8, l.w*l.h)
	want := image.NewPaletted(image.Rect(0, 0, l.w, l.h), r.pal)
	transparent := uint8(len(r.pal))
	rs := replayScene{total: moves, stride: stride, variant: words{}.variant(g.Rules().Variant)}
	shown := 0
	for i, frame := range anim.Image {
		for y := frame.Rect.Min.Y; y < frame.Rect.Max.Y; y++ {
			row := frame.Pix[frame.PixOffset(frame.Rect.Min.X, y):][:frame.Rect.Dx()]
			for dx, idx := range row {
				if idx != transparent {
					canvas[y*l.w+frame.Rect.Min.X+dx] = idx
				}
			}
		}
		if anim.Delay[i] == statusLead {
			continue
		}
		if shown >= len(plies) {
			t.Fatalf("more frames shown than the %d planned", len(plies))
		}
		for re.Ply() < plies[shown] {
			if _, err := re.Apply(g.Moves()[re.Ply()].Move); err != nil {
				t.Fatal(err)
			}
		}
		if i == len(anim.Image)-1 {
			rs.result, rs.over = g.Result(), true
		}
		r.drawReplayFrame(want, re, &rs)
		if !bytes.Equal(canvas, want.Pix) {
			t.Fatalf("frame %d differs from the position after move %d", i, plies[shown])
		}
		shown++
	}
	if shown != len(plies) {
		t.Errorf("%d frames shown, want %d", shown, len(plies))
	}
	// The note on the frames: the sampled status differs from the plain one.
	plain, sampled := image.NewPaletted(want.Rect, r.pal), image.NewPaletted(want.Rect, r.pal)
	r.drawReplayFrame(plain, re, &replayScene{total: moves, stride: 1, variant: words{}.variant(g.Rules().Variant)})
	r.drawReplayFrame(sampled, re, &replayScene{total: moves, stride: stride, variant: words{}.variant(g.Rules().Variant)})
	if bytes.Equal(plain.Pix, sampled.Pix) {
		t.Error("a sampled replay does not say so")
	}
}
