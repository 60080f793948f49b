package bot

import (
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestRulesFollowTheServer: /stratego rules without a variant explains the
// variant a challenge here plays when it names none, the server's default,
// with the rule options the server's new matches play with: the body states
// them (the Two-Squares count, whether Scouts strike at range, whether the
// More-Squares rule holds, a move limit), and a last line says which differ
// from the standard ones; in a DM, and on a server that chose nothing, the
// standard rules of Classic.
func TestRulesFollowTheServer(t *testing.T) {
	t.Parallel()
	const (
		optionsLine    = "On this server new matches play with:"
		standardTwo    = "between the same two squares more than 3 times in a row"
		standardScouts = "and they may attack at the end"
		moreSquares    = "More-Squares rule:"
		drawAfter      = "a draw after"
	)
	tests := []struct {
		name    string
		set     []discordtest.Arg // the moderator's /stratego server options; none: no change
		variant string            // the variant asked for; "": none
		dm      bool              // asked in the bot's DM
		locale  string            // alice's client's; "": English
		start   string            // the answer's start
		options string            // the line of the server's options; "": none
		has     []string          // what the body says
		hasNot  []string          // what it does not say
	}{
		{name: "no choice", start: "**Classic**:", has: []string{standardTwo, standardScouts, moreSquares}, hasNot: []string{drawAfter}},
		{name: "a default variant", set: []discordtest.Arg{discordtest.Opt(optVariant, "Barrage")}, start: "**Barrage**:"},
		{name: "a variant asked for wins", set: []discordtest.Arg{discordtest.Opt(optVariant, "Barrage")}, variant: "Duel", start: "**Duel**:"},
		{name: "rule options", set: []discordtest.Arg{discordtest.Opt(optTwoSquares, 5), discordtest.Opt(optScoutRange, false)},
			start: "**Classic**:", options: optionsLine + " Two-Squares 5 · Scouts attack only next to them; a challenge may choose otherwise.",
			has:    []string{"between the same two squares more than 5 times in a row", "but they attack only a piece next to them", moreSquares},
			hasNot: []string{standardTwo, standardScouts}},
		{name: "rule options with a variant asked for", set: []discordtest.Arg{discordtest.Opt(optMoreSquares, false), discordtest.Opt(optMaxMoves, 500)}, variant: "Barrage",
			start: "**Barrage**:", options: optionsLine + " More-Squares off · draw after 500 moves; a challenge may choose otherwise.",
			has: []string{standardTwo, standardScouts, drawAfter + " 500 moves"}, hasNot: []string{moreSquares}},
		{name: "rule options, in Dutch", set: []discordtest.Arg{discordtest.Opt(optTwoSquares, 0)}, locale: "nl",
			start: "**Klassiek**:", options: "Op deze server gelden voor nieuwe partijen: Twee-veldenregel uit; een uitdaging kan iets anders kiezen.",
			has: []string{"Meer-veldenregel:"}, hasNot: []string{"Twee-veldenregel:"}},
		{name: "standard options chosen", set: []discordtest.Arg{discordtest.Opt(optTwoSquares, 3), discordtest.Opt(optScoutRange, true)}, start: "**Classic**:", has: []string{standardTwo, standardScouts, moreSquares}},
		{name: "in a DM", set: []discordtest.Arg{discordtest.Opt(optVariant, "Barrage"), discordtest.Opt(optTwoSquares, 0)}, dm: true, start: "**Classic**:", has: []string{standardTwo, standardScouts, moreSquares}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			moderator(h)
			if len(tc.set) > 0 {
				if got := h.carol.SlashCommand(t, h.channel, "stratego server", tc.set...).Reply(t); !strings.Contains(got.Content, "Changed: ") {
					t.Fatalf("the server's settings: %q", got.Content)
				}
			}
			if tc.locale != "" {
				h.alice.SetLocale(tc.locale)
			}
			where := h.channel
			if tc.dm {
				where = h.alice.DM()
			}
			var args []discordtest.Arg
			if tc.variant != "" {
				args = append(args, discordtest.Opt(optVariant, tc.variant))
			}
			got := h.alice.SlashCommand(t, where, "stratego rules", args...).Reply(t).Content
			if !strings.HasPrefix(got, tc.start) {
				t.Errorf("the rules begin %q; want %q", got, tc.start)
			}
			last := got[strings.LastIndex(got, "\n")+1:]
			switch {
			case tc.options == "" && strings.Contains(got, optionsLine):
				t.Errorf("the rules end %q; want the standard rules alone", last)
			case tc.options != "" && last != tc.options:
				t.Errorf("the rules end %q; want %q", last, tc.options)
			}
			body := strings.TrimSuffix(got, last)
			if tc.options == "" {
				body = got
			}
			for _, want := range tc.has {
				if !strings.Contains(body, want) {
					t.Errorf("the rules do not say %q: %q", want, body)
				}
			}
			for _, not := range tc.hasNot {
				if strings.Contains(body, not) {
					t.Errorf("the rules say %q: %q", not, body)
				}
			}
		})
	}
}

// TestOptionsNameTheServersDefault: every option whose default a server's
// /stratego server settings change says so, in every language, rather than
// naming the standard default alone: the variant and move time of a
// challenge, a practice game, a seek and a tournament, the variant of the
// rules and the leaderboard, and a challenge's rule options.
func TestOptionsNameTheServersDefault(t *testing.T) {
	tests := []struct {
		path   []string // the subcommand, under its group if any
		option string
	}{
		{[]string{cmdChallenge}, optVariant},
		{[]string{cmdChallenge}, optMoveTime},
		{[]string{cmdChallenge}, optTwoSquares},
		{[]string{cmdChallenge}, optMoreSquares},
		{[]string{cmdChallenge}, optScoutRange},
		{[]string{cmdChallenge}, optMaxMoves},
		{[]string{cmdPractice}, optVariant},
		{[]string{cmdPractice}, optMoveTime},
		{[]string{cmdSeek}, optVariant},
		{[]string{cmdRules}, optVariant},
		{[]string{cmdLeaderboard}, optVariant},
		{[]string{cmdTournament, tcCreate}, optVariant},
		{[]string{cmdTournament, tcCreate}, optMoveTime},
	}
	// How each language names the server's choice.
	servers := map[discordgo.Locale]string{"nl": "deze server", "de": "dieses Servers", "fr": "ce serveur"}
	for _, tc := range tests {
		name := "/stratego " + strings.Join(tc.path, " ") + " " + tc.option
		opts := Commands()[0].Options
		for _, sub := range tc.path {
			k := slices.IndexFunc(opts, func(o *discordgo.ApplicationCommandOption) bool { return o.Name == sub })
			if k < 0 {
				t.Fatalf("%s: no %s", name, sub)
			}
			opts = opts[k].Options
		}
		k := slices.IndexFunc(opts, func(o *discordgo.ApplicationCommandOption) bool { return o.Name == tc.option })
		if k < 0 {
			t.Errorf("%s: no such option", name)
			continue
		}
		o := opts[k]
		if !strings.Contains(o.Description, "(default: this server's, else ") {
			t.Errorf("%s says %q", name, o.Description)
		}
		for loc, words := range servers {
			if got := o.DescriptionLocalizations[loc]; !strings.Contains(got, words) {
				t.Errorf("%s in %s says %q", name, loc, got)
			}
		}
	}
}

// TestRulesOfAMatch: /stratego rules with match explains the rules that
// match plays by, its own options and army, not the server's defaults nor
// the standard ones, and names its terms; to its players only.
func TestRulesOfAMatch(t *testing.T) {
	t.Parallel()
	terms := []discordtest.Arg{discordtest.Opt(optTwoSquares, 5), discordtest.Opt(optScoutRange, false), discordtest.Opt(optMaxMoves, 300)}
	tests := []struct {
		name    string
		variant string            // the match's
		extra   []discordtest.Arg // its challenge's other options
		asker   func(h *harness) *discordtest.Member
		dm      bool   // asked in the bot's DM
		also    string // the variant option given too; "": none
		start   string // the answer's start
		has     []string
		hasNot  []string
		last    string // the answer's last line
	}{
		{name: "its options", variant: "Barrage", extra: terms, asker: func(h *harness) *discordtest.Member { return h.alice },
			start: "**Barrage**:", has: []string{"more than 5 times in a row", "but they attack only a piece next to them", "More-Squares rule:", "a draw after 300 moves"},
			hasNot: []string{"more than 3 times", "they may attack at the end", "On this server"},
			last:   "Match #1 plays with: Barrage · 1 day per move · Two-Squares 5 · Scouts attack only next to them · draw after 300 moves."},
		{name: "the match wins over a variant", variant: "Barrage", extra: terms, asker: func(h *harness) *discordtest.Member { return h.bob }, also: "Duel",
			start: "**Barrage**:", has: []string{"more than 5 times in a row"}, hasNot: []string{"**Duel**"}},
		{name: "in a DM", variant: "Barrage", extra: terms, asker: func(h *harness) *discordtest.Member { return h.bob }, dm: true,
			start: "**Barrage**:", has: []string{"more than 5 times in a row"}},
		{name: "its server's defaults", variant: "Classic", asker: func(h *harness) *discordtest.Member { return h.alice },
			start: "**Classic**:", has: []string{"More-Squares rule:"}, hasNot: []string{"Two-Squares rule:", "On this server"},
			last: "Match #1 plays with: Classic · 1 day per move · Two-Squares off."},
		{name: "its army", variant: "Custom", extra: []discordtest.Arg{discordtest.Opt(optArmy, "10 9 3 3 2 2 S B B F")}, asker: func(h *harness) *discordtest.Member { return h.alice },
			start: "**Custom**: 1× Marshal (10), 1× General (9), 2× Miner (3), 2× Scout (2), 1× Spy, 2× Bomb, 1× Flag.", hasNot: []string{"the army the challenger lists"}},
		{name: "not a player", variant: "Barrage", extra: terms, asker: func(h *harness) *discordtest.Member { return h.carol },
			start: "This is not your match"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			moderator(h)
			// The server's default the match leaves as it is, or chose otherwise.
			if got := h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt(optTwoSquares, 0)).Reply(t); !strings.Contains(got.Content, "Changed: ") {
				t.Fatalf("the server's settings: %q", got.Content)
			}
			h.challenge(tc.variant, tc.extra...)
			who := tc.asker(h)
			where := h.channel
			if tc.dm {
				where = who.DM()
			}
			args := []discordtest.Arg{discordtest.Opt(optMatch, "1")}
			if tc.also != "" {
				args = append(args, discordtest.Opt(optVariant, tc.also))
			}
			got := who.SlashCommand(t, where, "stratego rules", args...).Reply(t).Content
			if !strings.HasPrefix(got, tc.start) {
				t.Errorf("the rules begin %q; want %q", got, tc.start)
			}
			for _, want := range tc.has {
				if !strings.Contains(got, want) {
					t.Errorf("the rules do not say %q: %q", want, got)
				}
			}
			for _, not := range tc.hasNot {
				if strings.Contains(got, not) {
					t.Errorf("the rules say %q: %q", not, got)
				}
			}
			if last := got[strings.LastIndex(got, "\n")+1:]; tc.last != "" && last != tc.last {
				t.Errorf("the rules end %q; want %q", last, tc.last)
			}
		})
	}
}

// TestTwoSquaresRuleCountsMoves: /stratego rules states the Two-Squares
// rule as the engine keeps it and its refusal says it, in moves ("forbids a
// 4th move between A4 and A5"): the French text allowed 3 round trips
// ("allers-retours"), 6 moves, and the others a number of times "back and
// forth", which reads as round trips too.
func TestTwoSquaresRuleCountsMoves(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ locale, want string }{
		{"", "Two-Squares rule: no piece may move between the same two squares more than 3 times in a row."},
		{"nl", "Twee-veldenregel: geen stuk mag meer dan 3 zetten achter elkaar tussen dezelfde twee velden doen."},
		{"de", "Zwei-Felder-Regel: Keine Figur darf mehr als 3-mal hintereinander zwischen denselben zwei Feldern ziehen."},
		{"fr", "Règle des deux cases : aucune pièce ne peut faire plus de 3 coups de suite entre les deux mêmes cases."},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if tc.locale != "" {
				h.alice.SetLocale(tc.locale)
			}
			got := h.alice.SlashCommand(t, h.channel, "stratego rules").Reply(t).Content
			if !strings.Contains(got, tc.want) {
				t.Errorf("the rules read\n%s\nwant them to say\n%s", got, tc.want)
			}
		})
	}
}
