package game

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseSetup reads a set-up as a player types it in a message: one line per
// row, the front row (next to the lakes) first, each row from the player's
// left to right, 10 squares a row. Squares are separated by spaces, tabs or
// commas; a line of exactly 10 characters without separators is read one
// character a square ("BFB.S9998." in classic numbering). A square is a rank
// in the numbering, S, I, B or F, a piece name or abbreviation that ParseRank
// accepts, or . (also - or _) for an empty square.
//
// Blank lines, comments (from # or // to the end of the line) and Discord code
// fences (```, ```text) are ignored. A line "modern" or "classic" (also
// "numbering: classic") sets the numbering; without one, a 10 means modern
// and a 1 classic, and otherwise preferred is used. ParseSetup returns the
// numbering it used.
//
// Every error is a *SetupError whose text a player can act on; it names the
// row (row 1 is the front row) and column (column 1 is the player's left).
// When the text reads well but breaks the rules, the error is Setup.Validate's
// and the set-up is returned as read; after any other error it is empty.
func ParseSetup(text string, rules Rules, preferred Numbering) (Setup, Numbering, error) {
	var rows [][]string
	numbering, explicit := preferred, false
	for line := range strings.Lines(text) {
		line = cleanSetupLine(line)
		if line == "" {
			continue
		}
		if n, ok := numberingLine(line); ok {
			if explicit && n != numbering {
				return Setup{}, numbering, setupError(txtBothNumberingLines)
			}
			numbering, explicit = n, true
			continue
		}
		if tokens := splitSetupRow(line); len(tokens) > 0 {
			rows = append(rows, tokens)
		}
	}
	if len(rows) == 0 {
		if fillsSetupRows(rules) {
			return Setup{}, numbering, setupError(txtNoSetupFoundFull)
		}
		return Setup{}, numbering, setupError(txtNoSetupFound)
	}
	if !explicit {
		n, err := detectNumbering(rows, preferred)
		if err != nil {
			return Setup{}, preferred, err
		}
		numbering = n
	}

	var s Setup
	for i, tokens := range rows {
		for j, t := range tokens {
			r, err := parseSetupSquare(t, numbering)
			if err != nil && len(tokens) == 1 && looksCompact(t) {
				return Setup{}, numbering, setupError(txtCompactRow, setupRowName(i), utf8.RuneCountInString(t), t)
			}
			if err != nil {
				return Setup{}, numbering, setupError(txtSquareError, setupRowName(i), j+1, squareReason(err, t, rules, numbering))
			}
			if i < SetupRows && j < 10 {
				s[i][j] = r
			}
		}
		if len(tokens) != 10 {
			key := txtRowLength
			if fillsSetupRows(rules) {
				key = txtRowLengthFull
			}
			return Setup{}, numbering, setupError(key, setupRowName(i), Quantity{len(tokens), NounPiece})
		}
	}
	if len(rows) != SetupRows {
		return Setup{}, numbering, setupError(txtRowCount, Quantity{len(rows), NounRow}, SetupRows)
	}
	if err := s.Validate(rules); err != nil {
		return s, numbering, err
	}
	return s, numbering, nil
}

// The reasons ParseSetup gives.
const (
	txtBothNumberingLines = `the set-up says both "modern" and "classic"; keep one of the two lines`
	txtNoSetupFound       = "no set-up found: write 4 rows of 10 squares, front row first (use . for an empty square)"
	txtNoSetupFoundFull   = "no set-up found: write 4 rows of 10 squares, front row first"
	txtCompactRow         = "%[1]s has %[2]d characters (%[3]q); write 10, one for each square, or separate the squares with spaces"
	txtSquareError        = "%[1]s, column %[2]d: %[3]s"
	txtRowLength          = "%[1]s has %[2]s; each row has 10 squares (use . for an empty square)"
	txtRowLengthFull      = "%[1]s has %[2]s; each row has 10 squares"
	txtRowCount           = "%[1]s given; a set-up has %[2]d rows, front row first"
	txtBothNumberings     = `the set-up has both a 10 (the Marshal in modern numbering) and a 1 (the Marshal in classic numbering): ` +
		`use one numbering, and write "modern" or "classic" on a line of its own to say which`
	txtNotAPieceEmpty = "%[1]q is not a piece; write . for an empty square"
	txtNotInArmy      = "%[1]q is not a piece; write one of %[2]s"
	txtNotInArmyEmpty = "%[1]q is not a piece; write one of %[2]s, or . for an empty square"
	txtRowName        = "row %[1]d from the front"
)

// squareReason is why a square of a set-up does not read: for a word that
// names no piece, or a common mark of an empty square (an x, a 0) where the
// army leaves no square empty, what the player may write instead in this
// army and numbering (ParseRank's own reason speaks of every variant); else
// the square's own reason.
func squareReason(err error, token string, rules Rules, n Numbering) Text {
	te, ok := err.(*TextError)
	if !ok || te.Text.Key != txtNotAPiece && (te.Text.Key != txtNotAPieceEmpty || !fillsSetupRows(rules)) {
		return errorText(err)
	}
	if fillsSetupRows(rules) {
		return text(txtNotInArmy, token, Labels{Army: rules.Army, Numbering: n})
	}
	return text(txtNotInArmyEmpty, token, Labels{Army: rules.Army, Numbering: n})
}

// fillsSetupRows reports whether a set-up under rules leaves no square of
// its rows empty: its reasons then speak of no empty square.
func fillsSetupRows(rules Rules) bool {
	return rules.Variant.FillsZone() || rules.Army.Total() >= SetupRows*10
}

// errorText is the Text of an error: its own when it has one, else its
// English text.
func errorText(err error) Text {
	if te, ok := err.(*TextError); ok {
		return te.Text
	}
	return text("%[1]s", err.Error())
}

// cleanSetupLine trims a line and removes what is not part of a row: comments,
// code fences and inline-code backticks. It returns "" for a line to skip.
func cleanSetupLine(line string) string {
	if i := strings.Index(line, "#"); i >= 0 {
		line = line[:i]
	}
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if rest, ok := strings.CutPrefix(line, "```"); ok {
		rest = strings.TrimSpace(rest)
		// "```" alone or with a language tag ("```text") opens or closes a block;
		// anything else after the fence is a row written on the same line.
		if isFenceTag(rest) {
			return ""
		}
		line = rest
	}
	line = strings.TrimSpace(strings.TrimSuffix(line, "```"))
	return strings.TrimSpace(strings.Trim(line, "`"))
}

// isFenceTag reports whether rest, what follows ``` on a line, is empty or a
// code block's language tag rather than a row: one word, not 10 characters.
func isFenceTag(rest string) bool {
	if rest == "" {
		return true
	}
	if utf8.RuneCountInString(rest) == 10 || strings.ContainsFunc(rest, isSetupSeparator) {
		return false
	}
	for _, c := range rest {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '+' || c == '-') {
			return false
		}
	}
	return true
}

// numberingLine recognises a line that names the numbering: "modern",
// "classic", "numbering: classic", "numbering = modern", "classic numbering".
func numberingLine(line string) (Numbering, bool) {
	l := strings.ToLower(line)
	switch l {
	case "modern", "modern numbering":
		return NumberingModern, true
	case "classic", "classic numbering":
		return NumberingClassic, true
	}
	rest, ok := strings.CutPrefix(l, "numbering")
	if !ok {
		return NumberingModern, false
	}
	rest = strings.TrimSpace(rest)
	rest = strings.TrimSpace(strings.TrimLeft(rest, ":="))
	n, err := ParseNumbering(rest)
	return n, err == nil
}

// isSetupSeparator reports whether c separates the squares of a row.
func isSetupSeparator(c rune) bool { return c == ',' || unicode.IsSpace(c) }

// splitSetupRow splits a row into its squares; a row of exactly 10 characters
// without separators is one square a character.
func splitSetupRow(line string) []string {
	tokens := strings.FieldsFunc(line, isSetupSeparator)
	if len(tokens) == 1 && utf8.RuneCountInString(line) == 10 {
		tokens = tokens[:0]
		for _, c := range line {
			tokens = append(tokens, string(c))
		}
	}
	return tokens
}

// detectNumbering picks the numbering from the numbers used: only modern has
// a 10 and only classic a 1. With neither, preferred stands.
func detectNumbering(rows [][]string, preferred Numbering) (Numbering, error) {
	ten, one := false, false
	for _, tokens := range rows {
		for _, t := range tokens {
			switch v, err := strconv.Atoi(t); {
			case err != nil:
			case v == 10:
				ten = true
			case v == 1:
				one = true
			}
		}
	}
	switch {
	case ten && one:
		return preferred, setupError(txtBothNumberings)
	case ten:
		return NumberingModern, nil
	case one:
		return NumberingClassic, nil
	}
	return preferred, nil
}

// looksCompact reports whether token is a row written one character a square
// but of the wrong length: several characters, each of which could be a square.
func looksCompact(token string) bool {
	if utf8.RuneCountInString(token) < 2 {
		return false
	}
	for _, c := range token {
		if !strings.ContainsRune("0123456789.-_sibfSIBF", c) {
			return false
		}
	}
	return true
}

// parseSetupSquare reads one square: a piece, or ., - or _ for an empty square.
func parseSetupSquare(token string, n Numbering) (Rank, error) {
	switch token {
	case ".", "-", "_":
		return NoRank, nil
	case "0", "x", "X", "o", "O", "*", "?", "·", "–", "—":
		// Common ways to mark an empty square elsewhere.
		return NoRank, textError(txtNotAPieceEmpty, token)
	}
	return ParseRank(token, n)
}

// setupRowName names row i of a set-up (0 = front row) for a player.
func setupRowName(i int) Text { return text(txtRowName, i+1) }

// FormatSetup writes s as ParseSetup reads it: 4 lines (no final newline),
// front row first, each from the player's left, "." for an empty square. Labels
// are in numbering n, separated by single spaces and padded so that the
// columns line up (to 2 characters in modern numbering, for the 10).
func FormatSetup(s Setup, n Numbering) string {
	width := 1
	if n == NumberingModern {
		width = 2
	}
	var b strings.Builder
	for row := range s {
		if row > 0 {
			b.WriteByte('\n')
		}
		var line strings.Builder
		for col, r := range s[row] {
			label := "."
			switch {
			case r.Valid():
				label = r.Label(n)
			case r != NoRank:
				label = "?"
			}
			if col > 0 {
				line.WriteByte(' ')
			}
			line.WriteString(label)
			line.WriteString(strings.Repeat(" ", max(0, width-len(label))))
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
	}
	return b.String()
}

// templateSeed is the seed of SetupTemplate's example set-up: any fixed
// value, so that the template does not change from one call to the next.
const templateSeed = 2024

// SetupTemplate returns the template of SetupTemplateIn in English, with an
// example that is the same everywhere, in every match: for tests and
// documentation only. A player's own template needs an example nobody else
// can know, since a player may send it back unchanged.
func SetupTemplate(rules Rules, n Numbering) string {
	return SetupTemplateIn(rules, n, RandomSetup(rules, templateSeed), Text.String)
}

// The sentences of a set-up template's comments.
const (
	txtTemplateFront   = "Your %[1]s set-up: front row (next to the lakes) first, one line per row, 10 squares from your left to your right."
	txtTemplateArmy    = "%[1]s:"
	txtTemplateItem    = "%[1]s (%[2]s)"
	txtTemplateFull    = "Every square holds a piece."
	txtTemplateEmpty   = "Write . for each of the %[1]d empty squares."
	txtTemplateModern  = "Modern numbers: %[1]s 10 ... %[2]s 2. For classic numbers (%[1]s 1 ... %[2]s 9), change the line below to classic."
	txtTemplateClassic = "Classic numbers: %[1]s 1 ... %[2]s 9. For modern numbers (%[1]s 10 ... %[2]s 2), change the line below to modern."
	txtTemplateEdit    = "Edit this example and send it back:"
)

// SetupTemplateIn returns the text the bot sends a player to fill in:
// comment lines that explain the format and list the army in numbering n, a
// line naming the numbering, and example, a valid set-up to edit. ParseSetup
// reads it as it is, in any language: say words each comment's Text (the
// bot's translation; Text.String for English), and the comments are wrapped
// at 72 columns. A player who sends the template back unchanged plays
// example: it must be as secret as a set-up drawn at random for them.
func SetupTemplateIn(rules Rules, n Numbering, example Setup, say func(Text) string) string {
	army := rules.Army
	var b strings.Builder
	comment := func(t Text) { writeComment(&b, say(t), 72) }
	comment(text(txtTemplateFront, rules.Variant))
	var items []string
	for _, r := range Ranks {
		if c := int(army[r]); c > 0 {
			items = append(items, say(text(txtTemplateItem, Count{N: c, Rank: r}, r.Label(n))))
		}
	}
	writeWrapped(&b, "# ", say(text(txtTemplateArmy, Quantity{N: army.Total(), Noun: NounPiece})), items, 72)
	if empty := SetupRows*10 - army.Total(); rules.Variant.FillsZone() || empty <= 0 {
		comment(text(txtTemplateFull))
	} else {
		comment(text(txtTemplateEmpty, empty))
	}
	if n == NumberingModern {
		comment(text(txtTemplateModern, Piece(Marshal), Piece(Scout)))
	} else {
		comment(text(txtTemplateClassic, Piece(Marshal), Piece(Scout)))
	}
	comment(text(txtTemplateEdit))
	fmt.Fprintf(&b, "numbering: %s\n", n)
	b.WriteString(FormatSetup(example, n))
	b.WriteByte('\n')
	return b.String()
}

// writeComment writes text as comment lines ("# …") of at most width bytes
// where its words allow.
func writeComment(b *strings.Builder, text string, width int) {
	line := "#"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > width && line != "#" {
			b.WriteString(line + "\n")
			line = "#"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
}

// writeWrapped writes head and items, separated by ", ", on lines that start
// with prefix and are at most width bytes long when possible; it ends with a full stop.
func writeWrapped(b *strings.Builder, prefix, head string, items []string, width int) {
	line := prefix + head
	for i, it := range items {
		if i < len(items)-1 {
			it += ","
		} else {
			it += "."
		}
		if len(line)+1+len(it) > width && len(line) > len(prefix) {
			b.WriteString(line + "\n")
			line = prefix + it
			continue
		}
		line += " " + it
	}
	b.WriteString(line + "\n")
}
