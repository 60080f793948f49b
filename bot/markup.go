package bot

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/strategobot/strategobot/internal/nametext"
)

// Discord's message markup, written in one place.

// unix writes a time for Discord's <t:…> mark, in whole seconds, as a
// string: a Printer would group its digits.
func unix(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

// codeBlock puts text in a monospace block.
func codeBlock(text string) string { return "```\n" + text + "\n```" }

// mdEscape writes a name a member or an organiser chose (a display name, a
// tournament's name, a saved set-up's name) for a message's content, where
// Discord reads markdown, so that it shows as written and formats nothing
// around it: "*star*", "||x||", "# big", "[click](https://x)" or "<t:0:R>"
// in a name would otherwise be italic, a spoiler, a heading, a link or a
// time. A backslash before a punctuation character shows that character as
// it is, so each character that marks something anywhere (* _ ~ | ` \ and
// the brackets of links and of Discord's <…> tokens) gets one, and so do
// the marks that count only at the start of a line (#, -, +, >, "1."),
// where a name may stand. It is nametext.Plain escaped: a name is one line.
//
// Only what Discord renders as markdown takes it: a message's content (and
// an embed's description and fields). A code block takes nametext.Code,
// and what shows text as it is (alt texts, menus, thread names)
// nametext.Plain: package nametext's comment is the rule for all three.
func mdEscape(name string) string {
	var sb strings.Builder
	sb.Grow(len(name) + 4)
	lead := true // before the name's first letter: where line marks count
	digits := false
	for _, r := range name {
		r = nametext.OneLine(r)
		switch {
		case r < 0:
			continue // dropped: see OneLine
		case strings.ContainsRune("\\*_~|`<>[]", r):
			sb.WriteByte('\\')
		case lead && strings.ContainsRune("#-+", r):
			sb.WriteByte('\\')
		case digits && r == '.':
			sb.WriteByte('\\') // "1. x" at a line's start is a numbered list
		}
		sb.WriteRune(r)
		digits = (lead || digits) && r >= '0' && r <= '9'
		lead = lead && unicode.IsSpace(r)
	}
	return sb.String()
}

// mdUnescape undoes mdEscape's backslashes, for text written for a message
// that goes out as a file instead, which shows them (the spaces it made of
// control characters stay).
func mdUnescape(text string) string {
	if !strings.Contains(text, `\`) {
		return text
	}
	var sb strings.Builder
	escaped := false
	for _, r := range text {
		if !escaped && r == '\\' {
			escaped = true
			continue
		}
		if escaped && !strings.ContainsRune("\\*_~|`<>[]#-+.", r) {
			sb.WriteByte('\\')
		}
		escaped = false
		sb.WriteRune(r)
	}
	if escaped {
		sb.WriteByte('\\')
	}
	return sb.String()
}
