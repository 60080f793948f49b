package bot

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/lang/langtest"
	"github.com/strategobot/strategobot/storage"
)

// TestNoEnglishLeft plays a match from the challenge to its end, with a
// refused set-up, refused moves, a battle and the pages members look at
// (help, rules, board, history, games, settings, server, watch, practice),
// then the features of long games and of a server's community (an open
// challenge, time given, a pause, a vacation, the queue, a moderator's
// cancel and award, a rematch, a tournament), on a server and with members
// that all speak one language, and reads every text the bot sent: contents,
// buttons, menus, forms, and the pictures' alt texts. None may hold an English sentence of the catalogue, or an English
// word no other language has; in no language, English too, may a text
// double its punctuation.
func TestNoEnglishLeft(t *testing.T) {
	t.Parallel()
	check := langtest.New()
	if check.Fragments() < 300 {
		t.Fatalf("only %d English fragments to look for", check.Fragments())
	}
	for _, code := range []string{"en", "nl", "de", "fr"} {
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.guild.SetLocale(code)
			h.shutdown()
			h.start()
			for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
				m.SetLocale(code)
			}
			moderator(h)
			h.playInOneLanguage()
			h.playLongGamesInOneLanguage()
			// Each text once, with what in it reads English.
			seen := map[string]bool{}
			for _, text := range sentTexts(t, h.srv) {
				if english := check.English(text); code != "en" && len(english) > 0 && !seen[text] {
					seen[text] = true
					t.Errorf("%s: English left in %q: %q", code, shortText(text), english)
				}
				if d := langtest.Doubled(text); d != "" {
					t.Errorf("%s: %q in %q", code, d, shortText(text))
				}
			}
		})
	}
}

// shortText cuts a long text for a test's report.
func shortText(s string) string {
	if r := []rune(s); len(r) > 160 {
		return string(r[:160]) + "…"
	}
	return s
}

// playInOneLanguage is the match TestNoEnglishLeft reads: alice (Red) wins
// with her Scout's capture of bob's Flag on her second move.
func (h *harness) playInOneLanguage() {
	t := h.t
	t.Helper()
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
	for _, cmd := range []string{"stratego help", "stratego rules", "stratego settings", "stratego stats", "stratego leaderboard", "stratego games", "stratego server"} {
		h.alice.SlashCommand(t, h.channel, cmd).Wait(t)
	}
	h.carol.SlashCommand(t, h.channel, "stratego server").Wait(t)
	h.alice.SlashCommand(t, h.channel, "stratego board").Wait(t)

	msg := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob),
		discordtest.Opt("variant", "Classic"), discordtest.Opt("side", "red")).Reply(t)
	buttons := msg.Buttons()
	if len(buttons) != 3 {
		t.Fatalf("the challenge's buttons: %+v", buttons)
	}
	accept := buttons[0].CustomID
	h.alice.ClickButton(t, msg, accept).Wait(t)
	h.carol.ClickButton(t, msg, accept).Wait(t)
	h.bob.ClickButton(t, msg, accept).Reply(t)

	invite := h.alice.WaitDM(t, func(m *discordtest.Message) bool { return len(m.Buttons()) > 0 })
	h.alice.SendDM(t, "B B B B B B B B B B")
	h.alice.SendDM(t, game.FormatSetup(red, game.NumberingModern))
	preview := h.alice.WaitDM(t, func(m *discordtest.Message) bool { return len(m.Files) == 1 })
	h.alice.ClickButton(t, preview, actButton(t, preview, actConfirm)).Reply(t)
	_ = invite

	invite = h.bob.WaitDM(t, func(m *discordtest.Message) bool { return len(m.Buttons()) > 0 })
	edit := h.bob.ClickButton(t, invite, actButton(t, invite, actEdit))
	edit.Wait(t)
	rows := strings.Split(game.FormatSetup(blue, game.NumberingModern), "\n")
	rows[0] = "B B B B B B B B B B"
	h.bob.SubmitModal(t, edit, map[string]string{setupField: strings.Join(rows, "\n")}).Reply(t)
	edit = h.bob.ClickButton(t, invite, actButton(t, invite, actEdit))
	edit.Wait(t)
	preview = h.bob.SubmitModal(t, edit, map[string]string{setupField: game.FormatSetup(blue, game.NumberingModern)}).Reply(t)
	h.bob.ClickButton(t, preview, actButton(t, preview, actConfirm)).Reply(t)
	h.waitMoves(1, 0)

	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J5")).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
	h.waitMoves(1, 2)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "C4"), discordtest.Opt("to", "C5")).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J6"), discordtest.Opt("to", "J5")).Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego board").Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego board", discordtest.Opt("text", true)).Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego history").Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego games").Reply(t)
	h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt("match", "1")).Wait(t)
	h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt("match", "1"), discordtest.Opt("follow", true)).Wait(t)
	h.alice.SlashCommand(t, h.channel, "stratego draw").Wait(t)
	h.bob.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "decline")).Wait(t)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "E4"), discordtest.Opt("to", "E7")).Reply(t)
	if m := h.waitMoves(1, 3); m.Phase.Active() {
		t.Fatal("the Scout's capture of the Flag did not end the match")
	}
	h.alice.SlashCommand(t, h.channel, "stratego history", discordtest.Opt("match", "1")).Wait(t)
	h.alice.SlashCommand(t, h.channel, "stratego record", discordtest.Opt("match", "1")).Wait(t)
	h.alice.SlashCommand(t, h.channel, "stratego stats").Wait(t)

	h.carol.SlashCommand(t, h.channel, "stratego practice", discordtest.Opt("level", "easy")).Reply(t)
	practice := h.carol.WaitDM(t, func(m *discordtest.Message) bool { return hasAction(m, actRandom) })
	preview = h.carol.ClickButton(t, practice, actButton(t, practice, actRandom)).Reply(t)
	h.carol.ClickButton(t, preview, actButton(t, preview, actConfirm)).Reply(t)
	h.carol.SlashCommand(t, h.channel, "stratego resign").Wait(t)
	h.bot.deliverDue(context.Background())
}

// playLongGamesInOneLanguage goes through what long games and a server's
// community use, after playInOneLanguage: an open challenge alice cannot
// take herself and bob takes, time given, a pause proposed and accepted with the DM's
// button and run out, a vacation begun and ended, a moderator's cancel; two
// seeks that pair, the queue shown, a moderator's award and a rematch
// offered; a tournament created, joined, left, shown and cancelled; a
// vacation during set-ups, and one refused once the server turns them off.
func (h *harness) playLongGamesInOneLanguage() {
	t := h.t
	t.Helper()
	day := 24 * time.Hour
	open := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("variant", "Barrage"),
		discordtest.Opt("move_time", "24h"), discordtest.Opt("side", "red")).Reply(t)
	h.alice.ClickButton(t, open, actButton(t, open, actTake)).Wait(t)
	h.bob.ClickButton(t, open, actButton(t, open, actTake)).Reply(t)
	id := h.randomSetups(3) // after the match and the practice game before

	match := discordtest.Opt("match", id)
	h.alice.SlashCommand(t, h.channel, "stratego give_time", match).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego pause", match, discordtest.Opt("days", 2)).Reply(t)
	h.bot.deliverDue(t.Context())
	ask := h.alice.WaitDM(t, func(m *discordtest.Message) bool {
		return hasAction(m, actDecline) && strings.Contains(m.Content, "#"+id)
	})
	h.alice.ClickButton(t, ask, ask.Buttons()[0].CustomID).Reply(t)
	h.advance(2*day + time.Minute)
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("end", true)).Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego games").Reply(t)
	h.carol.SlashCommand(t, h.channel, "stratego cancel", match, discordtest.Opt("reason", "test")).Reply(t)

	h.alice.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
	h.carol.SlashCommand(t, h.channel, "stratego seeks").Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
	id = h.randomSetups(4)
	h.carol.SlashCommand(t, h.channel, "stratego award", discordtest.Opt("match", id), discordtest.Opt("winner", h.alice),
		discordtest.Opt("reason", "test")).Reply(t)
	h.bot.deliverDue(t.Context())
	var finale *discordtest.Message
	h.srv.WaitFor(t, "the finale's Rematch button", func() bool {
		for _, m := range h.srv.ChannelMessages(h.channel) {
			if strings.Contains(m.Content, "#"+id) && rematchOn(m) != "" {
				finale = m
			}
		}
		return finale != nil
	})
	h.alice.ClickButton(t, finale, rematchOn(finale)).Reply(t)

	h.carol.SlashCommand(t, h.channel, "stratego tournament create", discordtest.Opt("name", "Club"),
		discordtest.Opt("format", "swiss"), discordtest.Opt("rounds", 3), discordtest.Opt("starts_in_hours", 24)).Reply(t)
	for _, m := range []*discordtest.Member{h.alice, h.bob} {
		m.SlashCommand(t, h.channel, "stratego tournament join").Reply(t)
	}
	h.bob.SlashCommand(t, h.channel, "stratego tournament leave").Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego tournament standings").Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego tournament list").Reply(t)
	h.carol.SlashCommand(t, h.channel, "stratego tournament cancel", discordtest.Opt("tournament", 1)).Reply(t)
	h.bot.deliverDue(t.Context())

	// A vacation while the set-ups are made moves their deadline, and bob is
	// told; then the server turns vacations off, and a vacation is refused.
	open = h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("variant", "Barrage"),
		discordtest.Opt("move_time", "24h"), discordtest.Opt("side", "red")).Reply(t)
	h.bob.ClickButton(t, open, actButton(t, open, actTake)).Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
	h.bot.deliverDue(t.Context())
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("end", true)).Reply(t)
	h.carol.SlashCommand(t, h.channel, "stratego server", discordtest.Opt("vacation_days", 0)).Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
	h.bot.deliverDue(t.Context())
}

// randomSetups has both players of match id (alice and bob) set up with the
// Random button of their invitations, and returns the id as an option value.
func (h *harness) randomSetups(id int) string {
	t := h.t
	t.Helper()
	title := "#" + strconv.Itoa(id)
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		invite := p.WaitDM(t, func(m *discordtest.Message) bool {
			return strings.Contains(m.Content, title) && hasAction(m, actRandom)
		})
		preview := p.ClickButton(t, invite, actButton(t, invite, actRandom)).Reply(t)
		p.ClickButton(t, preview, actButton(t, preview, actConfirm)).Reply(t)
	}
	h.srv.WaitFor(t, "match "+title+" to begin", func() bool { return h.match(storage.MatchID(id)).Phase == storage.PhasePlaying })
	return strconv.Itoa(id)
}

// rematchOn is the custom id of msg's Rematch button, "" without one.
func rematchOn(msg *discordtest.Message) string {
	for _, b := range msg.Buttons() {
		if id, err := parseCustomID(b.CustomID); err == nil && id.kind == kindRematch {
			return b.CustomID
		}
	}
	return ""
}

// hasAction reports whether msg has a button for action act.
func hasAction(msg *discordtest.Message, act string) bool {
	for _, b := range msg.Buttons() {
		if id, err := parseCustomID(b.CustomID); err == nil && id.action == act {
			return true
		}
	}
	return false
}

// actButton returns the custom id of msg's button for action act, whatever
// its label's language.
func actButton(t testing.TB, msg *discordtest.Message, act string) string {
	t.Helper()
	for _, b := range msg.Buttons() {
		if id, err := parseCustomID(b.CustomID); err == nil && id.action == act {
			return b.CustomID
		}
	}
	t.Fatalf("no %q button: %+v", act, msg.Buttons())
	return ""
}

// sentTexts returns every text the bot sent that a member reads: the
// strings of each request's body but identifiers, links and names of files,
// and the command it registers (its English names are Discord's defaults).
func sentTexts(t *testing.T, srv *discordtest.Server) []string {
	var out []string
	for _, r := range srv.Requests("") {
		if r.Method == "GET" || r.Method == "DELETE" || len(r.Body) == 0 || strings.Contains(r.Route, "/commands") {
			continue
		}
		var body any
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("%s: %v", r.Route, err)
		}
		out = append(out, stringsOf(body, "")...)
	}
	return out
}

// notText are the keys of a request body whose strings no member reads.
var notText = map[string]bool{"custom_id": true, "url": true, "id": true, "nonce": true, "filename": true,
	"content_type": true, "message_id": true, "channel_id": true, "guild_id": true, "value": true, "user_id": true}

func stringsOf(v any, key string) []string {
	switch v := v.(type) {
	case string:
		if notText[key] || v == "" {
			return nil
		}
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, stringsOf(e, key)...)
		}
		return out
	case map[string]any:
		var out []string
		for k, e := range v {
			out = append(out, stringsOf(e, k)...)
		}
		return out
	}
	return nil
}
