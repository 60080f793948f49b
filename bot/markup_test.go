package bot

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/nametext"
)

// TestMdEscape: a name in a message's content takes a backslash before each
// character Discord reads as markdown anywhere, and before a mark that
// counts at a line's start when the name begins with one; a line break
// becomes a space; the rest stays as it is. mdUnescape gives the name back,
// but for the spaces.
func TestMdEscape(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, want string }{
		{"alice", "alice"},
		{"Jean-Luc O'Neil (FR) #1", "Jean-Luc O'Neil (FR) #1"},
		{"*star*", `\*star\*`},
		{"**bold**", `\*\*bold\*\*`},
		{"_x_", `\_x\_`},
		{"__a__", `\_\_a\_\_`},
		{"~~strike~~", `\~\~strike\~\~`},
		{"||x||", `\|\|x\|\|`},
		{"a`b", "a\\`b"},
		{"```x```", "\\`\\`\\`x\\`\\`\\`"},
		{`back\slash\`, `back\\slash\\`},
		{"[click](https://x)", `\[click\](https://x)`},
		{"<t:0:R>", `\<t:0:R\>`},
		{"<@1> <#2> <@&3> </cmd:4> <:e:5>", `\<@1\> \<#2\> \<@&3\> \</cmd:4\> \<:e:5\>`},
		{"# big", `\# big`},
		{"## big", `\## big`},
		{"-# small", `\-# small`},
		{"- item", `\- item`},
		{"+ item", `\+ item`},
		{"> quote", `\> quote`},
		{">>> quote", `\>\>\> quote`},
		{"1. first", `1\. first`},
		{"12. twelfth", `12\. twelfth`},
		{"  # indented", `  \# indented`},
		{"1.5 kyu", `1\.5 kyu`}, // harmless: the backslash does not show
		{"a # b - c 1. d", "a # b - c 1. d"},
		{"two\nlines", "two lines"},
		{"a\r\n# b", "a  # b"},
		{"tab\there\u2028sep", "tab here sep"},
		{"Zoë 李小龙 🦄", "Zoë 李小龙 🦄"},
		{"Eve\u202e*niw*", `Eve\*niw\*`}, // a direction override is dropped
		{"", ""},
	}
	for _, tc := range tests {
		if got := mdEscape(tc.name); got != tc.want {
			t.Errorf("mdEscape(%q) = %q, want %q", tc.name, got, tc.want)
		}
		back := strings.NewReplacer("\n", " ", "\r", " ", "\t", " ", "\u2028", " ", "\u202e", "").Replace(tc.name)
		if got := mdUnescape(mdEscape(tc.name)); got != back {
			t.Errorf("mdUnescape(mdEscape(%q)) = %q, want %q", tc.name, got, back)
		}
	}
	// The bot's own text around a name is left alone.
	if got := mdUnescape(`**Match #1** · \*star\* (Red) \o/`); got != `**Match #1** · *star* (Red) \o/` {
		t.Errorf("mdUnescape: %q", got)
	}
}

// TestCodeSafe: in a code block a name shows as it is, but no three
// backticks in a row, which would end the block, and no line break.
func TestCodeSafe(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, want string }{
		{"Ann", "Ann"},
		{"*star* ||x|| <t:0:R>", "*star* ||x|| <t:0:R>"},
		{"a`b", "a`b"},
		{"a``b", "a`\u200b`b"},
		{"```", "`\u200b`\u200b`"},
		{"````x", "`\u200b`\u200b`\u200b`x"},
		{"two\nlines", "two lines"},
	}
	for _, tc := range tests {
		got := nametext.Code(tc.name)
		if got != tc.want {
			t.Errorf("nametext.Code(%q) = %q, want %q", tc.name, got, tc.want)
		}
		if strings.Contains(got, "``") {
			t.Errorf("nametext.Code(%q) = %q holds two backticks in a row", tc.name, got)
		}
		if monoWidth(got) != monoWidth(strings.ReplaceAll(tc.name, "\n", " ")) {
			t.Errorf("nametext.Code(%q) = %q takes %d columns, not %d", tc.name, got, monoWidth(got), monoWidth(tc.name))
		}
	}
}
