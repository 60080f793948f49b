package render

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"slices"
	"strings"

	"github.com/strategobot/strategobot/internal/nametext"
)

// Table is a tournament's standings as the caller wrote them: a title, the
// column headings and one row of cells per player, in the reader's
// language. The first column is the place, the second the player's name;
// the rest are numbers.
type Table struct {
	Title   string
	Columns []string
	Rows    [][]string
	// Notes, where given, are how rows' names end, such as "(withdrew)":
	// a name too long for the picture is shortened before its note, which
	// stays whole.
	Notes []string
}

// MaxTableRows is the most rows a standings picture draws; the text table
// has them all.
const MaxTableRows = 64

// Layout of the standings picture. A picture at most tableMaxW wide keeps
// its 18 px text 9 px high or more on a phone (see TestPhoneLegibility).
const (
	tablePad      = 16
	tableRowH     = 26
	tableGap      = 12 // between columns
	tableMaxW     = 600
	tableNameMin  = 140 // the name column, however many columns of numbers
	tableMaxLine  = 2   // lines of the title
	tableNameKeep = 48  // the least of a name shown before its note
	// tableHeadInk writes the headings on their band: the soft ink there
	// had a contrast of 4.2, under WCAG's 4.5 (TestTextContrast).
	tableHeadInk = inkText
	// maxTitleRunes bounds the work spent on a title: a tournament's name
	// has at most 80 characters (storage.MaxTournamentName).
	maxTitleRunes = 2 * maxNameRunes
)

// tableLayout is a standings picture: its width, the title's lines, each
// column's width, and every cell as drawn (the headings first), cleaned and
// shortened to its column.
type tableLayout struct {
	width  int
	title  []string
	widths []int
	cells  [][]string
}

// layoutTable measures t: every column of numbers as wide as its widest
// cell, the names as wide as the widest but within tableMaxW, the title
// wrapped on up to tableMaxLine lines.
func (r *Renderer) layoutTable(t Table) tableLayout {
	rows := t.Rows
	if len(rows) > MaxTableRows {
		rows = rows[:MaxTableRows]
	}
	l := tableLayout{widths: make([]int, len(t.Columns))}
	notes := make([]string, len(rows)+1) // of each row of cells; the headings have none
	l.cells = append(l.cells, slices.Clone(t.Columns))
	for k, row := range rows {
		cells := slices.Clone(row[:min(len(row), len(t.Columns))])
		if len(cells) > 1 {
			name := cells[1]
			if k < len(t.Notes) && t.Notes[k] != "" {
				if base, ok := strings.CutSuffix(name, t.Notes[k]); ok {
					name, notes[k+1] = base, t.Notes[k]
				}
			}
			cells[1] = r.text.cleanName(name, "?")
		}
		l.cells = append(l.cells, cells)
	}
	font := func(i int) *atlas {
		if i == 0 {
			return r.bold
		}
		return r.text
	}
	for i, cells := range l.cells {
		for c, s := range cells {
			if c == 1 {
				s += notes[i]
			}
			l.widths[c] = max(l.widths[c], font(i).width(s)+tableGap)
		}
	}
	numbers := 0
	for c, w := range l.widths {
		if c != 1 {
			numbers += w
		}
	}
	l.widths[1] = max(tableNameMin, min(l.widths[1], tableMaxW-2*tablePad-numbers))
	// A long title widens a narrow table, the names' column taking the
	// room, rather than being cut. It is drawn as a name is, without what
	// the fonts lack, and not at all when nothing is left.
	title := r.bold.cleanText(t.Title, "", maxTitleRunes)
	if w := r.bold.width(title)/tableMaxLine + 2*tablePad + 2*tableGap; w > 2*tablePad+numbers+l.widths[1] {
		l.widths[1] = max(l.widths[1], min(w, tableMaxW)-2*tablePad-numbers)
	}
	l.width = 2*tablePad + numbers + l.widths[1]
	for i, cells := range l.cells {
		a := font(i)
		for c, s := range cells {
			room := l.widths[c] - tableGap
			// A note keeps its place while it leaves the name a few letters.
			if c == 1 && notes[i] != "" && a.width(notes[i])+tableNameKeep <= room {
				cells[c] = a.fit(s, room-a.width(notes[i])) + notes[i]
				continue
			}
			if c == 1 {
				s += notes[i]
			}
			cells[c] = a.fit(s, room)
		}
	}
	l.title = r.bold.wrap(title, l.width-2*tablePad)
	if len(l.title) > tableMaxLine {
		l.title = append(l.title[:tableMaxLine-1], r.bold.fit(strings.Join(l.title[tableMaxLine-1:], " "), l.width-2*tablePad))
	}
	return l
}

// Standings writes the PNG picture of a standings table: nothing but the
// cells given, so it shows no more than its text.
func (r *Renderer) Standings(w io.Writer, t Table) error {
	if len(t.Columns) < 2 {
		return fmt.Errorf("%w: a table needs a place and a name column", ErrInvalidInput)
	}
	l := r.layoutTable(t)
	top := len(l.title) // the row of the headings
	height := 2*tablePad + (len(l.cells)+top)*tableRowH
	img := image.NewPaletted(image.Rect(0, 0, l.width, height), r.pal)
	fill(img, img.Rect, r.idxPage)
	base := func(row int) int { return tablePad + row*tableRowH + r.text.ascent + 4 }
	for i, line := range l.title {
		drawText(img, img.Rect, r.bold, &r.blends[inkText], line, tablePad, base(i))
	}
	for i, cells := range l.cells {
		a, ink := r.text, inkText
		if i == 0 {
			a, ink = r.bold, tableHeadInk
		}
		// The headings' band, then every other row.
		if i%2 == 0 {
			fill(img, image.Rect(tablePad, tablePad+(top+i)*tableRowH, l.width-tablePad, tablePad+(top+i+1)*tableRowH), r.idxPanel)
		}
		x := tablePad
		for c, s := range cells {
			tx := x
			if c >= 2 { // numbers line up on the right
				tx = x + l.widths[c] - tableGap - a.width(s)
			}
			drawText(img, img.Rect, a, &r.blends[ink], s, tx, base(top+i))
			x += l.widths[c]
		}
	}
	return png.Encode(w, img)
}

// TableAlt is the alt text of a standings picture: the table read out, row
// by row, the title and the names as written on one line (nametext.Plain),
// at most AltTextLimit characters as Discord counts them.
func TableAlt(t Table) string {
	var b strings.Builder
	b.WriteString(nametext.Plain(t.Title))
	for _, row := range t.Rows {
		b.WriteString(". ")
		for c, s := range row {
			if c > 0 {
				b.WriteString(", ")
				if c >= 2 && c < len(t.Columns) {
					b.WriteString(t.Columns[c] + " ")
				}
			}
			b.WriteString(nametext.Plain(s))
		}
	}
	return shorten(b.String(), AltTextLimit)
}
