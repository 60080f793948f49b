package game

import (
	"fmt"
	"strings"
)

// Square is one of the 100 squares of the board, A1 through J10.
// Its value is row*10 + column, so A1 is 0, J1 is 9 and J10 is 99:
// the same order as a Gravon field string.
type Square uint8

// NumSquares is the number of squares on the board.
const NumSquares = 100

// NoSquare is the zero-information square: not on the board.
const NoSquare Square = 255

// SquareAt returns the square in column col (0 = A … 9 = J) and row row (0 = row 1 … 9 = row 10).
func SquareAt(col, row int) Square { return Square(row*10 + col) }

// Col returns the column, 0 (A) to 9 (J).
func (s Square) Col() int { return int(s) % 10 }

// Row returns the row index, 0 (row 1) to 9 (row 10).
func (s Square) Row() int { return int(s) / 10 }

// Valid reports whether s is on the board.
func (s Square) Valid() bool { return s < NumSquares }

// IsLake reports whether s is one of the eight lake squares.
func (s Square) IsLake() bool { return s < NumSquares && lakes[s] }

// String formats the square as "A1" … "J10"; NoSquare and other invalid values give "-".
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string(rune('A'+s.Col())) + fmt.Sprint(s.Row()+1)
}

// MarshalText implements encoding.TextMarshaler.
func (s Square) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("square %d is not on the board", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Square) UnmarshalText(b []byte) error {
	sq, err := ParseSquare(string(b))
	if err != nil {
		return err
	}
	*s = sq
	return nil
}

// ParseSquare reads a square name such as "b4" or "J10", case-insensitive,
// ignoring surrounding spaces.
func ParseSquare(text string) (Square, error) {
	t := strings.TrimSpace(text)
	if len(t) < 2 || len(t) > 3 {
		return NoSquare, fmt.Errorf("%q is not a square: use a letter A–J and a number 1–10, like B4", text)
	}
	c := t[0] | 0x20 // lower case for letters
	if c < 'a' || c > 'j' {
		return NoSquare, fmt.Errorf("%q is not a square: the column must be a letter from A to J", text)
	}
	row := 0
	for _, d := range t[1:] {
		if d < '0' || d > '9' {
			return NoSquare, fmt.Errorf("%q is not a square: the row must be a number from 1 to 10", text)
		}
		row = row*10 + int(d-'0')
	}
	if row < 1 || row > 10 {
		return NoSquare, fmt.Errorf("%q is not a square: the row must be a number from 1 to 10", text)
	}
	return SquareAt(int(c-'a'), row-1), nil
}

// lakes marks C5 D5 C6 D6 and G5 H5 G6 H6.
var lakes = func() (l [NumSquares]bool) {
	for _, row := range []int{4, 5} {
		for _, col := range []int{2, 3, 6, 7} {
			l[SquareAt(col, row)] = true
		}
	}
	return l
}()

// direction steps, indexed 0 up (towards row 10), 1 down, 2 left, 3 right.
var dirCol = [4]int{0, 0, -1, 1}
var dirRow = [4]int{1, -1, 0, 0}

// neighbours[s][d] is the square one step from s in direction d, or NoSquare off the board.
// Lakes are included; callers check them.
var neighbours = func() (n [NumSquares][4]Square) {
	for s := Square(0); s < NumSquares; s++ {
		for d := 0; d < 4; d++ {
			c, r := s.Col()+dirCol[d], s.Row()+dirRow[d]
			if c < 0 || c > 9 || r < 0 || r > 9 {
				n[s][d] = NoSquare
			} else {
				n[s][d] = SquareAt(c, r)
			}
		}
	}
	return n
}()

// Neighbours returns the squares one step from s (up, down, left, right), lakes
// included, NoSquare off the board.
func (s Square) Neighbours() [4]Square {
	if !s.Valid() {
		return [4]Square{NoSquare, NoSquare, NoSquare, NoSquare}
	}
	return neighbours[s]
}

// Adjacent reports whether a and b share a side (not diagonal).
func Adjacent(a, b Square) bool {
	if !a.Valid() || !b.Valid() {
		return false
	}
	dc, dr := a.Col()-b.Col(), a.Row()-b.Row()
	return dc*dc+dr*dr == 1
}

// InZone reports whether s lies in side's set-up zone: rows 1–4 for Red, rows 7–10 for Blue.
func InZone(side Side, s Square) bool {
	if !s.Valid() {
		return false
	}
	if side == Red {
		return s.Row() <= 3
	}
	return s.Row() >= 6
}
