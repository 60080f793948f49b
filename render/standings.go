package render

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"strings"
)

// Table is a tournament's standings as the caller wrote them: a title, the
// column headings and one row of cells per player, in the reader's
// language. The first column is the place, the second the player's name;
// the rest are numbers.
type Table struct {
	Title   string
	Columns []string
	Rows    [][]string
}

// MaxTableRows is the most rows a standings picture draws; the text table
// has them all.
const MaxTableRows = 64

// Layout of the standings picture.
const (
	tablePad   = 16
	tableRowH  = 26
	tableNameW = 260
	tableNumW  = 72
	tablePlace = 40
)

// Standings writes the PNG picture of a standings table: nothing but the
// cells given, so it shows no more than its text.
func (r *Renderer) Standings(w io.Writer, t Table) error {
	if len(t.Columns) < 2 {
		return fmt.Errorf("%w: a table needs a place and a name column", ErrInvalidInput)
	}
	rows := t.Rows
	if len(rows) > MaxTableRows {
		rows = rows[:MaxTableRows]
	}
	width := 2*tablePad + tablePlace + tableNameW + (len(t.Columns)-2)*tableNumW
	height := 2*tablePad + (len(rows)+2)*tableRowH
	img := image.NewPaletted(image.Rect(0, 0, width, height), r.pal)
	fill(img, img.Rect, r.idxPage)
	base := func(row int) int { return tablePad + row*tableRowH + r.text.ascent + 4 }
	drawText(img, img.Rect, r.bold, &r.blends[inkText], r.bold.fit(t.Title, width-2*tablePad), tablePad, base(0))
	fill(img, image.Rect(tablePad, tablePad+tableRowH, width-tablePad, tablePad+2*tableRowH), r.idxPanel)
	cell := func(row int, cells []string, atlas *atlas, ink int) {
		x := tablePad
		for c, s := range cells {
			colW := tableNumW
			switch c {
			case 0:
				colW = tablePlace
			case 1:
				colW = tableNameW
				s = atlas.cleanName(s, "?")
			}
			s = atlas.fit(s, colW-8)
			tx := x
			if c >= 2 { // numbers line up on the right
				tx = x + colW - 8 - atlas.width(s)
			}
			drawText(img, img.Rect, atlas, &r.blends[ink], s, tx, base(row))
			x += colW
		}
	}
	cell(1, t.Columns, r.bold, inkSoft)
	for k, row := range rows {
		if k%2 == 1 {
			fill(img, image.Rect(tablePad, tablePad+(k+2)*tableRowH, width-tablePad, tablePad+(k+3)*tableRowH), r.idxPanel)
		}
		cell(k+2, row, r.text, inkText)
	}
	return png.Encode(w, img)
}

// TableAlt is the alt text of a standings picture: the table read out, row
// by row.
func TableAlt(t Table) string {
	var b strings.Builder
	b.WriteString(t.Title)
	for _, row := range t.Rows {
		b.WriteString(". ")
		for c, s := range row {
			if c > 0 {
				b.WriteString(", ")
				if c >= 2 && c < len(t.Columns) {
					b.WriteString(t.Columns[c] + " ")
				}
			}
			b.WriteString(s)
		}
	}
	return truncateRunes(b.String(), 1024)
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
