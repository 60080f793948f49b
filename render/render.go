package render

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"slices"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/opentype"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// Options are what a picture shows besides the view: who plays and how ranks
// are numbered. The zero value is valid: sides named "Red" and "Blue", modern numbering.
type Options struct {
	// Names holds Red's and Blue's player names (indexed by game.Side), as
	// Discord shows them. Any text is accepted: "fancy" letters (𝓐𝓭𝓪) are
	// drawn plain, characters the embedded fonts lack (emoji, most Asian
	// scripts) are left out, with the brackets they leave empty ("Zhang Wei
	// (张伟)" is Zhang Wei), long names are shortened with "…", and a name
	// with nothing left, or only punctuation left of it (a Hebrew name's
	// hyphen), shows the side's name. The texts (alt texts, the
	// text board) write them whole by package nametext's rule: as written
	// on one line, in the text board with backticks broken up for its code
	// block.
	Names [2]string
	// Numbering labels the ranks: game.NumberingModern (Marshal 10) or
	// game.NumberingClassic (Marshal 1).
	Numbering game.Numbering
	// Clocks holds each side's time left on a game clock as the caller
	// writes it ("9:05"), shown beside its name; empty when there is none.
	Clocks [2]string
	// LowClocks marks the clocks of Clocks that are low on time: such a
	// time is drawn white on a red box, as a chess site's clock turns red,
	// so that it stands out in greyscale too. The caller decides what is
	// low.
	LowClocks [2]bool
	// Lang is the language of every text in the picture; the zero Printer
	// writes English.
	Lang lang.Printer
	// CalledOff marks a board of a match called off with no result: the
	// game stopped where v shows it, and nobody is to move, so the status
	// says it is called off rather than whose move it is.
	CalledOff bool
	// Secret keys the rows of squares that show ranks only the picture's
	// viewer knows (a player's own pieces not yet revealed): the encoder
	// reuses such a row only in a picture with the same Secret, so that
	// no other picture (a guessed set-up's preview, another match's board)
	// finds it, which would show in BandStats and in the time taken. Give
	// each match its own secret value; 0 reuses such rows nowhere.
	Secret uint64
}

// Errors callers can test with errors.Is.
var (
	// ErrGameNotOver is returned for a final reveal or a replay of a game still on.
	ErrGameNotOver = errors.New("render: the game is not over")
	// ErrInvalidInput is wrapped by errors about views, set-ups and options
	// that no game produces (a rank out of range, a viewer that does not exist).
	// Their texts name the rank on a square, so it tells logs to withhold them
	// (see internal/logsafe).
	ErrInvalidInput error = inputError("render: invalid input")
)

// inputError is the kind of ErrInvalidInput.
type inputError string

func (e inputError) Error() string { return string(e) }

// WrittenFromGame marks the errors that wrap it as written from a game's
// contents, for internal/logsafe, which must not import the pictures.
func (inputError) WrittenFromGame() {}

// Renderer draws pictures. Build one with New at start-up and share it: it is
// safe for concurrent use, and every picture only copies pre-drawn tiles and
// glyphs into a paletted image and encodes it.
type Renderer struct {
	pal    color.Palette
	tiles  *tileSet
	text   *atlas // names, status and move lines
	bold   *atlas // names, tray counts
	small  *atlas // tray counts of two digits
	blends *[numInks]inkBlend

	board, replay layout
	boardBg       [2][]uint8 // indexed by the side at the bottom
	replayBg      []uint8

	// Palette indices of the flat colours filled at run time.
	idxPage, idxPanel, idxBanner, idxWarn uint8

	frames sync.Pool // *image.Paletted of the board layout
	enc    *pngEncoder
}

// New draws every tile and glyph of the theme and returns a Renderer. It takes
// a few tens of milliseconds; call it once.
func New() (*Renderer, error) {
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("render: parsing Go Bold: %w", err)
	}
	medium, err := opentype.Parse(gomedium.TTF)
	if err != nil {
		return nil, fmt.Errorf("render: parsing Go Medium: %w", err)
	}
	r := &Renderer{board: boardLayout(), replay: replayLayout()}
	if r.pal, err = buildPalette(); err != nil {
		return nil, err
	}
	q := newQuantizer(r.pal)
	r.idxPage, r.idxPanel, r.idxBanner, r.idxWarn = q.index(colPage), q.index(colPanel), q.index(colBanner), q.index(colWarn)
	r.blends = buildBlends(q)
	if r.text, err = newAtlas(medium, textSize); err != nil {
		return nil, err
	}
	if r.bold, err = newAtlas(bold, textSize); err != nil {
		return nil, err
	}
	if r.small, err = newAtlas(bold, smallSize); err != nil {
		return nil, err
	}
	tf, err := newTileFonts(bold)
	if err != nil {
		return nil, err
	}
	r.tiles = buildTiles(q, tf)
	coords, err := opentype.NewFace(bold, &opentype.FaceOptions{Size: coordSize, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("render: coordinate font: %w", err)
	}
	for _, side := range []game.Side{game.Red, game.Blue} {
		r.boardBg[side] = r.board.background(q, coords, side)
	}
	r.replayBg = r.replay.background(q, coords, game.Red)
	r.frames.New = func() any {
		return image.NewPaletted(image.Rect(0, 0, r.board.w, r.board.h), r.pal)
	}
	if r.enc, err = newPNGEncoder(r.pal, r.board.bands(), bandCacheBytes); err != nil {
		return nil, err
	}
	return r, nil
}

// Board writes the PNG picture of a player's or the public's view: v must come
// from Game.View. A player's picture has that player's army at the bottom;
// the public picture has Red's.
func (r *Renderer) Board(w io.Writer, v game.View, o Options) error {
	if err := checkView(&v, o); err != nil {
		return err
	}
	sc := r.viewScene(&v, o)
	return r.encodeScene(w, &sc)
}

// BandStats returns how many bands of pictures were encoded and how many of
// them were found compressed already (see pngEncoder), since New.
func (r *Renderer) BandStats() (bands, reused uint64) {
	return r.enc.cache.stats()
}

// Reveal writes the PNG picture of the end of a game with every piece shown
// and the result in the status bar: v must come from Game.Reveal.
func (r *Renderer) Reveal(w io.Writer, v game.View, o Options) error {
	if err := checkView(&v, o); err != nil {
		return err
	}
	if !v.Result.Over() {
		return ErrGameNotOver
	}
	if v.Viewer != game.PublicViewer {
		return fmt.Errorf("%w: a final reveal is the public's view, not %s's", ErrInvalidInput, v.Viewer)
	}
	sc := r.revealScene(&v, o)
	return r.encodeScene(w, &sc)
}

// revealScene is the scene of a final reveal: every rank shown, the winner
// in the footer, no moved marks.
func (r *Renderer) revealScene(v *game.View, o Options) scene {
	sc := r.viewScene(v, o)
	wd := words{o.Lang}
	sc.status.left = wd.p.Sprintf(txtStatusReveal, wd.variant(v.Rules.Variant), wd.moves(v.Ply()))
	// The winner by name, then the last move, with its battle if that fits.
	moveLine := sc.footer[0]
	if len(sc.footer[1]) > 0 {
		both := slices.Concat(moveLine, []item{{text: wd.p.Sprintf(txtBattleSeparator)}}, sc.footer[1])
		if r.itemsWidth(both) <= pageW-2*padX {
			moveLine = both
		}
	}
	sc.footer = [2][]item{r.winnerItems(wd, v.Result, o.Names), nil}
	if v.Ply() > 0 {
		sc.footer[1] = moveLine
	}
	sc.noMoved = true
	return sc
}

// SetupPreview writes the PNG picture of side's set-up on an otherwise empty
// board, for its player to confirm: the tray counts the pieces placed, and the
// bottom line says whether the set-up is complete for rules. The opponent's
// tray shows the army of rules, and nothing of the opponent's set-up.
func (r *Renderer) SetupPreview(w io.Writer, s game.Setup, side game.Side, rules game.Rules, o Options) error {
	if err := checkSetup(s, side, o); err != nil {
		return err
	}
	sc := r.setupScene(&s, side, rules, o)
	return r.encodeScene(w, &sc)
}

// encodeScene draws and encodes sc (see encodeLazily).
func (r *Renderer) encodeScene(w io.Writer, sc *scene) error {
	img := r.frames.Get().(*image.Paletted)
	defer r.frames.Put(img)
	return r.encodeLazily(w, img, sc, r.drawRow)
}

// rowDrawer paints row (0 at the top) of a board's squares (see drawRow).
type rowDrawer func(img *image.Paletted, bottom game.Side, row int, rows *boardRows)

// encodeLazily draws sc on img and encodes it. Its rows of squares and
// its players' strips are looked up by keys made from what they are drawn
// from, and drawn (rows by drawRow) only when the encoder has not compressed
// them before: a move changes two or three rows of a picture and seldom a
// strip, so most of them are never drawn (a move's three pictures take about
// a tenth less time, BenchmarkMatchMoves).
func (r *Renderer) encodeLazily(w io.Writer, img *image.Paletted, sc *scene, drawRow rowDrawer) error {
	r.drawFrame(img, sc)
	var rows boardRows
	r.sceneRows(sc, &rows)
	var keys [boardBands]bandKey
	copy(keys[firstRowBand:], rows.keys[:])
	for row, private := range rows.private {
		if !private {
			continue
		}
		if sc.secret == 0 || sc.starts == nil {
			keys[firstRowBand+row] = bandKey{n: unkeptN}
			continue
		}
		// The pieces of hidden rank in the row, by where they started.
		var pieces [10]byte
		for col, s := range rows.squares[row] {
			pieces[col] = 0xff
			if hiddenFace(sc.cells[s]) {
				pieces[col] = byte(sc.starts[s])
			}
		}
		keys[firstRowBand+row] = r.enc.secretKey(rows.keys[row], sc.secret, &pieces)
	}
	var drawn [2]bool // the strips drawn on img
	buf := make([]byte, 0, 256)
	for i, bands := range stripBands {
		buf = appendStrip(buf[:0], sc, i)
		for part, band := range bands {
			keys[band] = r.enc.contentKey(append(buf, byte(part)))
		}
	}
	return r.enc.encode(w, img, keys[:], func(band int) {
		if row := band - firstRowBand; row >= 0 && row < len(rows.keys) {
			drawRow(img, sc.bottom, row, &rows)
			return
		}
		for i, bands := range stripBands {
			if (band == bands[0] || band == bands[1]) && !drawn[i] {
				r.drawStrip(img, r.board.strips[i], &sc.strips[i], sc.numbering)
				drawn[i] = true
			}
		}
	})
}

func checkOptions(o Options) error {
	if o.Numbering != game.NumberingModern && o.Numbering != game.NumberingClassic {
		return fmt.Errorf("%w: numbering %d", ErrInvalidInput, o.Numbering)
	}
	return nil
}

// checkSetup refuses set-ups and sides no game has.
func checkSetup(s game.Setup, side game.Side, o Options) error {
	if err := checkOptions(o); err != nil {
		return err
	}
	if side > game.Blue {
		return fmt.Errorf("%w: side %d", ErrInvalidInput, side)
	}
	for _, row := range s {
		for _, rank := range row {
			if int(rank) >= game.NumRanks {
				return fmt.Errorf("%w: the set-up holds rank %d", ErrInvalidInput, rank)
			}
		}
	}
	return nil
}

// checkView refuses views no game produces, which could otherwise index out
// of the tile tables.
func checkView(v *game.View, o Options) error {
	if err := checkOptions(o); err != nil {
		return err
	}
	if v.Viewer > game.PublicViewer {
		return fmt.Errorf("%w: viewer %d", ErrInvalidInput, v.Viewer)
	}
	if v.ToMove > game.Blue || v.DrawOfferBy > game.Blue {
		return fmt.Errorf("%w: side to move %d, draw offered by %d", ErrInvalidInput, v.ToMove, v.DrawOfferBy)
	}
	for s, c := range v.Board {
		if !c.Occupied {
			continue
		}
		if c.Side > game.Blue || int(c.Rank) >= game.NumRanks {
			return fmt.Errorf("%w: square %s holds side %d rank %d", ErrInvalidInput, game.Square(s), c.Side, c.Rank)
		}
	}
	if last, ok := v.LastMove(); ok {
		if !last.Move.From.Valid() || !last.Move.To.Valid() || last.Side > game.Blue ||
			int(last.Attacker) >= game.NumRanks || int(last.Defender) >= game.NumRanks || int(last.Move.Guess) >= game.NumRanks {
			return fmt.Errorf("%w: last move %+v", ErrInvalidInput, last)
		}
	}
	return nil
}
