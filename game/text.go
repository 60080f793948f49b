package game

import (
	"fmt"
	"strings"
)

// Text is a sentence for a player: why a move or a set-up is refused. It is
// English, and carries what a translation needs: Key, a format with numbered
// arguments ("there is no piece on %[1]s") that is the catalogue key of its
// translations, and Args, typed where the reader's language names them: a
// Rank, Side, Variant, Square, Ordinal, Count, Pieces, Quantity, or another
// Text. The package stays free of any translation: the bot formats Key in
// the reader's language with those arguments named in it (bot.localArgs),
// and String is the English text, for logs and errors.
//
// Every Key is a constant whose name starts with txt, which the catalogue's
// completeness test reads from this package's sources.
type Text struct {
	Key  string
	Args []any
}

// text returns the Text of key with args.
func text(key string, args ...any) Text { return Text{Key: key, Args: args} }

// String returns the English text: every argument in English.
func (t Text) String() string { return fmt.Sprintf(t.Key, t.Args...) }

// Texts is a list of sentences, shown joined by "; ".
type Texts []Text

// String returns the English list.
func (ts Texts) String() string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, "; ")
}

// Lines is a short list of sentences, shown one a line; in English, for
// logs and errors, they are joined by a space, each ending with its full stop.
type Lines []Text

// String returns the English sentences on one line.
func (ls Lines) String() string {
	parts := make([]string, len(ls))
	for i, t := range ls {
		parts[i] = t.String()
	}
	return strings.Join(parts, " ")
}

// Counts is a list of numbers of pieces: "1 Marshal, 2 Scouts".
type Counts []Count

// String returns the English list.
func (cs Counts) String() string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, ", ")
}

// Ordinal is a number shown as an ordinal: "4th".
type Ordinal int

// String returns the English ordinal: "1st", "2nd", "3rd", "4th", "11th", "21st".
func (o Ordinal) String() string {
	n := int(o)
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// Count is a number of pieces of a rank: "1 Bomb", "7 Bombs", "no Bombs".
type Count struct {
	N    int
	Rank Rank
}

// String returns the English count.
func (c Count) String() string {
	switch c.N {
	case 0:
		return "no " + c.Rank.Plural()
	case 1:
		return "1 " + c.Rank.Name()
	}
	return fmt.Sprintf("%d %s", c.N, c.Rank.Plural())
}

// Piece names a piece of a rank alone, without its number: "Marshal".
type Piece Rank

// String returns the English name.
func (p Piece) String() string { return Rank(p).Name() }

// Pieces names the pieces of a rank in the plural: "Bombs".
type Pieces Rank

// String returns the English plural.
func (p Pieces) String() string { return Rank(p).Plural() }

// Labels lists what a player may write for the pieces of an army in a
// set-up, each with its name, from the highest rank: "10 (Marshal), 9
// (General), …, B (Bomb), F (Flag)" in modern numbering.
type Labels struct {
	Army      Army
	Numbering Numbering
}

// String returns the English list.
func (l Labels) String() string {
	var parts []string
	for _, r := range Ranks {
		if l.Army[r] > 0 {
			parts = append(parts, r.Label(l.Numbering)+" ("+r.Name()+")")
		}
	}
	return strings.Join(parts, ", ")
}

// Quantity is a number of things that are not pieces of a rank: rows of a
// set-up, the pieces of a row. Noun is one of the Noun… constants.
type Quantity struct {
	N    int
	Noun string
}

// The nouns of a Quantity.
const (
	NounRow   = "row"
	NounPiece = "piece"
)

// String returns the English quantity: "1 row", "3 rows".
func (q Quantity) String() string {
	if q.N == 1 {
		return "1 " + q.Noun
	}
	return fmt.Sprintf("%d %ss", q.N, q.Noun)
}

// TextError is an error whose text is a Text, for a player.
type TextError struct{ Text Text }

func (e *TextError) Error() string { return e.Text.String() }

// textError returns a *TextError of key with args.
func textError(key string, args ...any) error { return &TextError{Text: text(key, args...)} }
