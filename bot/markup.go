package bot

import (
	"strconv"
	"time"
)

// Discord's message markup, written in one place.

// unix writes a time for Discord's <t:…> mark, in whole seconds, as a
// string: a Printer would group its digits.
func unix(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

// codeBlock puts text in a monospace block.
func codeBlock(text string) string { return "```\n" + text + "\n```" }
