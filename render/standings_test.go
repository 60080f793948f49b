package render

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
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
	if long := TableAlt(sampleTable(200)); len([]rune(long)) > 1024 {
		t.Errorf("alt text of %d characters, more than Discord takes", len([]rune(long)))
	}
}
