package bot

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/nametext"
	"github.com/strategobot/strategobot/storage"
)

// Names full of Discord's markdown: a heading, italics, a spoiler, a
// timestamp, a fence, a backslash; subtext, a masked link, underline, a
// mention; a numbered list, code fences, a quote, italics; and a
// tournament's name with a quote, bold, strike-through, a timestamp, fences
// and a command.
const (
	hostileRed    = "# *star* ||x|| <t:0:R> ```b\\o/"
	hostileBlue   = `-# [click](https://x) __a__ <@1>`
	hostileCarol  = "1. ```zed``` >>> _u_"
	hostileTourny = "> **Cup** ~~s~~ <t:0:F> ```w``` </x:1>"
)

// TestNamesShowAsWritten: members whose names are made of Discord's
// markdown play a challenge (accepted, set up, a few moves, a draw offered
// and declined, the board as text, the history, the list of games, a
// watcher), resign, queue in a seek list, play a tournament and look at the
// leaderboard; every message's content, read as Discord reads markdown,
// shows each name as written: none of its marks formats anything, none of
// its <…> tokens is one, and none of its fences ends a code block. The
// text board, in a code block, shows both names as written too (backticks
// broken up by zero-width spaces), and every picture's alt text names each
// player as written, whole and without the backslashes of content
// (package nametext's rule).
func TestNamesShowAsWritten(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice, h.bob, h.carol = h.guild.AddMember(hostileRed), h.guild.AddMember(hostileBlue), h.guild.AddMember(hostileCarol)

	// A challenge, accepted, set up; moves by command, DM and menu.
	h.startClassic()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.bob.WaitDM(t, contains("moved A4-A5"))
	h.bob.SendDM(t, "J7-J6")
	board := h.alice.WaitDM(t, contains("moved J7-J6"))
	h.alice.SelectMenu(t, board, board.SelectMenus()[0].CustomID, "A5").Wait(t)
	board = h.srv.Message(board.ID)
	h.alice.SelectMenu(t, board, board.SelectMenus()[0].CustomID, "A6").Wait(t)
	h.bob.WaitDM(t, contains("moved A5-A6"))
	h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
	h.bob.WaitDM(t, contains("offers a draw"))
	h.bob.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "decline")).Reply(t)
	h.alice.WaitDM(t, contains("declined the draw"))
	h.bob.SlashCommand(t, h.channel, "stratego board", discordtest.Opt("text", true)).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego games").Reply(t)
	h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt("match", "1")).Reply(t)
	h.bob.Autocomplete(t, h.channel, "stratego watch", discordtest.Focused("match", ""))
	ask := h.bob.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	h.bob.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.srv.WaitFor(t, "the match to end", func() bool { return h.match(1).Phase == storage.PhaseFinished })
	h.outboxEmpty()
	h.alice.SlashCommand(t, h.channel, "stratego leaderboard").Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego stats").Reply(t)

	// A seek list.
	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "10+5")).Reply(t)
	h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t)

	// A tournament: created, joined, one game played, its standings.
	tt := tourneyOn(h)
	tt.expect(tt.run(h.alice, "create", discordtest.Opt("name", hostileTourny), discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 1),
		discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	tt.expect(tt.run(h.bob, "join"), "You joined")
	tt.expect(tt.run(h.carol, "join"), "You joined")
	h.advance(time.Hour)
	m := tt.roundMatches(1)[0]
	h.alice.SlashCommand(t, h.channel, "stratego tournament standings").Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego tournament list").Reply(t)
	tt.play(m, game.Blue)
	tt.waitEnded()
	h.outboxEmpty()

	checkAltTextNames(t, h, []string{hostileRed, hostileBlue, hostileCarol})
	contents, plain := contentsAndPlainTexts(h)
	names := []string{hostileRed, hostileBlue, hostileCarol, hostileTourny}
	seen, inCode := map[string]int{}, map[string]int{}
	textBoards := 0
	for _, c := range contents {
		for _, why := range markdownFaults(c, names) {
			t.Errorf("%s in %q", why, c)
		}
		shown := shownText(c)
		if strings.Contains(shown.code(), "\nRanks: ") { // the text board
			textBoards++
			for _, name := range []string{hostileRed, hostileBlue} {
				if !strings.Contains(shown.code(), name+" (") {
					t.Errorf("the text board does not show %q as written: %q", name, c)
				}
			}
		}
		for _, name := range names {
			if strings.Contains(shown.outside(), name) {
				seen[name]++
			}
			if strings.Contains(shown.code(), name) {
				inCode[name]++
			}
		}
	}
	if textBoards == 0 {
		t.Error("no text board")
	}
	// The standings' table shows names in a code block as written (a long
	// one cut, and backticks broken up by zero-width spaces).
	if inCode[hostileCarol] < 2 {
		t.Errorf("names shown as written in code blocks: %v", inCode)
	}
	for _, name := range names {
		if seen[name] < 2 {
			t.Errorf("%q shown as written in %d messages", name, seen[name])
		}
	}
	// What shows text as it is has the names as written, not escaped.
	for _, name := range []string{hostileRed, hostileBlue} {
		found := false
		for _, s := range plain {
			found = found || strings.Contains(s, name)
			if strings.Contains(s, `\*star`) || strings.Contains(s, `\[click`) {
				t.Errorf("a plain text is escaped: %q", s)
			}
		}
		if !found {
			t.Errorf("no alt text, menu or choice names %q", name)
		}
	}
}

// checkAltTextNames checks the alt texts of every picture the members see:
// wherever one names a player, "Name (Red)", the name is one of names as
// nametext.Plain writes it (as written, on one line, whole), and each of
// names is named somewhere.
func checkAltTextNames(t *testing.T, h *harness, names []string) {
	t.Helper()
	count := map[string]int{}
	pictures := 0
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
		msgs := append(append(m.DMs(), m.Ephemerals()...), m.Messages(h.channel)...)
		for _, th := range h.channel.Threads() {
			msgs = append(msgs, m.Messages(th)...)
		}
		for _, msg := range msgs {
			for _, f := range msg.Files {
				alt := f.Description
				named := false
				for _, side := range []string{" (Red)", " (Blue)"} {
					for k := strings.Index(alt, side); k >= 0; k = nextIndex(alt, side, k) {
						named = true
						ok := false
						for _, name := range names {
							if strings.HasSuffix(alt[:k], nametext.Plain(name)) {
								ok = true
								count[name]++
							}
						}
						if !ok {
							t.Errorf("%s: a player not named as written before %q in %q", f.Name, side, alt)
						}
					}
				}
				if named {
					pictures++
				}
			}
		}
	}
	if pictures < 3 {
		t.Errorf("%d pictures' alt texts name players", pictures)
	}
	for _, name := range names {
		if count[name] == 0 {
			t.Errorf("no alt text names %q as written", name)
		}
	}
}

// nextIndex is the index of sep in s after the one at k, or -1.
func nextIndex(s, sep string, k int) int {
	if j := strings.Index(s[k+len(sep):], sep); j >= 0 {
		return k + len(sep) + j
	}
	return -1
}

// contentsAndPlainTexts returns every message content the bot sent (new, edited, in
// answers), and every other text of what it sent (alt texts, menus,
// buttons, choices, thread names).
func contentsAndPlainTexts(h *harness) (contents, plain []string) {
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(k, e)
			}
		case []any:
			for _, e := range x {
				walk(key, e)
			}
		case string:
			if key == "content" {
				contents = append(contents, x)
			} else {
				plain = append(plain, x)
			}
		}
	}
	for _, r := range h.srv.Requests("") {
		if r.Method == "GET" || len(r.Body) == 0 || r.Status >= 300 {
			continue
		}
		var body any
		if json.Unmarshal(r.Body, &body) == nil {
			walk("", body)
		}
	}
	return contents, plain
}

// shownRune is a character of a message as Discord shows it: written with
// a backslash before it (escaped), or in a code block (code).
type shownRune struct {
	r             rune
	escaped, code bool
}

type shown []shownRune

// shownText reads content as Discord does, as far as these tests need: a
// backslash before a character that is not a letter, digit or space shows
// that character, and formats nothing; between fences (```) everything
// shows as it is, the zero-width spaces that break a run of backticks too
// (left out here).
func shownText(content string) shown {
	var out shown
	rs := []rune(content)
	code := false
	for k := 0; k < len(rs); k++ {
		if k+2 < len(rs) && rs[k] == '`' && rs[k+1] == '`' && rs[k+2] == '`' {
			code = !code
			k += 2
			continue
		}
		r := rs[k]
		switch {
		case code && r == '\u200b':
		case code:
			out = append(out, shownRune{r: r, code: true})
		case r == '\\' && k+1 < len(rs) && !unicode.IsLetter(rs[k+1]) && !unicode.IsDigit(rs[k+1]) && !unicode.IsSpace(rs[k+1]):
			out = append(out, shownRune{r: rs[k+1], escaped: true})
			k++
		default:
			out = append(out, shownRune{r: r})
		}
	}
	return out
}

// outside is the text shown outside code blocks, code blocks as line breaks.
func (s shown) outside() string {
	var sb strings.Builder
	for _, c := range s {
		if c.code {
			sb.WriteRune('\n')
			continue
		}
		sb.WriteRune(c.r)
	}
	return sb.String()
}

// code is the text shown in code blocks, each block on a line of its own.
func (s shown) code() string {
	var sb strings.Builder
	for k, c := range s {
		if c.code {
			sb.WriteRune(c.r)
		} else if k > 0 && s[k-1].code {
			sb.WriteRune('\n')
		}
	}
	return sb.String()
}

// markdownFaults says what in content a name of names formats: a fence
// that is not at a line's start (the bot's own fences are), and, outside
// code blocks, a name shown as written whose markdown characters are not
// escaped ( * _ ~ | ` \ < > [ ] anywhere; # - + > or "1." at a line's
// start), or the start of one of their marks left unescaped (a spoiler, a
// timestamp, a link) where the name is not whole.
func markdownFaults(content string, names []string) []string {
	var faults []string
	for k := strings.Index(content, "```"); k >= 0; {
		if k > 0 && content[k-1] != '\n' {
			faults = append(faults, "a fence within a line")
			break
		}
		next := strings.Index(content[k+3:], "```")
		if next < 0 {
			break
		}
		k += 3 + next
	}
	s := shownText(content)
	text := []rune(s.outside())
	for _, name := range names {
		nr := []rune(name)
		for k := 0; k+len(nr) <= len(text); k++ {
			if string(text[k:k+len(nr)]) != name {
				continue
			}
			lineStart := true
			for j := k - 1; j >= 0 && text[j] != '\n'; j-- {
				if !unicode.IsSpace(text[j]) {
					lineStart = false
				}
			}
			for j, r := range nr {
				c := s[k+j]
				marks := strings.ContainsRune("*_~|`\\<>[]", r) ||
					lineStart && j == 0 && strings.ContainsRune("#-+", r) ||
					lineStart && r == '.' && j > 0 && strings.Trim(name[:j], "0123456789") == ""
				if marks && !c.escaped {
					faults = append(faults, "the name "+name+" formats with "+string(r))
					break
				}
			}
		}
	}
	// A name's marks that count without the name whole.
	for _, mark := range []string{"<t:0:", "<@1>", "</x:1>", "||x||", "[click](", "*star*", "__a__", "~~s~~"} {
		mr := []rune(mark)
		for k := 0; k+len(mr) <= len(text); k++ {
			if string(text[k:k+len(mr)]) == mark && !s[k].escaped {
				faults = append(faults, "an unescaped "+mark)
			}
		}
	}
	return faults
}
