package render

import (
	"encoding/binary"
	"fmt"
	"image"
	"strconv"
	"strings"

	"github.com/strategobot/strategobot/game"
)

// scene is everything a still picture shows, decided from the input before
// any pixel is drawn. It is built only from a view (or from a player's own
// set-up), so a picture can show nothing the view does not hold.
type scene struct {
	bottom    game.Side // whose army is at the bottom
	numbering int       // index into numberings
	cells     [game.NumSquares]game.Cell
	bg        [game.NumSquares]uint8 // square backgrounds (bgNormal, bgFrom, bgTo, bgBattle, a trail)
	status    statusLine
	strips    [2]playerStrip // above and below the board
	// footer is the bottom's two lines: the last move and its battle. A
	// single line is centred.
	footer [2][]item
	// noMoved leaves out the moved marks: in the final reveal every rank is
	// shown, and the marks would only clutter it.
	noMoved bool
	// secret keys the rows that show ranks only the viewer knows
	// (Options.Secret), and starts names the pieces in them: the square each
	// piece started on (nil: unknown, and such rows are never kept).
	secret uint64
	starts *[game.NumSquares]game.Square
}

type statusLine struct {
	left, right string
	rightInk    int  // the ink of right: a player's colour for "Your move"
	banner      bool // the game is over: the bar is gold
}

// playerStrip is a player's name line and tray.
type playerStrip struct {
	side game.Side
	name string // as given; cleaned and shortened when drawn
	// sideName is the side's name, shown when name has nothing to show.
	sideName string
	note     string // after the name, such as "Red (you)"
	// label names the tray's counts ("33 pieces left"), at the right end of
	// the name line, just above the tray.
	label string
	tray  []trayEntry
	// clock is the time left on the side's clock, as written in note;
	// clockLow draws it as a warning.
	clock    string
	clockLow bool
}

type trayEntry struct {
	rank  game.Rank
	count int
	text  string // the count as shown
	warn  bool   // a set-up with the wrong number of this rank
}

// item is one piece of a footer line: text, or a mini piece.
type item struct {
	text string
	ink  int
	bold bool
	mini bool // draw a mini piece of side and rank instead of text
	chip bool // draw side's chip instead of text
	side game.Side
	rank game.Rank
}

func numberingIndex(n game.Numbering) int {
	if n == game.NumberingClassic {
		return 1
	}
	return 0
}

// viewScene describes the picture of a view: a player's, the public's, or the final reveal.
func (r *Renderer) viewScene(v *game.View, o Options) scene {
	sc := scene{bottom: game.Red, numbering: numberingIndex(o.Numbering), cells: v.Board, secret: o.Secret}
	me, isPlayer := v.Viewer.IsPlayer()
	if isPlayer {
		sc.bottom = me
		if o.Secret != 0 {
			sc.starts = startSquares(v)
		}
	}
	last, moved := v.LastMove()
	if moved {
		markLastMove(&sc.bg, last)
	}
	w := words{o.Lang}
	sc.status = viewStatus(w, v, isPlayer, me, o.CalledOff)
	for i, side := range [2]game.Side{sc.bottom.Opponent(), sc.bottom} {
		st := playerStrip{side: side, name: o.Names[side], note: w.side(side), sideName: w.side(side)}
		if isPlayer && side == me {
			st.note = w.p.Sprintf(txtSideYou, w.side(side))
		}
		if o.Clocks[side] != "" && !v.Result.Over() {
			st.note = w.p.Sprintf(txtSideClock, st.note, o.Clocks[side])
			st.clock, st.clockLow = o.Clocks[side], o.LowClocks[side]
		}
		total := 0
		for _, rank := range game.Ranks {
			if v.Rules.Army[rank] == 0 && v.Remaining[side][rank] == 0 {
				continue
			}
			n := int(v.Remaining[side][rank])
			total += n
			st.tray = append(st.tray, trayEntry{rank: rank, count: n, text: strconv.Itoa(n)})
		}
		st.label = w.p.Sprintf(txtPiecesLeft, total)
		sc.strips[i] = st
	}
	if moved {
		sc.footer = moveItems(last, v.Ply(), o)
	} else {
		sc.footer[0] = []item{{text: w.p.Sprintf(txtNoMoveYet), ink: inkSoft}}
	}
	return sc
}

func viewStatus(w words, v *game.View, isPlayer bool, me game.Side, calledOff bool) statusLine {
	variant := w.variant(v.Rules.Variant)
	if v.Result.Over() {
		return statusLine{
			left:   w.p.Sprintf(txtStatusEnd, variant, w.moves(v.Ply())),
			right:  ResultText(w.p, v.Result, w.sides(), v.Viewer),
			banner: true,
		}
	}
	st := statusLine{left: w.p.Sprintf(txtStatusAfter, variant, v.Ply())}
	if v.Ply() == 0 {
		st.left = w.p.Sprintf(txtStatusStart, variant)
	}
	if calledOff {
		// Nobody moves, and a draw offered before is no longer open.
		st.right = w.p.Sprintf(txtCalledOff)
		return st
	}
	switch {
	case isPlayer && v.ToMove == me:
		st.right, st.rightInk = w.p.Sprintf(txtYourMove), inkRed+int(me)
	default:
		st.right = w.p.Sprintf(txtSideToMove, w.side(v.ToMove))
	}
	if v.DrawOffered {
		// The offer takes the variant's place: both it and whose move it
		// is would not fit in one bar in every language, and the footer
		// still numbers the last move.
		st.left = w.p.Sprintf(txtDrawOffer, w.side(v.DrawOfferBy))
	}
	return st
}

// winnerItems names the winner of a finished game: "Winner: ■ Grace (Blue)".
func (r *Renderer) winnerItems(w words, res game.Result, names [2]string) []item {
	winner, won := res.Winner()
	if !won {
		return []item{{text: w.p.Sprintf(txtNoWinner), ink: inkText, bold: true}}
	}
	who := w.side(winner) // a name with nothing the fonts can draw: "Winner: ■ Red"
	if name := r.bold.cleanName(names[winner], ""); name != "" {
		who = w.p.Sprintf(txtWinnerNameSide, r.bold.fit(name, pageW/2), w.side(winner))
	}
	return []item{
		{text: w.p.Sprintf(txtWinner), ink: inkText, bold: true},
		{chip: true, side: winner},
		{text: " "},
		{text: who, ink: inkRed + int(winner), bold: true},
	}
}

// moveItems describes the last move in two lines: "Move 23: Red E4xE5" and
// its battle, "[6] Captain beats [5] Lieutenant" (none after a plain move).
func moveItems(last game.MoveRecord, ply int, o Options) (lines [2][]item) {
	w := words{o.Lang}
	lines[0] = []item{
		{text: w.p.Sprintf(txtMoveNumber, ply), ink: inkSoft},
		{text: w.side(last.Side) + " ", ink: inkRed + int(last.Side), bold: true},
		{text: last.Notation(o.Numbering), ink: inkText, bold: true},
	}
	lines[1] = battleItems(w, last)
	return lines
}

// battleItems describes what a battle or an infiltration showed, or nothing
// for a plain move: "[6] Captain beats [5] Lieutenant".
func battleItems(w words, last game.MoveRecord) []item {
	att, def := last.Side, last.Side.Opponent()
	piece := func(side game.Side, rank game.Rank) []item {
		return []item{{mini: true, side: side, rank: rank}, {text: " " + w.rank(rank), ink: inkText}}
	}
	var items []item
	switch {
	case last.Move.IsInfiltration():
		items = append(items, piece(att, game.Infiltrator)...)
		if last.Outcome == game.GuessedRight {
			items = append(items, item{text: w.p.Sprintf(txtNames)})
			items = append(items, piece(def, last.Defender)...)
		} else {
			items = append(items, item{text: w.missesNot(last.Move.Guess)})
		}
	case last.IsAttack():
		items = append(items, piece(att, last.Attacker)...)
		switch last.Outcome {
		case game.AttackerWon:
			verb := txtBeats
			if last.Defender == game.Flag {
				verb = txtCaptures
			}
			items = append(items, item{text: w.p.Sprintf(verb)})
		case game.DefenderWon:
			items = append(items, item{text: w.p.Sprintf(txtLosesTo)})
		case game.BothRemoved:
			items = append(items, item{text: w.p.Sprintf(txtAnd)})
		}
		items = append(items, piece(def, last.Defender)...)
		if last.Outcome == game.BothRemoved {
			items = append(items, item{text: w.p.Sprintf(txtBothFall)})
		}
	}
	return items
}

// setupScene describes the preview of side's set-up: its pieces on their
// squares, the rest of the board empty, the pieces placed counted in its
// tray, and the army both sides set up in the opponent's.
func (r *Renderer) setupScene(s *game.Setup, side game.Side, rules game.Rules, o Options) scene {
	// Every piece of a set-up stands where it starts.
	starts := new([game.NumSquares]game.Square)
	for s := range starts {
		starts[s] = game.Square(s)
	}
	sc := scene{bottom: side, numbering: numberingIndex(o.Numbering), secret: o.Secret, starts: starts}
	for row := range game.SetupRows {
		for col := range 10 {
			if rank := s[row][col]; rank != game.NoRank {
				sc.cells[game.SetupSquare(side, row, col)] = game.Cell{Occupied: true, Side: side, Rank: rank}
			}
		}
	}
	w := words{o.Lang}
	sc.status = statusLine{left: w.p.Sprintf(txtStatusSetup, w.variant(rules.Variant)), right: w.p.Sprintf(txtYouPlay, w.side(side))}
	// The opponent's tray shows the army it sets up, which the rules tell
	// everyone: nothing of its set-up, nor whether it has one yet.
	opp := playerStrip{side: side.Opponent(), name: o.Names[side.Opponent()], note: w.side(side.Opponent()), sideName: w.side(side.Opponent()),
		label: w.p.Sprintf(txtPieces, rules.Army.Total())}
	for _, rank := range game.Ranks {
		if n := int(rules.Army[rank]); n > 0 {
			opp.tray = append(opp.tray, trayEntry{rank: rank, count: n, text: strconv.Itoa(n)})
		}
	}
	sc.strips[0] = opp
	placed := s.Counts()
	st := playerStrip{side: side, name: o.Names[side], note: w.p.Sprintf(txtSideYou, w.side(side)), sideName: w.side(side), label: w.p.Sprintf(txtPiecesPlaced, placed.Total())}
	for _, rank := range game.Ranks {
		want, got := int(rules.Army[rank]), int(placed[rank])
		if want == 0 && got == 0 {
			continue
		}
		e := trayEntry{rank: rank, count: got, text: strconv.Itoa(got)}
		if got != want {
			e.text, e.warn = fmt.Sprintf("%d/%d", got, want), true
		}
		st.tray = append(st.tray, e)
	}
	sc.strips[1] = st
	if err := s.Validate(rules); err != nil {
		sc.footer = r.footerText(w.p.Sprintf(txtSetupNotReady, setupProblem(w, o.Numbering, err)), inkWarn)
	} else {
		sc.footer = r.footerText(w.p.Sprintf(txtSetupReady, w.p.Sprintf(txtPiecesPlaced, placed.Total())), inkText)
	}
	return sc
}

// footerText lays out a sentence on the footer's two lines, broken at
// spaces, so that a set-up's list of missing pieces is read whole rather
// than cut after a few; what does not fit in two lines ends after a whole
// word in " …".
func (r *Renderer) footerText(text string, ink int) (lines [2][]item) {
	width := pageW - 2*padX
	wrapped := r.text.wrap(text, width)
	if len(wrapped) > 2 {
		wrapped[1] = r.text.fitWords(strings.Join(wrapped[1:], " "), width)
	}
	for i := range min(2, len(wrapped)) {
		lines[i] = []item{{text: wrapped[i], ink: ink}}
	}
	return lines
}

// drawFrame paints sc's background around the squares, its status and its
// footer: all but its rows of squares (see drawRow) and its players' strips.
func (r *Renderer) drawFrame(img *image.Paletted, sc *scene) {
	l := &r.board
	bg := r.boardBg[sc.bottom]
	top, bottom := img.PixOffset(0, l.board.Y), img.PixOffset(0, l.board.Y+10*tileSize)
	copy(img.Pix[:top], bg[:top])
	copy(img.Pix[bottom:], bg[bottom:])
	r.drawStatus(img, l.status, sc.status)
	r.drawFooter(img, l.footer, &sc.footer, sc.numbering)
}

// stripBands are the bands of the board layout that hold the players'
// strips: the upper name line and tray, then the lower ones (see layout.bands).
var stripBands = [2][2]int{{firstRowBand - 2, firstRowBand - 1}, {firstRowBand + 10, firstRowBand + 11}}

// appendStrip appends all that strip i of sc is drawn from, so that equal
// bytes are equal pixels (see encodeLazily): where it is, the background's
// orientation, the numbering, and the strip's texts and tray.
func appendStrip(b []byte, sc *scene, i int) []byte {
	ps := &sc.strips[i]
	b = append(b, byte(i), byte(sc.bottom), byte(sc.numbering), byte(ps.side))
	for _, text := range [...]string{ps.name, ps.sideName, ps.note, ps.label, ps.clock} {
		b = binary.AppendUvarint(b, uint64(len(text)))
		b = append(b, text...)
	}
	b = append(b, boolByte(ps.clockLow))
	b = binary.AppendUvarint(b, uint64(len(ps.tray)))
	for _, e := range ps.tray {
		b = append(b, byte(e.rank), byte(e.count), byte(e.count>>8), boolByte(e.warn))
		b = binary.AppendUvarint(b, uint64(len(e.text)))
		b = append(b, e.text...)
	}
	return b
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// drawFooter draws the footer's lines in rects, a single line in the middle of both.
func (r *Renderer) drawFooter(img *image.Paletted, rects []image.Rectangle, lines *[2][]item, numbering int) {
	if len(lines[1]) == 0 {
		r.drawItems(img, rects[0].Union(rects[1]), lines[0], numbering)
		return
	}
	for i := range lines {
		r.drawItems(img, rects[i], lines[i], numbering)
	}
}

// boardRows is what a picture's rows of squares are drawn from: each
// square's tile (nil for a lake, which is background), top to bottom and left
// to right, the rows' keys (see rowKey), and which rows show a rank only the
// viewer knows (see hiddenFace).
type boardRows struct {
	tiles   [10][10][]uint8
	keys    [10]bandKey
	private [10]bool
	squares [10][10]game.Square // the board's square at each place of the picture
}

// rowTiles picks the tile of every square of a board laid out by l (the
// squares of the picture's rows) and works out the rows' keys.
func (r *Renderer) rowTiles(l *layout, bottom game.Side, cells *[game.NumSquares]game.Cell, bg *[game.NumSquares]uint8, numbering int, showMoved bool, rows *boardRows) {
	var codes [10][10]tileCode
	for s := range game.Square(game.NumSquares) {
		p := l.squareAt(s, bottom)
		row, col := (p.Y-l.board.Y)/tileSize, (p.X-l.board.X)/tileSize
		rows.squares[row][col] = s
		if s.IsLake() {
			codes[row][col] = lakeCode
			rows.tiles[row][col] = nil
			continue
		}
		rows.tiles[row][col], codes[row][col] = r.cellTile(cells[s], int(bg[s]), numbering, showMoved)
		rows.private[row] = rows.private[row] || hiddenFace(cells[s])
	}
	for row := range codes {
		rows.keys[row] = rowKey(bottom, row, &codes[row])
	}
}

// sceneRows is rowTiles for a scene on the board layout.
func (r *Renderer) sceneRows(sc *scene, rows *boardRows) {
	r.rowTiles(&r.board, sc.bottom, &sc.cells, &sc.bg, sc.numbering, !sc.noMoved, rows)
}

// blitRow copies the tiles of row (0 at the top) of a board laid out by l.
func blitRow(img *image.Paletted, l *layout, row int, rows *boardRows) {
	y := l.board.Y + row*tileSize
	for col, tile := range rows.tiles[row] {
		if tile != nil {
			blit(img, l.board.X+col*tileSize, y, tileSize, tile)
		}
	}
}

// drawRow paints row (0 at the top) of the squares of the board layout: the
// background, then the tiles.
func (r *Renderer) drawRow(img *image.Paletted, bottom game.Side, row int, rows *boardRows) {
	y := r.board.board.Y + row*tileSize
	from, to := img.PixOffset(0, y), img.PixOffset(0, y+tileSize)
	copy(img.Pix[from:to], r.boardBg[bottom][from:to])
	blitRow(img, &r.board, row, rows)
}

// drawSquares copies the tile of every square but the lakes of a board laid
// out by l onto its background.
func (r *Renderer) drawSquares(img *image.Paletted, l *layout, bottom game.Side, cells *[game.NumSquares]game.Cell, bg *[game.NumSquares]uint8, numbering int, showMoved bool) {
	var rows boardRows
	r.rowTiles(l, bottom, cells, bg, numbering, showMoved, &rows)
	for row := range rows.tiles {
		blitRow(img, l, row, &rows)
	}
}

// tileCode names a square's tile: which picture of the tile set it is.
// Codes differ for different tiles (two codes may name the same pixels).
type tileCode uint16

const (
	faceCodes = numBgs * 2 * numMarks * 2 * game.NumRanks
	backCodes = numBgs * 2 * 2
	// lakeCode stands for a lake, drawn with the background.
	lakeCode tileCode = 1<<tileCodeBits - 1
	// tileCodeBits is the width of a code in a row's key.
	tileCodeBits = 10
)

// Every tile has a code below lakeCode (a compile-time check).
const _ = uint(int(lakeCode) - (numEmptyBgs + backCodes + faceCodes) - 1)

// rowKey is the band key of a row of squares: the picture's orientation, the
// row and its ten tiles' codes, packed into the key's 128 bits exactly. A
// row's pixels are the background's there (which depends on the orientation
// and the row only) and its tiles, so equal keys are equal pixels, and the
// encoder copies a row it has compressed before without looking at its
// pixels. n = -1 keeps these keys apart from the hashes of pixels.
func rowKey(bottom game.Side, row int, codes *[10]tileCode) bandKey {
	var h1, h2 uint64
	for i := range 6 {
		h1 |= uint64(codes[i]) << (tileCodeBits * i)
	}
	for i := range 4 {
		h2 |= uint64(codes[6+i]) << (tileCodeBits * i)
	}
	h2 |= uint64(row)<<(4*tileCodeBits) | uint64(bottom)<<(4*tileCodeBits+4)
	return bandKey{h1: h1, h2: h2, n: -1}
}

// startSquares returns the square each piece on v's board started on, which
// the history tells everyone (game.View.Tracks); nil when v's history does
// not lead to its board.
func startSquares(v *game.View) *[game.NumSquares]game.Square {
	tracks, err := v.Tracks()
	if err != nil {
		return nil
	}
	starts := new([game.NumSquares]game.Square)
	for _, t := range tracks {
		if t.Square != game.NoSquare {
			starts[t.Square] = t.Start
		}
	}
	return starts
}

// hiddenFace reports whether c is drawn with a rank that only the viewer
// knows: a player's own piece that no battle revealed (KnownScout shows
// only a Scout, which everyone knows).
func hiddenFace(c game.Cell) bool {
	return c.Occupied && c.Rank != game.NoRank && !c.Revealed && !c.KnownScout
}

// cellTile picks the tile of a square, and its code. A piece whose rank the
// viewer does not know is drawn from its side and whether it moved, and
// nothing else: this is where a rank could leak, and cannot.
func (r *Renderer) cellTile(c game.Cell, bg, numbering int, showMoved bool) ([]uint8, tileCode) {
	t := r.tiles
	if !c.Occupied {
		return t.empty[bg], tileCode(bg)
	}
	if bg >= numBgs {
		bg = bgNormal // a trail under a piece: no game has one
	}
	rank := c.Rank
	if rank == game.NoRank && c.KnownScout {
		rank = game.Scout // it moved more than one square: everyone knows
	}
	side := int(c.Side)
	if rank == game.NoRank {
		moved := 0
		if c.Moved {
			moved = 1
		}
		return t.back[bg][side][moved], tileCode(numEmptyBgs + (bg*2+side)*2 + moved)
	}
	mark := markNone
	switch {
	case c.Revealed || c.KnownScout:
		mark = markKnown
	case c.Moved && showMoved:
		mark = markMoved
	}
	code := numEmptyBgs + backCodes + (((bg*2+side)*numMarks+mark)*2+numbering)*game.NumRanks + int(rank)
	return t.face[bg][side][mark][numbering][rank], tileCode(code)
}

// blit copies a size x size tile with its top-left corner at (x, y).
func blit(img *image.Paletted, x, y, size int, tile []uint8) {
	for row := range size {
		off := img.PixOffset(x, y+row)
		copy(img.Pix[off:off+size], tile[row*size:(row+1)*size])
	}
}

// fill paints rect with palette index idx.
func fill(img *image.Paletted, rect image.Rectangle, idx uint8) {
	rect = rect.Intersect(img.Rect)
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		off := img.PixOffset(rect.Min.X, y)
		row := img.Pix[off : off+rect.Dx()]
		for i := range row {
			row[i] = idx
		}
	}
}

// baseline returns the baseline that centres capital letters of a vertically in rect.
func baseline(a *atlas, rect image.Rectangle) int {
	capH := a.ascii['H'].h
	return rect.Min.Y + (rect.Dy()+capH)/2
}

func (r *Renderer) drawStatus(img *image.Paletted, rect image.Rectangle, st statusLine) {
	idx := r.idxPanel
	if st.banner {
		idx = r.idxBanner
	}
	fill(img, rect, idx)
	y := baseline(r.bold, rect)
	left, right, ra := r.statusTexts(rect.Dx(), st)
	drawText(img, rect, r.text, &r.blends[inkText], left, rect.Min.X+padX, y)
	drawText(img, rect, ra, &r.blends[st.rightInk], right, rect.Max.X-padX-ra.width(right), y)
}

// statusGap is the least space between the status bar's two texts.
const statusGap = 12

// statusTexts returns the status bar's texts as drawn in a bar w pixels
// wide, shortened where they do not fit, and the font of the right one.
func (r *Renderer) statusTexts(w int, st statusLine) (left, right string, ra *atlas) {
	// The right text, the more important, takes what the left needs beyond
	// two fifths of the bar, and at least three fifths; a result (the banner)
	// takes all it needs, in the smaller font if it must (some Dutch and
	// German results), and the left shows only if it still fits whole.
	avail := max(w*3/5, w-2*padX-statusGap-r.text.width(st.left))
	ra = r.bold
	if st.banner {
		avail = w - 2*padX
		if ra.width(st.right) > avail {
			ra = r.small
		}
	}
	right = ra.fit(st.right, avail)
	left = r.text.fit(st.left, w-2*padX-ra.width(right)-statusGap)
	if st.banner && left != st.left {
		left = ""
	}
	return left, right, ra
}

func (r *Renderer) drawStrip(img *image.Paletted, st strip, ps *playerStrip, numbering int) {
	y := baseline(r.bold, st.name)
	cy := st.name.Min.Y + (st.name.Dy()-chipSize)/2
	blit(img, st.name.Min.X+padX, cy, chipSize, r.tiles.chip[ps.side])
	x := st.name.Min.X + padX + chipSize + 8
	right := x + r.nameRoom(st.name, ps)
	if ps.label != "" {
		drawText(img, st.name, r.text, &r.blends[inkSoft], ps.label, st.name.Max.X-padX-r.text.width(ps.label), y)
	}
	name, note := r.stripTexts(ps, right-x)
	x = drawText(img, st.name, r.bold, &r.blends[inkRed+int(ps.side)], name, x, y)
	r.drawNote(img, st.name, ps, note, x, right, y)
	if len(ps.tray) == 0 || st.tray.Empty() {
		return
	}
	my := st.tray.Min.Y + (st.tray.Dy()-miniSize)/2 - 1
	for i, c := range r.layoutTray(ps.tray, st.tray.Dx()-2*padX) {
		e := ps.tray[i]
		x := st.tray.Min.X + padX + c.x
		dim := 0
		ink := inkText
		if e.count == 0 {
			dim, ink = 1, inkSoft
		}
		if e.warn {
			ink = inkWarn
		}
		ty := baseline(c.a, image.Rect(0, my, 0, my+miniSize))
		blit(img, x, my, miniSize, r.tiles.mini[ps.side][dim][numbering][e.rank])
		drawText(img, st.tray, c.a, &r.blends[ink], c.text, st.tray.Min.X+padX+c.tx, ty)
		if e.warn {
			// A bar under a wrong count, so that it differs from the right
			// ones by shape, not only by its red, when "3/4" does not fit.
			fill(img, image.Rect(x, my+miniSize+1, x+c.w-6, my+miniSize+1+warnBarH), r.idxWarn)
		}
	}
}

// Spaces in a tray: between a mini piece and its count, and at least
// between a count and the next mini piece.
const (
	trayTextGap = 2
	trayGap     = 3
)

// trayCell is where an entry of a tray is drawn, from the tray's left end:
// its mini piece at x, its count (text, in a) at tx, w pixels in all.
type trayCell struct {
	x, tx, w int
	text     string
	a        *atlas
}

// layoutTray places the entries of a tray in width pixels: evenly, at most
// 44 pixels apart, as long as every count fits its share; otherwise (a
// custom army's "12", the thirteen ranks of an army with an Infiltrator)
// each entry takes its own width, and the room left over, or missing, is
// shared out between the gaps, so that no count runs under the next mini
// piece.
func (r *Renderer) layoutTray(tray []trayEntry, width int) []trayCell {
	n := len(tray)
	cells := make([]trayCell, n)
	if n == 0 {
		return cells
	}
	ew := min(44, width/n)
	room := ew - miniSize - trayTextGap - trayGap
	total, even := 0, true
	for i, e := range tray {
		// A count, or a set-up's "3/8", in bold, else in the smaller font;
		// when even that does not fit, the count alone (the colour and the
		// line below tell the rest), in bold if it can.
		text, a := e.text, r.bold
		switch {
		case r.bold.width(text) <= room:
		case r.small.width(text) <= room:
			a = r.small
		default:
			text = strconv.Itoa(e.count)
			if r.bold.width(text) > room {
				a = r.small
			}
		}
		w := miniSize + trayTextGap + a.width(text) + trayGap
		even = even && w <= ew
		total += w
		cells[i] = trayCell{w: w, text: text, a: a}
	}
	if even {
		for i := range cells {
			cells[i].x, cells[i].tx, cells[i].w = i*ew, i*ew+miniSize+trayTextGap, ew
		}
		return cells
	}
	// The room over, or missing, shared out: what is missing comes out of
	// the gaps after the counts, and while that would leave them less than
	// a pixel, from the space before each count.
	share := float64(width-total) / float64(n)
	textGap := trayTextGap
	for textGap > 0 && float64(trayGap+trayTextGap-textGap)+share < 1 {
		textGap--
	}
	x := 0.0
	for i := range cells {
		w := float64(cells[i].w) + share
		cells[i].x, cells[i].tx = int(x+0.5), int(x+0.5)+miniSize+textGap
		cells[i].w = int(x+w+0.5) - cells[i].x
		x += w
	}
	return cells
}

// clockPad is the room on either side of a low clock's time in its box.
const clockPad = 4

// lowClockAt returns where in note a low clock's time is, or -1: a note
// with a clock that is not low, or none.
func lowClockAt(ps *playerStrip, note string) int {
	if !ps.clockLow || ps.clock == "" {
		return -1
	}
	return strings.LastIndex(note, ps.clock)
}

// noteWidth is the width of a strip's note as drawn: a low clock's time
// is bold, in a box.
func (r *Renderer) noteWidth(ps *playerStrip, note string) int {
	w := r.text.width(note)
	if lowClockAt(ps, note) >= 0 {
		w += r.bold.width(ps.clock) - r.text.width(ps.clock) + 2*clockPad
	}
	return w
}

// drawNote writes a strip's note from x on its name line, at most up to
// right; a low clock's time in white on a red box with its corners cut.
func (r *Renderer) drawNote(img *image.Paletted, rect image.Rectangle, ps *playerStrip, note string, x, right, y int) {
	i := lowClockAt(ps, note)
	if i < 0 || r.noteWidth(ps, note) > right-x {
		drawText(img, rect, r.text, &r.blends[inkSoft], r.text.fit(note, right-x), x, y)
		return
	}
	x = drawText(img, rect, r.text, &r.blends[inkSoft], note[:i], x, y)
	box := image.Rect(x, rect.Min.Y+4, x+r.bold.width(ps.clock)+2*clockPad, rect.Max.Y-4)
	fill(img, image.Rect(box.Min.X+1, box.Min.Y, box.Max.X-1, box.Max.Y), r.idxWarn)
	fill(img, image.Rect(box.Min.X, box.Min.Y+1, box.Max.X, box.Max.Y-1), r.idxWarn)
	drawText(img, box, r.bold, &r.blends[inkWhite], ps.clock, x+clockPad, y)
	drawText(img, rect, r.text, &r.blends[inkSoft], note[i+len(ps.clock):], box.Max.X, y)
}

// nameRoom is the width a name line in rect leaves the name and its note,
// between the chip and the label.
func (r *Renderer) nameRoom(rect image.Rectangle, ps *playerStrip) int {
	w := rect.Dx() - 2*padX - chipSize - 8
	if ps.label != "" {
		w -= r.text.width(ps.label) + 12
	}
	return w
}

// stripNameMin is the least room a name line leaves a player's name
// before it drops the side from the note.
const stripNameMin = 100

// stripTexts returns a strip's name and note as drawn in w pixels: the name
// shortened to leave the note whole. When that would leave the name less
// than stripNameMin (a French note with a clock, "Bleu (vous) · pendule
// 12:05", left it five letters), the note goes without the side's name,
// which the name's colour and the chip's shape show.
func (r *Renderer) stripTexts(ps *playerStrip, w int) (name, note string) {
	name, note = r.stripName(ps)
	if room := w - r.noteWidth(ps, note); r.bold.width(name) > room && room < stripNameMin && name != ps.sideName {
		if rest, ok := strings.CutPrefix(ps.note, ps.sideName); ok {
			note = rest
		}
	}
	return r.bold.fit(name, w-r.noteWidth(ps, note)), note
}

// stripName returns a strip's name as drawn, unshortened, and the note
// after it. A name with nothing the fonts can draw (all Chinese or Hebrew,
// say) gives way to the side's name, which the note then does not repeat:
// "Red (you)", not "Red  Red (you)".
func (r *Renderer) stripName(ps *playerStrip) (name, note string) {
	name = r.bold.cleanName(ps.name, "")
	if name != "" {
		return name, "  " + ps.note
	}
	if rest, ok := strings.CutPrefix(ps.note, ps.sideName); ok {
		return ps.sideName, rest
	}
	return ps.sideName, "  " + ps.note
}

// itemsWidth returns the width of a line of items, unshortened.
func (r *Renderer) itemsWidth(items []item) int {
	w := 0
	for _, it := range items {
		switch {
		case it.chip:
			w += chipSize
		case it.mini:
			w += miniSize
		case it.bold:
			w += r.bold.width(it.text)
		default:
			w += r.text.width(it.text)
		}
	}
	return w
}

// drawItems lays out a line of text and mini pieces in rect, shortening the
// last text that does not fit.
func (r *Renderer) drawItems(img *image.Paletted, rect image.Rectangle, items []item, numbering int) {
	x := rect.Min.X + padX
	limit := rect.Max.X - padX
	y := baseline(r.text, rect)
	my := rect.Min.Y + (rect.Dy()-miniSize)/2
	for _, it := range items {
		if it.chip {
			if x+chipSize > limit {
				return
			}
			blit(img, x, rect.Min.Y+(rect.Dy()-chipSize)/2, chipSize, r.tiles.chip[it.side])
			x += chipSize
			continue
		}
		if it.mini {
			if !it.rank.Valid() {
				continue
			}
			if x+miniSize > limit {
				return
			}
			blit(img, x, my, miniSize, r.tiles.mini[it.side][0][numbering][it.rank])
			x += miniSize
			continue
		}
		a := r.text
		if it.bold {
			a = r.bold
		}
		text := it.text
		s := a.fit(text, limit-x)
		x = drawText(img, rect, a, &r.blends[it.ink], s, x, y)
		if s != text {
			return
		}
	}
}
