package bot

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
)

// TestCommandLimits checks the limits Discord puts on command definitions:
// names of 1–32 lower-case characters, descriptions of 1–100 characters, at
// most 25 options and 25 choices, required options first.
func TestCommandLimits(t *testing.T) {
	name := regexp.MustCompile(`^[-_\p{Ll}\p{N}]{1,32}$`)
	var check func(path string, opts []*discordgo.ApplicationCommandOption)
	check = func(path string, opts []*discordgo.ApplicationCommandOption) {
		if len(opts) > 25 {
			t.Errorf("%s has %d options", path, len(opts))
		}
		seenOptional := false
		for _, o := range opts {
			p := path + " " + o.Name
			if !name.MatchString(o.Name) {
				t.Errorf("%s: bad name", p)
			}
			if n := utf8.RuneCountInString(o.Description); n < 1 || n > 100 {
				t.Errorf("%s: description of %d characters", p, n)
			}
			if len(o.Choices) > 25 {
				t.Errorf("%s: %d choices", p, len(o.Choices))
			}
			if o.Autocomplete && len(o.Choices) > 0 {
				t.Errorf("%s: autocomplete and choices together", p)
			}
			if o.Type != discordgo.ApplicationCommandOptionSubCommand {
				if o.Required && seenOptional {
					t.Errorf("%s: a required option after an optional one", p)
				}
				seenOptional = seenOptional || !o.Required
			}
			check(p, o.Options)
		}
	}
	for _, c := range Commands() {
		if !name.MatchString(c.Name) || c.Description == "" {
			t.Errorf("command %q", c.Name)
		}
		check("/"+c.Name, c.Options)
	}
}

// TestCommandsLocalized checks that every description and every word choice
// of the slash command has its Dutch, German and French translation, within
// Discord's limit of 100 characters.
func TestCommandsLocalized(t *testing.T) {
	wordRE := regexp.MustCompile(`\p{Ll}{2}`)
	locales := []discordgo.Locale{"nl", "de", "fr"}
	check := func(what, english string, got map[discordgo.Locale]string) {
		t.Helper()
		for _, loc := range locales {
			s, ok := got[loc]
			switch {
			case !ok || s == "":
				t.Errorf("%s %q has no %s translation", what, english, loc)
			case utf8.RuneCountInString(s) > 100:
				t.Errorf("%s %q in %s is %d characters, more than Discord's 100: %q", what, english, loc, utf8.RuneCountInString(s), s)
			}
		}
	}
	var walk func(opts []*discordgo.ApplicationCommandOption)
	walk = func(opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			check("option "+o.Name, o.Description, o.DescriptionLocalizations)
			for _, ch := range o.Choices {
				// Every choice that holds a word: numbers, clocks ("10+5",
				// "24h") and abbreviations ("3 (ISF)") read the same in
				// every language.
				if wordRE.MatchString(ch.Name) {
					check("choice of "+o.Name, ch.Name, ch.NameLocalizations)
				}
			}
			walk(o.Options)
		}
	}
	for _, c := range Commands() {
		check("command", c.Description, *c.DescriptionLocalizations)
		walk(c.Options)
	}
	if got := (*Commands()[0].DescriptionLocalizations)["nl"]; got != "Speel Stratego met een ander lid" {
		t.Errorf("the command's Dutch description is %q", got)
	}
}

// TestHelpNamesEveryCommand: /stratego help names every subcommand a member
// may use (and the tournament group's), in every language within the 2,000
// characters Discord allows a message.
func TestHelpNamesEveryCommand(t *testing.T) {
	for _, l := range lang.Languages() {
		help := helpText(lang.For(l.Code))
		if n := utf8.RuneCountInString(help); n > 2000 {
			t.Errorf("the help in %s has %d characters; Discord takes 2,000", l.Code, n)
		}
		for _, c := range Commands() {
			for _, sub := range c.Options {
				if sub.Name == cmdHelp {
					continue
				}
				if !strings.Contains(help, "`/"+c.Name+" "+sub.Name) {
					t.Errorf("the help in %s does not name /%s %s", l.Code, c.Name, sub.Name)
				}
			}
		}
	}
}

// TestMoveTimeDescriptionsNameTheDefault: the move_time options of
// challenge, practice and tournament create name the bot's own default move
// time (its default_move_time), in every language, as a challenge without
// one gets it: they said "1 day" whatever the bot's configuration.
func TestMoveTimeDescriptionsNameTheDefault(t *testing.T) {
	want := map[string]map[discordgo.Locale]string{
		"challenge": {"": "Time for each move (default: this server's, else 2 hours)", "nl": "2 uur", "de": "2 Stunden", "fr": "2 heures"},
		"practice":  {"": "Time for each of your moves (default: this server's, else 2 hours)", "nl": "2 uur", "de": "2 Stunden", "fr": "2 heures"},
		"create":    {"": "Time for each move (default: this server's, else 2 hours)", "nl": "2 uur", "de": "2 Stunden", "fr": "2 heures"},
	}
	seen := 0
	var walk func(parent string, opts []*discordgo.ApplicationCommandOption)
	walk = func(parent string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			if o.Name == optMoveTime && want[parent] != nil {
				seen++
				if o.Description != want[parent][""] {
					t.Errorf("%s move_time: %q, want %q", parent, o.Description, want[parent][""])
				}
				for _, loc := range []discordgo.Locale{"nl", "de", "fr"} {
					if got := o.DescriptionLocalizations[loc]; !strings.Contains(got, want[parent][loc]) || strings.Contains(got, "%") {
						t.Errorf("%s move_time in %s: %q, want it to name %q", parent, loc, got, want[parent][loc])
					}
				}
			}
			walk(o.Name, o.Options)
		}
	}
	walk("", CommandsFor(2 * time.Hour)[0].Options)
	if seen != len(want) {
		t.Errorf("%d move_time options seen, want %d", seen, len(want))
	}
	// The default of a bot configured with none.
	for _, o := range Commands()[0].Options {
		if o.Name == cmdChallenge {
			for _, opt := range o.Options {
				if opt.Name == optMoveTime && opt.Description != "Time for each move (default: this server's, else 1 day)" {
					t.Errorf("challenge move_time by default: %q", opt.Description)
				}
			}
		}
	}
}
