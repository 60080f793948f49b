package bot

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

func TestBetweenMoves(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)

	games := h.alice.SlashCommand(t, h.channel, "stratego games").Reply(t)
	if !strings.Contains(games.Content, "**#1** vs bob — Classic, you are Red — your move") || !strings.Contains(games.Content, "<t:") {
		t.Fatalf("games: %q", games.Content)
	}
	history := h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t)
	if !strings.Contains(history.Content, "1. Red A4-A5\n2. Blue J7-J6") {
		t.Fatalf("history: %q", history.Content)
	}
	notOver := h.bob.SlashCommand(t, h.channel, "stratego record", discordtest.Opt("match", "1")).Reply(t)
	if !strings.Contains(notOver.Content, "once the match is over") || len(notOver.Files) != 0 {
		t.Fatalf("record of a match in play: %q", notOver.Content)
	}

	// Settings: classic numbering, a saved set-up, then deleted.
	set := h.alice.SlashCommand(t, h.channel, "stratego settings", discordtest.Opt("numbering", "classic"),
		discordtest.Opt("reminders", false), discordtest.Opt("save_setup", "scout rush")).Reply(t)
	if !strings.Contains(set.Content, "numbering: classic (Marshal 1)") || !strings.Contains(set.Content, "reminders: off") || !strings.Contains(set.Content, "• scout rush — Classic") {
		t.Fatalf("settings: %q", set.Content)
	}
	choices := h.alice.Autocomplete(t, h.channel, "stratego settings", discordtest.Focused("delete_setup", "sc"))
	if len(choices) != 1 || choices[0].Value != "scout rush" {
		t.Fatalf("saved set-up choices %+v", choices)
	}
	// Alice's next board says ranks in classic numbering.
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A5"), discordtest.Opt("to", "A6")).Reply(t)
	h.bob.SendDM(t, "J6-J5")
	h.waitMoves(1, 4)
	h.alice.SendDM(t, "E4xE7")
	h.bob.WaitDM(t, contains("You lost"))
	record := h.bob.SlashCommand(t, h.channel, "stratego record").Reply(t)
	if len(record.Files) != 1 {
		t.Fatalf("record: %q with %d files", record.Content, len(record.Files))
	}
	rec, err := game.ParseGravon(bytes.NewReader(record.Files[0].Data))
	if err != nil || len(rec.Moves) != 5 || rec.Result != (game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}) {
		t.Fatalf("the record reads back as %d moves, %v (%v)", len(rec.Moves), rec.Result, err)
	}
	history = h.alice.SlashCommand(t, h.channel, "stratego history", discordtest.Opt("match", "1")).Reply(t)
	if !strings.Contains(history.Content, "5. Red E4xE7 Scout (9) captures the Flag") {
		t.Fatalf("final history in classic numbering: %q", history.Content)
	}
	rules := h.carol.SlashCommand(t, h.channel, "stratego rules", discordtest.Opt("variant", "Barrage")).Reply(t)
	if !strings.Contains(rules.Content, "**Barrage**: 1× Marshal (10), 1× General (9), 1× Miner (3), 2× Scout (2), 1× Spy, 1× Bomb, 1× Flag") {
		t.Fatalf("rules: %q", rules.Content)
	}
	del := h.alice.SlashCommand(t, h.channel, "stratego settings", discordtest.Opt("delete_setup", "scout rush")).Reply(t)
	if !strings.Contains(del.Content, "No saved set-ups") {
		t.Fatalf("after deleting: %q", del.Content)
	}
}

// TestHelpShowsTheKey: /stratego help lists the commands and explains the
// pictures' symbols with the key, a picture with its alt text, in the
// member's numbering.
func TestHelpShowsTheKey(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.alice.SlashCommand(t, h.channel, "stratego settings", discordtest.Opt("numbering", "classic")).Reply(t)
	for _, tc := range []struct {
		who  *discordtest.Member
		rank string // the Marshal's label in their numbering
	}{{h.alice, "1 Marshal"}, {h.bob, "10 Marshal"}} {
		help := tc.who.SlashCommand(t, h.channel, "stratego help").Reply(t)
		if !help.Ephemeral || !strings.Contains(help.Content, "/stratego watch") || len(help.Files) != 1 || help.Files[0].Name != "key.png" {
			t.Fatalf("%s's help: %q with %d files", tc.who.Name, help.Content, len(help.Files))
		}
		if d := help.Files[0].Description; !strings.Contains(d, "White dot") || !strings.Contains(d, tc.rank) {
			t.Errorf("%s's key has the alt text %q; want the symbols and %q", tc.who.Name, d, tc.rank)
		}
	}
}

// TestGlobalCommandDropsGuildCopy: a start with guild_id registered the
// command in one server alone; back to global registration, the bot removes
// that server's own copy, so that its members do not see /stratego twice,
// and says so in its log. A server without a copy is only asked, never
// written to; and each server is asked once, not at every start: the next
// start asks none (with many servers, a list of each at every start was
// that many requests, and Discord's global rate limit met).
func TestGlobalCommandDropsGuildCopy(t *testing.T) {
	t.Parallel()
	var log logLines
	h := newHarness(t, log.capture)
	h.shutdown()
	another := h.srv.AddGuild("Another Club")
	h.cfg.GuildID = h.guild.ID // a start registers the command in the server alone
	h.start()
	if len(h.srv.Commands(h.guild)) != 1 {
		t.Fatalf("the start with guild_id registered %+v in the server", h.srv.Commands(h.guild))
	}
	h.shutdown()
	h.cfg.GuildID = ""
	const put, list = "PUT /applications/{application_id}/guilds/{guild_id}/commands", "GET /applications/{application_id}/guilds/{guild_id}/commands"
	puts, lists := len(h.srv.Requests(put)), len(h.srv.Requests(list))

	h.start()
	h.srv.WaitFor(t, "the server's own copy of the command to go", func() bool { return len(h.srv.Commands(h.guild)) == 0 })
	log.waitFor(h, "removed the server's own copy of the command")
	h.srv.WaitFor(t, "both servers' commands to be looked at", func() bool {
		return len(h.srv.Requests(list))-lists >= 2
	})
	if got := h.srv.Commands(nil); len(got) != 1 || got[0].Name != commandName {
		t.Errorf("global commands: %+v; want /%s alone", got, commandName)
	}
	if n := len(h.srv.Requests(put)) - puts; n != 1 {
		t.Errorf("%d servers' commands were rewritten; want the one with a copy", n)
	}
	if n := len(h.srv.Requests(list)) - lists; n != 2 {
		t.Errorf("the servers' commands were listed %d times; want once each", n)
	}
	h.alice.SlashCommand(t, h.channel, "stratego help").Reply(t)

	// Both servers were looked at: the next start asks Discord about
	// neither, also once their GUILD_CREATE came.
	h.shutdown()
	puts, lists = len(h.srv.Requests(put)), len(h.srv.Requests(list))
	h.start()
	h.srv.WaitFor(t, "both servers to be seen", func() bool {
		_, one := h.bot.guildsSwept.Load(h.guild.ID)
		_, other := h.bot.guildsSwept.Load(another.ID)
		return one && other
	})
	h.alice.SlashCommand(t, h.channel, "stratego help").Reply(t)
	h.shutdown() // waits for the handlers, the look at the servers too
	if n := len(h.srv.Requests(list)) - lists; n != 0 {
		t.Errorf("a start after both servers were looked at listed their commands %d times; want none", n)
	}
	if n := len(h.srv.Requests(put)) - puts; n != 0 {
		t.Errorf("a start after both servers were looked at rewrote their commands %d times; want none", n)
	}
}

// TestGuildCopyNotedDespiteTrouble: a start with guild_id whose note that
// the server is to be looked at again (CommandChecked cleared) fails to be
// recorded registers nothing there until it is: it says so in its log and
// tries again. The next global start then removes the server's copy;
// registered while the note of the last global start stood, the copy was
// never looked for, and members saw /stratego twice.
func TestGuildCopyNotedDespiteTrouble(t *testing.T) {
	t.Parallel()
	var log logLines
	h := newHarness(t, log.capture)
	h.shutdown()
	h.cfg.GuildID = h.guild.ID
	h.failServerUpdates = 1
	h.start()
	if !strings.Contains(log.String(), "not registering it there until noted") {
		t.Errorf("the log does not say the note failed and the copy waits for it:\n%s", log.String())
	}
	if len(h.srv.Commands(h.guild)) != 1 {
		t.Fatalf("the start with guild_id registered %+v in the server", h.srv.Commands(h.guild))
	}
	if s, err := h.db.Server(context.Background(), h.guild.ID); err != nil || s.CommandChecked {
		t.Fatalf("the server's copy is registered, and the server noted as checked (%v)", err)
	}
	h.shutdown()
	h.cfg.GuildID, h.failServerUpdates = "", 0
	h.start()
	h.srv.WaitFor(t, "the server's own copy of the command to go", func() bool { return len(h.srv.Commands(h.guild)) == 0 })
}

// TestStartWritesCommandsOnlyWhenChanged: a start lists the commands
// Discord has and writes them only when they differ from the bot's: a
// restart with the same commands makes one request, the list, and no
// write; commands an older version registered (a description, an option
// less) are written once, and are the bot's again. The same in the server
// guild_id names.
func TestStartWritesCommandsOnlyWhenChanged(t *testing.T) {
	t.Parallel()
	for _, guildScope := range []bool{false, true} {
		t.Run(map[bool]string{false: "global", true: "guild_id"}[guildScope], func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			scope, put, list, guild := "", registerRoute, listRoute, (*discordtest.Guild)(nil)
			if guildScope {
				h.shutdown()
				h.cfg.GuildID, scope, guild = h.guild.ID, h.guild.ID, h.guild
				put = "PUT /applications/{application_id}/guilds/{guild_id}/commands"
				list = "GET /applications/{application_id}/guilds/{guild_id}/commands"
				h.start()
			}
			if n := len(h.srv.Requests(put)); n != 1 {
				t.Fatalf("a first start on no commands wrote them %d times; want once", n)
			}
			restart := func() (puts, lists int) {
				h.shutdown()
				p, l := len(h.srv.Requests(put)), len(h.srv.Requests(list))
				h.start()
				return len(h.srv.Requests(put)) - p, len(h.srv.Requests(list)) - l
			}
			if puts, lists := restart(); puts != 0 || lists != 1 {
				t.Errorf("a restart with the same commands: %d writes, %d lists; want none, and one", puts, lists)
			}
			older := Commands()
			older[0].Description = "Play Stratego"
			older[0].Options = older[0].Options[1:]
			if _, err := h.srv.NewSession(t).ApplicationCommandBulkOverwrite(h.srv.AppID(), scope, older); err != nil {
				t.Fatal(err)
			}
			if puts, lists := restart(); puts != 1 || lists != 1 {
				t.Errorf("a restart on an older version's commands: %d writes, %d lists; want one of each", puts, lists)
			}
			if !sameCommands(h.srv.Commands(guild), Commands()) {
				t.Errorf("after the restart, Discord has %+v; want the bot's commands", h.srv.Commands(guild))
			}
			h.alice.SlashCommand(t, h.channel, "stratego help").Reply(t)
		})
	}
}

// TestRestartAsksNoServer: with many servers, the first start with the
// command global lists each server's commands once (Discord's global rate
// limit on, as on Discord); a restart lists none of them, and meets no 429:
// every start listed them all, hundreds of requests at once, some refused
// by the global limit and counted among the invalid requests for which
// Discord bans a bot.
func TestRestartAsksNoServer(t *testing.T) {
	t.Parallel()
	h := newHarnessOn(t, []discordtest.Option{discordtest.WithGlobalRateLimit(discordtest.GlobalRequestsPerSecond)})
	const servers = 150
	h.shutdown()
	guilds := []*discordtest.Guild{h.guild}
	for k := range servers {
		guilds = append(guilds, h.srv.AddGuild(fmt.Sprintf("Club %d", k)))
	}
	const list = "GET /applications/{application_id}/guilds/{guild_id}/commands"
	restart := func() (lists, limited int) {
		h.shutdown()
		before := len(h.srv.Requests(list))
		h.start()
		// Seen, and noted as looked at: a look still under way when the
		// bot stops is cut, and the next start looks again.
		h.srv.WaitFor(t, "every server seen and noted", func() bool {
			for _, g := range guilds {
				if _, ok := h.bot.guildsSwept.Load(g.ID); !ok {
					return false
				}
				if s, err := h.db.Server(context.Background(), g.ID); err != nil || !s.CommandChecked {
					return false
				}
			}
			return true
		})
		h.shutdown() // waits for the handlers, the look at the servers too
		for _, r := range h.srv.Requests(list)[before:] {
			lists++
			if r.Status == http.StatusTooManyRequests {
				limited++
			}
		}
		return lists, limited
	}
	if lists, _ := restart(); lists < servers {
		t.Fatalf("the first start listed %d servers' commands; want each of the %d new ones", lists, servers)
	}
	if lists, limited := restart(); lists != 0 || limited != 0 {
		t.Errorf("a restart listed servers' commands %d times (%d refused by the global rate limit); want none", lists, limited)
	}
}

// TestMatchTypedAsListed: a member who types the match option as the list
// of matches offers it ("#1 vs bob (Classic) — your move") rather than
// choosing it gets that match, by a command of their own matches as by one
// of the server's: both read a match number by storage.ParseMatchID.
// Before, the commands of a member's own matches refused it as no match
// number, while /stratego watch took it.
func TestMatchTypedAsListed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic() // #1: alice against bob
	h.waitMoves(1, 0)
	choices := h.alice.Autocomplete(t, h.channel, "stratego history", discordtest.Focused(optMatch, ""))
	if len(choices) != 1 || !strings.HasPrefix(choices[0].Name, "#1 ") {
		t.Fatalf("alice's matches offered: %+v", choices)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego history", discordtest.Opt(optMatch, choices[0].Name)).Reply(t); !strings.Contains(got.Content, "Match #1") {
		t.Errorf("alice's history of %q: %q", choices[0].Name, got.Content)
	}
	choices = h.carol.Autocomplete(t, h.channel, "stratego watch", discordtest.Focused(optMatch, ""))
	if len(choices) != 1 || !strings.HasPrefix(choices[0].Name, "#1 ") {
		t.Fatalf("matches offered to watch: %+v", choices)
	}
	if got := h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt(optMatch, choices[0].Name)).Reply(t); strings.Contains(got.Content, "Name the match by its number") {
		t.Errorf("carol watching %q: %q", choices[0].Name, got.Content)
	}
}
