// Package nametext is the one rule for writing a name a member or an
// organiser chose (a display name, a tournament's name, a saved set-up's
// name) into a text the bot sends. Every place shows the name as written,
// on one line, and changes only what that place would otherwise read as
// something other than the name. There are three kinds of place:
//
//   - A message's content (and an embed's description and fields), where
//     Discord reads markdown: the bot's mdEscape (bot/markup.go) puts a
//     backslash before each character that would format something, so that
//     "*star*", "||x||" or "<t:0:R>" show as typed. It is Plain escaped.
//   - A code block (the standings' table, the text board, an alt text
//     repeated in a message): Discord shows everything as it is there, but
//     three backticks in a row end the block. Code puts a zero-width space
//     between two backticks, which still look as written.
//   - Everything that shows text as it is: alt texts (read by screen
//     readers; no markdown is rendered there, so backticks and asterisks
//     stay), menus, buttons, autocomplete choices, thread names. Plain
//     changes nothing but line breaks and other control characters, which
//     Discord's names cannot hold but a typed name might: each becomes a
//     space; and it drops the marks that would turn the text after the
//     name around (OneLine).
//
// No text cuts a name for its own sake: Discord's display names have at
// most 32 characters, and the texts that have a limit (an alt text, a
// message) are cut as a whole. Only layouts cut: the columns of the
// standings' table, and the pictures, which draw a name as far as their
// fonts and their room go (render's cleanName), since a picture shows
// letters, not text.
package nametext

import (
	"strings"
	"unicode"
)

// OneLine keeps a name on one line: a line break or other control
// character (or Unicode's line and paragraph separators) becomes a space.
// It also keeps the name's direction to itself: an explicit direction
// embedding, override or isolate is dropped (-1, as strings.Map reads it),
// since one left open turns the text after the name around, and a name
// could make a message seem to say what it does not. Names written right
// to left keep their letters, which Unicode's rules order without them.
// Every kind of place applies it.
func OneLine(r rune) rune {
	switch {
	case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
		return ' '
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return -1
	}
	return r
}

// Plain writes a name for a place that shows text as it is: as written, on
// one line (OneLine).
func Plain(name string) string { return strings.Map(OneLine, name) }

// Code writes a name for a code block: Plain, with a zero-width space
// between two backticks, so that no three in a row end the block.
func Code(name string) string {
	name = Plain(name)
	return strings.ReplaceAll(strings.ReplaceAll(name, "``", "`\u200b`"), "``", "`\u200b`")
}

// Blank says whether a name shows nothing: only spaces, control and
// format characters. A text names such a player by their side instead.
func Blank(name string) bool {
	return strings.TrimFunc(name, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar
	}) == ""
}
