package render

import (
	"image"
	"io"
	"strconv"

	"github.com/strategobot/strategobot/game"
)

// keyRow is one line of the key: up to two sample tiles (or a sample tray)
// and what they mean.
type keyRow struct {
	tiles [][]uint8
	tray  bool
	text  string
}

// Sizes of the key, in pixels.
const (
	keyGap     = 10 // between rows
	keyLineH   = 22 // a line of an explanation
	keySampleW = 2*tileSize + 6
	keyTextX   = padX + keySampleW + 12
	keyRankH   = 30 // a row of the table of ranks
	keyRankW   = (pageW - 2*padX) / 3
)

// Key writes a PNG that explains the symbols of the pictures: hidden pieces,
// the moved dot, the ring of a known piece, the marks of the last move, of a
// battle and of a run's trail, the trays, and every rank with its label in o's numbering
// (o.Names is not used). It is drawn on demand: it is not on the hot path.
func (r *Renderer) Key(w io.Writer, o Options) error {
	if err := checkOptions(o); err != nil {
		return err
	}
	n := numberingIndex(o.Numbering)
	t := r.tiles
	red, blue := int(game.Red), int(game.Blue)
	rows := []keyRow{
		{tiles: [][]uint8{t.face[bgNormal][red][markNone][n][game.Marshal], t.face[bgNormal][blue][markNone][n][game.Captain]}},
		{tiles: [][]uint8{t.back[bgNormal][red][0], t.back[bgNormal][blue][0]}},
		{tiles: [][]uint8{t.back[bgNormal][blue][1], t.face[bgNormal][red][markMoved][n][game.Major]}},
		{tiles: [][]uint8{t.face[bgNormal][red][markKnown][n][game.Scout], t.face[bgNormal][blue][markKnown][n][game.Bomb]}},
		{tiles: [][]uint8{t.empty[bgFrom], t.face[bgTo][red][markMoved][n][game.Miner]}},
		{tiles: [][]uint8{t.back[bgBattle][blue][1]}},
		{tiles: [][]uint8{t.empty[bgTrailV], t.empty[bgTrailH]}},
		{tray: true},
	}
	wd := words{o.Lang}
	for i := range rows {
		rows[i].text = wd.p.Sprintf(keyTexts[i])
	}
	textW := pageW - keyTextX - padX
	lines := make([][]string, len(rows))
	h := statusH + keyGap
	for i, row := range rows {
		lines[i] = r.text.wrap(row.text, textW)
		h += max(tileSize, len(lines[i])*keyLineH) + keyGap
	}
	ranksTitle := wd.p.Sprintf(txtKeyRanks, wd.p.Sprintf(txtKeyNumbering(o.Numbering)))
	rankRows := (len(game.Ranks) + 2) / 3
	h += keyLineH + 6 + rankRows*keyRankH + keyGap + keyLineH + keyGap

	img := image.NewPaletted(image.Rect(0, 0, pageW, h), r.pal)
	fill(img, img.Rect, r.idxPage)
	r.drawStatus(img, image.Rect(0, 0, pageW, statusH), statusLine{left: wd.p.Sprintf(txtKeyTitle)})
	y := statusH + keyGap
	for i, row := range rows {
		rowH := max(tileSize, len(lines[i])*keyLineH)
		x := padX
		ty := y + (rowH-tileSize)/2
		for _, tile := range row.tiles {
			blit(img, x, ty, tileSize, tile)
			x += tileSize + 6
		}
		if row.tray {
			r.drawKeyTray(img, image.Rect(padX, y, padX+keySampleW, y+rowH), n)
		}
		// The lines, centred on the samples.
		top := y + (rowH-len(lines[i])*keyLineH)/2
		for j, line := range lines[i] {
			rect := image.Rect(keyTextX, top+j*keyLineH, pageW-padX, top+(j+1)*keyLineH)
			drawText(img, rect, r.text, &r.blends[inkText], line, keyTextX, baseline(r.text, rect))
		}
		y += rowH + keyGap
	}
	rect := image.Rect(padX, y, pageW-padX, y+keyLineH)
	drawText(img, rect, r.bold, &r.blends[inkText], r.bold.fit(ranksTitle, rect.Dx()), padX, baseline(r.bold, rect))
	y += keyLineH + 6
	for i, rank := range game.Ranks {
		x := padX + (i%3)*keyRankW
		ry := y + (i/3)*keyRankH
		blit(img, x, ry+(keyRankH-miniSize)/2, miniSize, t.mini[red][0][n][rank])
		cell := image.Rect(x+miniSize+6, ry, x+keyRankW, ry+keyRankH)
		drawText(img, cell, r.text, &r.blends[inkText], r.text.fit(wd.rank(rank), cell.Dx()), cell.Min.X, baseline(r.text, cell))
	}
	y += rankRows*keyRankH + keyGap
	rect = image.Rect(padX, y, pageW-padX, y+keyLineH)
	drawText(img, rect, r.text, &r.blends[inkSoft], r.text.fit(wd.p.Sprintf(txtKeySquares), rect.Dx()), padX, baseline(r.text, rect))
	return r.enc.encode(w, img, nil, nil)
}

// keyTexts are the explanations of the key's rows, in order; KeyAltText says them too.
var keyTexts = [...]string{txtKeyKnown, txtKeyHidden, txtKeyMoved, txtKeyRing, txtKeyLastMove, txtKeyBattle, txtKeyTrail, txtKeyTray}

// txtKeyNumbering names numbering n.
func txtKeyNumbering(n game.Numbering) string {
	if n == game.NumberingClassic {
		return txtKeyClassic
	}
	return txtKeyModern
}

// drawKeyTray draws two entries of a tray in rect: the Marshal and the Scouts left.
func (r *Renderer) drawKeyTray(img *image.Paletted, rect image.Rectangle, n int) {
	my := rect.Min.Y + (rect.Dy()-miniSize)/2
	x := rect.Min.X
	for _, e := range []struct {
		rank  game.Rank
		count int
	}{{game.Marshal, 1}, {game.Scout, 8}} {
		blit(img, x, my, miniSize, r.tiles.mini[game.Blue][0][n][e.rank])
		drawText(img, rect, r.bold, &r.blends[inkText], strconv.Itoa(e.count), x+miniSize+2, baseline(r.bold, image.Rect(0, my, 0, my+miniSize)))
		x += keySampleW / 2
	}
}
