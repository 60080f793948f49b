package nametext

import (
	"strings"
	"testing"
)

// TestRule: each kind of place shows a name as written, on one line, and
// changes only what it would read otherwise: a code block no two backticks
// in a row, a plain text nothing else; neither cuts a name.
func TestRule(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("abcdefghij", 5)
	tests := []struct{ name, plain, code string }{
		{"Ann", "Ann", "Ann"},
		{"*star* ||x|| <t:0:R>", "*star* ||x|| <t:0:R>", "*star* ||x|| <t:0:R>"},
		{"a`b", "a`b", "a`b"},
		{"a``b", "a``b", "a`\u200b`b"},
		{"```", "```", "`\u200b`\u200b`"},
		{"two\nlines\r\x00\u2028x", "two lines   x", "two lines   x"},
		{"Zoë\u200d🐉 'q'", "Zoë\u200d🐉 'q'", "Zoë\u200d🐉 'q'"},
		{long, long, long},
		// A direction override, embedding or isolate would turn the text
		// after the name around (U+202E before "niw uoy" shows "you win"): dropped.
		{"Eve\u202eniw uoy", "Eveniw uoy", "Eveniw uoy"},
		{"\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069Ann", "Ann", "Ann"},
		{"نور", "نور", "نور"},
	}
	for _, tc := range tests {
		if got := Plain(tc.name); got != tc.plain {
			t.Errorf("Plain(%q) = %q, want %q", tc.name, got, tc.plain)
		}
		if got := Code(tc.name); got != tc.code {
			t.Errorf("Code(%q) = %q, want %q", tc.name, got, tc.code)
		}
	}
}

func TestBlank(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"": true, "  \n": true, "\u200f\u200b": true, "\ufffd": true, " a ": false, "`": false} {
		if got := Blank(name); got != want {
			t.Errorf("Blank(%q) = %v", name, got)
		}
	}
}
