package bot

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestDocumentedCommandsExist: every `/stratego …` the README and the docs
// show names a subcommand the bot registers, and only options that
// subcommand has, so a newcomer who types what they read is not refused.
func TestDocumentedCommandsExist(t *testing.T) {
	subs := map[string]map[string]bool{} // "tournament create" → its options
	var walk func(prefix string, opts []*discordgo.ApplicationCommandOption)
	walk = func(prefix string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			switch o.Type {
			case discordgo.ApplicationCommandOptionSubCommandGroup:
				walk(prefix+o.Name+" ", o.Options)
			case discordgo.ApplicationCommandOptionSubCommand:
				names := map[string]bool{}
				for _, opt := range o.Options {
					names[opt.Name] = true
				}
				subs[prefix+o.Name] = names
			}
		}
	}
	walk("", Commands()[0].Options)

	files, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	span := regexp.MustCompile("`/stratego ([^`]*)`")
	option := regexp.MustCompile(`^([a-z_]+):`)
	checked := 0
	for _, file := range append([]string{"../README.md"}, files...) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range span.FindAllStringSubmatch(strings.ReplaceAll(string(text), "\n", " "), -1) {
			words := strings.Fields(m[1])
			sub, rest := "", words
			for n := 1; n <= 2 && n <= len(words); n++ {
				if _, ok := subs[strings.Join(words[:n], " ")]; ok {
					sub, rest = strings.Join(words[:n], " "), words[n:]
				}
			}
			if sub == "" {
				if len(words) >= 1 && words[0] == "tournament" && (len(words) == 1 || words[1] == "…") {
					continue // the group as a whole
				}
				t.Errorf("%s: `/stratego %s` names no subcommand", filepath.Base(file), m[1])
				continue
			}
			checked++
			for _, w := range rest {
				opt := option.FindStringSubmatch(w)
				if opt == nil {
					continue // the value of the option before it
				}
				if !subs[sub][opt[1]] {
					t.Errorf("%s: `/stratego %s`: %s has no option %q", filepath.Base(file), m[1], sub, opt[1])
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("checked %d documented commands; the pattern must have stopped matching", checked)
	}
}
