package game

import (
	"fmt"
	"strings"
)

// String writes the move in input notation: "B4-B5", or "E8~E10=F" for an
// infiltration (numbered guesses in modern numbering). It does not know whether
// the move is an attack; MoveRecord.String does.
func (m Move) String() string {
	if m.IsInfiltration() {
		return m.From.String() + "~" + m.To.String() + "=" + m.Guess.Label(NumberingModern)
	}
	return m.From.String() + "-" + m.To.String()
}

// MarshalText implements encoding.TextMarshaler with Move.String.
func (m Move) MarshalText() ([]byte, error) {
	if !m.From.Valid() || !m.To.Valid() {
		return nil, fmt.Errorf("move %d-%d is not on the board", m.From, m.To)
	}
	return []byte(m.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseMove in modern numbering.
func (m *Move) UnmarshalText(b []byte) error {
	p, err := ParseMove(string(b), NumberingModern)
	if err != nil {
		return err
	}
	*m = p
	return nil
}

// String writes the move as played: "B4-B5", "B4xB5" for an attack, "E8~E10=F" for an infiltration.
func (r MoveRecord) String() string { return r.Notation(NumberingModern) }

// Notation writes the move as played, with an infiltration's guess in the given numbering.
func (r MoveRecord) Notation(n Numbering) string {
	switch {
	case r.Move.IsInfiltration():
		return r.Move.From.String() + "~" + r.Move.To.String() + "=" + r.Move.Guess.Label(n)
	case r.IsAttack():
		return r.Move.From.String() + "x" + r.Move.To.String()
	}
	return r.Move.From.String() + "-" + r.Move.To.String()
}

// ParseMove reads a move as a player types it: "B4-B5", "B4xB5", "b4 b5",
// "b4b5", "B4 x B5", "B4 to B5", or an infiltration "E8~E10=F" (the guess as a
// label in numbering n, or a name: "E8~E10=Flag"). Case and spaces do not matter.
func ParseMove(text string, n Numbering) (Move, error) {
	t := strings.ToUpper(strings.TrimSpace(text))
	if t == "" {
		return Move{}, fmt.Errorf("no move given: write it as two squares, like B4-B5")
	}
	if i := strings.IndexAny(t, "~"); i >= 0 {
		return parseInfiltration(text, t[:i], t[i+1:], n)
	}
	from, rest, err := leadingSquare(t)
	if err != nil {
		return Move{}, fmt.Errorf("%q is not a move: %w", text, err)
	}
	rest = strings.TrimSpace(rest)
	for _, sep := range []string{"-", "X", "TO", "→", "–", ">"} {
		if strings.HasPrefix(rest, sep) {
			rest = strings.TrimSpace(rest[len(sep):])
			break
		}
	}
	to, tail, err := leadingSquare(rest)
	if err != nil {
		return Move{}, fmt.Errorf("%q is not a move: %w", text, err)
	}
	if strings.TrimSpace(tail) != "" {
		return Move{}, fmt.Errorf("%q is not a move: write it as two squares, like B4-B5", text)
	}
	return Move{From: from, To: to}, nil
}

func parseInfiltration(text, left, right string, n Numbering) (Move, error) {
	from, tail, err := leadingSquare(strings.TrimSpace(left))
	if err != nil || strings.TrimSpace(tail) != "" {
		return Move{}, fmt.Errorf("%q is not an infiltration: write it like E8~E10=F (from, target, guessed piece)", text)
	}
	target, guess, ok := strings.Cut(right, "=")
	if !ok {
		return Move{}, fmt.Errorf("%q names no guess: add the piece you guess, like E8~E10=F", text)
	}
	to, tail, err := leadingSquare(strings.TrimSpace(target))
	if err != nil || strings.TrimSpace(tail) != "" {
		return Move{}, fmt.Errorf("%q is not an infiltration: write it like E8~E10=F (from, target, guessed piece)", text)
	}
	r, err := ParseRank(guess, n)
	if err != nil {
		return Move{}, fmt.Errorf("%q: %w", text, err)
	}
	return Move{From: from, To: to, Guess: r}, nil
}

// leadingSquare reads a square at the start of t (upper case) and returns the rest.
func leadingSquare(t string) (Square, string, error) {
	if len(t) < 2 || t[0] < 'A' || t[0] > 'J' || t[1] < '0' || t[1] > '9' {
		return NoSquare, t, fmt.Errorf("expected a square like B4")
	}
	end := 2
	if len(t) > 2 && t[1] == '1' && t[2] == '0' {
		end = 3
	}
	s, err := ParseSquare(t[:end])
	if err != nil {
		return NoSquare, t, err
	}
	return s, t[end:], nil
}
