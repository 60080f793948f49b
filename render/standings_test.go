package render

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/lang"
)

func sampleTable(rows int) Table {
	t := Table{Title: "Winter league", Columns: []string{"#", "Player", "Points", "SB", "W-D-L"}}
	for k := range rows {
		t.Rows = append(t.Rows, []string{fmt.Sprint(k + 1), fmt.Sprintf("player %d 🎲", k+1), "3½", "4", "3-1-0"})
	}
	return t
}

// TestStandingsPicture: the picture grows with its rows up to MaxTableRows,
// and a table without a place and a name column is refused.
func TestStandingsPicture(t *testing.T) {
	r := renderer(t)
	heights := map[int]int{}
	for _, rows := range []int{1, 9, MaxTableRows, MaxTableRows + 10} {
		var b bytes.Buffer
		if err := r.Standings(&b, sampleTable(rows)); err != nil {
			t.Fatalf("%d rows: %v", rows, err)
		}
		img := decodePNG(t, b.Bytes())
		heights[rows] = img.Bounds().Dy()
	}
	if !(heights[1] < heights[9] && heights[9] < heights[MaxTableRows]) {
		t.Errorf("heights %v: a longer table must be taller", heights)
	}
	if heights[MaxTableRows] != heights[MaxTableRows+10] {
		t.Errorf("heights %v: rows beyond %d are left to the text table", heights, MaxTableRows)
	}
	if err := r.Standings(&bytes.Buffer{}, Table{Columns: []string{"#"}}); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("a table of one column: %v", err)
	}
}

// TestTableAlt: the alt text reads the title and every row with its
// headings, and stays within Discord's limit.
func TestTableAlt(t *testing.T) {
	alt := TableAlt(sampleTable(2))
	for _, want := range []string{"Winter league", "1, player 1 🎲, Points 3½, SB 4, W-D-L 3-1-0", "2, player 2"} {
		if !strings.Contains(alt, want) {
			t.Errorf("alt text %q lacks %q", alt, want)
		}
	}
	// Discord counts UTF-16 code units: each 🎲 is two.
	if long := TableAlt(sampleTable(200)); utf16Len(long) > AltTextLimit {
		t.Errorf("alt text of %d characters, more than Discord takes", utf16Len(long))
	}
	// A name is one line, as in every alt text (package nametext).
	table := sampleTable(1)
	table.Title, table.Rows[0][1] = "Winter\nleague", "player\r\n`1`"
	if alt := TableAlt(table); !strings.HasPrefix(alt, "Winter league. 1, player  `1`, ") {
		t.Errorf("alt text %q", alt)
	}
}

// TestStandingsFit measures the standings picture of a Swiss and a round
// robin in every language, with long names and the longest title: the
// picture stays narrow enough for a phone, headings and numbers are drawn
// whole, a long name is shortened with "…" before its note, which stays
// whole, and the title is read whole on its lines.
func TestStandingsFit(t *testing.T) {
	r := renderer(t)
	title := strings.Repeat("GRAND WINTER CUP ", 5)[:80] // storage.MaxTournamentName, in capitals, the widest
	for _, l := range lang.Languages() {
		p := lang.For(l.Code)
		withdrew := p.Sprintf("%[1]s (withdrew)", "") // " (withdrew)"
		for _, columns := range [][]string{
			{"#", p.Sprintf("Player"), p.Sprintf("Points"), "SB", "Buchholz", p.Sprintf("W-D-L")},
			{"#", p.Sprintf("Player"), p.Sprintf("Points"), "SB", p.Sprintf("W-D-L")},
		} {
			for _, names := range [][]string{
				{"Al", "Maximilian-Alexander von Hohenzollern", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW" + withdrew, "山田太郎", "Bob" + withdrew},
				{"Al", "Bo" + withdrew}, // a narrow table
			} {
				tb := Table{Title: title, Columns: columns}
				for k, name := range names {
					row := []string{fmt.Sprint(k + 10), name, "12½", "112.25", "123½", "12-10-11"}
					tb.Rows = append(tb.Rows, append(row[:2:2], row[len(row)-(len(columns)-2):]...))
					note := ""
					if strings.HasSuffix(name, withdrew) {
						note = withdrew
					}
					tb.Notes = append(tb.Notes, note)
				}
				lt := r.layoutTable(tb)
				if lt.width > tableMaxW {
					t.Errorf("%s: the picture is %d px wide, more than %d", l.Code, lt.width, tableMaxW)
				}
				if got := strings.Join(lt.title, " "); got != strings.TrimSpace(title) {
					t.Errorf("%s: the title reads %q, want %q", l.Code, got, title)
				}
				for i, cells := range lt.cells {
					a, want := r.text, tb.Columns
					if i == 0 {
						a = r.bold
					} else {
						want = tb.Rows[i-1]
					}
					for c, s := range cells {
						if w := a.width(s); w > lt.widths[c]-tableGap {
							t.Errorf("%s: %q is %d px wide in a column of %d", l.Code, s, w, lt.widths[c]-tableGap)
						}
						switch {
						case c != 1 && s != want[c]:
							t.Errorf("%s: %q is drawn %q", l.Code, want[c], s)
						case c == 1 && i > 0 && tb.Notes[i-1] != "" && !strings.HasSuffix(s, "…"+tb.Notes[i-1]) && s != want[c]:
							t.Errorf("%s: the name %q is drawn %q, without its note whole after an ellipsis", l.Code, want[c], s)
						}
					}
				}
			}
		}
	}
}

// TestStandingsTitleCleaned: a title is drawn as a name is, without what
// the fonts lack: "🏆 Winter Cup" was drawn " Winter Cup", a space in from
// the table's edge, and a title in Japanese left an empty line over the
// table; now it has no line, and an 80-character title is kept whole.
func TestStandingsTitleCleaned(t *testing.T) {
	r := renderer(t)
	long := strings.Repeat("Winter league ", 6)[:80]
	for _, tc := range []struct {
		title string
		want  []string
	}{
		{"🏆 Winter Cup 🏆", []string{"Winter Cup"}},
		{"冬季リーグ 2026", []string{"2026"}},
		{"冬季リーグ", nil},
		{"«冬季»", nil},
		{"Лига «Зима»\n2026", []string{"Лига «Зима» 2026"}},
		{long, []string{strings.TrimSpace(long)}},
	} {
		tb := sampleTable(2)
		tb.Title = tc.title
		got := r.layoutTable(tb).title
		if strings.Join(got, " ") != strings.Join(tc.want, " ") || (len(tc.want) == 0) != (len(got) == 0) {
			t.Errorf("the title %q is drawn %q, want %q", tc.title, got, tc.want)
		}
	}
}
