package bot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
)

// TestDocumentedCommandsExist: every `/stratego …` the README and the docs
// show names a subcommand the bot registers, and only options that
// subcommand has, so a newcomer who types what they read is not refused.
func TestDocumentedCommandsExist(t *testing.T) {
	files, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range append([]string{"../README.md"}, files...) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		checked += checkCommandSpans(t, filepath.Base(file), string(text))
	}
	if checked < 30 {
		t.Errorf("checked %d documented commands; the pattern must have stopped matching", checked)
	}
}

// TestTextsNameCommandsThatExist: every `/stratego …` a member reads from
// the bot, in English and in every translation, names a subcommand the bot
// registers and only options it has, as the docs must.
func TestTextsNameCommandsThatExist(t *testing.T) {
	checked := 0
	for _, text := range lang.English() {
		checked += checkCommandSpans(t, "en "+strconv.Quote(text), text)
	}
	files, err := filepath.Glob("../internal/lang/locales/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var catalogue struct {
			Messages map[string]json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(data, &catalogue); err != nil {
			t.Fatal(err)
		}
		for _, raw := range catalogue.Messages {
			var one string
			var forms map[string]string
			if json.Unmarshal(raw, &one) != nil {
				if err := json.Unmarshal(raw, &forms); err != nil {
					t.Fatalf("%s: %v", file, err)
				}
			} else {
				forms = map[string]string{"": one}
			}
			for _, text := range forms {
				checked += checkCommandSpans(t, filepath.Base(file)+" "+strconv.Quote(text), text)
			}
		}
	}
	if checked < 100 {
		t.Errorf("checked %d commands in the texts; the pattern must have stopped matching", checked)
	}
}

// checkCommandSpans checks each `/stratego …` of text, found in where,
// against the registered command, and returns how many it checked.
func checkCommandSpans(t *testing.T, where, text string) int {
	t.Helper()
	subs := registeredSubcommands()
	checked := 0
	for _, m := range commandSpan.FindAllStringSubmatch(strings.ReplaceAll(text, "\n", " "), -1) {
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
			t.Errorf("%s: `/stratego %s` names no subcommand", where, m[1])
			continue
		}
		checked++
		for _, w := range rest {
			opt := commandOption.FindStringSubmatch(w)
			if opt == nil {
				continue // the value of the option before it
			}
			if !subs[sub][opt[1]] {
				t.Errorf("%s: `/stratego %s`: %s has no option %q", where, m[1], sub, opt[1])
			}
		}
	}
	return checked
}

// A command as texts show it, and an option of it.
var (
	commandSpan   = regexp.MustCompile("`/stratego ([^`]*)`")
	commandOption = regexp.MustCompile(`^([a-z_]+):`)
)

// registeredSubcommands maps each subcommand the bot registers ("tournament
// create") to its options.
var registeredSubcommands = sync.OnceValue(func() map[string]map[string]bool {
	subs := map[string]map[string]bool{}
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
	return subs
})
